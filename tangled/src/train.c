#line 1546 "book/12-learning.nw"
#include "attn.h"
#include "attn_core.h"
#include "internal.h"
#include "train.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#line 1676 "book/12-learning.nw"
#if defined(__GNUC__) && defined(__x86_64__)
#define TRAIN_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define TRAIN_CLONES
#endif

typedef float train_v8 __attribute__((vector_size(32)));

/* c 的 R 行 × 8·NV 列（R ≤ 4，NV ≤ 2）：和留在寄存器里，t 走完才写回 */
static inline __attribute__((always_inline))
void mm_tile(const float *a, size_t ars, size_t acs, const float *b, size_t ldb,
             float *c, size_t ldc, size_t k, int acc, size_t R, size_t NV)
{
    train_v8 s[4][2];
    for (size_t r = 0; r < R; r++)
        for (size_t v = 0; v < NV; v++) {
            if (acc)
                memcpy(&s[r][v], c + r * ldc + 8 * v, sizeof s[r][v]);
            else
                s[r][v] = (train_v8){0};
        }
    for (size_t t = 0; t < k; t++) {
        train_v8 bv[2];
        for (size_t v = 0; v < NV; v++)
            memcpy(&bv[v], b + t * ldb + 8 * v, sizeof bv[v]);
        for (size_t r = 0; r < R; r++) {
            float ar = a[r * ars + t * acs];
            for (size_t v = 0; v < NV; v++)
                s[r][v] += ar * bv[v];
        }
    }
    for (size_t r = 0; r < R; r++)
        for (size_t v = 0; v < NV; v++)
            memcpy(c + r * ldc + 8 * v, &s[r][v], sizeof s[r][v]);
}

/* c 的第 j0 列起 8·NV 列，全部的行：4 行一块，剩下的 1～3 行各成一块 */
static inline __attribute__((always_inline))
void mm_cols(const float *a, size_t ars, size_t acs, const float *b, size_t ldb,
             float *c, size_t ldc, size_t m, size_t k, int acc, size_t NV)
{
    size_t i = 0;
    for (; i + 4 <= m; i += 4)
        mm_tile(a + i * ars, ars, acs, b, ldb, c + i * ldc, ldc, k, acc, 4, NV);
    switch (m - i) {
    case 3: mm_tile(a + i * ars, ars, acs, b, ldb, c + i * ldc, ldc, k, acc, 3, NV); break;
    case 2: mm_tile(a + i * ars, ars, acs, b, ldb, c + i * ldc, ldc, k, acc, 2, NV); break;
    case 1: mm_tile(a + i * ars, ars, acs, b, ldb, c + i * ldc, ldc, k, acc, 1, NV); break;
    default: break;
    }
}

/* 运行时挑选的版本是 static 的：target_clones 生成的入口会无视 -fvisibility=hidden 而对外导出 */
TRAIN_CLONES
static void mm_any(const float *a, size_t ars, size_t acs, const float *b, size_t ldb,
                   float *c, size_t ldc, size_t m, size_t k, size_t n, int acc)
{
    size_t j = 0;
    for (; j + 16 <= n; j += 16)
        mm_cols(a, ars, acs, b + j, ldb, c + j, ldc, m, k, acc, 2);
    for (; j + 8 <= n; j += 8)
        mm_cols(a, ars, acs, b + j, ldb, c + j, ldc, m, k, acc, 1);
    /* 不足 8 列：标量，累加的顺序与上面相同 */
    for (size_t i = 0; i < m; i++)
        for (size_t jj = j; jj < n; jj++) {
            float s = acc ? c[i * ldc + jj] : 0.0f;
            for (size_t t = 0; t < k; t++)
                s += a[i * ars + t * acs] * b[t * ldb + jj];
            c[i * ldc + jj] = s;
        }
}

void train_mm(const float *a, size_t ars, size_t acs, const float *b, size_t ldb,
              float *c, size_t ldc, size_t m, size_t k, size_t n, int acc)
{
    mm_any(a, ars, acs, b, ldb, c, ldc, m, k, n, acc);
}

/* wt[c×r] = w[r×c]ᵀ */
static void transpose(const float *w, size_t r, size_t c, float *wt)
{
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < c; j++)
            wt[j * r + i] = w[i * c + j];
}

/* y[R×dout] = x[R×din]·w + b */
static void lin_fwd(const float *x, const float *w, const float *b, float *y,
                    size_t R, size_t din, size_t dout)
{
    for (size_t i = 0; i < R; i++)
        memcpy(y + i * dout, b, dout * sizeof *y);
    train_mm(x, din, 1, w, dout, y, dout, R, din, dout, 1);
}

