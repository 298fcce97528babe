#line 1310 "book/05-mask.nw"
/* 图：n_q = 3、n_k = 4 时的两种因果对齐。两块（空两行分开），每行 “键 查询 可见”：
   块 0 左上角对齐（j <= i），块 1 本书的右下角对齐（attn_sdpa 的权重 > 0） */
#include "attn.h"

#include <stdio.h>

int main(void)
{
    enum { NQ = 3, NK = 4 };
    float q[NQ] = {1, 1, 1}, k[NK] = {1, 1, 1, 1}, v[NK] = {0, 0, 0, 0}, out[NQ], w[NQ * NK];
    if (attn_sdpa(q, k, v, NQ, NK, 1, 1, 0.0f, NULL, 1, out, w) != ATTN_OK)
        return 1;
    for (int i = 0; i < NQ; i++)
        for (int j = 0; j < NK; j++)
            printf("%d %d %d\n", j, i, j <= i);
    printf("\n\n");
    for (int i = 0; i < NQ; i++)
        for (int j = 0; j < NK; j++)
            printf("%d %d %d\n", j, i, w[i * NK + j] > 0.0f);
    return 0;
}
