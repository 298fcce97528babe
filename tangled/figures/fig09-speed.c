#line 2458 "book/09-fast.nw"
/* 速度的图 的数据：examples/ch09.h 里的测量记录，每行 n 和四个 GFLOP/s；没有测的写 ?。 */
#include <stdio.h>

#include "../examples/ch09.h"

int main(void)
{
    printf("# n reference fast_1thread fast_causal_1thread fast_2threads\n");
    for (size_t i = 0; i < CH09_SPEED_ROWS; i++) {
        const double *row = ch09_speed(i);
        printf("%.0f", row[0]);
        for (int c = 1; c < 5; c++)
            row[c] < 0 ? printf(" ?") : printf(" %.2f", row[c]);
        printf("\n");
    }
    return 0;
}
