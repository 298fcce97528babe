#line 374 "book/11-block.nw"
#include "attn.h"
#include "internal.h"
#include "gpt_shape.h"

#include <stdlib.h>
#include <string.h>

#line 437 "book/11-block.nw"
/* 从 *p 取 k 个 float，*p 往后挪 */
static float *gpt_take(float **p, size_t k)
{
    float *r = *p;
    *p += k;
    return r;
}

/* 顺序：wte、wpe，每层 16 块，lnf_g、lnf_b */
static void gpt_attach(attn_gpt *m, const attn_gpt_config *cfg,
                       float *params, size_t count, attn_gpt_layer *layers)
{
    size_t d = (size_t)cfg->d_model, hd = (size_t)(cfg->n_heads * cfg->d_head);
    size_t ff = (size_t)cfg->d_ff;
    float *p = params;
    m->cfg = *cfg;
    m->n_params = count;
    m->params = params;
    m->layers = layers;
    m->wte = gpt_take(&p, (size_t)cfg->vocab * d);
    m->wpe = gpt_take(&p, (size_t)cfg->n_ctx * d);
    for (size_t l = 0; l < (size_t)cfg->n_layers; l++) {
        attn_gpt_layer *L = &layers[l];
        L->ln1_g = gpt_take(&p, d);        L->ln1_b = gpt_take(&p, d);
        L->w_q = gpt_take(&p, d * hd);     L->b_q = gpt_take(&p, hd);
        L->w_k = gpt_take(&p, d * hd);     L->b_k = gpt_take(&p, hd);
        L->w_v = gpt_take(&p, d * hd);     L->b_v = gpt_take(&p, hd);
        L->w_o = gpt_take(&p, hd * d);     L->b_o = gpt_take(&p, d);
        L->ln2_g = gpt_take(&p, d);        L->ln2_b = gpt_take(&p, d);
        L->w_up = gpt_take(&p, d * ff);    L->b_up = gpt_take(&p, ff);
        L->w_down = gpt_take(&p, ff * d);  L->b_down = gpt_take(&p, d);
    }
    m->lnf_g = gpt_take(&p, d);
    m->lnf_b = gpt_take(&p, d);
}

#line 383 "book/11-block.nw"
int attn_gpt_bind(attn_gpt *m, const attn_gpt_config *cfg, float *params, size_t n)
{
    size_t count;
    if (m == NULL)
        return ATTN_EINVAL;
    memset(m, 0, sizeof *m);
    if (params == NULL || !attn_gpt_shape_ok(cfg, &count) || n != count)
        return ATTN_EINVAL;
    attn_gpt_layer *layers = calloc((size_t)cfg->n_layers, sizeof *layers);
    if (layers == NULL)
        return ATTN_ENOMEM;
    gpt_attach(m, cfg, params, count, layers);
    return ATTN_OK;
}

#line 480 "book/11-block.nw"
/* w[k] ← N(0, 0.02²) */
static void gpt_normal(attn_rng *r, float *w, size_t k)
{
    attn_rng_normal(r, w, k);
    for (size_t i = 0; i < k; i++)
        w[i] *= 0.02f;
}

static void gpt_initial_values(attn_gpt *m, unsigned long long seed)
{
    size_t d = (size_t)m->cfg.d_model, hd = (size_t)(m->cfg.n_heads * m->cfg.d_head);
    size_t ff = (size_t)m->cfg.d_ff;
    attn_rng r;
    attn_rng_seed(&r, seed);
    memset(m->params, 0, m->n_params * sizeof(float));   /* 偏置和偏移：0 */
    gpt_normal(&r, m->wte, (size_t)m->cfg.vocab * d);
    gpt_normal(&r, m->wpe, (size_t)m->cfg.n_ctx * d);
    for (size_t l = 0; l < (size_t)m->cfg.n_layers; l++) {
        attn_gpt_layer *L = &m->layers[l];
        for (size_t j = 0; j < d; j++)
            L->ln1_g[j] = L->ln2_g[j] = 1.0f;
        gpt_normal(&r, L->w_q, d * hd);
        gpt_normal(&r, L->w_k, d * hd);
        gpt_normal(&r, L->w_v, d * hd);
        gpt_normal(&r, L->w_o, hd * d);
        gpt_normal(&r, L->w_up, d * ff);
        gpt_normal(&r, L->w_down, ff * d);
    }
    for (size_t j = 0; j < d; j++)
        m->lnf_g[j] = 1.0f;
}

