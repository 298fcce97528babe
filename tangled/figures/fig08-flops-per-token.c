#line 1095 "book/08-params.nw"
/* 图：GPT-2 small 每个词的计算量。第 0 块每行 “N 注意力 矩阵 矩阵加反嵌入”（FLOP），
   第 1 块每行 “分界的 N” */
#include "attn.h"

#include <stdio.h>

int main(void)
{
    attn_gpt_config c;
    if (attn_gpt_preset("gpt2-small", &c) != ATTN_OK)
        return 1;
    double d = (double)c.d_model, L = (double)c.n_layers, hd = (double)(c.n_heads * c.d_head);
    double matrices = 2.0 * L * (4.0 * d * hd + 2.0 * d * (double)c.d_ff);
    double unembed = 2.0 * d * (double)c.vocab;
    for (uint64_t n = 128; n <= 65536; n += n / 8) {
        uint64_t flops;
        if (attn_attention_flops(&c, n, &flops) != ATTN_OK)
            return 1;
        printf("%llu %.6g %.6g %.6g\n", (unsigned long long)n, (double)flops / (double)n,
               matrices, matrices + unembed);
    }
    printf("\n\n%.1f\n%.1f\n", matrices / (4.0 * d * L), (matrices + unembed) / (4.0 * d * L));
    return 0;
}
