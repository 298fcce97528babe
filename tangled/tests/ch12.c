#line 3453 "book/12-learning.nw"
#include "attn.h"
#include "attn_core.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#line 2288 "book/12-learning.nw"
/* 随机数填充：x[n] 取 N(0, s²) */
static void fill(attn_rng *r, float *x, size_t n, float s)
{
    attn_rng_normal(r, x, n);
    for (size_t i = 0; i < n; i++)
        x[i] *= s;
}

/* got 与 want（double）的最大差，除以 want 的最大绝对值（至少 1） */
static double grad_err(const float *got, const double *want, size_t n)
{
    double e = 0, m = 1;
    for (size_t i = 0; i < n; i++) {
        double a = fabs((double)got[i] - want[i]);
        if (a > e) e = a;
        if (fabs(want[i]) > m) m = fabs(want[i]);
    }
    return e / m;
}

#define FD_H 1e-6
#define FD_TOL 2e-4
#line 2711 "book/12-learning.nw"
/* double 的参考注意力：out[n_q×d_v]，规则与 attn_sdpa 相同 */
static void sdpa_d(const double *q, const double *k, const double *v, size_t nq, size_t nk,
                   size_t dk, size_t dv, double scale, const unsigned char *mask, int causal,
                   double *out)
{
    double *s = malloc(nk * sizeof *s);
    for (size_t i = 0; i < nq; i++) {
        double m = -INFINITY, z = 0;
        for (size_t j = 0; j < nk; j++) {
            int ok = (mask == NULL || mask[i * nk + j]) && (!causal || j + nq <= i + nk);
            double d = 0;
            for (size_t c = 0; c < dk; c++) d += q[i * dk + c] * k[j * dk + c];
            s[j] = ok ? d * scale : -INFINITY;
            if (s[j] > m) m = s[j];
        }
        for (size_t c = 0; c < dv; c++) out[i * dv + c] = 0;
        if (m == -INFINITY) continue;
        for (size_t j = 0; j < nk; j++) { s[j] = exp(s[j] - m); z += s[j]; }
        for (size_t j = 0; j < nk; j++)
            for (size_t c = 0; c < dv; c++) out[i * dv + c] += s[j] / z * v[j * dv + c];
    }
    free(s);
}

/* 一组注意力的梯度检查；返回 dq、dk、dv 三者最大的相对误差 */
static double sdpa_grad_check(attn_rng *r, size_t nq, size_t nk, size_t dk, size_t dv,
                              float scale, const unsigned char *mask, int causal)
{
    size_t n1 = nq * dk, n2 = nk * dk, n3 = nk * dv, no = nq * dv;
    float *f = malloc((n1 + n2 + n3 + no) * 2 * sizeof *f);
    float *q = f, *k = q + n1, *v = k + n2, *dout = v + n3;
    float *g = dout + no;                          /* dq dk dv dout 的位置 */
    fill(r, f, n1 + n2 + n3 + no, 1);
    CHECK_OK(attn_sdpa_backward(q, k, v, nq, nk, dk, dv, scale, mask, causal, dout,
                                g, g + n1, g + n1 + n2));
    double *d = malloc((n1 + n2 + n3 + no + 2 * (n1 + n2 + n3)) * sizeof *d);
    double *out = d + n1 + n2 + n3, *num = out + no;
    for (size_t i = 0; i < n1 + n2 + n3; i++) d[i] = f[i];
    double sc = scale == 0 ? 1 / sqrt((double)dk) : scale;
    for (size_t i = 0; i < n1 + n2 + n3; i++) {
        double L[2], o = d[i];
        for (int t = 0; t < 2; t++) {
            d[i] = o + (t ? -FD_H : FD_H);
            sdpa_d(d, d + n1, d + n1 + n2, nq, nk, dk, dv, sc, mask, causal, out);
            L[t] = 0;
            for (size_t c = 0; c < no; c++) L[t] += dout[c] * out[c];
        }
        d[i] = o;
        num[i] = (L[0] - L[1]) / (2 * FD_H);
    }
    double e = grad_err(g, num, n1);
    double e2 = grad_err(g + n1, num + n1, n2), e3 = grad_err(g + n1 + n2, num + n1 + n2, n3);
    if (e2 > e) e = e2;
    if (e3 > e) e = e3;
    free(d);
    free(f);
    return e;
}
#line 2772 "book/12-learning.nw"
/* attn_sdpa 交出 P 和 out，attn_sdpa_backward_keep_p 算梯度。*vs_lib 得到它与库里的 attn_sdpa_backward
   的相对差；fd 非零时另和 double 的中心差分比，返回那个相对误差 */
static double keep_p_check(attn_rng *r, size_t nq, size_t nk, size_t dk, size_t dv,
                           const unsigned char *mask, int causal, int fd, double *vs_lib)
{
    size_t n1 = nq * dk, n2 = nk * dk, n3 = nk * dv, no = nq * dv, n = n1 + n2 + n3;
    float *f = malloc((n + 2 * no + nq * nk + 2 * n) * sizeof *f);
    float *q = f, *k = q + n1, *v = k + n2, *dout = v + n3, *out = dout + no, *p = out + no;
    float *g = p + nq * nk, *lib = g + n;
    double *want = malloc((n + no) * sizeof *want), e = 0;
    fill(r, f, n + no, 1);
    CHECK_OK(attn_sdpa(q, k, v, nq, nk, dk, dv, 0, mask, causal, out, p));
    CHECK_OK(attn_sdpa_backward_keep_p(q, k, v, p, out, dout, nq, nk, dk, dv, 0, g, g + n1,
                                       g + n1 + n2));
    CHECK_STATUS(attn_sdpa_backward_keep_p(q, k, v, p, out, dout, nq, nk, dk, dv, 0, q, g + n1,
                                           g + n1 + n2), ATTN_EINVAL);
    CHECK_OK(attn_sdpa_backward(q, k, v, nq, nk, dk, dv, 0, mask, causal, dout, lib, lib + n1,
                                lib + n1 + n2));
    for (size_t i = 0; i < n; i++)
        want[i] = lib[i];
    *vs_lib = grad_err(g, want, n);
    if (fd) {
        double *d = malloc((n + no) * sizeof *d), *o = d + n, sc = 1 / sqrt((double)dk);
        for (size_t i = 0; i < n; i++)
            d[i] = f[i];
        for (size_t i = 0; i < n; i++) {
            double L[2], x = d[i];
            for (int t = 0; t < 2; t++) {
                d[i] = x + (t ? -FD_H : FD_H);
                sdpa_d(d, d + n1, d + n1 + n2, nq, nk, dk, dv, sc, mask, causal, o);
                L[t] = 0;
                for (size_t c = 0; c < no; c++)
                    L[t] += dout[c] * o[c];
            }
            d[i] = x;
            want[i] = (L[0] - L[1]) / (2 * FD_H);
        }
        e = grad_err(g, want, n);
        free(d);
    }
    free(want);
    free(f);
    return e;
}
#line 2316 "book/12-learning.nw"
#ifdef _OPENMP
#include <omp.h>
/* main 之前：库里的并行部分也只用一个线程 */
__attribute__((constructor)) static void ch12_one_thread(void)
{
    omp_set_num_threads(1);
}
#endif

#line 3471 "book/12-learning.nw"
#include "../examples/fluffy_task.h"
#include "../examples/ch12.h"

