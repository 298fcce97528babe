#line 1764 "book/12-learning.nw"
/* src/train.c — 训练小 GPT：前向时留下中间结果，反向时倒着用各块的反向函数。 */
#include "attn.h"
#include "gpt_shape.h"
#include "internal.h"
#include "train.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#line 1719 "book/12-learning.nw"
/* 附录 D 在这里包含线程要用的头文件 */
#line 1910 "book/D-cpu.nw"
#include "flash_common.h"   /* ATTN_OMP */
#line 1553 "book/12-learning.nw"
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF    /* 见“同样的种子，同样的位”一节 */
#endif

#line 1828 "book/12-learning.nw"
/* 形状：n_seq 句、每句 n 个词，一共 R = n_seq·n 行 */
typedef struct {
    size_t n_seq, n, R, d, H, dh, hd, ff, V, L;
} train_shape;

/* 一层留给反向的中间结果：第 11 章的块的前向写下的那些（wide、oh 各层共用） */
typedef gpt_acts train_layer;

typedef struct {
    float *layers;                 /* L 层挨着放，每层 per_layer 个 float */
    size_t per_layer;
    float *xf, *af;                /* 最后的残差流和 LN_f 的输出：R×d */
    float *wte_t, *dwte_t;         /* wteᵀ 和它的梯度：d×V */
    float *logits;                 /* R×V；算完交叉熵后就地变成 dlogits */
    float *dx, *t1, *t2;           /* 反向时残差流的梯度和两个临时：R×d */
    float *wide;                   /* R×max(d_ff, hd) 的临时 */
    float *oh, *dqh, *dkh, *dvh;   /* 按头排开的临时：R×hd */
} train_bufs;

#line 1379 "book/12-learning.nw"
static train_shape train_shape_of(const attn_gpt_config *c, size_t n_seq, size_t n)
{
    train_shape s = {
        .n_seq = n_seq, .n = n, .R = n_seq * n, .d = (size_t)c->d_model, .H = (size_t)c->n_heads,
        .dh = (size_t)c->d_head, .hd = (size_t)(c->n_heads * c->d_head), .ff = (size_t)c->d_ff,
        .V = (size_t)c->vocab, .L = (size_t)c->n_layers,
    };
    return s;
}

/* *acc += a·b；溢出时返回 0 */
static int add_mul(size_t *acc, size_t a, size_t b)
{
    size_t p;
    return !__builtin_mul_overflow(a, b, &p) && !__builtin_add_overflow(*acc, p, acc);
}

/* 工作区的 float 个数，一层的写进 *per_layer；溢出时返回 0 */
static size_t train_floats(const train_shape *s, size_t *per_layer)
{
    size_t row = 0, total = 0, wide = s->ff > s->hd ? s->ff : s->hd;
    *per_layer = 0;
    if (!add_mul(&row, 4, s->d) || !add_mul(&row, 4, s->hd) || !add_mul(&row, 2, s->ff) ||
        !add_mul(per_layer, row, s->R) || !add_mul(&total, *per_layer, s->L))
        return 0;
    row = 0;
    if (!add_mul(&row, 5, s->d) || !add_mul(&row, 1, wide) || !add_mul(&row, 4, s->hd) ||
        !add_mul(&row, 1, s->V) || !add_mul(&total, row, s->R) ||
        !add_mul(&total, 2 * s->d, s->V) || total > SIZE_MAX / sizeof(float))
        return 0;
    return total;
}

size_t attn_gpt_train_bytes(const attn_gpt_config *cfg, size_t n_seq, size_t n)
{
    size_t count, per_layer;
    if (!attn_gpt_shape_ok(cfg, &count) || n_seq == 0 || n == 0 || n > cfg->n_ctx ||
        n_seq > SIZE_MAX / n)
        return 0;
    train_shape s = train_shape_of(cfg, n_seq, n);
    return train_floats(&s, &per_layer) * sizeof(float);
}

/* 从 p 起依次划出各个缓冲区（p 至少有 train_floats 个 float） */
static train_bufs train_carve(float *p, const train_shape *s)
{
    train_bufs B;
    size_t R = s->R, wide = s->ff > s->hd ? s->ff : s->hd;
    train_floats(s, &B.per_layer);
    B.layers = p;
    p += s->L * B.per_layer;
    B.xf = p;      p += R * s->d;
    B.af = p;      p += R * s->d;
    B.dx = p;      p += R * s->d;
    B.t1 = p;      p += R * s->d;
    B.t2 = p;      p += R * s->d;
    B.wide = p;    p += R * wide;
    B.oh = p;      p += R * s->hd;
    B.dqh = p;     p += R * s->hd;
    B.dkh = p;     p += R * s->hd;
    B.dvh = p;     p += R * s->hd;
    B.logits = p;  p += R * s->V;
    B.wte_t = p;   p += s->d * s->V;
    B.dwte_t = p;
    return B;
}