#line 400 "book/11-block.nw"
int attn_gpt_init(attn_gpt *m, const attn_gpt_config *cfg, unsigned long long seed)
{
    size_t count, head, bytes;
    if (m == NULL)
        return ATTN_EINVAL;
    memset(m, 0, sizeof *m);
    if (!attn_gpt_shape_ok(cfg, &count))
        return ATTN_EINVAL;
    /* 一次分配：layers[n_layers]，紧接着 params[count] */
    if (__builtin_mul_overflow((size_t)cfg->n_layers, sizeof(attn_gpt_layer), &head) ||
        !attn_bytes1(&bytes, count) || bytes > SIZE_MAX - head)
        return ATTN_EINVAL;
    char *block = malloc(head + bytes);
    if (block == NULL)
        return ATTN_ENOMEM;
    gpt_attach(m, cfg, (float *)(block + head), count, (attn_gpt_layer *)block);
    gpt_initial_values(m, seed);
    return ATTN_OK;
}

void attn_gpt_free(attn_gpt *m)
{
    if (m == NULL)
        return;
    free(m->layers);
    memset(m, 0, sizeof *m);
}

#line 582 "book/11-block.nw"
int attn_gpt_embed(const attn_gpt *m, const int *tokens, size_t n, size_t pos0,
                   float *x)
{
#line 1700 "book/11-block.nw"
    if (!attn_gpt_ready(m) || tokens == NULL || x == NULL || n == 0)
        return ATTN_EINVAL;
    if (pos0 > m->cfg.n_ctx || n > m->cfg.n_ctx - pos0)
        return ATTN_EINVAL;
    size_t x_bytes = n * (size_t)m->cfg.d_model * sizeof(float);   /* n ≤ n_ctx：不会溢出 */
    if (attn_overlap(x, x_bytes, m->params, m->n_params * sizeof(float)) ||
        attn_overlap(x, x_bytes, tokens, n * sizeof(int)))
        return ATTN_EINVAL;
#line 1712 "book/11-block.nw"
    for (size_t i = 0; i < n; i++)
        if (tokens[i] < 0 || (uint64_t)tokens[i] >= m->cfg.vocab)
            return ATTN_EINVAL;
#line 586 "book/11-block.nw"
    size_t d = (size_t)m->cfg.d_model;
    /* x[i][:] = wte[tokens[i]][:] + wpe[pos0 + i][:] */
    for (size_t i = 0; i < n; i++) {
        const float *te = m->wte + (size_t)tokens[i] * d, *pe = m->wpe + (pos0 + i) * d;
        for (size_t j = 0; j < d; j++)
            x[i * d + j] = te[j] + pe[j];
    }
    return ATTN_OK;
}

#line 649 "book/11-block.nw"
static attn_mha_weights gpt_mha_weights(const attn_gpt *m, const attn_gpt_layer *L)
{
    attn_mha_weights w = {
        .d_model = (size_t)m->cfg.d_model, .n_heads = (size_t)m->cfg.n_heads,
        .d_head = (size_t)m->cfg.d_head,
        .w_q = L->w_q, .w_k = L->w_k, .w_v = L->w_v, .w_o = L->w_o,
        .b_q = L->b_q, .b_k = L->b_k, .b_v = L->b_v, .b_o = L->b_o,
    };
    return w;
}

