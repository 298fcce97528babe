#line 746 "book/11-block.nw"
#include "attn.h"
#include "internal.h"
#include "gpt_shape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#line 1748 "book/11-block.nw"
int attn_gpt_decoder_init(attn_gpt_decoder *dec, const attn_gpt *m)
{
    size_t bytes;
    if (dec == NULL)
        return ATTN_EINVAL;
    memset(dec, 0, sizeof *dec);
    if (!attn_gpt_ready(m) || !attn_bytes2(&bytes, 7, (size_t)m->cfg.d_model))
        return ATTN_EINVAL;
    size_t n_caches = (size_t)m->cfg.n_layers * (size_t)m->cfg.n_heads;
    dec->caches = calloc(n_caches, sizeof *dec->caches);
    dec->work = malloc(bytes);   /* x、h、a、q、k、v、cat，各 d 个（hd = d） */
    int status = dec->caches != NULL && dec->work != NULL ? ATTN_OK : ATTN_ENOMEM;
    for (size_t c = 0; c < n_caches && status == ATTN_OK; c++) {
        status = attn_kv_cache_init(&dec->caches[c], (size_t)m->cfg.n_ctx,
                                    (size_t)m->cfg.d_head, (size_t)m->cfg.d_head);
        dec->n_caches = c + 1;
    }
    if (status != ATTN_OK) {
        attn_gpt_decoder_free(dec);
        return status;
    }
    dec->m = m;
    return ATTN_OK;
}

void attn_gpt_decoder_free(attn_gpt_decoder *dec)
{
    if (dec == NULL)
        return;
    for (size_t c = 0; c < dec->n_caches; c++)
        attn_kv_cache_free(&dec->caches[c]);
    free(dec->caches);
    free(dec->work);
    memset(dec, 0, sizeof *dec);
}

#line 778 "book/11-block.nw"
static int gpt_step(attn_gpt_decoder *dec, const attn_gpt *m, int token, float *logits)
{
    size_t d = (size_t)m->cfg.d_model, heads = (size_t)m->cfg.n_heads;
    size_t dh = (size_t)m->cfg.d_head, ff = (size_t)m->cfg.d_ff;
    float *x = dec->work, *h = x + d, *a = h + d;        /* 各 d 个 */
    float *q = a + d, *k = q + d, *v = k + d, *cat = v + d;
    float scale = 1.0f / sqrtf((float)dh);   /* 与 attn_mha 相同 */
    int status = attn_gpt_embed(m, &token, 1, dec->len, x);
    for (size_t l = 0; l < (size_t)m->cfg.n_layers && status == ATTN_OK; l++) {
        const attn_gpt_layer *L = &m->layers[l];
        attn_kv_cache *cache = dec->caches + l * heads;
#line 799 "book/11-block.nw"
        /* h = LN1(x)；q、k、v[d] = h·W + b；每个头：k、v 存进缓存，q 对缓存做因果注意力 */
        status = attn_layernorm(x, L->ln1_g, L->ln1_b, h, 1, d, 1e-5f);
        if (status == ATTN_OK)
            status = attn_linear(h, L->w_q, L->b_q, q, 1, d, d);
        if (status == ATTN_OK)
            status = attn_linear(h, L->w_k, L->b_k, k, 1, d, d);
        if (status == ATTN_OK)
            status = attn_linear(h, L->w_v, L->b_v, v, 1, d, d);
        for (size_t hh = 0; hh < heads && status == ATTN_OK; hh++) {
            status = attn_kv_cache_append(&cache[hh], k + hh * dh, v + hh * dh, 1);
            if (status == ATTN_OK)
                status = attn_kv_cache_attend(&cache[hh], q + hh * dh, 1, scale,
                                              cat + hh * dh, NULL);
        }
        /* a = cat·W_O + b_O；x += a */
        if (status == ATTN_OK)
            status = attn_linear(cat, L->w_o, L->b_o, a, 1, d, d);
        if (status == ATTN_OK)
            for (size_t j = 0; j < d; j++)
                x[j] += a[j];
#line 822 "book/11-block.nw"
        if (status == ATTN_OK)
            status = attn_layernorm(x, L->ln2_g, L->ln2_b, h, 1, d, 1e-5f);
        if (status == ATTN_OK)
            status = attn_ffn_gelu(h, 1, d, L->w_up, L->b_up, ff, L->w_down, L->b_down, d, a);
        if (status == ATTN_OK)
            for (size_t j = 0; j < d; j++)
                x[j] += a[j];
#line 791 "book/11-block.nw"
    }
    if (status == ATTN_OK)
        status = attn_gpt_logits(m, x, 1, logits);
    return status;
}

#line 758 "book/11-block.nw"
int attn_gpt_step(attn_gpt_decoder *dec, int token, float *logits)
{
#line 1788 "book/11-block.nw"
    if (dec == NULL || dec->caches == NULL || dec->work == NULL || logits == NULL ||
        dec->broken || !attn_gpt_ready(dec->m))
        return ATTN_EINVAL;
    size_t out_bytes = (size_t)dec->m->cfg.vocab * sizeof(float);   /* 不超过 wte 的字节数 */
    if (token < 0 || (uint64_t)token >= dec->m->cfg.vocab ||
        attn_overlap(logits, out_bytes, dec->m->params, dec->m->n_params * sizeof(float)) ||
        attn_overlap(logits, out_bytes, dec->work, 7 * (size_t)dec->m->cfg.d_model * sizeof(float)))
        return ATTN_EINVAL;
    for (size_t c = 0; c < dec->n_caches; c++) {
        const attn_kv_cache *kv = &dec->caches[c];
        if (attn_overlap(logits, out_bytes, kv->k, kv->capacity * kv->d_k * sizeof(float)) ||
            attn_overlap(logits, out_bytes, kv->v, kv->capacity * kv->d_v * sizeof(float)))
            return ATTN_EINVAL;
    }
#line 761 "book/11-block.nw"
    const attn_gpt *m = dec->m;
    if (dec->len >= m->cfg.n_ctx)
        return ATTN_EFULL;
    int status = gpt_step(dec, m, token, logits);
    if (status != ATTN_OK)
        dec->broken = 1;
    else
        dec->len++;
    return status;
}
