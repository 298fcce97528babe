#line 394 "book/11-block.nw"
#include "attn.h"
#include "internal.h"
#include "gpt_shape.h"

#include "attn_core.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#line 2003 "book/11-block.nw"
/* 形状的代号，和初值的三种 */
enum { GPT_NONE, GPT_D, GPT_HD, GPT_FF, GPT_VOCAB, GPT_CTX };
enum { GPT_ZERO, GPT_ONE, GPT_NORMAL };

typedef struct {
    const char *name;              /* GPT-2 的名字；每层的不带 "h.层号." */
    unsigned char rows, cols;      /* 形状的代号；cols 为 GPT_NONE：一维 */
    unsigned char init;            /* 全 0、全 1、N(0, 0.02²) */
    signed char part;              /* c_attn 的第几份；其余 −1 */
    size_t field;                  /* 指针在 attn_gpt 或 attn_gpt_layer 里的位置 */
} gpt_row;

static const gpt_row gpt_model_rows[4] = {
    {"wte.weight", GPT_VOCAB, GPT_D, GPT_NORMAL, -1, offsetof(attn_gpt, wte)},
    {"wpe.weight", GPT_CTX, GPT_D, GPT_NORMAL, -1, offsetof(attn_gpt, wpe)},
    {"ln_f.weight", GPT_D, GPT_NONE, GPT_ONE, -1, offsetof(attn_gpt, lnf_g)},
    {"ln_f.bias", GPT_D, GPT_NONE, GPT_ZERO, -1, offsetof(attn_gpt, lnf_b)},
};
static const gpt_row gpt_layer_rows[16] = {
    {"ln_1.weight", GPT_D, GPT_NONE, GPT_ONE, -1, offsetof(attn_gpt_layer, ln1_g)},
    {"ln_1.bias", GPT_D, GPT_NONE, GPT_ZERO, -1, offsetof(attn_gpt_layer, ln1_b)},
    {"attn.c_attn.weight", GPT_D, GPT_HD, GPT_NORMAL, 0, offsetof(attn_gpt_layer, w_q)},
    {"attn.c_attn.bias", GPT_HD, GPT_NONE, GPT_ZERO, 0, offsetof(attn_gpt_layer, b_q)},
    {"attn.c_attn.weight", GPT_D, GPT_HD, GPT_NORMAL, 1, offsetof(attn_gpt_layer, w_k)},
    {"attn.c_attn.bias", GPT_HD, GPT_NONE, GPT_ZERO, 1, offsetof(attn_gpt_layer, b_k)},
    {"attn.c_attn.weight", GPT_D, GPT_HD, GPT_NORMAL, 2, offsetof(attn_gpt_layer, w_v)},
    {"attn.c_attn.bias", GPT_HD, GPT_NONE, GPT_ZERO, 2, offsetof(attn_gpt_layer, b_v)},
    {"attn.c_proj.weight", GPT_HD, GPT_D, GPT_NORMAL, -1, offsetof(attn_gpt_layer, w_o)},
    {"attn.c_proj.bias", GPT_D, GPT_NONE, GPT_ZERO, -1, offsetof(attn_gpt_layer, b_o)},
    {"ln_2.weight", GPT_D, GPT_NONE, GPT_ONE, -1, offsetof(attn_gpt_layer, ln2_g)},
    {"ln_2.bias", GPT_D, GPT_NONE, GPT_ZERO, -1, offsetof(attn_gpt_layer, ln2_b)},
    {"mlp.c_fc.weight", GPT_D, GPT_FF, GPT_NORMAL, -1, offsetof(attn_gpt_layer, w_up)},
    {"mlp.c_fc.bias", GPT_FF, GPT_NONE, GPT_ZERO, -1, offsetof(attn_gpt_layer, b_up)},
    {"mlp.c_proj.weight", GPT_FF, GPT_D, GPT_NORMAL, -1, offsetof(attn_gpt_layer, w_down)},
    {"mlp.c_proj.bias", GPT_D, GPT_NONE, GPT_ZERO, -1, offsetof(attn_gpt_layer, b_down)},
};
#line 2045 "book/11-block.nw"
static size_t gpt_dim(const attn_gpt_config *c, int code)
{
    switch (code) {
    case GPT_D: return (size_t)c->d_model;
    case GPT_HD: return (size_t)(c->n_heads * c->d_head);
    case GPT_FF: return (size_t)c->d_ff;
    case GPT_VOCAB: return (size_t)c->vocab;
    case GPT_CTX: return (size_t)c->n_ctx;
    default: return 0;
    }
}