#line 3303 "book/12-learning.nw"
/* 第 0 层名词那一行注意力的熵（各头平均），对 128 句话取平均；注意力按 scale 缩放 */
static double fluffy_noun_entropy(const attn_gpt *m, float scale)
{
    size_t d = (size_t)m->cfg.d_model, H = (size_t)m->cfg.n_heads, dh = (size_t)m->cfg.d_head;
    float *x = malloc(7 * 4 * d * sizeof *x), w[16];
    if (x == NULL)
        return NAN;
    float *a = x + 4 * d, *q = a + 4 * d, *k = q + 4 * d, *qh = k + 4 * d, *kh = qh + 4 * d;
    float *o = kh + 4 * d;
    const attn_gpt_layer *L = &m->layers[0];
    double e = 0;
    for (int s = 0; s < 128; s++) {
        int tok[FL_LEN];
        fluffy_sentence(s, tok);
        if (attn_gpt_embed(m, tok, 4, 0, x) != ATTN_OK ||
            attn_layernorm(x, L->ln1_g, L->ln1_b, a, 4, d, 1e-5f) != ATTN_OK ||
            attn_linear(a, L->w_q, L->b_q, q, 4, d, d) != ATTN_OK ||
            attn_linear(a, L->w_k, L->b_k, k, 4, d, d) != ATTN_OK) {
            e = NAN;
            break;
        }
        for (size_t h = 0; h < H; h++) {
            for (size_t i = 0; i < 4; i++) {
                memcpy(qh + i * dh, q + i * d + h * dh, dh * sizeof *q);
                memcpy(kh + i * dh, k + i * d + h * dh, dh * sizeof *k);
            }
            if (attn_sdpa(qh, kh, kh, 4, 4, dh, dh, scale, NULL, 1, o, w) != ATTN_OK)
                e = NAN;
            for (int j = 0; j < 4; j++)              /* 名词是第 3 行 */
                if (w[12 + j] > 0)
                    e -= w[12 + j] * log(w[12 + j]) / (128.0 * (double)H);
        }
    }
    free(x);
    return e;
}

/* 第 0 层 W_Q 的梯度（刚走过的那一步）的长度 */
static double wq_grad_norm(const fluffy_trainer *T)
{
    double s = 0;
    size_t d = (size_t)T->m.cfg.d_model;
    for (size_t i = 0; i < d * d; i++)
        s += (double)T->g.layers[0].w_q[i] * T->g.layers[0].w_q[i];
    return sqrt(s);
}

/* 一次缩放实验：宽 64、每层一个头（d_k = 64），训练 steps 步。
   h0、g0：初值时的熵和第 1 步的梯度长度；h1、g1：最后的熵和最后一步的梯度长度；
   loss、acc：最后在留出句子上的检验。 */
typedef struct { double h0, g0, h1, g1; float loss, acc; } scale_run;

static int scale_experiment(unsigned long long seed, float scale, float qk_std, int steps,
                            scale_run *r)
{
    fluffy_shape o = {1, 64, scale, qk_std};
    fluffy_trainer T;
    int st = fluffy_init_shape(&T, seed, &o);
    if (st == ATTN_OK) {
        r->h0 = fluffy_noun_entropy(&T.m, scale);
        for (int s = 0; s < steps; s++) {
            fluffy_step(&T, NULL);
            if (s == 0) r->g0 = wq_grad_norm(&T);
        }
        r->g1 = wq_grad_norm(&T);
        r->h1 = fluffy_noun_entropy(&T.m, scale);
        fluffy_eval_scaled(&T.m, scale, &r->loss, &r->acc);
    }
    fluffy_free(&T);
    return st;
}

