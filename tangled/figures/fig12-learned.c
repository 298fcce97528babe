#line 2488 "book/12-learning.nw"
/* 图 12.2 的数据：两块（以两个空行分开），每行 "查询 键 权重"，第 0 层最看重颜色的那个头 */
#include "attn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/fluffy_task.h"

#line 2399 "book/12-learning.nw"
/* w[(layer·n_heads + head)·n·n + i·n + j]：第 layer 层第 head 个头，查询 i 对键 j 的权重。n ≤ 8 */
static void fluffy_patterns(const attn_gpt *m, const int *tok, size_t n, float *w)
{
    size_t d = (size_t)m->cfg.d_model, H = (size_t)m->cfg.n_heads;
    size_t dh = (size_t)m->cfg.d_head, hd = H * dh;
    float x[8 * 32], a[8 * 32], q[8 * 32], k[8 * 32], qh[8 * 32], kh[8 * 32], o[8 * 32];
    attn_gpt_embed(m, tok, n, 0, x);
    for (size_t l = 0; l < (size_t)m->cfg.n_layers; l++) {
        const attn_gpt_layer *L = &m->layers[l];
        attn_layernorm(x, L->ln1_g, L->ln1_b, a, n, d, 1e-5f);
        attn_linear(a, L->w_q, L->b_q, q, n, d, hd);
        attn_linear(a, L->w_k, L->b_k, k, n, d, hd);
        for (size_t h = 0; h < H; h++) {
            for (size_t i = 0; i < n; i++) {
                memcpy(qh + i * dh, q + i * hd + h * dh, dh * sizeof *q);
                memcpy(kh + i * dh, k + i * hd + h * dh, dh * sizeof *k);
            }
            attn_sdpa(qh, kh, kh, n, n, dh, dh, 0.0f, NULL, 1, o, w + (l * H + h) * n * n);
        }
        attn_gpt_block(m, l, x, n);
    }
}

#line 2426 "book/12-learning.nw"
static void fluffy_colour_share(const attn_gpt *m, size_t layer, size_t head,
                                double *col, double *tex, double *low)
{
    float w[2 * 2 * 16];
    const float *row = w + (layer * (size_t)m->cfg.n_heads + head) * 16 + 12;
    *col = *tex = 0;
    *low = 1;
    for (int s = 0; s < 128; s++) {
        int tok[FL_LEN], cp = s < 64 ? 2 : 1;     /* 颜色的位置 */
        fluffy_sentence(s, tok);
        fluffy_patterns(m, tok, 4, w);
        *col += row[cp] / 128.0;
        *tex += row[3 - cp] / 128.0;
        if (row[cp] < *low) *low = row[cp];
    }
}
#line 2447 "book/12-learning.nw"
/* 第 layer 层里，名词的查询平均给颜色最多的那个头 */
static size_t fluffy_colour_head(const attn_gpt *m, size_t layer)
{
    size_t best = 0;
    double top = -1, col, tex, low;
    for (size_t h = 0; h < (size_t)m->cfg.n_heads; h++) {
        fluffy_colour_share(m, layer, h, &col, &tex, &low);
        if (col > top) {
            top = col;
            best = h;
        }
    }
    return best;
}

#line 2501 "book/12-learning.nw"
int main(void)
{
    fluffy_trainer T;
    if (fluffy_init(&T, 1, 1) != ATTN_OK)
        return 1;
    for (int s = 0; s < 2000; s++)
        fluffy_step(&T, NULL);
    size_t head = fluffy_colour_head(&T.m, 0);
    const int sent[2] = {0, 64};       /* fluffy blue creature；blue fluffy creature */
    for (int e = 0; e < 2; e++) {
        int tok[FL_LEN];
        float w[2 * 2 * 16];
        fluffy_sentence(sent[e], tok);
        fluffy_patterns(&T.m, tok, 4, w);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                printf("%d %d %.4f\n", i, j, w[head * 16 + i * 4 + j]);
        if (e == 0) printf("\n\n");
    }
    fluffy_free(&T);
    return 0;
}
