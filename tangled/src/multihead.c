#line 173 "book/07-multihead.nw"
#include "attn.h"
#include "attn_core.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>

#line 598 "book/07-multihead.nw"
/* 检查指针、维度和所有缓冲区的字节数；成功时 *d_cat = n_heads·d_head。 */
static int mha_check(const attn_mha_weights *w, const float *x_q, size_t n_q,
                     const float *x_kv, size_t n_kv, size_t *d_cat)
{
    size_t bytes, n_all;
    if (w == NULL || x_q == NULL || x_kv == NULL)
        return ATTN_EINVAL;
    if (w->w_q == NULL || w->w_k == NULL || w->w_v == NULL || w->w_o == NULL)
        return ATTN_EINVAL;
    if (w->d_model == 0 || w->n_heads == 0 || w->d_head == 0 || n_q == 0 || n_kv == 0)
        return ATTN_EINVAL;
    if (__builtin_mul_overflow(w->n_heads, w->d_head, d_cat) ||
        !attn_bytes2(&bytes, w->d_model, *d_cat) ||
        !attn_bytes2(&bytes, n_q, w->d_model) || !attn_bytes2(&bytes, n_kv, w->d_model) ||
        !attn_bytes2(&bytes, n_q, n_kv) ||
        __builtin_add_overflow(n_q, n_kv, &n_all) || !attn_bytes3(&bytes, 2, n_all, *d_cat))
        return ATTN_EINVAL;
    return ATTN_OK;
}

#line 624 "book/07-multihead.nw"
struct mha_scratch {
    void *mem;             /* 一次分配：注意力核心的工作区在前，下面四个矩阵在后 */
    float *qa, *ka, *va;   /* 所有头的投影：qa[n_q][d_cat]，ka、va[n_kv][d_cat] */
    float *cat;            /* 拼接矩阵 cat[n_q][d_cat] */
};

/* core 个字节的工作区，再加 2·(n_q + n_kv)·d_cat 个 float（mha_check 已经检查过它的字节数） */
static int mha_scratch_alloc(struct mha_scratch *s, size_t n_q, size_t n_kv, size_t d_cat,
                             size_t core)
{
    size_t bytes;
    s->mem = NULL;
    core = (core + 63) / 64 * 64;
    if (__builtin_add_overflow(core, 2 * (n_q + n_kv) * d_cat * sizeof(float), &bytes) ||
        bytes > SIZE_MAX - 63)
        return ATTN_EINVAL;
    s->mem = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (s->mem == NULL)
        return ATTN_ENOMEM;
    s->qa = (float *)((char *)s->mem + core);
    s->ka = s->qa + n_q * d_cat;
    s->va = s->ka + n_kv * d_cat;
    s->cat = s->va + n_kv * d_cat;
    return ATTN_OK;
}

#line 220 "book/07-multihead.nw"
/* qa[n_q][d_cat]  = x_q · w_q + b_q
   ka[n_kv][d_cat] = x_kv · w_k + b_k
   va[n_kv][d_cat] = x_kv · w_v + b_v */
static int mha_project(const attn_mha_weights *w, size_t d_cat,
                       const float *x_q, size_t n_q, const float *x_kv, size_t n_kv,
                       struct mha_scratch *s)
{
    int status = attn_linear(x_q, w->w_q, w->b_q, s->qa, n_q, w->d_model, d_cat);
    if (status == ATTN_OK)
        status = attn_linear(x_kv, w->w_k, w->b_k, s->ka, n_kv, w->d_model, d_cat);
    if (status == ATTN_OK)
        status = attn_linear(x_kv, w->w_v, w->b_v, s->va, n_kv, w->d_model, d_cat);
    return status;
}