/* 线性层的反向：dx (acc_dx ? += : =) dy·wᵀ（wᵀ 先放进 wt）；dw += xᵀ·dy；db += Σ dy */
static void lin_bwd(const float *x, const float *w, const float *dy, size_t R, size_t din,
                    size_t dout, float *dx, int acc_dx, float *dw, float *db, float *wt)
{
    transpose(w, din, dout, wt);
    train_mm(dy, dout, 1, wt, din, dx, din, R, dout, din, acc_dx);
    train_mm(x, 1, din, dy, dout, dw, dout, din, R, dout, 1);
    for (size_t i = 0; i < R; i++)
        for (size_t j = 0; j < dout; j++)
            db[j] += dy[i * dout + j];
}

#line 1788 "book/12-learning.nw"
/* 一层留给反向的中间结果，每个都是 R 行 */
typedef struct {
    float *x0, *a1, *q, *k, *v, *att, *x1, *a2, *gh, *gs;
} train_layer;

enum { TRAIN_MAX_LAYERS = 64 };

typedef struct {
    train_layer S[TRAIN_MAX_LAYERS];
    float *xf, *af, *dx, *t1, *t2, *logits, *dlogits, *dq, *dk, *dv, *wt;
    float *qh, *kh, *vh, *oh, *gq, *gk, *gv;       /* 一个头、一句话：n×dh */
} train_bufs;

void train_work_free(train_work *w)
{
    free(w->mem);
    free(w->scratch);
    memset(w, 0, sizeof *w);
}

/* 按形状在工作区里划出各个缓冲区；不够大就重新分配 */
static int train_work_carve(train_work *w, train_bufs *B, size_t L, size_t R, size_t n,
                            size_t d, size_t hd, size_t dh, size_t ff, size_t V)
{
    if (L > TRAIN_MAX_LAYERS)
        return ATTN_EINVAL;
    size_t wide = d > hd ? d : hd, big = ff > V ? ff : V;
    if (wide > big) big = wide;
    /* 每行的 float 个数，和不随 R 变的部分；都用 64 位检查溢出 */
    uint64_t per_row = (uint64_t)L * (4 * d + 4 * hd + 2 * ff) + 3 * d + 2 * big + 2 * V + 3 * hd;
    uint64_t fixed = 7 * (uint64_t)n * dh + (uint64_t)big * wide;
    uint64_t total;
    if (__builtin_mul_overflow(per_row, (uint64_t)R, &total) ||
        __builtin_add_overflow(total, fixed, &total) || total > SIZE_MAX / sizeof(float))
        return ATTN_EINVAL;
    if (total > w->cap) {
        free(w->mem);
        w->mem = malloc((size_t)total * sizeof(float));
        w->cap = w->mem ? (size_t)total : 0;
        if (w->mem == NULL)
            return ATTN_ENOMEM;
    }
    attn_problem pr = {.heads = 1, .n_q = n, .n_k = n, .d_k = dh, .d_v = dh, .threads = 1};
    size_t sb = (attn_problem_scratch_bytes(&pr) + 63) / 64 * 64;
    if (sb > w->scratch_bytes) {
        free(w->scratch);
        w->scratch = aligned_alloc(64, sb);
        w->scratch_bytes = w->scratch ? sb : 0;
        if (w->scratch == NULL)
            return ATTN_ENOMEM;
    }
    float *p = w->mem;
#define TAKE(k) (p += (k), p - (k))
    for (size_t l = 0; l < L; l++) {
        train_layer *s = &B->S[l];
        s->x0 = TAKE(R * d);  s->a1 = TAKE(R * d);
        s->q = TAKE(R * hd);  s->k = TAKE(R * hd);  s->v = TAKE(R * hd);
        s->att = TAKE(R * hd);
        s->x1 = TAKE(R * d);  s->a2 = TAKE(R * d);
        s->gh = TAKE(R * ff); s->gs = TAKE(R * ff);
    }
    B->xf = TAKE(R * d); B->af = TAKE(R * d); B->dx = TAKE(R * d);
    B->t1 = TAKE(R * big); B->t2 = TAKE(R * big);
    B->logits = TAKE(R * V); B->dlogits = TAKE(R * V);
    B->dq = TAKE(R * hd); B->dk = TAKE(R * hd); B->dv = TAKE(R * hd);
    B->qh = TAKE(n * dh); B->kh = TAKE(n * dh); B->vh = TAKE(n * dh); B->oh = TAKE(n * dh);
    B->gq = TAKE(n * dh); B->gk = TAKE(n * dh); B->gv = TAKE(n * dh);
    B->wt = TAKE(big * wide);
#undef TAKE
    return ATTN_OK;
}