/* 一行有几个 float */
static size_t gpt_row_size(const attn_gpt_config *c, const gpt_row *r)
{
    return gpt_dim(c, r->rows) * (r->cols == GPT_NONE ? 1 : gpt_dim(c, r->cols));
}

/* 第 k 个张量是表里的哪一行；*layer 是它的层号，不属于哪一层的为 SIZE_MAX */
static const gpt_row *gpt_row_at(const attn_gpt_config *c, size_t k, size_t *layer)
{
    size_t in_layers = 16 * (size_t)c->n_layers;
    *layer = SIZE_MAX;
    if (k < 2)
        return &gpt_model_rows[k];
    if (k - 2 < in_layers) {
        *layer = (k - 2) / 16;
        return &gpt_layer_rows[(k - 2) % 16];
    }
    return &gpt_model_rows[2 + (k - 2 - in_layers)];
}

/* 这一行在结构体里的指针 */
static float **gpt_field(attn_gpt *m, const gpt_row *r, size_t layer)
{
    char *base = layer == SIZE_MAX ? (char *)m : (char *)&m->layers[layer];
    return (float **)(base + r->field);
}

#line 2088 "book/11-block.nw"
static void gpt_attach(attn_gpt *m, const attn_gpt_config *cfg,
                       float *params, size_t count, attn_gpt_layer *layers)
{
    size_t tensors = 4 + 16 * (size_t)cfg->n_layers, at = 0, layer;
    m->cfg = *cfg;
    m->n_params = count;
    m->params = params;
    m->layers = layers;
    for (size_t k = 0; k < tensors; k++) {
        const gpt_row *r = gpt_row_at(cfg, k, &layer);
        *gpt_field(m, r, layer) = params + at;
        at += gpt_row_size(cfg, r);
    }
}
#line 2108 "book/11-block.nw"
/* "h.{layer}." 加上表里的名字（layer 为 SIZE_MAX 时不加），装进 cap 个字节；
   不用 snprintf：库不依赖 stdio（HTML 版的 WebAssembly 没有文件可写） */
static void gpt_tensor_name(char *out, size_t cap, size_t layer, const char *name)
{
    char digits[24];
    size_t n = 0, len = 0;
    if (layer != SIZE_MAX) {
        do {
            digits[n++] = (char)('0' + layer % 10);
            layer /= 10;
        } while (layer > 0);
        if (len + 1 < cap) out[len++] = 'h';
        if (len + 1 < cap) out[len++] = '.';
        while (n > 0 && len + 1 < cap) out[len++] = digits[--n];
        if (len + 1 < cap) out[len++] = '.';
    }
    for (const char *c = name; *c != '\0' && len + 1 < cap; c++)
        out[len++] = *c;
    out[len] = '\0';
}

size_t attn_gpt_tensor_count(const attn_gpt_config *cfg)
{
    size_t count;
    return attn_gpt_shape_ok(cfg, &count) ? 4 + 16 * (size_t)cfg->n_layers : 0;
}

int attn_gpt_tensor_info(const attn_gpt_config *cfg, size_t k, attn_gpt_tensor *t)
{
    size_t tensors = attn_gpt_tensor_count(cfg), layer, at = 0, before;
    if (t == NULL || k >= tensors)
        return ATTN_EINVAL;
    const gpt_row *r = gpt_row_at(cfg, k, &layer);
    for (size_t j = 0; j < k; j++)
        at += gpt_row_size(cfg, gpt_row_at(cfg, j, &before));
    gpt_tensor_name(t->name, sizeof t->name, layer, r->name);
    t->rows = gpt_dim(cfg, r->rows);
    t->cols = gpt_dim(cfg, r->cols);
    t->offset = at;
    t->part = r->part;
    return ATTN_OK;
}

#line 428 "book/11-block.nw"
/* w[k] ← N(0, 0.02²) */
static void gpt_normal(attn_rng *r, float *w, size_t k)
{
    attn_rng_normal(r, w, k);
    for (size_t i = 0; i < k; i++)
        w[i] *= 0.02f;
}

/* 按参数表的顺序：正态的一块抽完再抽下一块；增益填 1，偏置和偏移填 0 */
static void gpt_initial_values(attn_gpt *m, unsigned long long seed)
{
    size_t tensors = 4 + 16 * (size_t)m->cfg.n_layers, layer;
    attn_rng r;
    attn_rng_seed(&r, seed);
    for (size_t k = 0; k < tensors; k++) {
        const gpt_row *row = gpt_row_at(&m->cfg, k, &layer);
        float *w = *gpt_field(m, row, layer);
        size_t n = gpt_row_size(&m->cfg, row);
        if (row->init == GPT_NORMAL)
            gpt_normal(&r, w, n);
        else
            for (size_t i = 0; i < n; i++)
                w[i] = row->init == GPT_ONE ? 1.0f : 0.0f;
    }
}

