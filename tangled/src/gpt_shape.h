#line 1817 "book/11-block.nw"
/* src/gpt_shape.h — 第 11 章的模型形状检查和块的前向（库内部用）。 */
#ifndef ATTN_GPT_SHAPE_H
#define ATTN_GPT_SHAPE_H

#include "attn.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

/* 配置能建成本章的模型时返回 1，并在 *count 里给出参数个数 */
static inline int attn_gpt_shape_ok(const attn_gpt_config *cfg, size_t *count)
{
    attn_param_breakdown b;
    if (cfg == NULL || attn_count_params(cfg, &b) != ATTN_OK)
        return 0;
    if (!cfg->biases || !cfg->layer_norms || !cfg->learned_positions || !cfg->tied)
        return 0;
    if (cfg->n_heads * cfg->d_head != cfg->d_model)   /* count_params 已查过乘积不溢出 */
        return 0;
    if (b.total > SIZE_MAX / sizeof(float) || cfg->vocab > (uint64_t)INT_MAX)
        return 0;
    *count = (size_t)b.total;
    return 1;
}

/* m 是 init 或 bind 成功建好的模型时返回 1 */
static inline int attn_gpt_ready(const attn_gpt *m)
{
    size_t count;
    return m != NULL && m->params != NULL && m->layers != NULL &&
           attn_gpt_shape_ok(&m->cfg, &count) && count == m->n_params;
}

/* tokens[n] 每个都在词表里时返回 1 */
static inline int gpt_tokens_ok(const attn_gpt *m, const int *tokens, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tokens[i] < 0 || (uint64_t)tokens[i] >= m->cfg.vocab)
            return 0;
    return 1;
}

/* 一个块的前向（src/gpt.c）：整个模型、逐词解码和第 12 章的训练共用 */
#line 738 "book/11-block.nw"
/* 一个块的前向留下的中间结果（R 行），和两块临时 */
typedef struct gpt_acts {
    float *x0, *a1;          /* 这一层的输入（残差流）和 LN1 的输出：R×d */
    float *x1, *a2;          /* 加上注意力之后的残差流和 LN2 的输出：R×d */
    float *q, *k, *v;        /* 按头排开：[n_seq][H][n][dh] */
    float *att;              /* 各头的输出拼回来：R×hd */
    float *h, *g;            /* GELU 之前和之后：R×ff */
    float *wide, *oh;        /* 临时：R×max(d_ff, hd)，按头排开的 R×hd */
} gpt_acts;
#line 660 "book/11-block.nw"
/* n_seq 句、每句 n 个位置，H 个头、每头 d_h 维 */
typedef struct {
    size_t n_seq, n, H, dh;
} gpt_heads;

/* x[R×hd] → y[n_seq][H][n][dh] */
static inline void gpt_heads_split(const float *x, float *y, const gpt_heads *s)
{
    for (size_t q = 0; q < s->n_seq; q++)
        for (size_t h = 0; h < s->H; h++)
            for (size_t i = 0; i < s->n; i++)
                memcpy(y + ((q * s->H + h) * s->n + i) * s->dh,
                       x + (q * s->n + i) * s->H * s->dh + h * s->dh,
                       s->dh * sizeof *y);
}

/* 反过来：y[n_seq][H][n][dh] → x[R×hd] */
static inline void gpt_heads_join(const float *y, float *x, const gpt_heads *s)
{
    for (size_t q = 0; q < s->n_seq; q++)
        for (size_t h = 0; h < s->H; h++)
            for (size_t i = 0; i < s->n; i++)
                memcpy(x + (q * s->n + i) * s->H * s->dh + h * s->dh,
                       y + ((q * s->H + h) * s->n + i) * s->dh,
                       s->dh * sizeof *x);
}
#line 1863 "book/11-block.nw"
/* x0 以外的中间结果，R 行要几个 float；字节数溢出时为 0 */
size_t gpt_acts_floats(const attn_gpt_config *c, size_t R);
/* 从 p 起依次划出 R 行的中间结果；x0 为 NULL，由调用者指定 */
gpt_acts gpt_acts_carve(const attn_gpt_config *c, size_t R, float *p);
int gpt_block_forward(const attn_gpt *m, size_t layer, size_t n_seq, size_t n,
                      float scale, const gpt_acts *A, attn_kv_cache *caches,
                      float *weights, float *x_out);
/* attn_gpt_embed、attn_gpt_logits 查过参数以后做的事（h 是 n×d 的临时） */
void gpt_embed(const attn_gpt *m, const int *tokens, size_t n, size_t pos0, float *x);
int gpt_logits(const attn_gpt *m, const float *x, size_t n, float *h, float *logits);

#endif
