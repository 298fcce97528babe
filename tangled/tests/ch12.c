#line 3072 "book/12-learning.nw"
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

#line 33 "book/12-learning.nw"
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
#line 492 "book/12-learning.nw"
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
#line 2824 "book/12-learning.nw"
#ifdef _OPENMP
#include <omp.h>
/* main 之前：库里的注意力也只用一个线程 */
__attribute__((constructor)) static void ch12_one_thread(void)
{
    omp_set_num_threads(1);
}
#endif

#line 3089 "book/12-learning.nw"
#include "../src/fluffy_task.h"

#line 2751 "book/12-learning.nw"
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
        attn_gpt_embed(m, tok, 4, 0, x);
        attn_layernorm(x, L->ln1_g, L->ln1_b, a, 4, d, 1e-5f);
        attn_linear(a, L->w_q, L->b_q, q, 4, d, d);
        attn_linear(a, L->w_k, L->b_k, k, 4, d, d);
        for (size_t h = 0; h < H; h++) {
            for (size_t i = 0; i < 4; i++) {
                memcpy(qh + i * dh, q + i * d + h * dh, dh * sizeof *q);
                memcpy(kh + i * dh, k + i * d + h * dh, dh * sizeof *k);
            }
            attn_sdpa(qh, kh, kh, 4, 4, dh, dh, scale, NULL, 1, o, w);
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
        s += (double)T->g[0].layers[0].w_q[i] * T->g[0].layers[0].w_q[i];
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
    int st = fluffy_init_shape(&T, seed, 1, &o);
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

#line 3093 "book/12-learning.nw"
int main(void)
{
#line 158 "book/12-learning.nw"
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
        /* 一个故意写错的梯度（dW 转置前的 dy 换成 0）会被抓住 */
        float wrong[DI * DO] = {0};
        CHECK(grad_err(wrong, gw, DI * DO) > 0.1);
    }
#line 236 "book/12-learning.nw"
    check_section("softmax 的梯度：等于第 4 章雅可比矩阵的 Jᵀ·dp，也等于中心差分");
    {
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
#line 553 "book/12-learning.nw"
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
#line 924 "book/12-learning.nw"
    check_section("快速的反向传播：n = 16384 时额外的内存");
    {
        size_t bytes = attn_flash_backward_bytes(16384, 16384, 64, 64, 1);
        /* o、qt、qp、dot、dop、dq 各 16384×64 个 float，每行 4 个数，一小块工作区 */
        CHECK_INT((size_t)16384 * 64 * 4, (size_t)4 << 20);
        CHECK(bytes > (size_t)24 << 20);
        CHECK(bytes < (size_t)25 << 20);
        CHECK(bytes < (size_t)64 << 20);
        CHECK_INT(attn_flash_backward_bytes(0, 16, 64, 64, 1), 0);
        CHECK_INT(attn_flash_backward_bytes(16, 16, 64, 64, -1), 0);
        CHECK_INT(attn_flash_backward_bytes(SIZE_MAX, 16, 64, 64, 1), 0);
    }
#line 1098 "book/12-learning.nw"
    check_section("快速的反向传播与参考版本一致（每一种指令集）");
    {
        size_t shapes[][4] = {   /* n_q, n_k, d_k, d_v */
            {1, 1, 1, 1}, {3, 5, 4, 3}, {65, 63, 17, 33}, {200, 130, 8, 20}, {130, 200, 64, 64},
            {400, 389, 3, 48},
        };
        size_t n_shapes = sizeof shapes / sizeof shapes[0];
        attn_rng r;
        attn_rng_seed(&r, 21);
        for (int isa = 0; isa < ATTN_ISA_COUNT; isa++) {
            if (!attn_isa_available(isa)) {
                printf("  跳过 %s：这台机器或这个构建没有它\n", attn_isa_name(isa));
                continue;
            }
            CHECK_OK(attn_isa_force(isa));
            double worst = 0.0;
            int all_ok = 1, partial_same = 1;
            for (size_t s = 0; s < n_shapes; s++)
                for (int variant = 0; variant < 4; variant++) {
                    size_t n_q = shapes[s][0], n_k = shapes[s][1], d_k = shapes[s][2], d_v = shapes[s][3];
                    int causal = variant & 1;
#line 1185 "book/12-learning.nw"
                    size_t n1 = n_q * d_k, n2 = n_k * d_k, n3 = n_k * d_v, no = n_q * d_v;
                    float *f = malloc((n1 + n2 + n3 + no + 2 * (n1 + n2 + n3) + n2) * sizeof *f);
                    float *q = f, *k = q + n1, *v = k + n2, *dout = v + n3;
                    float *g1 = dout + no, *g2 = g1 + n1 + n2 + n3, *g3 = g2 + n1 + n2 + n3;
                    fill(&r, f, n1 + n2 + n3 + no, 1);
                    /* 显式掩码（variant 2、3）：大约五分之一的位置不许看，第 2 行整行不许看 */
                    unsigned char *mask = NULL;
                    if (variant >> 1) {
                        mask = malloc(n_q * n_k);
                        for (size_t x = 0; x < n_q * n_k; x++)
                            mask[x] = (x * 7 + x / n_k) % 5 != 0 && x / n_k != 2;
                    }
#line 1120 "book/12-learning.nw"
                    all_ok &= attn_sdpa_backward_reference(q, k, v, n_q, n_k, d_k, d_v, 0.0f, mask,
                                                           causal, dout, g1, g1 + n1, g1 + n1 + n2) == ATTN_OK;
                    all_ok &= attn_flash_backward(q, k, v, n_q, n_k, d_k, d_v, 1.0f / sqrtf((float)d_k),
                                                  mask, causal, dout, g2, g2 + n1, g2 + n1 + n2, 1) == ATTN_OK;
                    double top = 0.0;
                    for (size_t x = 0; x < n1 + n2 + n3; x++)
                        top = fmax(top, fabs(g1[x]));
                    for (size_t x = 0; x < n1 + n2 + n3; x++)
                        worst = fmax(worst, fabs(g1[x] - g2[x]) / fmax(top, 1e-30));
                    /* 只要 dk：和全要时的 dk 一样 */
                    all_ok &= attn_flash_backward(q, k, v, n_q, n_k, d_k, d_v, 1.0f / sqrtf((float)d_k),
                                                  mask, causal, dout, NULL, g3, NULL, 1) == ATTN_OK;
                    partial_same &= memcmp(g3, g2 + n1, n2 * sizeof *g3) == 0;
                    free(f);
                    free(mask);
                }
            printf("  %s：梯度的最大相对差 %.2g\n", attn_isa_name(isa), worst);
            CHECK(all_ok);
            CHECK(partial_same);
            CHECK(worst < 2e-5);
        }
        CHECK_OK(attn_isa_force(-1));
    }
    check_section("attn_sdpa_backward 在大一些的问题上走快速实现");
    {
        size_t n_q = 130, n_k = 200, d = 16, n1 = n_q * d, n2 = n_k * d, n3 = n_k * d;
        float *f = malloc((n1 + n2 + n3 + n1 + 2 * (n1 + n2 + n3)) * sizeof *f);
        float *q = f, *k = q + n1, *v = k + n2, *dout = v + n3, *a = dout + n1, *b = a + n1 + n2 + n3;
        attn_rng r;
        attn_rng_seed(&r, 8);
        fill(&r, f, n1 + n2 + n3 + n1, 1);
        CHECK(130 * 200 >= 192 * 96);
        CHECK_OK(attn_sdpa_backward(q, k, v, n_q, n_k, d, d, 0.0f, NULL, 1, dout, a, a + n1, a + n1 + n2));
        CHECK(attn_flash_backward(q, k, v, n_q, n_k, d, d, 0.25f, NULL, 1, dout, b, b + n1, b + n1 + n2, 1) == ATTN_OK);
        CHECK(memcmp(a, b, (n1 + n2 + n3) * sizeof *a) == 0);
        free(f);
    }
    check_section("快速的反向传播：两个线程");
    {
        size_t n_q = 500, n_k = 450, d = 32, n1 = n_q * d, n2 = n_k * d, n3 = n_k * d;
        float *f = malloc((n1 + n2 + n3 + n1 + 3 * (n1 + n2 + n3)) * sizeof *f);
        float *q = f, *k = q + n1, *v = k + n2, *dout = v + n3;
        float *a = dout + n1, *b = a + n1 + n2 + n3, *c = b + n1 + n2 + n3;
        attn_rng r;
        attn_rng_seed(&r, 5);
        fill(&r, f, n1 + n2 + n3 + n1, 1);
        CHECK(attn_flash_backward(q, k, v, n_q, n_k, d, d, 0.25f, NULL, 1, dout, a, a + n1, a + n1 + n2, 1) == ATTN_OK);
        CHECK(attn_flash_backward(q, k, v, n_q, n_k, d, d, 0.25f, NULL, 1, dout, b, b + n1, b + n1 + n2, 2) == ATTN_OK);
        CHECK(attn_flash_backward(q, k, v, n_q, n_k, d, d, 0.25f, NULL, 1, dout, c, c + n1, c + n1 + n2, 2) == ATTN_OK);
        CHECK(memcmp(b, c, (n1 + n2 + n3) * sizeof *b) == 0);
        CHECK(memcmp(a + n1, b + n1, (n2 + n3) * sizeof *a) == 0);   /* dK、dV 不随线程数变 */
        CHECK_ARRAY_NEAR(a, b, n1, 1e-5);
        free(f);
    }
    check_section("快速的反向传播：太大的输入交给参考版本");
    {
        float q[2] = {1e30f, 1e30f}, k[2] = {1e30f, -1e30f}, v[2] = {1, 2}, dout[2] = {1, 1};
        float dq[2], dv[2];
        CHECK(attn_flash_backward(q, k, v, 2, 2, 1, 1, 1.0f, NULL, 0, dout, dq, NULL, dv, 1) == -1);
        CHECK_OK(attn_sdpa_backward(q, k, v, 2, 2, 1, 1, 1.0f, NULL, 0, dout, dq, NULL, dv));
        CHECK(!isnan(dq[0]) && !isnan(dv[0]) && !isnan(dv[1]));
    }
#line 1269 "book/12-learning.nw"
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
        /* 平移整行不改变 y：沿 (1,…,1) 的梯度为 0，上面已查；漏掉均值项的“梯度”会被抓住 */
        float wrong[N * D];
        for (int i = 0; i < N * D; i++) wrong[i] = dx[i] + 0.1f;
        CHECK(grad_err(wrong, nx, N * D) > FD_TOL);
    }
#line 1351 "book/12-learning.nw"
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
        CHECK(fabs(dx[1]) < 0.01);       /* 最低点附近 */
        CHECK(dx[0] < 0 && dx[0] > -0.02); /* 最低点左边：小小的负数 */
        float inf[2] = {INFINITY, -INFINITY}, one[2] = {1, 1}, d2[2];
        CHECK_OK(attn_gelu_backward(inf, one, d2, 2));
        CHECK(d2[0] == 1.0f && d2[1] == 0.0f);
    }
