#line 1556 "book/12-learning.nw"
#include "attn.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 一层留给反向的中间结果，每个都是 n 行 */
typedef struct {
    float *x0, *a1, *q, *k, *v, *att, *x1, *a2, *h, *gh;
} train_layer;

/* 把 [n×hd] 里第 h 个头的列取出成 [n×dh]，或放回（加上） */
static void head_get(const float *src, float *dst, size_t n, size_t hd, size_t dh, size_t h)
{
    for (size_t i = 0; i < n; i++)
        memcpy(dst + i * dh, src + i * hd + h * dh, dh * sizeof *dst);
}
static void head_put(float *dst, const float *src, size_t n, size_t hd, size_t dh, size_t h)
{
    for (size_t i = 0; i < n; i++)
        memcpy(dst + i * hd + h * dh, src + i * dh, dh * sizeof *dst);
}

int attn_gpt_loss_grad(const attn_gpt *m, const int *tokens, const int *targets, size_t n,
                       float *loss, attn_gpt *grad)
{
    if (m == NULL || m->params == NULL || tokens == NULL || targets == NULL || loss == NULL)
        return ATTN_EINVAL;
    const attn_gpt_config *c = &m->cfg;
    if (n == 0 || n > c->n_ctx)
        return ATTN_EINVAL;
    if (grad != NULL && (grad->params == NULL || grad->n_params != m->n_params ||
                         memcmp(&grad->cfg, c, sizeof *c) != 0 || grad->params == m->params))
        return ATTN_EINVAL;
    for (size_t i = 0; i < n; i++)
        if (tokens[i] < 0 || (uint64_t)tokens[i] >= c->vocab ||
            targets[i] < 0 || (uint64_t)targets[i] >= c->vocab)
            return ATTN_EINVAL;
    size_t d = (size_t)c->d_model, L = (size_t)c->n_layers, H = (size_t)c->n_heads;
    size_t dh = (size_t)c->d_head, hd = H * dh, ff = (size_t)c->d_ff, V = (size_t)c->vocab;
    size_t per_layer = n * (5 * d + 4 * hd + 2 * ff);
    size_t total = L * per_layer + n * (3 * d + 2 * V + 3 * hd + 2 * ff) + 6 * n * dh;
    float *work = calloc(total, sizeof *work);
    train_layer *S = calloc(L ? L : 1, sizeof *S);
    if (work == NULL || S == NULL) {
        free(work);
        free(S);
        return ATTN_ENOMEM;
    }
    float *p = work;
#define TAKE(k) (p += (k), p - (k))
    for (size_t l = 0; l < L; l++) {
        S[l].x0 = TAKE(n * d);  S[l].a1 = TAKE(n * d);
        S[l].q = TAKE(n * hd);  S[l].k = TAKE(n * hd);  S[l].v = TAKE(n * hd);
        S[l].att = TAKE(n * hd);
        S[l].x1 = TAKE(n * d);  S[l].a2 = TAKE(n * d);
        S[l].h = TAKE(n * ff);  S[l].gh = TAKE(n * ff);
    }
    float *xf = TAKE(n * d), *af = TAKE(n * d), *dx = TAKE(n * d);
    float *logits = TAKE(n * V), *dlogits = TAKE(n * V);
    float *dq = TAKE(n * hd), *dk = TAKE(n * hd), *dv = TAKE(n * hd);
    float *t1 = TAKE(n * ff), *t2 = TAKE(n * ff);
    float *qh = TAKE(n * dh), *kh = TAKE(n * dh), *vh = TAKE(n * dh);
    float *oh = TAKE(n * dh), *gk = TAKE(n * dh), *gv = TAKE(n * dh);
#undef TAKE
    int st = ATTN_OK;
#define TRY(call) do { if ((st = (call)) != ATTN_OK) goto done; } while (0)
#line 1659 "book/12-learning.nw"
    /* x[i] = wte[tokens[i]] + wpe[i] */
    float *x = L ? S[0].x0 : xf;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d; j++)
            x[i * d + j] = m->wte[(size_t)tokens[i] * d + j] + m->wpe[i * d + j];
    for (size_t l = 0; l < L; l++) {
        const attn_gpt_layer *W = &m->layers[l];
        train_layer *s = &S[l];
        float *next = l + 1 < L ? S[l + 1].x0 : xf;
        TRY(attn_layernorm(s->x0, W->ln1_g, W->ln1_b, s->a1, n, d, 1e-5f));
        TRY(attn_linear(s->a1, W->w_q, W->b_q, s->q, n, d, hd));
        TRY(attn_linear(s->a1, W->w_k, W->b_k, s->k, n, d, hd));
        TRY(attn_linear(s->a1, W->w_v, W->b_v, s->v, n, d, hd));
        for (size_t h = 0; h < H; h++) {
            head_get(s->q, qh, n, hd, dh, h);
            head_get(s->k, kh, n, hd, dh, h);
            head_get(s->v, vh, n, hd, dh, h);
            TRY(attn_sdpa(qh, kh, vh, n, n, dh, dh, 0.0f, NULL, 1, oh, NULL));
            head_put(s->att, oh, n, hd, dh, h);
        }
        /* x1 = x0 + att·W_o + b_o */
        TRY(attn_linear(s->att, W->w_o, W->b_o, s->x1, n, hd, d));
        for (size_t i = 0; i < n * d; i++) s->x1[i] += s->x0[i];
        TRY(attn_layernorm(s->x1, W->ln2_g, W->ln2_b, s->a2, n, d, 1e-5f));
        TRY(attn_linear(s->a2, W->w_up, W->b_up, s->h, n, d, ff));
        memcpy(s->gh, s->h, n * ff * sizeof *s->gh);
        TRY(attn_gelu(s->gh, n * ff));
        /* x2 = x1 + gelu(h)·W_down + b_down */
        TRY(attn_linear(s->gh, W->w_down, W->b_down, next, n, ff, d));
        for (size_t i = 0; i < n * d; i++) next[i] += s->x1[i];
    }
    TRY(attn_layernorm(xf, m->lnf_g, m->lnf_b, af, n, d, 1e-5f));
    /* logits[n][V] = af · wteᵀ */
    for (size_t i = 0; i < n; i++)
        for (size_t t = 0; t < V; t++) {
            double acc = 0;
            for (size_t j = 0; j < d; j++) acc += (double)af[i * d + j] * m->wte[t * d + j];
            logits[i * V + t] = (float)acc;
        }