#line 3476 "book/12-learning.nw"
int main(void)
{
#line 2327 "book/12-learning.nw"
    check_section("损失：−ln p 的几个数；均匀分布时是 ln V；几个位置取平均");
    {
        CHECK_NEAR(-log(0.7), 0.3567, 5e-5);
        CHECK_NEAR(-log(0.1), 2.3026, 5e-5);
        CHECK_NEAR(log(29.0), 3.3673, 5e-5);
        CHECK_NEAR(exp(log(4.0)), 4, 1e-12);
        /* 同样的数由库算：logits 取 ln p，softmax 就还原出 p */
        float z[6] = {logf(0.7f), logf(0.2f), logf(0.1f), logf(0.7f), logf(0.2f), logf(0.1f)}, loss;
        int t[2] = {0, 2};
        CHECK_OK(attn_cross_entropy(z, t, 1, 3, &loss, NULL));
        CHECK_NEAR(loss, 0.3567, 5e-5);
        CHECK_OK(attn_cross_entropy(z, t + 1, 1, 3, &loss, NULL));
        CHECK_NEAR(loss, 2.3026, 5e-5);
        CHECK_OK(attn_cross_entropy(z, t, 2, 3, &loss, NULL));
        CHECK_NEAR(loss, 1.3296, 5e-5);
        float u[29] = {0};
        CHECK_OK(attn_cross_entropy(u, t, 1, 29, &loss, NULL));
        CHECK_NEAR(loss, 3.3673, 5e-5);
    }
#line 2349 "book/12-learning.nw"
    check_section("梯度下降：L(w) = (w − 3)²，学习率 0.1、0.5、0.9、1、1.1");
    {
        const double lrs[5] = {0.1, 0.5, 0.9, 1.0, 1.1};
        double path[5][11];
        for (int k = 0; k < 5; k++) {
            double w = 0;
            path[k][0] = w;
            for (int t = 1; t <= 10; t++) {
                w -= lrs[k] * 2 * (w - 3);          /* L'(w) = 2(w − 3) */
                path[k][t] = w;
            }
        }
        CHECK_NEAR(path[0][1], 0.6, 1e-12);
        CHECK_NEAR(path[0][2], 1.08, 1e-12);
        CHECK_NEAR(path[0][3], 1.464, 1e-12);
        CHECK_NEAR(path[0][10], 2.6779, 5e-5);
        CHECK_NEAR(3 - 3 * pow(0.8, 10), 2.6779, 5e-5);
        CHECK_NEAR(3 * pow(0.8, 10), 0.3221, 5e-5);
        CHECK_NEAR(path[1][1], 3, 1e-12);
        CHECK_NEAR(path[2][1], 5.4, 1e-12);
        CHECK_NEAR(path[2][2], 1.08, 1e-12);
        CHECK_NEAR(path[2][3], 4.536, 1e-12);
        CHECK_NEAR(path[2][10], 2.6779, 5e-5);
        CHECK_NEAR(path[3][9], 6, 1e-9);
        CHECK_NEAR(path[3][10], 0, 1e-9);
        CHECK_NEAR(path[4][10], -15.5752, 5e-5);
    }
#line 2379 "book/12-learning.nw"
    check_section("梯度下降：L = (x² + 25y²)/2，从 (1, 1) 出发；学习率 0.07、0.08、0.09");
    {
        double w[2] = {1, 1}, v[2] = {0, 0};
        CHECK_NEAR(quad_loss(w, 25), 13, 0);
        quad_momentum_step(w, v, 25, 0.07, 0);
        CHECK_NEAR(w[0], 0.93, 1e-12);
        CHECK_NEAR(w[1], -0.75, 1e-12);
        for (int t = 2; t <= 30; t++)
            quad_momentum_step(w, v, 25, 0.07, 0);
        CHECK_NEAR(w[0], 0.1134, 5e-5);
        CHECK_NEAR(pow(0.93, 30), 0.1134, 5e-5);
        CHECK(fabs(w[1]) < 3e-4);
        CHECK_NEAR(quad_loss(w, 25), 0.00643, 5e-6);
        CHECK(0.5 * w[0] * w[0] / quad_loss(w, 25) > 0.99);   /* 几乎全是 x 贡献的 */
        double u[2] = {1, 1}, z[2] = {1, 1}, vu[2] = {0, 0}, vz[2] = {0, 0};
        for (int t = 1; t <= 60; t++) {
            quad_momentum_step(u, vu, 25, 0.08, 0);
            quad_momentum_step(z, vz, 25, 0.09, 0);
        }
        CHECK_NEAR(fabs(u[1]), 1, 1e-12);                      /* 0.08：来回跳个不停 */
        CHECK(fabs(z[1]) > 1e5);                               /* 0.09：发散 */
        CHECK_NEAR(2.0 / 25, 0.08, 1e-15);
    }
#line 2405 "book/12-learning.nw"
    check_section("动量：β = 0.5 时 20 步、30 步的损失；β = 0.9 时反而不如没有动量");
    {
        double a[2] = {1, 1}, va[2] = {0, 0}, b[2] = {1, 1}, vb[2] = {0, 0}, c[2] = {1, 1};
        double vc[2] = {0, 0};
        double la20 = 0, lb20 = 0;
        for (int t = 1; t <= 30; t++) {
            quad_momentum_step(a, va, 25, 0.07, 0.5);
            quad_momentum_step(b, vb, 25, 0.07, 0.0);
            quad_momentum_step(c, vc, 25, 0.07, 0.9);
            if (t == 20) { la20 = quad_loss(a, 25); lb20 = quad_loss(b, 25); }
        }
        CHECK_REL(la20, 4.32e-4, 5e-3);
        CHECK_REL(lb20, 0.0276, 5e-3);
        CHECK_REL(quad_loss(a, 25), 8.31e-6, 5e-3);
        CHECK_REL(quad_loss(b, 25), 0.00643, 5e-3);
        CHECK(quad_loss(b, 25) / quad_loss(a, 25) > 700);
        CHECK_REL(quad_loss(c, 25), 0.00712, 5e-3);
        CHECK(quad_loss(c, 25) > quad_loss(b, 25));
    }
#line 2427 "book/12-learning.nw"
    check_section("Adam 的偏差校正：第一步 m̂ = g、v̂ = g²；不校正时步子大 3.162 倍");
    {
        CHECK_NEAR(0.1 / sqrt(0.001), 3.162, 5e-4);
        /* 第一步：m = 0.1g，v = 0.001g²；除以 1 − 0.9 和 1 − 0.999 */
        float p[2] = {0, 0}, g[2] = {4, -0.5f}, m[2] = {0}, v[2] = {0};
        CHECK_OK(attn_adamw_step(p, g, m, v, 2, 1, 0.01f, 0.9f, 0.999f, 1e-8f, 0));
        CHECK_NEAR(m[0], 0.4, 1e-6);
        CHECK_NEAR(v[0], 0.016, 1e-6);
        CHECK_NEAR(p[0], -0.01, 1e-8);             /* 步长正好是 lr，方向与 g 相反 */
        CHECK_NEAR(p[1], 0.01, 1e-8);
    }
#line 2441 "book/12-learning.nw"
    check_section("AdamW 第一步：每个参数移动 lr·g/(|g|+eps)，与梯度的大小无关");
    {
        float p[3] = {1, 1, 1}, g[3] = {0.5f, -3, 1e-3f}, mm[3] = {0}, vv[3] = {0};
        CHECK_OK(attn_adamw_step(p, g, mm, vv, 3, 1, 0.1f, 0.9f, 0.999f, 1e-8f, 0));
        CHECK_NEAR(p[0], 0.9, 1e-6);
        CHECK_NEAR(p[1], 1.1, 1e-6);
        CHECK_NEAR(p[2], 0.9, 1e-5);
        CHECK_STATUS(attn_adamw_step(p, g, mm, vv, 3, 0, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
    }
#line 2453 "book/12-learning.nw"
    check_section("Adam：L = (x² + 25y²)/2 上 x、y 走得一模一样；冲过头，第 19 步最低");
    {
        float w[2] = {1, 1}, m[2] = {0}, v[2] = {0};
        float x[31], y[31];
        for (unsigned long t = 1; t <= 30; t++) {
            CHECK_OK(quad_adam_step(w, m, v, 25, 0.1f, t));
            x[t] = w[0];
            y[t] = w[1];
        }
        CHECK_NEAR(x[1], 0.9, 5e-5);
        CHECK_NEAR(x[2], 0.8004, 5e-5);
        CHECK_NEAR(x[3], 0.7016, 5e-5);
        for (int t = 1; t <= 30; t++)
            CHECK_NEAR(y[t], x[t], 1e-6);
        int low = 1;                            /* 30 步里 x 最小的一步 */
        for (int t = 2; t <= 30; t++)
            low = x[t] < x[low] ? t : low;
        CHECK_INT(low, 19);
        CHECK_NEAR(x[19], -0.2731, 5e-5);
    }
#line 2476 "book/12-learning.nw"
    check_section("AdamW 与 L2：空闲的参数（g = 0）一步衰减 η 还是 ηλ；梯度大的参数 L2 几乎不衰减");
    {
        const float lam = 0.01f, lr = 1e-3f;
        /* L2：λw 加进梯度，经过 Adam 的归一化 */
        float w1 = 1, g1 = lam * 1, m1 = 0, v1 = 0;
        CHECK_OK(attn_adamw_step(&w1, &g1, &m1, &v1, 1, 1, lr, 0.9f, 0.999f, 1e-8f, 0));
        CHECK_NEAR(w1, 0.999, 1e-6);
        /* AdamW：先 w ← (1 − ηλ)w，g = 0 不再动 */
        float w2 = 1, g2 = 0, m2 = 0, v2 = 0;
        CHECK_OK(attn_adamw_step(&w2, &g2, &m2, &v2, 1, 1, lr, 0.9f, 0.999f, 1e-8f, lam));
        CHECK_NEAR(w2, 0.99999, 1e-7);
        CHECK_NEAR((1 - w1) / (1 - w2), 100, 1);
        /* 梯度大（g = 10）的参数：L2 的 λw 淹没在 g 里，步子和不衰减时几乎一样 */
        float w3 = 1, g3 = 10 + lam, m3 = 0, v3 = 0, w4 = 1, g4 = 10, m4 = 0, v4 = 0;
        CHECK_OK(attn_adamw_step(&w3, &g3, &m3, &v3, 1, 1, lr, 0.9f, 0.999f, 1e-8f, 0));
        CHECK_OK(attn_adamw_step(&w4, &g4, &m4, &v4, 1, 1, lr, 0.9f, 0.999f, 1e-8f, 0));
        CHECK_NEAR(w3, w4, 1e-7);
    }
#line 2497 "book/12-learning.nw"
    check_section("attn_gpt_adamw_step：矩阵衰减，偏置和层规范化不衰减");
    {
        attn_gpt_config cfg = fluffy_config(2);
        attn_gpt m, g;
        CHECK_OK(attn_gpt_init(&m, &cfg, 1));
        size_t n = m.n_params;
        float *gb = calloc(n, sizeof *gb), *m1 = calloc(n, sizeof *m1), *m2 = calloc(n, sizeof *m2);
        CHECK_OK(attn_gpt_bind(&g, &cfg, gb, n));
        for (size_t i = 0; i < n; i++)
            m.params[i] = 1.0f;
        CHECK_OK(attn_gpt_adamw_step(&m, &g, m1, m2, 1, 1e-3f, 0.9f, 0.999f, 1e-8f, 0.01f));
        const float decayed = 1.0f - 1e-3f * 0.01f;
        CHECK(m.wte[0] == decayed && m.wpe[7] == decayed);
        CHECK(m.layers[1].w_q[0] == decayed && m.layers[0].w_down[5] == decayed);
        CHECK(m.layers[0].w_o[3] == decayed && m.layers[1].w_up[2] == decayed);
        CHECK(m.layers[0].b_q[0] == 1.0f && m.layers[1].b_down[1] == 1.0f);
        CHECK(m.layers[0].ln1_g[0] == 1.0f && m.layers[1].ln2_b[3] == 1.0f);
        CHECK(m.lnf_g[0] == 1.0f && m.lnf_b[31] == 1.0f);
        size_t kept = 0;                       /* 向量一共多少个数 */
        for (size_t i = 0; i < n; i++)
            kept += m.params[i] == 1.0f;
        size_t d = 32, ff = 64;
        CHECK_INT(kept, 2 * (2 * d + 3 * d + d + 2 * d + ff + d) + 2 * d);
        CHECK_INT(n, 18336);                   /* 反向传播一节说的参数个数 */
        CHECK_STATUS(attn_gpt_adamw_step(&m, &m, m1, m2, 2, 1e-3f, 0.9f, 0.999f, 1e-8f, 0.01f),
                     ATTN_EINVAL);
        attn_gpt_free(&g);
        attn_gpt_free(&m);
        free(gb); free(m1); free(m2);
    }
#line 2838 "book/12-learning.nw"
    check_section("学习率：200 步预热到 3e-3，再按余弦在第 10000 步降到 3e-4");
    {
        CHECK_NEAR(lr_warmup_cosine(100, 200, 10000, 3e-3, 3e-4), 1.5e-3, 1e-12);
        CHECK_NEAR(lr_warmup_cosine(200, 200, 10000, 3e-3, 3e-4), 3e-3, 1e-12);
        CHECK_NEAR(lr_warmup_cosine(5100, 200, 10000, 3e-3, 3e-4), 1.65e-3, 1e-12);
        CHECK_NEAR(lr_warmup_cosine(10000, 200, 10000, 3e-3, 3e-4), 3e-4, 1e-12);
        CHECK(lr_warmup_cosine(201, 200, 10000, 3e-3, 3e-4) < 3e-3);
        CHECK(lr_warmup_cosine(5000, 200, 10000, 3e-3, 3e-4) > lr_warmup_cosine(5001, 200, 10000, 3e-3, 3e-4));
    }
#line 2530 "book/12-learning.nw"
    check_section("梯度裁剪：超过上限时，裁剪后的梯度长度正好是上限；clip = 0 时不动");
    {
        fluffy_trainer T;
        CHECK_OK(fluffy_init(&T, 1));
        T.clip = 0.05;                         /* 开始时梯度长度在 1 左右，一定超过它 */
        CHECK(!isnan(fluffy_step(&T, NULL)));
        double after = 0;
        for (size_t i = 0; i < T.m.n_params; i++)
            after += (double)T.grad[i] * T.grad[i];
        CHECK(T.grad_norm > 0.05);
        CHECK_NEAR(sqrt(after), 0.05, 1e-6);
        T.clip = 0;
        CHECK(!isnan(fluffy_step(&T, NULL)));
        after = 0;
        for (size_t i = 0; i < T.m.n_params; i++)
            after += (double)T.grad[i] * T.grad[i];
        CHECK_NEAR(sqrt(after), T.grad_norm, 1e-6 * T.grad_norm);
        fluffy_free(&T);
    }
#line 3377 "book/12-learning.nw"
    check_section("学习率 1e-2，每 100 步检验：种子 1、2、6 裁剪到 1 才全对过，种子 3 反过来");
    if (!check_light("四个种子，裁剪与不裁剪各训练至多 2000 步") &&
        !check_optimized("哪几个种子学会，取决于每一次舍入")) {
        const unsigned long long seeds[4] = {1, 2, 3, 6};
        for (int i = 0; i < 4; i++)
            for (int clip = 0; clip <= 1; clip++) {
                fluffy_trainer T;
                float loss = NAN, acc = 0;
                double top = 0;                /* 裁剪之前梯度最长的一步 */
                int first = 0;                 /* 第一次全对的步数；0：2000 步内没有全对过 */
                CHECK_OK(fluffy_init(&T, seeds[i]));
                T.lr = 1e-2f;
                T.clip = clip;
                for (int s = 1; s <= 2000 && first == 0; s++) {
                    fluffy_step(&T, NULL);
                    top = T.grad_norm > top ? T.grad_norm : top;
                    if (s % 100 == 0) {
                        fluffy_eval(&T.m, &loss, &acc);
                        first = acc == 1.0f ? s : 0;
                    }
                }
                printf("  种子 %llu，clip = %d：第一次全对在第 %d 步，检验损失 %.4f，"
                       "梯度最长 %.1f\n", seeds[i], clip, first, loss, top);
                CHECK((first > 0) == (clip == (seeds[i] != 3)));
                if (first == 0)                /* 没学会的停在 ln 4 附近 */
                    CHECK(fabs(loss - log(4.0)) < 0.25);
                if (seeds[i] == 1 && clip)
                    CHECK(first > 0 && first <= 1000);
                if (seeds[i] == 1 && !clip)    /* 不裁剪时梯度跳到十几、几十 */
                    CHECK(top > 10);
                fluffy_free(&T);
            }
    }
#line 2552 "book/12-learning.nw"
    check_section("注意力 dropout：一个掩码下的一行权重；8 个掩码的期望等于不丢时的输出");
    {
        const double P[3] = {0.2, 0.3, 0.5}, V[3][2] = {{1, 0}, {0, 1}, {2, -1}};
        /* z = (1, 0, 1)，p = 0.5：(0.4, 0, 1.0)，和是 1.4 */
        const double p = 0.5;
        double kept[3], sum = 0;
        for (int j = 0; j < 3; j++) {
            kept[j] = (j != 1) * P[j] / (1 - p);
            sum += kept[j];
        }
        CHECK_NEAR(kept[0], 0.4, 1e-12);
        CHECK_NEAR(kept[1], 0, 0);
        CHECK_NEAR(kept[2], 1.0, 1e-12);
        CHECK_NEAR(sum, 1.4, 1e-12);
        /* 期望：把 8 种掩码按概率加起来，p = 0.5 和 p = 0.1 */
        const double ps[2] = {0.5, 0.1};
        for (int k = 0; k < 2; k++) {
            double ew[3] = {0}, eo[2] = {0}, o[2] = {0};
            for (int z = 0; z < 8; z++) {
                double prob = 1;
                for (int j = 0; j < 3; j++)
                    prob *= (z >> j & 1) ? 1 - ps[k] : ps[k];
                for (int j = 0; j < 3; j++) {
                    double wj = (z >> j & 1) * P[j] / (1 - ps[k]);
                    ew[j] += prob * wj;
                    eo[0] += prob * wj * V[j][0];
                    eo[1] += prob * wj * V[j][1];
                }
            }
            for (int j = 0; j < 3; j++) {
                CHECK_NEAR(ew[j], P[j], 1e-12);
                o[0] += P[j] * V[j][0];
                o[1] += P[j] * V[j][1];
            }
            CHECK_NEAR(eo[0], o[0], 1e-12);
            CHECK_NEAR(eo[1], o[1], 1e-12);
        }
    }
#line 2593 "book/12-learning.nw"
    check_section("线性层的反向：x = (1, 2) 的手算例子");
    {
        float x[2] = {1, 2}, w[6] = {1, 0, -1, 2, 1, 0}, y[3], dy[3] = {1, -1, 0.5f};
        float dx[2], dw[6] = {0}, db[3] = {0};
        CHECK_OK(attn_linear(x, w, NULL, y, 1, 2, 3));
        CHECK(y[0] == 5 && y[1] == 2 && y[2] == -1);
        CHECK_NEAR(dy[0] * y[0] + dy[1] * y[1] + dy[2] * y[2], 2.5, 0);
        CHECK_OK(attn_linear_backward(x, w, dy, 1, 2, 3, dx, dw, db));
        CHECK(dx[0] == 0.5f && dx[1] == 1.0f);
        const float want[6] = {1, -1, 0.5f, 2, -2, 1};
        CHECK(memcmp(dw, want, sizeof want) == 0);
        CHECK(memcmp(db, dy, sizeof db) == 0);
        /* x₀ 挪 h，L 变 0.5h */
        float x2[2] = {1 + 0.25f, 2}, y2[3];
        CHECK_OK(attn_linear(x2, w, NULL, y2, 1, 2, 3));
        CHECK_NEAR(dy[0] * y2[0] + dy[1] * y2[1] + dy[2] * y2[2] - 2.5, 0.5 * 0.25, 1e-7);
    }
#line 2613 "book/12-learning.nw"
    check_section("线性层的梯度：与中心差分一致（double，h = 1e-6）");
    {
        enum { N = 3, DI = 4, DO = 5 };
        attn_rng r;
        attn_rng_seed(&r, 12);
        float x[N * DI], w[DI * DO], b[DO], dy[N * DO];
        fill(&r, x, N * DI, 1); fill(&r, w, DI * DO, 1); fill(&r, b, DO, 1); fill(&r, dy, N * DO, 1);
        float dx[N * DI], dw[DI * DO], db[DO];
        for (int i = 0; i < DI * DO; i++) dw[i] = 1.0f;
        memset(db, 0, sizeof db);
        CHECK_OK(attn_linear_backward(x, w, dy, N, DI, DO, dx, dw, db));
        for (int i = 0; i < DI * DO; i++) dw[i] -= 1.0f;
        /* L = Σ dy ⊙ (x·w + b)，全部用 double 算 */
        double xd[N * DI], wd[DI * DO], bd[DO];
        for (int i = 0; i < N * DI; i++) xd[i] = x[i];
        for (int i = 0; i < DI * DO; i++) wd[i] = w[i];
        for (int i = 0; i < DO; i++) bd[i] = b[i];
    #define LIN_LOSS(out) do { out = 0; \
            for (int i_ = 0; i_ < N; i_++) for (int j_ = 0; j_ < DO; j_++) { \
                double s_ = bd[j_]; \
                for (int k_ = 0; k_ < DI; k_++) s_ += xd[i_ * DI + k_] * wd[k_ * DO + j_]; \
                out += dy[i_ * DO + j_] * s_; } } while (0)
    #define FD_OF(arr, idx, res) do { double p_, m_, o_ = arr[idx]; \
            arr[idx] = o_ + FD_H; LIN_LOSS(p_); arr[idx] = o_ - FD_H; LIN_LOSS(m_); \
            arr[idx] = o_; res = (p_ - m_) / (2 * FD_H); } while (0)
        double gx[N * DI], gw[DI * DO], gb[DO];
        for (int i = 0; i < N * DI; i++) FD_OF(xd, i, gx[i]);
        for (int i = 0; i < DI * DO; i++) FD_OF(wd, i, gw[i]);
        for (int i = 0; i < DO; i++) FD_OF(bd, i, gb[i]);
    #undef FD_OF
    #undef LIN_LOSS
        CHECK(grad_err(dx, gx, N * DI) < FD_TOL);
        CHECK(grad_err(dw, gw, DI * DO) < FD_TOL);
        CHECK(grad_err(db, gb, DO) < FD_TOL);
        /* 实际的误差只是几次 float 舍入，比容差小得多 */
        CHECK(grad_err(dx, gx, N * DI) < 1e-5 && grad_err(dw, gw, DI * DO) < 1e-5);
        /* 一个故意写错的梯度（全 0）会被抓住 */
        float wrong[DI * DO] = {0};
        CHECK(grad_err(wrong, gw, DI * DO) > 0.1);
    }
#line 2656 "book/12-learning.nw"
    check_section("softmax 的梯度：(2, 1, 3) 的手算；等于第 4 章雅可比矩阵的 Jᵀ·dp，也等于中心差分");
    {
        float s3[3] = {2, 1, 3}, dp3[3] = {1, 0, 0}, ds3[3];
        CHECK_OK(attn_softmax(s3, 3));
        CHECK_NEAR(s3[0], 0.2447, 5e-5);
        CHECK_NEAR(s3[1], 0.0900, 5e-5);
        CHECK_NEAR(s3[2], 0.6652, 5e-5);
        CHECK_OK(attn_softmax_backward(s3, dp3, ds3, 3));
        CHECK_NEAR(ds3[0], 0.1848, 5e-5);
        CHECK_NEAR(ds3[1], -0.0220, 5e-5);
        CHECK_NEAR(ds3[2], -0.1628, 5e-5);
        enum { N = 6 };
        attn_rng r;
        attn_rng_seed(&r, 4);
        float s[N], p[N], dp[N], ds[N], jac[N * N], viaj[N];
        fill(&r, s, N, 2); fill(&r, dp, N, 1);
        memcpy(p, s, sizeof p);
        CHECK_OK(attn_softmax(p, N));
        CHECK_OK(attn_softmax_backward(p, dp, ds, N));
        CHECK_OK(attn_softmax_jacobian(p, N, jac));
        for (int j = 0; j < N; j++) {
            double a = 0;
            for (int i = 0; i < N; i++)
                a += (double)jac[i * N + j] * dp[i];
            viaj[j] = (float)a;
        }
        CHECK_ARRAY_NEAR(ds, viaj, N, 1e-6);
        double g[N];
        for (int j = 0; j < N; j++) {
            double L[2];
            for (int sgn = 0; sgn < 2; sgn++) {
                double sd[N], m = -INFINITY, z = 0;
                for (int i = 0; i < N; i++) sd[i] = s[i];
                sd[j] += sgn ? -FD_H : FD_H;
                for (int i = 0; i < N; i++) if (sd[i] > m) m = sd[i];
                for (int i = 0; i < N; i++) z += exp(sd[i] - m);
                L[sgn] = 0;
                for (int i = 0; i < N; i++) L[sgn] += dp[i] * exp(sd[i] - m) / z;
            }
            g[j] = (L[0] - L[1]) / (2 * FD_H);
        }
        CHECK(grad_err(ds, g, N) < FD_TOL);
        /* 梯度之和为 0：所有分数加同一个数，softmax 不变 */
        double sum = 0;
        for (int j = 0; j < N; j++) sum += ds[j];
        CHECK_NEAR(sum, 0, 1e-6);
        /* 就地：ds 就是 dp */
        CHECK_OK(attn_softmax_backward(p, dp, dp, N));
        CHECK_ARRAY_NEAR(dp, ds, N, 0);
    }
#line 2819 "book/12-learning.nw"
    check_section("留着注意力模式的反向：与中心差分、与库里的 attn_sdpa_backward 一致");
    {
        attn_rng r;
        attn_rng_seed(&r, 21);
        double lib;
        CHECK(keep_p_check(&r, 3, 5, 4, 3, NULL, 0, 1, &lib) < FD_TOL);
        CHECK(lib < 1e-5);
        unsigned char mask[3 * 5];
        for (int i = 0; i < 15; i++)
            mask[i] = i >= 5;                  /* 第一行一个键都看不见 */
        CHECK(keep_p_check(&r, 3, 5, 4, 3, mask, 1, 1, &lib) < FD_TOL);
        CHECK(lib < 1e-5);
        /* 够大的问题：库里的反向走附录 D 的快速路径（书只读到本章时走参考版本） */
        keep_p_check(&r, 48, 64, 16, 16, NULL, 1, 0, &lib);
        CHECK(lib < 1e-5);
    }
#line 2850 "book/12-learning.nw"
    check_section("注意力的梯度：与中心差分一致（普通、因果加掩码、跨三块）");
    {
        attn_rng r;
        attn_rng_seed(&r, 3);
        CHECK(sdpa_grad_check(&r, 3, 5, 4, 3, 0.0f, NULL, 0) < FD_TOL);
        /* 因果：3 个查询续在 2 个键之后；掩码让第 0 行一个键都看不见 */
        unsigned char mask[3 * 5];
        for (int i = 0; i < 15; i++) mask[i] = (unsigned char)(i >= 5 || i == 4);
        CHECK(sdpa_grad_check(&r, 3, 5, 4, 3, 0.7f, mask, 1) < FD_TOL);
        CHECK(sdpa_grad_check(&r, 2, 150, 3, 2, 0.0f, NULL, 1) < FD_TOL);
    }
    check_section("注意力的梯度：看不见任何键的行没有贡献；只要一部分梯度");
    {
        float q[2 * 2] = {1, 2, 3, 4}, k[2 * 2] = {1, 0, 0, 1}, v[2 * 2] = {5, 6, 7, 8};
        float dout[2 * 2] = {1, 1, 1, 1}, dq[4], dk[4], dv[4], dv2[4];
        unsigned char mask[4] = {0, 0, 1, 1};     /* 第 0 行一个都看不见 */
        CHECK_OK(attn_sdpa_backward(q, k, v, 2, 2, 2, 2, 0, mask, 0, dout, dq, dk, dv));
        CHECK(dq[0] == 0 && dq[1] == 0);
        /* 第 0 行的 dout 改成什么都不影响结果 */
        dout[0] = 100; dout[1] = -7;
        CHECK_OK(attn_sdpa_backward(q, k, v, 2, 2, 2, 2, 0, mask, 0, dout, NULL, NULL, dv2));
        CHECK_ARRAY_NEAR(dv2, dv, 4, 0);
        /* dv 的每一列之和等于 dout 那一列在看得见的行上的和（每行 P 之和为 1） */
        CHECK_NEAR(dv[0] + dv[2], 1, 1e-6);
    }
#line 2878 "book/12-learning.nw"
    check_section("层规范化的梯度：与中心差分一致；dx 每行之和为 0");
    {
        enum { N = 3, D = 5 };
        attn_rng r;
        attn_rng_seed(&r, 11);
        float x[N * D], gm[D], bt[D], dy[N * D], dx[N * D], dg[D] = {0}, db[D] = {0};
        fill(&r, x, N * D, 2); fill(&r, gm, D, 1); fill(&r, bt, D, 1); fill(&r, dy, N * D, 1);
        const double eps = 1e-5;
        CHECK_OK(attn_layernorm_backward(x, gm, dy, N, D, (float)eps, dx, dg, db));
        double xd[N * D], gd[D], bd[D], nx[N * D], ng[D], nb[D];
        for (int i = 0; i < N * D; i++) xd[i] = x[i];
        for (int i = 0; i < D; i++) { gd[i] = gm[i]; bd[i] = bt[i]; }
    #define LN_LOSS(out) do { out = 0; for (int i_ = 0; i_ < N; i_++) { \
            double mu_ = 0, v_ = 0; \
            for (int j_ = 0; j_ < D; j_++) mu_ += xd[i_ * D + j_]; mu_ /= D; \
            for (int j_ = 0; j_ < D; j_++) v_ += (xd[i_ * D + j_] - mu_) * (xd[i_ * D + j_] - mu_); \
            v_ /= D; \
            for (int j_ = 0; j_ < D; j_++) out += dy[i_ * D + j_] * \
                ((xd[i_ * D + j_] - mu_) / sqrt(v_ + eps) * gd[j_] + bd[j_]); } } while (0)
    #define FD_OF(arr, idx, res) do { double p_, m_, o_ = arr[idx]; \
            arr[idx] = o_ + FD_H; LN_LOSS(p_); arr[idx] = o_ - FD_H; LN_LOSS(m_); \
            arr[idx] = o_; res = (p_ - m_) / (2 * FD_H); } while (0)
        for (int i = 0; i < N * D; i++) FD_OF(xd, i, nx[i]);
        for (int i = 0; i < D; i++) { FD_OF(gd, i, ng[i]); FD_OF(bd, i, nb[i]); }
    #undef FD_OF
    #undef LN_LOSS
        CHECK(grad_err(dx, nx, N * D) < FD_TOL);
        CHECK(grad_err(dg, ng, D) < FD_TOL);
        CHECK(grad_err(db, nb, D) < FD_TOL);
        for (int i = 0; i < N; i++) {
            double s = 0;
            for (int j = 0; j < D; j++) s += dx[i * D + j];
            CHECK_NEAR(s, 0, 1e-5);
        }
        /* 漏掉均值项的“梯度”会被抓住 */
        float wrong[N * D];
        for (int i = 0; i < N * D; i++) wrong[i] = dx[i] + 0.1f;
        CHECK(grad_err(wrong, nx, N * D) > FD_TOL);
    }
