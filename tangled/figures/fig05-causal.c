#line 1104 "book/05-mask.nw"
/* 图 5.1 的数据：6 个位置的因果注意力模式，每行一个 "查询 键 权重"。 */
#include "attn.h"

#include <stdio.h>

int main(void)
{
    enum { N = 6, D = 8 };
    float q[N * D], k[N * D], v[N], out[N], w[N * N];
    attn_rng r;
    attn_rng_seed(&r, 5);
    attn_rng_normal(&r, q, N * D);
    attn_rng_normal(&r, k, N * D);
    attn_rng_normal(&r, v, N);
    if (attn_sdpa(q, k, v, N, N, D, 1, 0.0f, NULL, 1, out, w) != ATTN_OK)
        return 1;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++)
            printf("%zu %zu %.4f\n", i, j, w[i * N + j]);
    return 0;
}