#line 2156 "book/11-block.nw"
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

#line 2205 "book/11-block.nw"
/* x0 以外的各项，R 行：3·d + 5·hd + 2·d_ff + max(d_ff, hd) 个 float 一行；
   字节数超出 size_t 时为 0（一行的数不会溢出：每一项都不超过参数个数） */
size_t gpt_acts_floats(const attn_gpt_config *c, size_t R)
{
    size_t d = (size_t)c->d_model, hd = (size_t)(c->n_heads * c->d_head), ff = (size_t)c->d_ff;
    size_t total;
    if (__builtin_mul_overflow(R, 3 * d + 5 * hd + 2 * ff + (ff > hd ? ff : hd), &total) ||
        total > SIZE_MAX / sizeof(float))
        return 0;
    return total;
}

gpt_acts gpt_acts_carve(const attn_gpt_config *c, size_t R, float *p)
{
    size_t d = (size_t)c->d_model, hd = (size_t)(c->n_heads * c->d_head), ff = (size_t)c->d_ff;
    gpt_acts A;
    A.x0 = NULL;
    A.a1 = p;     p += R * d;
    A.x1 = p;     p += R * d;
    A.a2 = p;     p += R * d;
    A.q = p;      p += R * hd;
    A.k = p;      p += R * hd;
    A.v = p;      p += R * hd;
    A.att = p;    p += R * hd;
    A.oh = p;     p += R * hd;
    A.h = p;      p += R * ff;
    A.g = p;      p += R * ff;
    A.wide = p;
    return A;
}

#line 531 "book/11-block.nw"
int attn_gpt_embed(const attn_gpt *m, const int *tokens, size_t n, size_t pos0,
                   float *x)
{
#line 1882 "book/11-block.nw"
    if (!attn_gpt_ready(m) || tokens == NULL || x == NULL || n == 0)
        return ATTN_EINVAL;
    if (pos0 > m->cfg.n_ctx || n > m->cfg.n_ctx - pos0)
        return ATTN_EINVAL;
    size_t x_bytes = n * (size_t)m->cfg.d_model * sizeof(float);   /* n ≤ n_ctx：不会溢出 */
    if (attn_overlap(x, x_bytes, m->params, m->n_params * sizeof(float)) ||
        attn_overlap(x, x_bytes, tokens, n * sizeof(int)))
        return ATTN_EINVAL;
    if (!gpt_tokens_ok(m, tokens, n))
        return ATTN_EINVAL;
#line 535 "book/11-block.nw"
    gpt_embed(m, tokens, n, pos0, x);
    return ATTN_OK;
}

void gpt_embed(const attn_gpt *m, const int *tokens, size_t n, size_t pos0, float *x)
{
    size_t d = (size_t)m->cfg.d_model;
    /* x[i][:] = wte[tokens[i]][:] + wpe[pos0 + i][:] */
    for (size_t i = 0; i < n; i++) {
        const float *te = m->wte + (size_t)tokens[i] * d, *pe = m->wpe + (pos0 + i) * d;
        for (size_t j = 0; j < d; j++)
            x[i * d + j] = te[j] + pe[j];
    }
}

#line 692 "book/11-block.nw"
/* y[R×d_out] = x·w + b：第 1 章的乘法，不再检查参数 */
static void gpt_linear(const float *x, const float *w, const float *b, float *y,
                       size_t R, size_t d_in, size_t d_out)
{
    attn_matmul_kernel(x, w, y, R, d_in, d_out);
    for (size_t i = 0; i < R; i++)
        for (size_t j = 0; j < d_out; j++)
            y[i * d_out + j] += b[j];
}

/* oh[b] = attention(qh[b], kh[b], vh[b])，因果；b 走遍 n_seq·H 块，每块 n×dh */
static int gpt_attention(const float *qh, const float *kh, const float *vh, float *oh,
                         const gpt_heads *s, float scale, float *weights)
{
    size_t blocks = s->n_seq * s->H, len = s->n * s->dh;
    attn_problem p = {
        .q = qh, .k = kh, .v = vh, .out = oh, .weights = weights,
        .heads = blocks, .n_q = s->n, .n_k = s->n, .d_k = s->dh, .d_v = s->dh,
        .ld_q = s->dh, .ld_k = s->dh, .ld_v = s->dh, .ld_out = s->dh,
        .head_q = len, .head_k = len, .head_v = len, .head_out = len,
        .scale = scale != 0.0f ? scale : 1.0f / sqrtf((float)s->dh),
        .causal = 1, .threads = 1,
    };
#line 1730 "book/11-block.nw"
    /* 附录 D 在这里把全部块一次交给快速实现 */
#line 1884 "book/D-cpu.nw"
    if (blocks > 1 && weights == NULL)
        p.threads = 0;      /* OpenMP 的缺省线程数，与 attn_sdpa_ex 相同 */
#line 716 "book/11-block.nw"
    return attn_problem_solve(&p);
}