#line 598 "book/11-block.nw"
int attn_gpt_block(const attn_gpt *m, size_t layer, float *x, size_t n)
{
#line 1720 "book/11-block.nw"
    size_t bytes;
    if (!attn_gpt_ready(m) || x == NULL || n == 0 || n > m->cfg.n_ctx ||
        layer >= m->cfg.n_layers || !attn_bytes3(&bytes, 2, n, (size_t)m->cfg.d_model))
        return ATTN_EINVAL;
    if (attn_overlap(x, bytes / 2, m->params, m->n_params * sizeof(float)))
        return ATTN_EINVAL;
#line 601 "book/11-block.nw"
    size_t d = (size_t)m->cfg.d_model;
    const attn_gpt_layer *L = &m->layers[layer];
    attn_mha_weights w = gpt_mha_weights(m, L);
    float *h = malloc(2 * n * d * sizeof(float));   /* h[n][d]：归一化后的输入；a[n][d]：子层的输出 */
    if (h == NULL)
        return ATTN_ENOMEM;
    float *a = h + n * d;
#line 664 "book/11-block.nw"
    /* h = LN1(x)；a = MHA(h)，自注意力，因果；x += a */
    int status = attn_layernorm(x, L->ln1_g, L->ln1_b, h, n, d, 1e-5f);
    if (status == ATTN_OK)
        status = attn_mha(&w, h, n, h, n, NULL, 1, a);
    if (status == ATTN_OK)
        for (size_t t = 0; t < n * d; t++)
            x[t] += a[t];
#line 674 "book/11-block.nw"
    /* h = LN2(x)；a = W_down·GELU(W_up·h + b_up) + b_down；x += a */
    if (status == ATTN_OK)
        status = attn_layernorm(x, L->ln2_g, L->ln2_b, h, n, d, 1e-5f);
    if (status == ATTN_OK)
        status = attn_ffn_gelu(h, n, d, L->w_up, L->b_up, (size_t)m->cfg.d_ff,
                               L->w_down, L->b_down, d, a);
    if (status == ATTN_OK)
        for (size_t t = 0; t < n * d; t++)
            x[t] += a[t];
#line 610 "book/11-block.nw"
    free(h);
    return status;
}

int attn_gpt_logits(const attn_gpt *m, const float *x, size_t n, float *logits)
{
#line 1729 "book/11-block.nw"
    size_t bytes;
    if (!attn_gpt_ready(m) || x == NULL || logits == NULL || n == 0 || n > m->cfg.n_ctx ||
        !attn_bytes2(&bytes, n, (size_t)m->cfg.vocab) ||
        attn_overlap(logits, bytes, m->params, m->n_params * sizeof(float)))
        return ATTN_EINVAL;
#line 617 "book/11-block.nw"
    size_t d = (size_t)m->cfg.d_model, vocab = (size_t)m->cfg.vocab;
    float *h = malloc(n * d * sizeof(float));
    if (h == NULL)
        return ATTN_ENOMEM;
    int status = attn_layernorm(x, m->lnf_g, m->lnf_b, h, n, d, 1e-5f);
    /* logits[n][vocab] = h[n][d] · wteᵀ：反嵌入与嵌入共用 wte */
    if (status == ATTN_OK)
        status = attn_dot_all(h, m->wte, n, vocab, d, logits);
    free(h);
    return status;
}

int attn_gpt_forward(const attn_gpt *m, const int *tokens, size_t n, float *logits)
{
#line 1737 "book/11-block.nw"
    size_t bytes;
    if (!attn_gpt_ready(m) || tokens == NULL || logits == NULL || n == 0 || n > m->cfg.n_ctx ||
        !attn_bytes2(&bytes, n, (size_t)m->cfg.vocab) ||
        attn_overlap(logits, bytes, m->params, m->n_params * sizeof(float)))
        return ATTN_EINVAL;
#line 632 "book/11-block.nw"
    size_t d = (size_t)m->cfg.d_model;
    float *x = malloc(n * d * sizeof(float));   /* 残差流 x[n][d] */
    if (x == NULL)
        return ATTN_ENOMEM;
    int status = attn_gpt_embed(m, tokens, n, 0, x);
    for (size_t l = 0; l < (size_t)m->cfg.n_layers && status == ATTN_OK; l++)
        status = attn_gpt_block(m, l, x, n);
    if (status == ATTN_OK)
        status = attn_gpt_logits(m, x, n, logits);
    free(x);
    return status;
}