#line 1438 "book/12-learning.nw"
    check_section("交叉熵：log-sum-exp 不溢出；梯度是 p − onehot；与中心差分一致");
    {
        float z[2] = {1000, 0}, loss, dz[2];
        int t = 1;
        CHECK_OK(attn_cross_entropy(z, &t, 1, 2, &loss, dz));
        CHECK_NEAR(loss, 1000, 1e-3);
        CHECK_NEAR(dz[0], 1, 1e-7);
        CHECK_NEAR(dz[1], -1, 1e-7);
        /* 均匀的 logits：损失是 log V */
        float u[8] = {0};
        int t2[2] = {0, 3};
        CHECK_OK(attn_cross_entropy(u, t2, 2, 4, &loss, NULL));
        CHECK_NEAR(loss, log(4.0), 1e-6);
        enum { N = 3, V = 5 };
        attn_rng r;
        attn_rng_seed(&r, 5);
        float lg[N * V], g[N * V];
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
    }
#line 1493 "book/12-learning.nw"
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
#line 2049 "book/12-learning.nw"
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
            attn_gpt_loss_grad(&m, tok, tgt, 5, &lp, NULL);
            m.params[i] = o - 1e-2f;
            attn_gpt_loss_grad(&m, tok, tgt, 5, &lm, NULL);
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
#line 2093 "book/12-learning.nw"
    check_section("AdamW 第一步：每个参数移动 lr·g/(|g|+eps)");
    {
        float p[3] = {1, 1, 1}, g[3] = {0.5f, -3, 1e-3f}, mm[3] = {0}, vv[3] = {0};
        CHECK_OK(attn_adamw_step(p, g, mm, vv, 3, 1, 0.1f, 0.9f, 0.999f, 1e-8f, 0));
        CHECK_NEAR(p[0], 0.9, 1e-6);
        CHECK_NEAR(p[1], 1.1, 1e-6);
        CHECK_NEAR(p[2], 0.9, 1e-5);
        CHECK_STATUS(attn_adamw_step(p, g, mm, vv, 3, 0, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
    }
#line 2529 "book/12-learning.nw"
    check_section("训练后：名词的查询找到颜色形容词，不论它在哪个位置");
    if (!check_light("种子 1 训练 2000 步")) {
        double col, tex, low;
        fluffy_trainer T;
        float loss, acc, w[2 * 2 * 16];
        CHECK_OK(fluffy_init(&T, 1, 1));
        double tail = 0;
        for (int s = 0; s < 2000; s++) {
            float l = fluffy_step(&T, NULL);
            if (s >= 1900) tail += l / 100.0;
        }
        CHECK_NEAR(7 * log(2.0) / 4, 1.2130, 5e-5);
        /* 下面的界都留了余地：换一种求和顺序，数会变，这些话仍然成立 */
        CHECK(tail > 7 * log(2.0) / 4 && tail < 7 * log(2.0) / 4 + 0.1);
        fluffy_eval(&T.m, &loss, &acc);
        CHECK_NEAR(acc, 1.0, 0);
        CHECK(loss < 0.02);
        size_t head = fluffy_colour_head(&T.m, 0);
        fluffy_colour_share(&T.m, 0, head, &col, &tex, &low);
        CHECK(col > 0.5 && tex < 0.2);
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
#line 2564 "book/12-learning.nw"
    check_section("换一个种子、换一种求和顺序：仍然全对，第 0 层仍有一个头主要看颜色");
    if (!check_light("种子 3 和两个线程各训练一次")) {
        const struct { unsigned long long seed; int threads; } runs[2] = {{3, 1}, {1, 2}};
        for (int r = 0; r < 2; r++) {
            fluffy_trainer T;
            float loss, acc;
            double col, tex, low;
            CHECK_OK(fluffy_init(&T, runs[r].seed, runs[r].threads));
            T.serial = 1;                 /* 两份梯度依次算：求和的顺序与两个线程相同 */
            for (int s = 0; s < 2000; s++)
                fluffy_step(&T, NULL);
            fluffy_eval(&T.m, &loss, &acc);
            CHECK_NEAR(acc, 1.0, 0);
            CHECK(loss < 0.02);
            fluffy_colour_share(&T.m, 0, fluffy_colour_head(&T.m, 0), &col, &tex, &low);
            CHECK(col > 0.5 && tex < 0.2);
            fluffy_free(&T);
        }
    }
#line 2835 "book/12-learning.nw"
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
            if (seed == 3) CHECK(b.g1 < 1e-3 * b.g0);
        }
    }
#line 2988 "book/12-learning.nw"
    check_section("练习 4：两种语言的训练损失下限");
    {
        CHECK_NEAR((log(8.0) + 2 * log(4.0)) / 4, 1.2130, 5e-5);
        CHECK_NEAR(3 * log(4.0) / 4, 1.0397, 5e-5);
        CHECK_NEAR(1.5 * log(2.0), 1.0397, 5e-5);
    }
#line 3110 "book/12-learning.nw"
    return check_summary("ch12");
}