/* 把 src 里第 s 句、第 h 个头的 n×dh 取出来，或放回 */
static void head_get(const float *src, float *dst, size_t n, size_t hd, size_t dh,
                     size_t s, size_t h)
{
    for (size_t i = 0; i < n; i++)
        memcpy(dst + i * dh, src + (s * n + i) * hd + h * dh, dh * sizeof *dst);
}
static void head_put(float *dst, const float *src, size_t n, size_t hd, size_t dh,
                     size_t s, size_t h)
{
    for (size_t i = 0; i < n; i++)
        memcpy(dst + (s * n + i) * hd + h * dh, src + i * dh, dh * sizeof *dst);
}

#line 1560 "book/12-learning.nw"
int train_loss_grad(const attn_gpt *m, const int *tokens, const int *targets,
                    size_t n_seq, size_t n, float scale, double *loss_sum, float *logits_out,
                    attn_gpt *grad, float gscale, train_work *work)
{
    if (m == NULL || m->params == NULL || m->layers == NULL || tokens == NULL ||
        targets == NULL || loss_sum == NULL)
        return ATTN_EINVAL;
    const attn_gpt_config *c = &m->cfg;
    if (n == 0 || n > c->n_ctx || n_seq == 0 || isnan(scale) || isinf(scale) || scale < 0.0f ||
        c->n_heads * c->d_head != c->d_model)
        return ATTN_EINVAL;
    if (grad != NULL && (grad->params == NULL || grad->layers == NULL ||
                         grad->n_params != m->n_params || memcmp(&grad->cfg, c, sizeof *c) != 0 ||
                         grad->params == m->params))
        return ATTN_EINVAL;
    size_t R;                                      /* 一共 R = n_seq·n 行 */
    if (__builtin_mul_overflow(n_seq, n, &R))
        return ATTN_EINVAL;
    for (size_t i = 0; i < R; i++)
        if (tokens[i] < 0 || (uint64_t)tokens[i] >= c->vocab ||
            targets[i] < 0 || (uint64_t)targets[i] >= c->vocab)
            return ATTN_EINVAL;
    size_t d = (size_t)c->d_model, L = (size_t)c->n_layers, H = (size_t)c->n_heads;
    size_t dh = (size_t)c->d_head, hd = H * dh, ff = (size_t)c->d_ff, V = (size_t)c->vocab;
    float sc = scale == 0.0f ? 1.0f / sqrtf((float)dh) : scale;
    train_work own = {0};
    if (work == NULL)
        work = &own;
    train_bufs B;
    int st = train_work_carve(work, &B, L, R, n, d, hd, dh, ff, V);
    if (st != ATTN_OK)
        goto done;
#define TRY(call) do { if ((st = (call)) != ATTN_OK) goto done; } while (0)
#line 1883 "book/12-learning.nw"
    /* x[s·n + i] = wte[tokens[s·n + i]] + wpe[i] */
    float *x = L ? B.S[0].x0 : B.xf;
    for (size_t r = 0; r < R; r++)
        for (size_t j = 0; j < d; j++)
            x[r * d + j] = m->wte[(size_t)tokens[r] * d + j] + m->wpe[(r % n) * d + j];
    for (size_t l = 0; l < L; l++) {
        const attn_gpt_layer *W = &m->layers[l];
        train_layer *s = &B.S[l];
        float *next = l + 1 < L ? B.S[l + 1].x0 : B.xf;
        TRY(attn_layernorm(s->x0, W->ln1_g, W->ln1_b, s->a1, R, d, 1e-5f));
        lin_fwd(s->a1, W->w_q, W->b_q, s->q, R, d, hd);
        lin_fwd(s->a1, W->w_k, W->b_k, s->k, R, d, hd);
        lin_fwd(s->a1, W->w_v, W->b_v, s->v, R, d, hd);
        for (size_t q0 = 0; q0 < n_seq; q0++) {
            size_t o = q0 * n * hd;
            attn_problem pr = {
                .q = s->q + o, .k = s->k + o, .v = s->v + o, .out = s->att + o,
                .heads = H, .n_q = n, .n_k = n, .d_k = dh, .d_v = dh,
                .ld_q = hd, .ld_k = hd, .ld_v = hd, .ld_out = hd,
                .head_q = dh, .head_k = dh, .head_v = dh, .head_out = dh,
                .scale = sc, .causal = 1, .threads = 1, .scratch = work->scratch,
            };
            TRY(attn_problem_solve(&pr));
        }
        /* x1 = x0 + att·W_o + b_o */
        lin_fwd(s->att, W->w_o, W->b_o, s->x1, R, hd, d);
        for (size_t i = 0; i < R * d; i++) s->x1[i] += s->x0[i];
        TRY(attn_layernorm(s->x1, W->ln2_g, W->ln2_b, s->a2, R, d, 1e-5f));
        lin_fwd(s->a2, W->w_up, W->b_up, s->gh, R, d, ff);
        /* gh ← gelu(gh)，gs = gelu'(原来的 gh) */
        for (size_t i = 0; i < R * ff; i++) {
            const float cg = 0.7978845608f;
            float h = s->gh[i], u = cg * (h + 0.044715f * h * h * h);
            float sg = 1.0f / (1.0f + expf(-2.0f * u));
            s->gh[i] = h * sg;
            s->gs[i] = sg + 2.0f * h * sg * (1.0f - sg) * cg * (1.0f + 3.0f * 0.044715f * h * h);
        }
        /* x2 = x1 + gelu(h)·W_down + b_down */
        lin_fwd(s->gh, W->w_down, W->b_down, next, R, ff, d);
        for (size_t i = 0; i < R * d; i++) next[i] += s->x1[i];
    }
    TRY(attn_layernorm(B.xf, m->lnf_g, m->lnf_b, B.af, R, d, 1e-5f));
    /* logits[R][V] = af · wteᵀ */
    transpose(m->wte, V, d, B.wt);
    float *logits = logits_out != NULL ? logits_out : B.logits;
    train_mm(B.af, d, 1, B.wt, V, logits, V, R, d, V, 0);
#line 1935 "book/12-learning.nw"
    double total = 0;
    for (size_t r = 0; r < R; r++) {
        const float *z = logits + r * V;
        float *e = B.dlogits + r * V;
        float mx = z[0];
        for (size_t j = 0; j < V; j++) {
            if (!isfinite(z[j])) {
                st = ATTN_EINVAL;
                goto done;
            }
            mx = z[j] > mx ? z[j] : mx;
        }
        double sum = 0;
        for (size_t j = 0; j < V; j++) {
            e[j] = expf(z[j] - mx);
            sum += e[j];
        }
        total += (double)mx + log(sum) - (double)z[targets[r]];
        /* dz = gscale·(p − onehot) */
        float k = (float)(gscale / sum);
        for (size_t j = 0; j < V; j++) e[j] *= k;
        e[targets[r]] -= gscale;
    }
    *loss_sum = total;
#line 1595 "book/12-learning.nw"
    if (grad != NULL) {
#line 1966 "book/12-learning.nw"
        float *dx = B.dx, *t1 = B.t1, *t2 = B.t2;
        /* 反嵌入 logits = af·wteᵀ：d_af = dlogits·wte，d_wte += dlogitsᵀ·af */
        train_mm(B.dlogits, V, 1, m->wte, d, t2, d, R, V, d, 0);
        train_mm(B.dlogits, 1, V, B.af, d, grad->wte, d, V, R, d, 1);
        TRY(attn_layernorm_backward(B.xf, m->lnf_g, t2, R, d, 1e-5f, dx, grad->lnf_g, grad->lnf_b));
        for (size_t l = L; l-- > 0;) {
            const attn_gpt_layer *W = &m->layers[l];
            attn_gpt_layer *G = &grad->layers[l];
            train_layer *s = &B.S[l];
            /* 前馈支路 */
            lin_bwd(s->gh, W->w_down, dx, R, ff, d, t1, 0, G->w_down, G->b_down, B.wt);
            for (size_t i = 0; i < R * ff; i++) t1[i] *= s->gs[i];
            lin_bwd(s->a2, W->w_up, t1, R, d, ff, t2, 0, G->w_up, G->b_up, B.wt);
            TRY(attn_layernorm_backward(s->x1, W->ln2_g, t2, R, d, 1e-5f, t1, G->ln2_g, G->ln2_b));
            for (size_t i = 0; i < R * d; i++) dx[i] += t1[i];
            /* 注意力支路 */
            lin_bwd(s->att, W->w_o, dx, R, hd, d, t1, 0, G->w_o, G->b_o, B.wt);
            for (size_t q0 = 0; q0 < n_seq; q0++)
                for (size_t h = 0; h < H; h++) {
                    head_get(s->q, B.qh, n, hd, dh, q0, h);
                    head_get(s->k, B.kh, n, hd, dh, q0, h);
                    head_get(s->v, B.vh, n, hd, dh, q0, h);
                    head_get(t1, B.oh, n, hd, dh, q0, h);
                    TRY(attn_sdpa_backward(B.qh, B.kh, B.vh, n, n, dh, dh, sc, NULL, 1, B.oh,
                                           B.gq, B.gk, B.gv));
                    head_put(B.dq, B.gq, n, hd, dh, q0, h);
                    head_put(B.dk, B.gk, n, hd, dh, q0, h);
                    head_put(B.dv, B.gv, n, hd, dh, q0, h);
                }
            /* d_a1 = dq·W_qᵀ + dk·W_kᵀ + dv·W_vᵀ，三项加在 t1 上 */
            lin_bwd(s->a1, W->w_q, B.dq, R, d, hd, t1, 0, G->w_q, G->b_q, B.wt);
            lin_bwd(s->a1, W->w_k, B.dk, R, d, hd, t1, 1, G->w_k, G->b_k, B.wt);
            lin_bwd(s->a1, W->w_v, B.dv, R, d, hd, t1, 1, G->w_v, G->b_v, B.wt);
            TRY(attn_layernorm_backward(s->x0, W->ln1_g, t1, R, d, 1e-5f, t2, G->ln1_g, G->ln1_b));
            for (size_t i = 0; i < R * d; i++) dx[i] += t2[i];
        }
        /* 嵌入：d_wte[tokens[r]] += dx[r]，d_wpe[r mod n] += dx[r] */
        for (size_t r = 0; r < R; r++)
            for (size_t j = 0; j < d; j++) {
                grad->wte[(size_t)tokens[r] * d + j] += dx[r * d + j];
                grad->wpe[(r % n) * d + j] += dx[r * d + j];
            }
#line 1597 "book/12-learning.nw"
    }
#undef TRY
done:
    train_work_free(&own);
    return st;
}