/* 第 l 层的十样东西 */
static train_layer train_layer_at(const train_bufs *B, const train_shape *s, size_t l)
{
    float *p = B->layers + l * B->per_layer;
    size_t R = s->R;
    train_layer S;
    S.x0 = p;   p += R * s->d;
    S.a1 = p;   p += R * s->d;
    S.x1 = p;   p += R * s->d;
    S.a2 = p;   p += R * s->d;
    S.q = p;    p += R * s->hd;
    S.k = p;    p += R * s->hd;
    S.v = p;    p += R * s->hd;
    S.att = p;  p += R * s->hd;
    S.h = p;    p += R * s->ff;
    S.g = p;
    S.wide = B->wide;     /* 两块临时，各层共用 */
    S.oh = B->oh;
    return S;
}

#line 1854 "book/12-learning.nw"
/* 这一批的头：第 11 章的 gpt_heads */
static gpt_heads train_heads(const train_shape *s)
{
    gpt_heads h = {s->n_seq, s->n, s->H, s->dh};
    return h;
}

/* t[c×r] = a[r×c]ᵀ */
static void transpose(const float *a, size_t r, size_t c, float *t)
{
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < c; j++)
            t[j * r + i] = a[i * c + j];
}

#line 1875 "book/12-learning.nw"
/* 反向：doh[b] → dqh[b]、dkh[b]、dvh[b] */
static int train_attention_backward(const float *qh, const float *kh, const float *vh,
                                    const float *doh, float *dqh, float *dkh, float *dvh,
                                    const train_shape *s, float scale)
{
    size_t blocks = s->n_seq * s->H, len = s->n * s->dh;
    int worst = ATTN_OK;
#line 1715 "book/12-learning.nw"
    /* 附录 D 在这里把各块分给几个线程 */
#line 1914 "book/D-cpu.nw"
    ATTN_OMP("omp parallel for schedule(dynamic, 1) reduction(max:worst) if(blocks * len * s->n >= 1048576)")
#line 1883 "book/12-learning.nw"
    for (size_t b = 0; b < blocks; b++) {
        size_t o = b * len;
        int st = attn_sdpa_backward_kernel(qh + o, kh + o, vh + o, s->n, s->n, s->dh, s->dh,
                                           scale, NULL, 1, doh + o, dqh + o, dkh + o, dvh + o, 1);
        worst = st > worst ? st : worst;
    }
    return worst;
}

#line 697 "book/12-learning.nw"
/* 前向：tokens[R] → B->logits[R×V]，把反向要用的都留在 B 里 */
static int train_forward(const attn_gpt *m, const train_shape *s, const int *tokens,
                         float scale, const train_bufs *B)
{
    size_t R = s->R, d = s->d;
    int st = ATTN_OK;
    /* 第 q 句的第 i 个词：x = wte[词] + wpe[i] */
    float *x = s->L > 0 ? train_layer_at(B, s, 0).x0 : B->xf;
    for (size_t q = 0; q < s->n_seq; q++)
        gpt_embed(m, tokens + q * s->n, s->n, 0, x + q * s->n * d);
    for (size_t l = 0; l < s->L && st == ATTN_OK; l++) {
        train_layer S = train_layer_at(B, s, l);
        float *next = l + 1 < s->L ? train_layer_at(B, s, l + 1).x0 : B->xf;
        st = gpt_block_forward(m, l, s->n_seq, s->n, scale, &S, NULL, NULL, next);
    }
    /* 反嵌入是一个权重为 wteᵀ、没有偏置的线性层：logits = LN_f(xf) · wteᵀ */
    transpose(m->wte, s->V, d, B->wte_t);
    if (st != ATTN_OK ||
        (st = attn_layernorm_kernel(B->xf, m->lnf_g, m->lnf_b, B->af, R, d,
                                    1e-5f)) != ATTN_OK)
        return st;
    return attn_matmul_kernel(B->af, B->wte_t, B->logits, R, d, s->V);
}