#line 2920 "book/12-learning.nw"
    check_section("GELU 的梯度：g'(0) = 1/2，与中心差分一致，两端的极限");
    {
        float x[7] = {-3, -0.75f, -0.1f, 0, 0.5f, 2, 6}, dy[7] = {1, 1, 1, 1, 1, 1, 1}, dx[7];
        CHECK_OK(attn_gelu_backward(x, dy, dx, 7));
        CHECK_NEAR(dx[3], 0.5, 1e-7);
        double num[7];
        for (int i = 0; i < 7; i++) {
            double L[2];
            for (int t = 0; t < 2; t++) {
                double z = x[i] + (t ? -FD_H : FD_H);
                L[t] = 0.5 * z * (1 + tanh(sqrt(2 / M_PI) * (z + 0.044715 * z * z * z)));
            }
            num[i] = (L[0] - L[1]) / (2 * FD_H);
        }
        CHECK(grad_err(dx, num, 7) < FD_TOL);
        CHECK(fabs(dx[1]) < 0.01);         /* 最低点附近 */
        CHECK(dx[0] < 0 && dx[0] > -0.02); /* 最低点左边：小小的负数 */
        float inf[4] = {INFINITY, -INFINITY, -1e30f, 1e30f}, one[4] = {1, 1, 1, 1}, d2[4];
        CHECK_OK(attn_gelu_backward(inf, one, d2, 4));
        CHECK(d2[0] == 1.0f && d2[1] == 0.0f && d2[2] == 0.0f && d2[3] == 1.0f);
    }
