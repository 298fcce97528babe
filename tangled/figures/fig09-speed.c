#line 1373 "book/09-fast.nw"
/* 图 9.1 的数据：attn-bench 的一次测量记录（GFLOP/s，d = 64，4 个头，每点取 3 次中最好的）。
   机器：AMD EPYC（KVM 虚拟机），2 核，AVX2。负数表示没有测（参考实现太慢）。 */
#include <stdio.h>

int main(void)
{
    /* n，参考实现，快速路径 1 线程，1 线程因果，2 线程 */
    static const double rows[][5] = {
        {256, 1.34, 47.39, 49.81, 3.09},
        {512, 1.59, 41.40, 67.11, 13.25},
        {1024, 2.39, 32.27, 78.06, 33.56},
        {2048, 2.46, 27.66, 48.75, 24.58},
        {4096, -1, 30.23, 87.01, 25.44},
        {8192, -1, 22.60, 33.75, 18.80},
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