#line 735 "book/12-learning.nw"
/* B->logits 里已是 dlogits；梯度加到 grad 上 */
static int train_backward(const attn_gpt *m, const train_shape *s, const int *tokens,
                          float scale, const train_bufs *B, attn_gpt *grad)
{
    size_t R = s->R, d = s->d, hd = s->hd, ff = s->ff, V = s->V;
    gpt_heads hs = train_heads(s);
    int st;
    /* 反嵌入：d_af = dlogits·wte，d(wteᵀ) = afᵀ·dlogits；再经过 LN_f 得到 dx */
    memset(B->dwte_t, 0, d * V * sizeof *B->dwte_t);
    if ((st = attn_linear_backward_kernel(B->af, B->wte_t, B->logits, R, d, V,
                                          B->t1, B->dwte_t, NULL)) != ATTN_OK ||
        (st = attn_layernorm_backward_kernel(B->xf, m->lnf_g, B->t1, R, d, 1e-5f, B->dx,
                                             grad->lnf_g, grad->lnf_b)) != ATTN_OK)
        return st;
    for (size_t v = 0; v < V; v++)
        for (size_t j = 0; j < d; j++)
            grad->wte[v * d + j] += B->dwte_t[j * V + v];
    for (size_t l = s->L; l-- > 0;) {
        const attn_gpt_layer *W = &m->layers[l];
        attn_gpt_layer *G = &grad->layers[l];
        train_layer S = train_layer_at(B, s, l);
#line 773 "book/12-learning.nw"
        /* 前馈支路：dg = dx·W_downᵀ，dh = dg ⊙ GELU'(h)，da2 = dh·W_upᵀ；经过 LN2 加回 dx */
        if ((st = attn_linear_backward_kernel(S.g, W->w_down, B->dx, R, ff, d,
                                              B->wide, G->w_down, G->b_down)) != ATTN_OK)
            return st;
        attn_gelu_backward_kernel(S.h, B->wide, B->wide, R * ff);
        if ((st = attn_linear_backward_kernel(S.a2, W->w_up, B->wide, R, d, ff, B->t1, G->w_up,
                                              G->b_up)) != ATTN_OK ||
            (st = attn_layernorm_backward_kernel(S.x1, W->ln2_g, B->t1, R, d, 1e-5f, B->t2,
                                                 G->ln2_g, G->ln2_b)) != ATTN_OK)
            return st;
        for (size_t i = 0; i < R * d; i++)
            B->dx[i] += B->t2[i];
        /* 注意力支路：datt = dx·W_oᵀ，按头排开，每块注意力的反向 */
        if ((st = attn_linear_backward_kernel(S.att, W->w_o, B->dx, R, hd, d, B->wide, G->w_o,
                                              G->b_o)) != ATTN_OK)
            return st;
        gpt_heads_split(B->wide, B->oh, &hs);
        if ((st = train_attention_backward(S.q, S.k, S.v, B->oh, B->dqh, B->dkh, B->dvh, s,
                                           scale)) != ATTN_OK)
            return st;
        /* da1 = dq·W_qᵀ + dk·W_kᵀ + dv·W_vᵀ（在 t1 里加起来）；经过 LN1 加回 dx */
        const float *w3[3] = {W->w_q, W->w_k, W->w_v}, *dh3[3] = {B->dqh, B->dkh, B->dvh};
        float *gw[3] = {G->w_q, G->w_k, G->w_v}, *gb[3] = {G->b_q, G->b_k, G->b_v};
        for (int c = 0; c < 3; c++) {
            gpt_heads_join(dh3[c], B->wide, &hs);
            if ((st = attn_linear_backward_kernel(S.a1, w3[c], B->wide, R, d, hd,
                                                  c == 0 ? B->t1 : B->t2,
                                                  gw[c], gb[c])) != ATTN_OK)
                return st;
            for (size_t i = 0; c > 0 && i < R * d; i++)
                B->t1[i] += B->t2[i];
        }
        if ((st = attn_layernorm_backward_kernel(S.x0, W->ln1_g, B->t1, R, d, 1e-5f, B->t2,
                                                 G->ln1_g, G->ln1_b)) != ATTN_OK)
            return st;
        for (size_t i = 0; i < R * d; i++)
            B->dx[i] += B->t2[i];
#line 757 "book/12-learning.nw"
    }
    /* 嵌入：wte[第 r 个词] 和 wpe[r 在句中的位置] 各加上 dx[r] */
    for (size_t r = 0; r < R; r++)
        for (size_t j = 0; j < d; j++) {
            grad->wte[(size_t)tokens[r] * d + j] += B->dx[r * d + j];
            grad->wpe[(r % s->n) * d + j] += B->dx[r * d + j];
        }
    return ATTN_OK;
}

