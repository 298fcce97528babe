#line 1285 "book/05-mask.nw"
/* 图 5.1 的数据：6 个位置的因果注意力模式，每行一个 "查询 键 权重"。 */
#include "attn.h"

#include <stdio.h>

#include "../examples/ch05.h"

int main(void)
{
    enum { N = KVF_N, D = KVF_DK };
    float q[N * D], k[N * D], v[N], out[N], w[N * N];
    if (causal_example(q, k, v) != ATTN_OK ||
        attn_sdpa(q, k, v, N, N, D, 1, 0.0f, NULL, 1, out, w) != ATTN_OK)
        return 1;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++)
            printf("%zu %zu %.4f\n", i, j, w[i * N + j]);
    return 0;
}
