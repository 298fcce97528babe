#line 1190 "book/07-multihead.nw"
#include "attn.h"

#include <math.h>
#include <stdio.h>

#include "../examples/ch07.h"

int main(void)
{
    float x[SENT_N * SENT_D], wq[SENT_D * SENT_DC], wk[SENT_D * SENT_DC];
    float wv[SENT_D * SENT_DC], wo[SENT_DC * SENT_D], bq[SENT_DC], p[SENT_N * SENT_N];
    sent_embed(x);
    sent_heads(6.0f, wq, wk, wv, wo, bq);
    attn_mha_weights w = {SENT_D, SENT_H, SENT_DH, wq, wk, wv, wo, bq, NULL, NULL, NULL};
    printf("#");
    for (size_t j = 0; j < SENT_N; j++)
        printf(" %s", sent_words[j]);
    printf("\n");
    /* 每个头一块：每行 “键 查询 权重”，一个查询一段，块与块之间空两行 */
    for (size_t h = 0; h < SENT_H; h++) {
        if (attn_mha_pattern(&w, x, SENT_N, x, SENT_N, NULL, 1, h, p) != ATTN_OK)
            return 1;
        for (size_t i = 0; i < SENT_N; i++) {
            for (size_t j = 0; j < SENT_N; j++)
                printf("%zu %zu %.4f\n", j, i, p[i * SENT_N + j]);
            printf("\n");
        }
        printf("\n");
    }
    return 0;
}