#line 244 "book/07-multihead.nw"
/* 问题的形状；缓冲区分配好以后再由 mha_problem_buffers 填上 */
static attn_problem mha_problem(const attn_mha_weights *w, size_t d_cat,
                                size_t n_q, size_t n_kv,
                                const unsigned char *mask, int causal)
{
    size_t dh = w->d_head;
    return (attn_problem){
        .heads = w->n_heads, .n_q = n_q, .n_k = n_kv, .d_k = dh, .d_v = dh,
        .ld_q = d_cat, .ld_k = d_cat, .ld_v = d_cat, .ld_out = d_cat,
        .head_q = dh, .head_k = dh, .head_v = dh, .head_out = dh,
        .scale = 1.0f / sqrtf((float)dh), .mask = mask, .causal = causal, .threads = 0,
    };
}

static void mha_problem_buffers(attn_problem *prob, const struct mha_scratch *s)
{
    prob->q = s->qa;
    prob->k = s->ka;
    prob->v = s->va;
    prob->out = s->cat;
    prob->scratch = s->mem;
}

#line 188 "book/07-multihead.nw"
int attn_mha(const attn_mha_weights *w,
             const float *x_q, size_t n_q, const float *x_kv, size_t n_kv,
             const unsigned char *mask, int causal, float *out)
{
    size_t d_cat;
    int status = mha_check(w, x_q, n_q, x_kv, n_kv, &d_cat);
    if (status != ATTN_OK)
        return status;
#line 587 "book/07-multihead.nw"
    if (out == NULL)
        return ATTN_EINVAL;
    if (attn_overlap(out, n_q * w->d_model * sizeof *out, w->w_o, d_cat * w->d_model * sizeof *out) ||
        attn_overlap(out, n_q * w->d_model * sizeof *out, w->b_o, w->d_model * sizeof *out))
        return ATTN_EINVAL;
#line 197 "book/07-multihead.nw"
    attn_problem prob = mha_problem(w, d_cat, n_q, n_kv, mask, causal);
    struct mha_scratch s;
    status = mha_scratch_alloc(&s, n_q, n_kv, d_cat, attn_problem_scratch_bytes(&prob));
    if (status == ATTN_OK)
        status = mha_project(w, d_cat, x_q, n_q, x_kv, n_kv, &s);
    if (status == ATTN_OK) {
        mha_problem_buffers(&prob, &s);
        status = attn_problem_solve(&prob);
    }
    if (status == ATTN_OK)
#line 273 "book/07-multihead.nw"
        /* out[n_q][d_model] = cat[n_q][d_cat] · w_o[d_cat][d_model] + b_o[d_model] */
        status = attn_linear(s.cat, w->w_o, w->b_o, out, n_q, d_cat, w->d_model);
#line 208 "book/07-multihead.nw"
    free(s.mem);
    return status;
}

#line 281 "book/07-multihead.nw"
int attn_mha_pattern(const attn_mha_weights *w,
                     const float *x_q, size_t n_q, const float *x_kv, size_t n_kv,
                     const unsigned char *mask, int causal, size_t head, float *pattern)
{
    size_t d_cat;
    int status = mha_check(w, x_q, n_q, x_kv, n_kv, &d_cat);
    if (status != ATTN_OK)
        return status;
#line 652 "book/07-multihead.nw"
    if (pattern == NULL || head >= w->n_heads)
        return ATTN_EINVAL;
#line 290 "book/07-multihead.nw"
    attn_problem prob = mha_problem(w, d_cat, n_q, n_kv, mask, causal);
    prob.heads = 1;
    struct mha_scratch s;
    status = mha_scratch_alloc(&s, n_q, n_kv, d_cat, attn_problem_scratch_bytes(&prob));
    if (status == ATTN_OK)
        status = mha_project(w, d_cat, x_q, n_q, x_kv, n_kv, &s);
    if (status == ATTN_OK) {
        mha_problem_buffers(&prob, &s);
        prob.q += head * w->d_head;
        prob.k += head * w->d_head;
        prob.v += head * w->d_head;
        prob.out += head * w->d_head;
        prob.weights = pattern;
        status = attn_problem_solve(&prob);
    }
    free(s.mem);
    return status;
}