#line 2944 "book/12-learning.nw"
    check_section("交叉熵：log-sum-exp 不溢出；梯度是 p − onehot；与中心差分一致；可以就地");
    {
        float z[2] = {1000, 0}, loss, dz[2];
        int t = 1;
        CHECK_OK(attn_cross_entropy(z, &t, 1, 2, &loss, dz));
        CHECK_NEAR(loss, 1000, 1e-3);
        CHECK_NEAR(dz[0], 1, 1e-7);
        CHECK_NEAR(dz[1], -1, 1e-7);
        /* 均匀的 logits：损失是 ln V */
        float u[8] = {0};
        int t2[2] = {0, 3};
        CHECK_OK(attn_cross_entropy(u, t2, 2, 4, &loss, NULL));
        CHECK_NEAR(loss, log(4.0), 1e-6);
        enum { N = 3, V = 5 };
        attn_rng r;
        attn_rng_seed(&r, 5);
        float lg[N * V], g[N * V], inplace[N * V], l2;
        int tg[N] = {4, 0, 2};
        fill(&r, lg, N * V, 2);
        CHECK_OK(attn_cross_entropy(lg, tg, N, V, &loss, g));
        double num[N * V];
        for (int k = 0; k < N * V; k++) {
            double L[2];
            for (int s = 0; s < 2; s++) {
                L[s] = 0;
                for (int i = 0; i < N; i++) {
                    double m = -INFINITY, zs = 0, zi[V];
                    for (int j = 0; j < V; j++) {
                        zi[j] = lg[i * V + j] + (i * V + j == k ? (s ? -FD_H : FD_H) : 0);
                        if (zi[j] > m) m = zi[j];
                    }
                    for (int j = 0; j < V; j++) zs += exp(zi[j] - m);
                    L[s] += (m + log(zs) - zi[tg[i]]) / N;
                }
            }
            num[k] = (L[0] - L[1]) / (2 * FD_H);
        }
        CHECK(grad_err(g, num, N * V) < FD_TOL);
        /* 就地：dlogits 就是 logits，结果一位不差；错开一个数的重叠被拒绝 */
        memcpy(inplace, lg, sizeof lg);
        CHECK_OK(attn_cross_entropy(inplace, tg, N, V, &l2, inplace));
        CHECK(l2 == loss && memcmp(inplace, g, sizeof g) == 0);
        CHECK_STATUS(attn_cross_entropy(lg, tg, N - 1, V, &l2, lg + 1), ATTN_EINVAL);
    }
