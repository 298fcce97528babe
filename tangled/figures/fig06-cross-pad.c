#line 575 "book/06-cross.nw"
/* 图：补了两个 pad 的玩具翻译，不用掩码（第 0 块）与用掩码（第 1 块）。每行 “键 查询 权重” */
#include "attn.h"

#include <stdio.h>

#include "../examples/ch06.h"

int main(void)
{
    enum { NP = 2, NKP = TR_NK + NP };
    float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV];
    float kp[NKP * TR_DK], vp[NKP * TR_DV], out[TR_NQ * TR_DV], w[TR_NQ * NKP];
    unsigned char mask[TR_NQ * NKP];
    translation_example(6.0f, q, k, v);
    pad_source(k, v, NP, kp, vp);
    if (attn_padding_mask(TR_NQ, NKP, TR_NK, mask) != ATTN_OK)
        return 1;
    for (int masked = 0; masked < 2; masked++) {
        if (attn_sdpa(q, kp, vp, TR_NQ, NKP, TR_DK, TR_DV, 0.0f, masked ? mask : NULL, 0,
                      out, w) != ATTN_OK)
            return 1;
        for (size_t i = 0; i < TR_NQ; i++)
            for (size_t j = 0; j < NKP; j++)
                printf("%zu %zu %.4f\n", j, i, w[i * NKP + j]);
        printf("\n\n");
    }
    return 0;
}