#line 1787 "book/12-learning.nw"
int attn_gpt_train_scaled(const attn_gpt *m, const int *tokens, const int *targets,
                          size_t n_seq, size_t n, float scale, float *loss, float *logits,
                          attn_gpt *grad, void *work, size_t work_bytes)
{
    train_shape s;
#line 1342 "book/12-learning.nw"
    if (!attn_gpt_ready(m) || tokens == NULL || targets == NULL || loss == NULL || n_seq == 0 ||
        n == 0 || n > m->cfg.n_ctx || isnan(scale) || isinf(scale) || scale < 0.0f)
        return ATTN_EINVAL;
    size_t bytes = attn_gpt_train_bytes(&m->cfg, n_seq, n), pb = m->n_params * sizeof(float);
    if (bytes == 0)
        return ATTN_EINVAL;
    s = train_shape_of(&m->cfg, n_seq, n);
    size_t tb = s.R * sizeof(int), lb = logits != NULL ? s.R * s.V * sizeof(float) : 0;
    const float *gp = grad != NULL ? grad->params : NULL;
    if (grad != NULL && (!attn_gpt_ready(grad) || memcmp(&grad->cfg, &m->cfg, sizeof m->cfg) != 0))
        return ATTN_EINVAL;
    const void *outs[3] = {gp, logits, loss};
    const size_t ob[3] = {pb, lb, sizeof *loss};
    for (int a = 0; a < 3; a++)
        if (attn_overlap(outs[a], ob[a], m->params, pb) || attn_overlap(outs[a], ob[a], tokens, tb) ||
            attn_overlap(outs[a], ob[a], targets, tb) ||
            (a > 0 && attn_overlap(outs[a], ob[a], outs[0], ob[0])) ||
            (a > 1 && attn_overlap(outs[a], ob[a], outs[1], ob[1])) ||
            (work != NULL && attn_overlap(work, work_bytes, outs[a], ob[a])))
            return ATTN_EINVAL;
    if (work != NULL && (work_bytes < bytes || (uintptr_t)work % sizeof(float) != 0 ||
                         attn_overlap(work, work_bytes, m->params, pb) ||
                         attn_overlap(work, work_bytes, tokens, tb) ||
                         attn_overlap(work, work_bytes, targets, tb)))
        return ATTN_EINVAL;
    for (size_t i = 0; i < s.R; i++)
        if (tokens[i] < 0 || (uint64_t)tokens[i] >= m->cfg.vocab || targets[i] < 0 ||
            (uint64_t)targets[i] >= m->cfg.vocab)
            return ATTN_EINVAL;
#line 1793 "book/12-learning.nw"
    float *own = NULL, *mem = work;
    if (mem == NULL && (mem = own = malloc(bytes)) == NULL)
        return ATTN_ENOMEM;
    train_bufs B = train_carve(mem, &s);
    int st = train_forward(m, &s, tokens, scale, &B);
    if (st == ATTN_OK && logits != NULL)
        memcpy(logits, B.logits, s.R * s.V * sizeof *logits);
    /* 损失是 R 个位置的平均；要梯度时 dlogits 就地写在 logits 上 */
    if (st == ATTN_OK)
        st = attn_cross_entropy_kernel(B.logits, targets, s.R, s.V, loss,
                                       grad != NULL ? B.logits : NULL);
    if (st == ATTN_OK && grad != NULL)
        st = train_backward(m, &s, tokens, scale, &B, grad);
    free(own);
    return st;
}

int attn_gpt_loss_grad_batch(const attn_gpt *m, const int *tokens, const int *targets,
                             size_t n_seq, size_t n, float *loss, attn_gpt *grad,
                             void *work, size_t work_bytes)
{
    return attn_gpt_train_scaled(m, tokens, targets, n_seq, n, 0.0f, loss, NULL, grad, work,
                                 work_bytes);
}

int attn_gpt_loss_grad(const attn_gpt *m, const int *tokens, const int *targets, size_t n,
                       float *loss, attn_gpt *grad)
{
    return attn_gpt_loss_grad_batch(m, tokens, targets, 1, n, loss, grad, NULL, 0);
}