/* 逐词解码：n_seq = n = 1，按头排开就是原样。
   每个头：新的 k、v 存进缓存，q 对缓存做注意力 */
static int gpt_attend_cache(const gpt_acts *A, attn_kv_cache *caches,
                            const gpt_heads *s, float scale)
{
    int st = ATTN_OK;
    for (size_t h = 0; h < s->H && st == ATTN_OK; h++) {
        attn_kv_cache_append_kernel(&caches[h], A->k + h * s->dh, A->v + h * s->dh, 1);
        st = attn_kv_cache_attend_kernel(&caches[h], A->q + h * s->dh, 1, scale,
                                         A->oh + h * s->dh);
    }
    return st;
}

#line 596 "book/11-block.nw"
/* 一个块：A->x0[R×d]（R = n_seq·n）→ x_out[R×d]（可以就是 A->x0）。中间结果写进 A。
   scale 为 0 表示 1/sqrt(d_head)。caches 不为 NULL 时（逐词解码，n_seq = n = 1）：
   这一层各头的缓存。weights 不为 NULL 时：各句各头的注意力模式 [n_seq·H][n][n]。 */
int gpt_block_forward(const attn_gpt *m, size_t layer, size_t n_seq, size_t n,
                      float scale, const gpt_acts *A, attn_kv_cache *caches,
                      float *weights, float *x_out)
{
    const attn_gpt_layer *W = &m->layers[layer];
    size_t R = n_seq * n, d = (size_t)m->cfg.d_model, ff = (size_t)m->cfg.d_ff;
    gpt_heads s = {n_seq, n, (size_t)m->cfg.n_heads, (size_t)m->cfg.d_head};
    size_t hd = s.H * s.dh;
    int st;
#line 619 "book/11-block.nw"
    /* a1 = LN1(x0)；q、k、v = a1·W + b，各自按头排开 */
    st = attn_layernorm_kernel(A->x0, W->ln1_g, W->ln1_b, A->a1, R, d, 1e-5f);
    if (st != ATTN_OK)
        return st;
    const float *w3[3] = {W->w_q, W->w_k, W->w_v}, *b3[3] = {W->b_q, W->b_k, W->b_v};
    float *heads[3] = {A->q, A->k, A->v};
    for (int c = 0; c < 3; c++) {
        gpt_linear(A->a1, w3[c], b3[c], A->wide, R, d, hd);
        gpt_heads_split(A->wide, heads[c], &s);
    }
    /* 每句话的每个头做因果注意力（解码时对缓存做），拼回 att；x1 = x0 + att·W_o + b_o */
    st = caches ? gpt_attend_cache(A, caches, &s, scale)
                : gpt_attention(A->q, A->k, A->v, A->oh, &s, scale, weights);
    if (st != ATTN_OK)
        return st;
    gpt_heads_join(A->oh, A->att, &s);
    gpt_linear(A->att, W->w_o, W->b_o, A->x1, R, hd, d);
    for (size_t i = 0; i < R * d; i++)
        A->x1[i] += A->x0[i];
#line 644 "book/11-block.nw"
    /* a2 = LN2(x1)；h = a2·W_up + b_up，g = GELU(h)；x_out = x1 + g·W_down + b_down */
    st = attn_layernorm_kernel(A->x1, W->ln2_g, W->ln2_b, A->a2, R, d, 1e-5f);
    if (st != ATTN_OK)
        return st;
    gpt_linear(A->a2, W->w_up, W->b_up, A->h, R, d, ff);
    memcpy(A->g, A->h, R * ff * sizeof *A->g);
    attn_gelu_kernel(A->g, R * ff);
    gpt_linear(A->g, W->w_down, W->b_down, x_out, R, ff, d);
    for (size_t i = 0; i < R * d; i++)
        x_out[i] += A->x1[i];
#line 610 "book/11-block.nw"
    return ATTN_OK;
}

