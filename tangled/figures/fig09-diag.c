#line 2382 "book/09-fast.nw"
/* 对角线的图 的数据：96 行（键 96..191）、每行 192 个数（查询 0..191）的类别，给 gnuplot 的 matrix。 */
#include <stdio.h>

#include "../examples/ch09.h"

int main(void)
{
    for (size_t c = 0; c < 96; c++)
        for (size_t x = 0; x < 192; x++)
            printf("%d%c", ch09_diag_class(c, x), x + 1 < 192 ? ' ' : '\n');
    return 0;
}
