#line 530 "book/05-mask.nw"
#include "attn.h"
#include "attn_core.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int attn_kv_cache_init(attn_kv_cache *c, size_t capacity, size_t d_k, size_t d_v)
{
    size_t nk, nv;
    if (c == NULL)
        return ATTN_EINVAL;
    memset(c, 0, sizeof *c);
    if (capacity == 0 || d_k == 0 || d_v == 0 ||
        !attn_bytes2(&nk, capacity, d_k) || !attn_bytes2(&nv, capacity, d_v))
        return ATTN_EINVAL;
#line 599 "book/05-mask.nw"
    c->k = malloc(nk);
    c->v = malloc(nv);
    if (c->k == NULL || c->v == NULL) {
        free(c->k);
        free(c->v);
        memset(c, 0, sizeof *c);
        return ATTN_ENOMEM;
    }
#line 548 "book/05-mask.nw"
    c->capacity = capacity;
    c->d_k = d_k;
    c->d_v = d_v;
    return ATTN_OK;
}

void attn_kv_cache_append_kernel(attn_kv_cache *c, const float *k, const float *v, size_t n)
{
#line 354 "book/05-mask.nw"
    /* 第 len 行之后写 n 行键、n 行值 */
    memcpy(c->k + c->len * c->d_k, k, n * c->d_k * sizeof *k);
    memcpy(c->v + c->len * c->d_v, v, n * c->d_v * sizeof *v);
    c->len += n;
#line 557 "book/05-mask.nw"
}

int attn_kv_cache_append(attn_kv_cache *c, const float *k, const float *v, size_t n)
{
    if (c == NULL || c->k == NULL || k == NULL || v == NULL || n == 0)
        return ATTN_EINVAL;
#line 619 "book/05-mask.nw"
    /* 这次要写的是 to_k[n×d_k] 和 to_v[n×d_v]，紧接在已有的 len 行之后 */
    const float *to_k = c->k + c->len * c->d_k, *to_v = c->v + c->len * c->d_v;
    const size_t kb = n * c->d_k * sizeof *k, vb = n * c->d_v * sizeof *v;
    if (n > c->capacity - c->len)
        return ATTN_EFULL;
    if (attn_overlap(k, kb, to_k, kb) || attn_overlap(k, kb, to_v, vb) ||
        attn_overlap(v, vb, to_k, kb) || attn_overlap(v, vb, to_v, vb))
        return ATTN_EINVAL;
#line 564 "book/05-mask.nw"
    attn_kv_cache_append_kernel(c, k, v, n);
    return ATTN_OK;
}

int attn_kv_cache_attend_kernel(const attn_kv_cache *c, const float *q, size_t n_q,
                                float scale, float *out)
{
    attn_problem p = {
        .q = q, .k = c->k, .v = c->v, .out = out,
        .heads = 1, .n_q = n_q, .n_k = c->len, .d_k = c->d_k, .d_v = c->d_v,
        .ld_q = c->d_k, .ld_k = c->d_k, .ld_v = c->d_v, .ld_out = c->d_v,
        .scale = scale != 0.0f ? scale : 1.0f / sqrtf((float)c->d_k), .causal = 1, .threads = 1,
    };
    return attn_problem_run(&p);
}

int attn_kv_cache_attend(const attn_kv_cache *c, const float *q, size_t n_q,
                         float scale, float *out, float *weights)
{
    if (c == NULL || c->k == NULL || c->len == 0 || n_q > c->len)
        return ATTN_EINVAL;
#line 363 "book/05-mask.nw"
    return attn_sdpa(q, c->k, c->v, n_q, c->len, c->d_k, c->d_v,
                     scale, NULL, 1, out, weights);
#line 586 "book/05-mask.nw"
}

void attn_kv_cache_free(attn_kv_cache *c)
{
    if (c == NULL)
        return;
    free(c->k);
    free(c->v);
    memset(c, 0, sizeof *c);
}
