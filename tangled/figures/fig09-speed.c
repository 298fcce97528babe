#line 2332 "book/09-fast.nw"
/* 图 9.1 的数据：attn-bench 的测量记录（GFLOP/s，d = 64，4 个头，每点取多次测量中最好的）。
   机器：AMD EPYC（KVM 虚拟机），2 核，AVX2。负数表示没有测（参考实现太慢）。 */
#include <stdio.h>

int main(void)
{
    /* n，参考实现，快速路径 1 线程，1 线程因果，2 线程 */
    static const double rows[][5] = {
        {256, 4.55, 48.23, 50.61, 88.46},
        {512, 4.53, 53.94, 68.87, 104.57},
        {1024, 4.51, 54.87, 84.67, 102.87},
        {2048, 4.57, 55.33, 94.83, 107.96},
        {4096, -1, 55.60, 103.34, 108.53},
        {8192, -1, 55.06, 106.71, 106.76},
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
