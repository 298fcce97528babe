#line 1079 "book/10-position.nw"
/* 图：64 个位置、d = 64 的正弦位置编码两两的点积，每行 “位置 q 位置 p 点积” */
#include "attn.h"

#include <stdio.h>

int main(void)
{
    enum { N = 64, D = 64 };
    static float pe[N * D];
    if (attn_positions_sinusoidal(pe, N, D) != ATTN_OK)
        return 1;
    for (size_t p = 0; p < N; p++)
        for (size_t q = 0; q < N; q++) {
            float dot;
            if (attn_dot(pe + p * D, pe + q * D, D, &dot) != ATTN_OK)
                return 1;
            printf("%zu %zu %.4f\n", q, p, dot);
        }
    return 0;
}