#line 1625 "book/12-learning.nw"
    TRY(attn_cross_entropy(logits, targets, n, V, loss, grad ? dlogits : NULL));
    if (grad != NULL) {
#line 1704 "book/12-learning.nw"
        /* 反嵌入 logits = af·wteᵀ：d_af = dlogits·wte，d_wte += dlogitsᵀ·af */
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < d; j++) {
                double acc = 0;
                for (size_t t = 0; t < V; t++) acc += (double)dlogits[i * V + t] * m->wte[t * d + j];
                t2[i * d + j] = (float)acc;
            }
        for (size_t i = 0; i < n; i++)
            for (size_t t = 0; t < V; t++) {
                float g = dlogits[i * V + t];
                for (size_t j = 0; j < d; j++) grad->wte[t * d + j] += g * af[i * d + j];
            }
        TRY(attn_layernorm_backward(xf, m->lnf_g, t2, n, d, 1e-5f, dx, grad->lnf_g, grad->lnf_b));
        for (size_t l = L; l-- > 0;) {
            const attn_gpt_layer *W = &m->layers[l];
            attn_gpt_layer *G = &grad->layers[l];
            train_layer *s = &S[l];
            /* 前馈支路 */
            TRY(attn_linear_backward(s->gh, W->w_down, dx, n, ff, d, t1, G->w_down, G->b_down));
            TRY(attn_gelu_backward(s->h, t1, t1, n * ff));
            TRY(attn_linear_backward(s->a2, W->w_up, t1, n, d, ff, t2, G->w_up, G->b_up));
            TRY(attn_layernorm_backward(s->x1, W->ln2_g, t2, n, d, 1e-5f, t1, G->ln2_g, G->ln2_b));
            for (size_t i = 0; i < n * d; i++) dx[i] += t1[i];
            /* 注意力支路 */
            TRY(attn_linear_backward(s->att, W->w_o, dx, n, hd, d, t1, G->w_o, G->b_o));
            for (size_t h = 0; h < H; h++) {
                head_get(s->q, qh, n, hd, dh, h);
                head_get(s->k, kh, n, hd, dh, h);
                head_get(s->v, vh, n, hd, dh, h);
                head_get(t1, oh, n, hd, dh, h);
                float *gq = t2;          /* n×dh，t2 此刻空闲 */
                TRY(attn_sdpa_backward(qh, kh, vh, n, n, dh, dh, 0.0f, NULL, 1, oh, gq, gk, gv));
                head_put(dq, gq, n, hd, dh, h);
                head_put(dk, gk, n, hd, dh, h);
                head_put(dv, gv, n, hd, dh, h);
            }
            TRY(attn_linear_backward(s->a1, W->w_q, dq, n, d, hd, t1, G->w_q, G->b_q));
            TRY(attn_linear_backward(s->a1, W->w_k, dk, n, d, hd, t2, G->w_k, G->b_k));
            for (size_t i = 0; i < n * d; i++) t1[i] += t2[i];
            TRY(attn_linear_backward(s->a1, W->w_v, dv, n, d, hd, t2, G->w_v, G->b_v));
            for (size_t i = 0; i < n * d; i++) t1[i] += t2[i];
            TRY(attn_layernorm_backward(s->x0, W->ln1_g, t1, n, d, 1e-5f, t2, G->ln1_g, G->ln1_b));
            for (size_t i = 0; i < n * d; i++) dx[i] += t2[i];
        }
        /* 嵌入：d_wte[tokens[i]] += dx[i]，d_wpe[i] += dx[i] */
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < d; j++) {
                grad->wte[(size_t)tokens[i] * d + j] += dx[i * d + j];
                grad->wpe[i * d + j] += dx[i * d + j];
            }
#line 1628 "book/12-learning.nw"
    }
#undef TRY
done:
    free(work);
    free(S);
    return st;
}

int attn_adamw_step(float *p, const float *g, float *m, float *v, size_t n, unsigned long t,
                    float lr, float beta1, float beta2, float eps, float weight_decay)
{
    if (p == NULL || g == NULL || m == NULL || v == NULL || n == 0 || t == 0)
        return ATTN_EINVAL;
    if (!(lr >= 0) || !(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1) ||
        !(eps > 0) || !(weight_decay >= 0) || isinf(lr) || isinf(eps) || isinf(weight_decay))
        return ATTN_EINVAL;
    double c1 = 1 - pow(beta1, (double)t), c2 = 1 - pow(beta2, (double)t);
    for (size_t i = 0; i < n; i++) {
        p[i] -= lr * weight_decay * p[i];
        m[i] = beta1 * m[i] + (1 - beta1) * g[i];
        v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
        double mh = m[i] / c1, vh = v[i] / c2;
        p[i] -= (float)(lr * mh / (sqrt(vh) + eps));
    }
    return ATTN_OK;
}
