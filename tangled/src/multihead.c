#line 133 "book/07-multihead.nw"
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
        !attn_size_mul(n_kv, w->d_head, &s) || !attn_size_mul(s, sizeof(float), &s) ||
        !attn_size_mul(n_q, n_kv, &s))
        return ATTN_EINVAL;
    return ATTN_OK;
}
#line 202 "book/07-multihead.nw"
/* y[n][d_head] = x[n][d_model] · w[:, col0 .. col0+d_head) + b[col0 .. col0+d_head)
   w 每行有 d_cat 个数；b 可以是 NULL。 */
static void mha_project(const float *x, size_t n, size_t d_model,
                        const float *w, const float *b, size_t d_cat, size_t col0,
                        size_t d_head, float *y)
{
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < d_head; c++) {
            float s = b ? b[col0 + c] : 0.0f;
            for (size_t t = 0; t < d_model; t++)
                s += x[i * d_model + t] * w[t * d_cat + col0 + c];
            y[i * d_head + c] = s;
        }
}
#line 222 "book/07-multihead.nw"
/* 头 h：q[n_q][d_head]、k[n_kv][d_head]、v[n_kv][d_head] 是草稿区，
   o[n_q][d_head] 接收这个头的输出；p 为 NULL 或 n_q×n_kv，接收注意力模式。 */
static int mha_head(const attn_mha_weights *w, size_t d_cat, size_t h,
                    const float *x_q, size_t n_q, const float *x_kv, size_t n_kv,
                    const unsigned char *mask, int causal,
                    float *q, float *k, float *v, float *o, float *p)
{
    size_t col0 = h * w->d_head;
    mha_project(x_q, n_q, w->d_model, w->w_q, w->b_q, d_cat, col0, w->d_head, q);
    mha_project(x_kv, n_kv, w->d_model, w->w_k, w->b_k, d_cat, col0, w->d_head, k);
    mha_project(x_kv, n_kv, w->d_model, w->w_v, w->b_v, d_cat, col0, w->d_head, v);
    float scale = 1.0f / sqrtf((float)w->d_head);
    return attn_sdpa(q, k, v, n_q, n_kv, w->d_head, w->d_head, scale, mask, causal, o, p);
}

#line 143 "book/07-multihead.nw"
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
    
#line 241 "book/07-multihead.nw"
float *q = malloc(n_q * w->d_head * sizeof *q);
float *k = malloc(n_kv * w->d_head * sizeof *k);
float *v = malloc(n_kv * w->d_head * sizeof *v);
float *o = malloc(n_q * w->d_head * sizeof *o);
if (q == NULL || k == NULL || v == NULL || o == NULL)
    status = ATTN_ENOMEM;
#line 154 "book/07-multihead.nw"
    float *cat = malloc(n_q * d_cat * sizeof *cat);
    if (cat == NULL)
        status = ATTN_ENOMEM;
    for (size_t h = 0; h < w->n_heads && status == ATTN_OK; h++) {
        status = mha_head(w, d_cat, h, x_q, n_q, x_kv, n_kv, mask, causal, q, k, v, o, NULL);
        
#line 257 "book/07-multihead.nw"
/* cat[i][h·d_head + c] = o[i][c] */
for (size_t i = 0; i < n_q && status == ATTN_OK; i++)
    for (size_t c = 0; c < w->d_head; c++)
        cat[i * d_cat + h * w->d_head + c] = o[i * w->d_head + c];
#line 160 "book/07-multihead.nw"
    }
    if (status == ATTN_OK) {
        
#line 266 "book/07-multihead.nw"
/* out[n_q][d_model] = cat[n_q][d_cat] · w_o[d_cat][d_model] + b_o[d_model] */
for (size_t i = 0; i < n_q; i++)
    for (size_t c = 0; c < w->d_model; c++) {
        float s = w->b_o ? w->b_o[c] : 0.0f;
        for (size_t t = 0; t < d_cat; t++)
            s += cat[i * d_cat + t] * w->w_o[t * w->d_model + c];
        out[i * w->d_model + c] = s;
    }
#line 163 "book/07-multihead.nw"
    }
    free(cat);
    
#line 250 "book/07-multihead.nw"
free(q);
free(k);
free(v);
free(o);
#line 166 "book/07-multihead.nw"
    return status;
}

#line 280 "book/07-multihead.nw"
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
    
#line 241 "book/07-multihead.nw"
float *q = malloc(n_q * w->d_head * sizeof *q);
float *k = malloc(n_kv * w->d_head * sizeof *k);
float *v = malloc(n_kv * w->d_head * sizeof *v);
float *o = malloc(n_q * w->d_head * sizeof *o);
if (q == NULL || k == NULL || v == NULL || o == NULL)
    status = ATTN_ENOMEM;
#line 291 "book/07-multihead.nw"
    if (status == ATTN_OK)
        status = mha_head(w, d_cat, head, x_q, n_q, x_kv, n_kv, mask, causal,
                          q, k, v, o, pattern);
    
#line 250 "book/07-multihead.nw"
free(q);
free(k);
free(v);
free(o);
#line 295 "book/07-multihead.nw"
    return status;
}
