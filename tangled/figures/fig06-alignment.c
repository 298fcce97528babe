#line 608 "book/06-cross.nw"
#include "attn.h"

#include <stdio.h>

#include "../examples/ch06.h"

int main(void)
{
    float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV];
    float out[TR_NQ * TR_DV], w[TR_NQ * TR_NK];
    translation_example(6.0f, q, k, v);
    if (attn_sdpa(q, k, v, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, 0, out, w) != ATTN_OK)
        return 1;
    /* 每行 “键 查询 权重”，一个查询一段 */
    printf("# 查询: %s %s %s %s\n", tr_tgt[0], tr_tgt[1], tr_tgt[2], tr_tgt[3]);
    printf("# 键: %s %s %s %s %s\n", tr_src[0], tr_src[1], tr_src[2], tr_src[3], tr_src[4]);
    for (size_t i = 0; i < TR_NQ; i++) {
        for (size_t j = 0; j < TR_NK; j++)
            printf("%zu %zu %.4f\n", j, i, w[i * TR_NK + j]);
        printf("\n");
    }
    return 0;
}