#line 554 "book/11-block.nw"
int gpt_logits(const attn_gpt *m, const float *x, size_t n, float *h, float *logits)
{
    size_t d = (size_t)m->cfg.d_model, vocab = (size_t)m->cfg.vocab;
    int status = attn_layernorm_kernel(x, m->lnf_g, m->lnf_b, h, n, d, 1e-5f);
    /* logits[n][vocab] = h[n][d] · wteᵀ：反嵌入与嵌入共用 wte */
    if (status == ATTN_OK)
        status = attn_dot_all(h, m->wte, n, vocab, d, logits);
    return status;
}

#line 2240 "book/11-block.nw"
int attn_gpt_block_weights(const attn_gpt *m, size_t layer, float *x, size_t n, float *weights)
{
#line 1897 "book/11-block.nw"
    size_t bytes, wbytes = 0;
    if (!attn_gpt_ready(m) || x == NULL || n == 0 || n > m->cfg.n_ctx ||
        layer >= m->cfg.n_layers || !attn_bytes2(&bytes, n, (size_t)m->cfg.d_model) ||
        gpt_acts_floats(&m->cfg, n) == 0)
        return ATTN_EINVAL;
    if (weights != NULL && !attn_bytes3(&wbytes, (size_t)m->cfg.n_heads, n, n))
        return ATTN_EINVAL;
    if (attn_overlap(x, bytes, m->params, m->n_params * sizeof(float)) ||
        attn_overlap(weights, wbytes, x, bytes) ||
        attn_overlap(weights, wbytes, m->params, m->n_params * sizeof(float)))
        return ATTN_EINVAL;
#line 2243 "book/11-block.nw"
    float *work = malloc(gpt_acts_floats(&m->cfg, n) * sizeof(float));
    if (work == NULL)
        return ATTN_ENOMEM;
    gpt_acts A = gpt_acts_carve(&m->cfg, n, work);
    A.x0 = x;                              /* 就地：下一层的输入写回 x */
    int status = gpt_block_forward(m, layer, 1, n, 0.0f, &A, NULL, weights, x);
    free(work);
    return status;
}

int attn_gpt_block(const attn_gpt *m, size_t layer, float *x, size_t n)
{
    return attn_gpt_block_weights(m, layer, x, n, NULL);
}

int attn_gpt_logits(const attn_gpt *m, const float *x, size_t n, float *logits)
{
#line 1911 "book/11-block.nw"
    size_t bytes;
    if (!attn_gpt_ready(m) || x == NULL || logits == NULL || n == 0 || n > m->cfg.n_ctx ||
        !attn_bytes2(&bytes, n, (size_t)m->cfg.vocab) ||
        attn_overlap(logits, bytes, m->params, m->n_params * sizeof(float)))
        return ATTN_EINVAL;
#line 2261 "book/11-block.nw"
    float *h = malloc(n * (size_t)m->cfg.d_model * sizeof(float));
    if (h == NULL)
        return ATTN_ENOMEM;
    int status = gpt_logits(m, x, n, h, logits);
    free(h);
    return status;
}

#line 566 "book/11-block.nw"
int attn_gpt_forward(const attn_gpt *m, const int *tokens, size_t n, float *logits)
{
#line 1919 "book/11-block.nw"
    size_t bytes;
    if (!attn_gpt_ready(m) || tokens == NULL || logits == NULL || n == 0 || n > m->cfg.n_ctx ||
        !attn_bytes2(&bytes, n, (size_t)m->cfg.vocab) || gpt_acts_floats(&m->cfg, n) == 0 ||
        gpt_acts_floats(&m->cfg, n) > SIZE_MAX / sizeof(float) - n * (size_t)m->cfg.d_model ||
        attn_overlap(logits, bytes, m->params, m->n_params * sizeof(float)))
        return ATTN_EINVAL;
    if (!gpt_tokens_ok(m, tokens, n))
        return ATTN_EINVAL;
#line 569 "book/11-block.nw"
    size_t d = (size_t)m->cfg.d_model;
    /* 残差流 x[n][d]，后面紧跟各层共用的中间结果 */
    float *x = malloc((n * d + gpt_acts_floats(&m->cfg, n)) * sizeof(float));
    if (x == NULL)
        return ATTN_ENOMEM;
    gpt_acts A = gpt_acts_carve(&m->cfg, n, x + n * d);   /* 各层共用一份中间结果 */
    A.x0 = x;
    gpt_embed(m, tokens, n, 0, x);
    int status = ATTN_OK;
    for (size_t l = 0; l < (size_t)m->cfg.n_layers && status == ATTN_OK; l++)
        status = gpt_block_forward(m, l, 1, n, 0.0f, &A, NULL, NULL, x);
    if (status == ATTN_OK)
        status = gpt_logits(m, x, n, A.a1, logits);       /* a1 用作 LN_f 的输出 */
    free(x);
    return status;
}