#line 2991 "book/12-learning.nw"
    check_section("交叉熵：targets 紧跟在 dlogits 后面（首尾相接，不重叠）");
    {
        enum { N = 3, V = 4 };
        float logits[N * V] = {0, 1, 2, 3, 3, 2, 1, 0, 1, 1, 1, 1}, loss;
        union { float f[N * V + N]; int i[N * V + N]; } block;   /* dlogits 之后紧接着 targets */
        float *dlogits = block.f;
        int *targets = block.i + N * V;
        targets[0] = 3; targets[1] = 0; targets[2] = 2;
        CHECK_OK(attn_cross_entropy(logits, targets, N, V, &loss, dlogits));
        CHECK(targets[0] == 3 && targets[1] == 0 && targets[2] == 2);     /* 没有被写坏 */
        CHECK(isfinite(loss));
        /* 真的重叠：targets 从 dlogits 的最后一个数开始 */
        CHECK_STATUS(attn_cross_entropy(logits, block.i + N * V - 1, N, V, &loss, dlogits), ATTN_EINVAL);
    }
#line 3008 "book/12-learning.nw"
    check_section("一次前向的损失之和 = n 次前缀前向的损失之和");
    {
        attn_gpt_config cfg = {0};
        cfg.vocab = 11; cfg.n_ctx = 8; cfg.d_model = 8; cfg.n_layers = 2; cfg.n_heads = 2;
        cfg.d_head = 4; cfg.d_ff = 16; cfg.biases = 1; cfg.layer_norms = 1;
        cfg.learned_positions = 1; cfg.tied = 1;
        attn_gpt m;
        CHECK_OK(attn_gpt_init(&m, &cfg, 7));
        for (size_t i = 0; i < m.n_params; i++)      /* 初值太小，概率几乎均匀；放大一些 */
            m.params[i] *= 20;
        enum { N = 7 };
        int tok[N + 1] = {1, 5, 2, 9, 9, 0, 3, 10};
        float all[N * 11], one[N * 11];
        CHECK_OK(attn_gpt_forward(&m, tok, N, all));
        float whole, part, sum = 0;
        CHECK_OK(attn_cross_entropy(all, tok + 1, N, 11, &whole, NULL));
        for (size_t n = 1; n <= N; n++) {
            CHECK_OK(attn_gpt_forward(&m, tok, n, one));
            CHECK_OK(attn_cross_entropy(one + (n - 1) * 11, tok + n, 1, 11, &part, NULL));
            sum += part;
        }
        CHECK_REL(whole * N, sum, 1e-5);
        CHECK(fabs(whole - log(11.0)) > 0.1);     /* 不是均匀分布下的平凡相等 */
        attn_gpt_free(&m);
    }