int attn_gpt_loss_grad(const attn_gpt *m, const int *tokens, const int *targets, size_t n,
                       float *loss, attn_gpt *grad)
{
    if (loss == NULL || n == 0)
        return ATTN_EINVAL;
    double sum;
    int st = train_loss_grad(m, tokens, targets, 1, n, 0.0f, &sum, NULL, grad,
                             1.0f / (float)n, NULL);
    if (st == ATTN_OK)
        *loss = (float)(sum / (double)n);
    return st;
}

#line 2014 "book/12-learning.nw"
/* p、m、v 各走一遍（参数已经查过）；和 mm_any 一样，运行时挑选的版本是 static 的 */
TRAIN_CLONES
static void adamw_all(float *p, const float *g, float *m, float *v, size_t n, float decay,
                      float step, float rs2, float b1, float b2, float eps)
{
    for (size_t i = 0; i < n; i++) {
        float gi = g[i];
        m[i] = b1 * m[i] + (1.0f - b1) * gi;
        v[i] = b2 * v[i] + (1.0f - b2) * gi * gi;
        p[i] = p[i] * decay - step * m[i] / (sqrtf(v[i]) * rs2 + eps);
    }
}

int attn_adamw_step(float *p, const float *g, float *m, float *v, size_t n, unsigned long t,
                    float lr, float beta1, float beta2, float eps, float weight_decay)
{
    if (p == NULL || g == NULL || m == NULL || v == NULL || n == 0 || t == 0)
        return ATTN_EINVAL;
    if (!(lr >= 0) || !(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1) ||
        !(eps > 0) || !(weight_decay >= 0) || isinf(lr) || isinf(eps) || isinf(weight_decay))
        return ATTN_EINVAL;
    /* p −= lr·m̂/(sqrt(v̂) + eps)，m̂ = m/c1，sqrt(v̂) = sqrt(v)/sqrt(c2) */
    double c1 = 1 - pow(beta1, (double)t), c2 = 1 - pow(beta2, (double)t);
    adamw_all(p, g, m, v, n, 1.0f - lr * weight_decay, (float)(lr / c1), (float)(1.0 / sqrt(c2)),
              beta1, beta2, eps);
    return ATTN_OK;
}
