#line 134 "book/07-multihead.nw"
#include "attn.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>

#line 176 "book/07-multihead.nw"
/* 检查指针、维度和所有尺寸乘积；成功时 *d_cat = n_heads·d_head。 */
static int mha_check(const attn_mha_weights *w, const float *x_q, size_t n_q,
                     const float *x_kv, size_t n_kv, size_t *d_cat)
{
    size_t s;
    if (w == NULL || x_q == NULL || x_kv == NULL)
        return ATTN_EINVAL;
    if (w->w_q == NULL || w->w_k == NULL || w->w_v == NULL || w->w_o == NULL)
        return ATTN_EINVAL;
    if (w->d_model == 0 || w->n_heads == 0 || w->d_head == 0 || n_q == 0 || n_kv == 0)
        return ATTN_EINVAL;
    if (!attn_size_mul(w->n_heads, w->d_head, d_cat) ||
        !attn_size_mul(w->d_model, *d_cat, &s) ||
        !attn_size_mul(n_q, w->d_model, &s) || !attn_size_mul(n_kv, w->d_model, &s) ||
        !attn_size_mul(n_q, *d_cat, &s) || !attn_size_mul(s, sizeof(float), &s) ||
        !attn_size_mul(n_kv, *d_cat, &s) || !attn_size_mul(s, sizeof(float), &s) ||
        !attn_size_mul(n_q, n_kv, &s))
        return ATTN_EINVAL;
    return ATTN_OK;
}
#line 202 "book/07-multihead.nw"
struct mha_scratch {
    float *qa, *ka, *va;   /* 所有头的投影：qa[n_q][d_cat]，ka、va[n_kv][d_cat] */
    float *q, *k, *v, *o;  /* 一个头的切片：q、o[n_q][d_head]，k、v[n_kv][d_head] */
    float *cat;            /* 拼接矩阵 cat[n_q][d_cat] */
};

static void mha_scratch_free(struct mha_scratch *s)
{
    free(s->qa); free(s->ka); free(s->va);
    free(s->q); free(s->k); free(s->v); free(s->o);
    free(s->cat);
}

static int mha_scratch_alloc(struct mha_scratch *s, size_t n_q, size_t n_kv,
                             size_t d_cat, size_t d_head)
{
    s->qa = malloc(n_q * d_cat * sizeof(float));
    s->ka = malloc(n_kv * d_cat * sizeof(float));
    s->va = malloc(n_kv * d_cat * sizeof(float));
    s->q = malloc(n_q * d_head * sizeof(float));
    s->k = malloc(n_kv * d_head * sizeof(float));
    s->v = malloc(n_kv * d_head * sizeof(float));
    s->o = malloc(n_q * d_head * sizeof(float));
    s->cat = malloc(n_q * d_cat * sizeof(float));
    if (!s->qa || !s->ka || !s->va || !s->q || !s->k || !s->v || !s->o || !s->cat) {
        mha_scratch_free(s);
        s->qa = s->ka = s->va = s->q = s->k = s->v = s->o = s->cat = NULL;
        return ATTN_ENOMEM;
    }
    return ATTN_OK;
}
#line 239 "book/07-multihead.nw"
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
#line 259 "book/07-multihead.nw"
/* dst[n][width] = src[n][col0 .. col0+width)，src 每行 cols 个数 */
static void mha_columns(const float *src, size_t n, size_t cols, size_t col0,
                        size_t width, float *dst)
{
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < width; c++)
            dst[i * width + c] = src[i * cols + col0 + c];
}

/* 头 h 的输出写进 s->o[n_q][d_head]；p 为 NULL 或 n_q×n_kv，接收注意力模式 */
static int mha_head(const attn_mha_weights *w, size_t d_cat, size_t h,
                    size_t n_q, size_t n_kv, const unsigned char *mask, int causal,
                    struct mha_scratch *s, float *p)
{
    size_t dh = w->d_head;
    mha_columns(s->qa, n_q, d_cat, h * dh, dh, s->q);
    mha_columns(s->ka, n_kv, d_cat, h * dh, dh, s->k);
    mha_columns(s->va, n_kv, d_cat, h * dh, dh, s->v);
    float scale = 1.0f / sqrtf((float)dh);
    return attn_sdpa(s->q, s->k, s->v, n_q, n_kv, dh, dh, scale, mask, causal, s->o, p);
}

#line 145 "book/07-multihead.nw"
int attn_mha(const attn_mha_weights *w,
             const float *x_q, size_t n_q, const float *x_kv, size_t n_kv,
             const unsigned char *mask, int causal, float *out)
{
    size_t d_cat;
    int status = mha_check(w, x_q, n_q, x_kv, n_kv, &d_cat);
    if (status != ATTN_OK)
        return status;
    if (out == NULL)
        return ATTN_EINVAL;
    struct mha_scratch s;
    status = mha_scratch_alloc(&s, n_q, n_kv, d_cat, w->d_head);
    if (status == ATTN_OK)
        status = mha_project(w, d_cat, x_q, n_q, x_kv, n_kv, &s);
    for (size_t h = 0; h < w->n_heads && status == ATTN_OK; h++) {
        status = mha_head(w, d_cat, h, n_q, n_kv, mask, causal, &s, NULL);
        
#line 283 "book/07-multihead.nw"
/* cat[i][h·d_head + c] = o[i][c] */
for (size_t i = 0; i < n_q && status == ATTN_OK; i++)
    for (size_t c = 0; c < w->d_head; c++)
        s.cat[i * d_cat + h * w->d_head + c] = s.o[i * w->d_head + c];
#line 162 "book/07-multihead.nw"
    }
    if (status == ATTN_OK)
        
#line 293 "book/07-multihead.nw"
/* out[n_q][d_model] = cat[n_q][d_cat] · w_o[d_cat][d_model] + b_o[d_model] */
status = attn_linear(s.cat, w->w_o, w->b_o, out, n_q, d_cat, w->d_model);
#line 165 "book/07-multihead.nw"
    mha_scratch_free(&s);
    return status;
}

#line 301 "book/07-multihead.nw"
int attn_mha_pattern(const attn_mha_weights *w,
                     const float *x_q, size_t n_q, const float *x_kv, size_t n_kv,
                     const unsigned char *mask, int causal, size_t head, float *pattern)
{
    size_t d_cat;
    int status = mha_check(w, x_q, n_q, x_kv, n_kv, &d_cat);
    if (status != ATTN_OK)
        return status;
    if (pattern == NULL || head >= w->n_heads)
        return ATTN_EINVAL;
    struct mha_scratch s;
    status = mha_scratch_alloc(&s, n_q, n_kv, d_cat, w->d_head);
    if (status == ATTN_OK)
        status = mha_project(w, d_cat, x_q, n_q, x_kv, n_kv, &s);
    if (status == ATTN_OK)
        status = mha_head(w, d_cat, head, n_q, n_kv, mask, causal, &s, pattern);
    mha_scratch_free(&s);
    return status;
}
