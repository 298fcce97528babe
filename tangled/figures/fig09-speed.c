#line 2371 "book/09-fast.nw"
/* 图 9.2 的数据：attn-bench 的测量记录（GFLOP/s，d = 64，4 个头，每点取多次测量中最好的）。
   机器：Intel Xeon（KVM 虚拟机），2 核，AVX-512；测量时机器空闲。负数表示没有测（参考实现太慢）。 */
#include <stdio.h>

int main(void)
{
    /* n，参考实现，快速路径 1 线程，1 线程因果，2 线程 */
    static const double rows[][5] = {
        {256, 2.31, 93.92, 100.24, 143.76},
        {512, 2.33, 108.60, 185.49, 212.27},
        {1024, 2.23, 118.97, 216.05, 203.00},
        {2048, -1, 112.63, 229.22, 227.33},
        {4096, -1, 123.52, 239.40, 244.65},
        {8192, -1, 125.63, 246.39, 246.86},
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
