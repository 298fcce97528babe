#line 2366 "book/09-fast.nw"
/* 图 9.2 的数据：attn-bench 的测量记录（GFLOP/s，d = 64，4 个头，每点取多次测量中最好的）。
   机器：Intel Xeon（KVM 虚拟机），2 核，AVX-512；测量时机器上还有别的任务。负数表示没有测（参考实现太慢）。 */
#include <stdio.h>

int main(void)
{
    /* n，参考实现，快速路径 1 线程，1 线程因果，2 线程 */
    static const double rows[][5] = {
        {256, 0.78, 44.90, 62.03, 6.28},
        {512, 0.72, 70.52, 96.74, 31.30},
        {1024, 2.25, 94.46, 142.94, 63.30},
        {2048, -1, 107.79, 180.58, 89.48},
        {4096, -1, 112.67, 199.24, 110.80},
        {8192, -1, 112.01, 167.54, 120.14},
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
