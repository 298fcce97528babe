#line 2358 "book/09-fast.nw"
/* 图 9.1 的数据：attn-bench 的测量记录（GFLOP/s，d = 64，4 个头，每点取多次测量中最好的）。
   机器：Intel Xeon（KVM 虚拟机），2 核，AVX-512；测量时机器上还有别的任务。负数表示没有测（参考实现太慢）。 */
#include <stdio.h>

int main(void)
{
    /* n，参考实现，快速路径 1 线程，1 线程因果，2 线程 */
    static const double rows[][5] = {
        {256, 0.72, 52.38, 61.46, 12.05},
        {512, 0.63, 38.18, 39.25, 7.21},
        {1024, 0.60, 33.51, 38.47, 17.19},
        {2048, -1, 25.57, 53.47, 25.57},
        {4096, -1, 30.12, 58.52, 29.09},
        {8192, -1, 23.95, 42.33, 27.04},
    };
    printf("# n reference fast_1thread fast_causal_1thread fast_2threads\n");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        printf("%.0f", rows[i][0]);
        for (int c = 1; c < 5; c++)
            rows[i][c] < 0 ? printf(" ?") : printf(" %.2f", rows[i][c]);
        printf("\n");
    }
    return 0;
}