#line 3036 "book/12-learning.nw"
    check_section("整个小 GPT 的梯度：训练前向与 attn_gpt_forward 同损失；与有限差分一致");
    {
        attn_gpt_config cfg = {0};
        cfg.vocab = 7; cfg.n_ctx = 6; cfg.d_model = 8; cfg.n_layers = 2; cfg.n_heads = 2;
        cfg.d_head = 4; cfg.d_ff = 12; cfg.biases = 1; cfg.layer_norms = 1;
        cfg.learned_positions = 1; cfg.tied = 1;
        attn_gpt m, g;
        CHECK_OK(attn_gpt_init(&m, &cfg, 3));
        attn_rng r;
        attn_rng_seed(&r, 99);
        fill(&r, m.params, m.n_params, 0.5f);
        float *gb = calloc(m.n_params, sizeof *gb);
        CHECK_OK(attn_gpt_bind(&g, &cfg, gb, m.n_params));
        int tok[5] = {1, 4, 0, 6, 2}, tgt[5] = {4, 0, 6, 2, 5};
        float loss, lg[5 * 7], ref;
        CHECK_OK(attn_gpt_loss_grad(&m, tok, tgt, 5, &loss, &g));
        CHECK_OK(attn_gpt_forward(&m, tok, 5, lg));
        CHECK_OK(attn_cross_entropy(lg, tgt, 5, 7, &ref, NULL));
        CHECK_REL(loss, ref, 1e-5);
        double worst = 0, gmax = 0;
        for (size_t i = 0; i < m.n_params; i++)
            if (fabs(gb[i]) > gmax) gmax = fabs(gb[i]);
        for (size_t i = 0; i < m.n_params; i += 7) {     /* 每 7 个参数查一个，遍及各块 */
            float o = m.params[i], lp, lm;
            m.params[i] = o + 1e-2f;
            CHECK_OK(attn_gpt_loss_grad(&m, tok, tgt, 5, &lp, NULL));
            m.params[i] = o - 1e-2f;
            CHECK_OK(attn_gpt_loss_grad(&m, tok, tgt, 5, &lm, NULL));
            m.params[i] = o;
            double e = fabs((lp - lm) / 2e-2 - gb[i]);
            if (e > worst) worst = e;
        }
        CHECK(worst < 0.02 * gmax);
        CHECK(gmax > 0.01);
        attn_gpt_free(&g);
        attn_gpt_free(&m);
        free(gb);
    }
#line 3077 "book/12-learning.nw"
    check_section("一批 3 句一起算 = 3 句分别算的平均（损失和梯度）；调用者的工作区");
    {
        attn_gpt_config cfg = fluffy_config(2);
        attn_gpt m, g1, g3;
        CHECK_OK(attn_gpt_init(&m, &cfg, 5));
        attn_rng r;
        attn_rng_seed(&r, 6);
        fill(&r, m.params, m.n_params, 0.3f);
        size_t n = m.n_params;
        float *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
        CHECK_OK(attn_gpt_bind(&g1, &cfg, a, n));
        CHECK_OK(attn_gpt_bind(&g3, &cfg, b, n));
        int tok[3 * 4], tgt[3 * 4];
        for (int s = 0; s < 3; s++) {
            int t[FL_LEN];
            fluffy_sentence(17 + 40 * s, t);
            for (int i = 0; i < 4; i++) { tok[s * 4 + i] = t[i]; tgt[s * 4 + i] = t[i + 1]; }
        }
        float l3, l1, mean = 0;
        size_t bytes = attn_gpt_train_bytes(&cfg, 3, 4);
        CHECK(bytes > 0);
        void *work = malloc(bytes);
        CHECK_OK(attn_gpt_loss_grad_batch(&m, tok, tgt, 3, 4, &l3, &g3, work, bytes));
        for (int s = 0; s < 3; s++) {
            CHECK_OK(attn_gpt_loss_grad(&m, tok + 4 * s, tgt + 4 * s, 4, &l1, &g1));
            mean += l1 / 3;
        }
        CHECK_REL(l3, mean, 1e-6);
        double top = 0, diff = 0;
        for (size_t i = 0; i < n; i++) {
            top = fmax(top, fabs(b[i]));
            diff = fmax(diff, fabs(b[i] - a[i] / 3));
        }
        CHECK(top > 0.01 && diff < 1e-5 * top);
        CHECK_STATUS(attn_gpt_loss_grad_batch(&m, tok, tgt, 3, 4, &l3, &g3, work, bytes - 4),
                     ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad_batch(&m, tok, tgt, 3, 4, &l3, &g3, (char *)work + 1,
                                              bytes - 4), ATTN_EINVAL);
        free(work);
        attn_gpt_free(&g1);
        attn_gpt_free(&g3);
        attn_gpt_free(&m);
        free(a); free(b);
    }
#line 3124 "book/12-learning.nw"
    check_section("65 层的模型：attn_gpt_loss_grad 照样算，损失与 attn_gpt_forward 一致；logits 不是有限的数时拒绝");
    {
        attn_gpt_config cfg = {0};
        cfg.vocab = 5; cfg.n_ctx = 4; cfg.d_model = 4; cfg.n_layers = 65; cfg.n_heads = 1;
        cfg.d_head = 4; cfg.d_ff = 4; cfg.biases = 1; cfg.layer_norms = 1;
        cfg.learned_positions = 1; cfg.tied = 1;
        attn_gpt m, g;
        CHECK_OK(attn_gpt_init(&m, &cfg, 2));
        float *gb = calloc(m.n_params, sizeof *gb), loss, ref, lg[3 * 5];
        CHECK_OK(attn_gpt_bind(&g, &cfg, gb, m.n_params));
        int tok[3] = {1, 2, 3}, tgt[3] = {2, 3, 4};
        CHECK_OK(attn_gpt_loss_grad(&m, tok, tgt, 3, &loss, &g));
        CHECK_OK(attn_gpt_forward(&m, tok, 3, lg));
        CHECK_OK(attn_cross_entropy(lg, tgt, 3, 5, &ref, NULL));
        CHECK_REL(loss, ref, 1e-5);
        int nonzero = 0;                               /* 第 0 层也拿到了梯度 */
        for (size_t i = 0; i < 16; i++)
            nonzero += g.layers[0].w_up[i] != 0.0f;
        CHECK(nonzero > 0);
        for (size_t i = 0; i < 4; i++)       /* 只当目标的词 4 的嵌入是无穷大：它的 logit 不是有限的数 */
            m.wte[4 * 4 + i] = INFINITY;
        float before = loss;
        CHECK(attn_gpt_loss_grad(&m, tok, tgt, 3, &loss, &g) == ATTN_EINVAL);
        CHECK(loss == before);
        attn_gpt_free(&g);
        attn_gpt_free(&m);
        free(gb);
    }
#line 3155 "book/12-learning.nw"
    check_section("语言的熵 1.2130；104 句训练句子的条件熵 2.0780、1.3728、1.1937、0，平均 1.1611");
    {
        CHECK_NEAR((log(8.0) + 2 * log(4.0)) / 4, 1.2130, 5e-5);
        CHECK_NEAR(7 * log(2.0) / 4, 1.2130, 5e-5);
        int train[128 * FL_LEN], count = 0;
        for (int s = 0; s < 128; s++)
            if (!fluffy_held_out(s)) {
                fluffy_sentence(s, train + FL_LEN * count);
                count++;
            }
        CHECK_INT(count, 104);
        /* 第 pos 个词的条件熵：对每个训练句子，−ln（同前缀的句子里下一个词也相同的比例），取平均 */
        const double want[4] = {2.0780, 1.3728, 1.1937, 0};
        double all = 0;
        for (int pos = 1; pos < FL_LEN; pos++) {
            double h = 0;
            for (int a = 0; a < count; a++) {
                int same_prefix = 0, same_next = 0;
                for (int b = 0; b < count; b++) {
                    if (memcmp(train + FL_LEN * a, train + FL_LEN * b, pos * sizeof(int)) != 0)
                        continue;
                    same_prefix++;
                    same_next += train[FL_LEN * a + pos] == train[FL_LEN * b + pos];
                }
                h -= log((double)same_next / same_prefix) / count;
            }
            CHECK_NEAR(h, want[pos - 1], 5e-5);
            all += h / 4;
        }
        CHECK_NEAR(all, 1.1611, 5e-5);
        /* 32 种两个形容词的开头，训练句子里跟着几个不同的名词：4 个的 10 种，3 个的 20 种，2 个的 2 种 */
        int kinds[5] = {0};                 /* 第 s 句：s = 质地 + 4·颜色 + 16·名词 + 64·顺序 */
        for (int order = 0; order < 2; order++)
            for (int tex = 0; tex < 4; tex++)
                for (int col = 0; col < 4; col++) {
                    int seen = 0;
                    for (int noun = 0; noun < 4; noun++)
                        seen += !fluffy_held_out(tex + 4 * col + 16 * noun + 64 * order);
                    kinds[seen]++;
                }
        CHECK_INT(kinds[4], 10);
        CHECK_INT(kinds[3], 20);
        CHECK_INT(kinds[2], 2);
    }
