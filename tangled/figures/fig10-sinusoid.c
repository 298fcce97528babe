#line 1102 "book/10-position.nw"
/* 图 10.1 的数据：100 个位置、d = 64 的正弦位置编码，每行 "维度 位置 值"。 */
#include "attn.h"

#include <stdio.h>

int main(void)
{
    enum { N = 100, D = 64 };
    static float pe[N * D];
    if (attn_positions_sinusoidal(pe, N, D) != ATTN_OK)
        return 1;
    for (size_t p = 0; p < N; p++)
        for (size_t i = 0; i < D; i++)
            printf("%zu %zu %.4f\n", i, p, pe[p * D + i]);
    return 0;
}
