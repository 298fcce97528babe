#line 822 "book/11-block.nw"
#include "attn.h"
#include "internal.h"
#include "gpt_shape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#line 1933 "book/11-block.nw"
/* 解码器的工作区：残差流 d 个，一个位置的中间结果 */
static size_t gpt_decoder_floats(const attn_gpt *m)
{
    return (size_t)m->cfg.d_model + gpt_acts_floats(&m->cfg, 1);
}

int attn_gpt_decoder_init(attn_gpt_decoder *dec, const attn_gpt *m)
{
    size_t bytes;
    if (dec == NULL)
        return ATTN_EINVAL;
    memset(dec, 0, sizeof *dec);
    if (!attn_gpt_ready(m))
        return ATTN_EINVAL;
    bytes = gpt_decoder_floats(m) * sizeof(float);   /* 形状合法：装得进 size_t */
    size_t n_caches = (size_t)m->cfg.n_layers * (size_t)m->cfg.n_heads;
    dec->caches = calloc(n_caches, sizeof *dec->caches);
    dec->work = malloc(bytes);   /* 残差流 x[d]，一个位置的中间结果 */
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

#line 855 "book/11-block.nw"
static int gpt_step(attn_gpt_decoder *dec, const attn_gpt *m, int token, float *logits)
{
    size_t d = (size_t)m->cfg.d_model, heads = (size_t)m->cfg.n_heads;
    float *x = dec->work;                                  /* 残差流，d 个 */
    gpt_acts A = gpt_acts_carve(&m->cfg, 1, x + d);       /* 一个位置的中间结果 */
    A.x0 = x;
    gpt_embed(m, &token, 1, dec->len, x);
    int status = ATTN_OK;
    for (size_t l = 0; l < (size_t)m->cfg.n_layers && status == ATTN_OK; l++)
        status = gpt_block_forward(m, l, 1, 1, 0.0f, &A, dec->caches + l * heads,
                                   NULL, x);
    if (status == ATTN_OK)
        status = gpt_logits(m, x, 1, A.a1, logits);
    return status;
}

#line 834 "book/11-block.nw"
int attn_gpt_step(attn_gpt_decoder *dec, int token, float *logits)
{
#line 1980 "book/11-block.nw"
    if (dec == NULL || dec->caches == NULL || dec->work == NULL || logits == NULL ||
        dec->broken || !attn_gpt_ready(dec->m))
        return ATTN_EINVAL;
    size_t out_bytes = (size_t)dec->m->cfg.vocab * sizeof(float);   /* 不超过 wte 的字节数 */
    if (token < 0 || (uint64_t)token >= dec->m->cfg.vocab ||
        attn_overlap(logits, out_bytes, dec->m->params, dec->m->n_params * sizeof(float)) ||
        attn_overlap(logits, out_bytes, dec->work, gpt_decoder_floats(dec->m) * sizeof(float)))
        return ATTN_EINVAL;
    for (size_t c = 0; c < dec->n_caches; c++) {
        const attn_kv_cache *kv = &dec->caches[c];
        if (attn_overlap(logits, out_bytes, kv->k, kv->capacity * kv->d_k * sizeof(float)) ||
            attn_overlap(logits, out_bytes, kv->v, kv->capacity * kv->d_v * sizeof(float)))
            return ATTN_EINVAL;
    }
#line 837 "book/11-block.nw"
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