#line 3202 "book/12-learning.nw"
    check_section("留出的 24 句：每句对调形容词就是一句训练句子；每对颜色、名词在训练中出现 6 或 7 次");
    {
        int held = 0, lo = 99, hi = 0;
        for (int s = 0; s < 128; s++) {
            if (!fluffy_held_out(s))
                continue;
            held++;
            CHECK(!fluffy_held_out(s ^ 64));           /* 第 s ^ 64 句：同样的词，形容词对调 */
            int a[FL_LEN], b[FL_LEN];
            fluffy_sentence(s, a);
            fluffy_sentence(s ^ 64, b);
            CHECK(a[1] == b[2] && a[2] == b[1] && a[3] == b[3] && a[4] == b[4]);
            int pair = 0;                              /* 同样的颜色和名词（也就是同样的动词） */
            for (int t = 0; t < 128; t++) {
                int c[FL_LEN];
                fluffy_sentence(t, c);
                pair += !fluffy_held_out(t) && c[4] == a[4];
            }
            lo = pair < lo ? pair : lo;
            hi = pair > hi ? pair : hi;
        }
        CHECK_INT(held, 24);
        CHECK_INT(lo, 6);
        CHECK_INT(hi, 7);
    }
#line 3230 "book/12-learning.nw"
    check_section("训练后：检验损失和准确率；训练句子上的损失约 1.22；名词的查询找到颜色");
    if (!check_light("种子 1 训练 2000 步")) {
        double col, tex, low;
        fluffy_trainer T;
        float loss, acc, w[2 * 2 * 16];
        CHECK_OK(fluffy_init(&T, 1));
        float first;
        fluffy_eval(&T.m, &first, &acc);
        CHECK_NEAR(first, 3.3856, 5e-5);
        int diverged = 0;
        for (int s = 0; s < 2000; s++)
            diverged |= isnan(fluffy_step(&T, NULL));
        CHECK(!diverged);
        /* 下面的界都留了余地：换一种舍入，数会变，这些话仍然成立 */
        fluffy_eval(&T.m, &loss, &acc);
        CHECK_NEAR(acc, 1.0, 0);
        CHECK(loss < 0.02);
        /* 104 句训练句子上的平均损失（4 个位置）：约 1.22，比 1.2130 略高，远高于训练句子的条件熵 1.1611 */
        int in[104 * 4], out[104 * 4], c = 0;
        for (int s = 0; s < 128; s++) {
            int tok[FL_LEN];
            if (fluffy_held_out(s))
                continue;
            fluffy_sentence(s, tok);
            for (int i = 0; i < 4; i++) { in[c * 4 + i] = tok[i]; out[c * 4 + i] = tok[i + 1]; }
            c++;
        }
        float train_loss;
        CHECK_OK(attn_gpt_loss_grad_batch(&T.m, in, out, 104, 4, &train_loss, NULL, NULL, 0));
        printf("  训练句子上的平均损失 %.4f\n", train_loss);
        CHECK(train_loss > 1.1611 && fabs(train_loss - 1.22) < 0.02);
        size_t head = fluffy_colour_head(&T.m, 0);
        fluffy_colour_share(&T.m, 0, head, &col, &tex, &low);
        printf("  第 0 层最看重颜色的头 %zu：颜色 %.2f，质地 %.2f\n", head, col, tex);
        CHECK(col > 0.4 && col > 1.5 * tex);
        CHECK(fluffy_held_out(0) && !fluffy_held_out(64));
        for (int e = 0; e < 2; e++) {                  /* 图里的两句：最后一行的最大值在 blue 上 */
            int tok[FL_LEN], blue = e ? 1 : 2;
            fluffy_sentence(e ? 64 : 0, tok);
            CHECK(tok[blue] == FL_COL && tok[3 - blue] == FL_TEX && tok[3] == FL_NOUN);
            fluffy_patterns(&T.m, tok, 4, w);
            const float *row = w + head * 16 + 12;
            for (int j = 0; j < 4; j++)
                if (j != blue) CHECK(row[j] < row[blue]);
        }
        fluffy_free(&T);
    }
#line 3280 "book/12-learning.nw"
    check_section("种子 3 和种子 4：仍然全对，第 0 层仍有一个头主要看颜色");
    if (!check_light("种子 3 和种子 4 各训练一次")) {
        for (unsigned long long seed = 3; seed <= 4; seed++) {
            fluffy_trainer T;
            float loss, acc;
            double col, tex, low;
            CHECK_OK(fluffy_init(&T, seed));
            for (int s = 0; s < 2000; s++)
                fluffy_step(&T, NULL);
            fluffy_eval(&T.m, &loss, &acc);
            CHECK_NEAR(acc, 1.0, 0);
            CHECK(loss < 0.02);
            fluffy_colour_share(&T.m, 0, fluffy_colour_head(&T.m, 0), &col, &tex, &low);
            printf("  种子 %llu：第 0 层最看重颜色的头，颜色 %.2f，质地 %.2f\n", seed, col, tex);
            CHECK(col > 0.4 && col > 1.5 * tex);
            fluffy_free(&T);
        }
    }
#line 3413 "book/12-learning.nw"
    check_section("不缩放（d_k = 64）：初值时梯度大 √d_k 倍；训练中冲进饱和，梯度变小，学不会");
    if (!check_light("缩放与不缩放各训练几次")) {
        CHECK_NEAR(0.02 * sqrt(64.0), 0.16, 1e-12);
        CHECK_NEAR(0.16 * 0.16 * sqrt(64.0), 0.2, 0.005);
        CHECK_NEAR(0.2 / 8, 0.026, 0.001);
        CHECK_NEAR(log(4.0), 1.386, 5e-4);
        scale_run a, b;                   /* a：缩放；b：不缩放 */
        for (unsigned long long seed = 1; seed <= 3; seed++) {
            /* GPT-2 的初值：都没有饱和，梯度差 8 倍左右 */
            CHECK_OK(scale_experiment(seed, 0.0f, 0.0f, 1, &a));
            CHECK_OK(scale_experiment(seed, 1.0f, 0.0f, 1, &b));
            CHECK(a.h0 > 1.35 && b.h0 > 1.35);
            CHECK(b.g0 / a.g0 > 6 && b.g0 / a.g0 < 10);
            /* 查询、键的分量方差为 1：不缩放时已近饱和，梯度却更大 */
            CHECK_OK(scale_experiment(seed, 0.0f, 0.125f, 1, &a));
            CHECK_OK(scale_experiment(seed, 1.0f, 0.125f, 1, &b));
            CHECK(a.h0 > 1.0 && b.h0 < 0.6);
            CHECK(b.g0 > a.g0);
        }
        for (unsigned long long seed = 2; seed <= 3; seed++) {
            CHECK_OK(scale_experiment(seed, 0.0f, 0.0f, 300, &a));
            CHECK_OK(scale_experiment(seed, 1.0f, 0.0f, 300, &b));
            CHECK(a.h1 > 1.3 && a.g1 > a.g0 && a.acc == 1.0f);
            CHECK(b.h1 < 0.2 && b.g1 < b.g0 && b.acc < 0.5f);
            CHECK(b.g1 < 1e-2 * b.g0);     /* 优化的构建里约 1e-3 和 4e-5，-O0 的构建里约 2e-4 和 4e-3 */
        }
    }
#line 3443 "book/12-learning.nw"
    check_section("练习 5：质地固定在前时，语言的熵是 1.5 ln 2");
    {
        CHECK_NEAR(3 * log(4.0) / 4, 1.0397, 5e-5);
        CHECK_NEAR(1.5 * log(2.0), 1.0397, 5e-5);
    }
#line 3510 "book/12-learning.nw"
    return check_summary("ch12");
}
