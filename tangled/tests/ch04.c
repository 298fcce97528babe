#line 475 "book/04-scaling.nw"
#include "attn.h"
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../examples/ch04.h"
#line 748 "book/04-scaling.nw"
/* trials 次：随机 q[1×d_k]、k[n_k×d_k]，取 J[n_k×n_k] 中最大的 |J_ij|，返回平均值；出错时返回 -1。 */
static double mean_jacobian_max(attn_rng *r, size_t d_k, size_t n_k, size_t trials, float scale)
{
    double result = -1.0, acc = 0.0;
    float *q = malloc(d_k * sizeof *q), *k = malloc(n_k * d_k * sizeof *k);
    float *v = calloc(n_k, sizeof *v), *w = malloc(n_k * sizeof *w);
    float *jac = malloc(n_k * n_k * sizeof *jac), out;
    if (q == NULL || k == NULL || v == NULL || w == NULL || jac == NULL)
        goto done;
    for (size_t s = 0; s < trials; s++) {
        attn_rng_normal(r, q, d_k);
        attn_rng_normal(r, k, n_k * d_k);
        if (attn_sdpa(q, k, v, 1, n_k, d_k, 1, scale, NULL, 0, &out, w) != ATTN_OK ||
            attn_softmax_jacobian(w, n_k, jac) != ATTN_OK)
            goto done;
        float m = 0.0f;
        for (size_t i = 0; i < n_k * n_k; i++)
            if (fabsf(jac[i]) > m)
                m = fabsf(jac[i]);
        acc += m / (double)trials;
    }
    result = acc;
done:
    free(q);
    free(k);
    free(v);
    free(w);
    free(jac);
    return result;
}

#line 485 "book/04-scaling.nw"
int main(void)
{
#line 505 "book/04-scaling.nw"
    check_section("分数放大十倍，softmax 变得尖锐");
    {
        float s[3] = {1.0f, 0.5f, 0.0f};
        float t[3] = {10.0f, 5.0f, 0.0f};
        CHECK_OK(attn_softmax(s, 3));
        CHECK_OK(attn_softmax(t, 3));
        CHECK_NEAR(s[0], 0.5065, 1e-4);
        CHECK_NEAR(s[1], 0.3072, 1e-4);
        CHECK_NEAR(s[2], 0.1863, 1e-4);
        CHECK_NEAR(t[0], 0.99326, 1e-5);
        CHECK_NEAR(t[1], 0.00669, 1e-5);
        CHECK_NEAR(t[2], 0.0000451, 1e-7);
        CHECK_NEAR(t[1] / t[0], expf(-5.0f), 1e-6);
    }
#line 522 "book/04-scaling.nw"
    check_section("均匀分布也一样：除以 √d_k 方差回到 1，除以 d_k 只剩 1/d_k");
    {
        const int d = 64, pairs = 4000;
        uint32_t state = 12345u;
        static double raw[4000];
        for (int p = 0; p < pairs; p++) {
            double dot = 0.0;
            for (int t = 0; t < d; t++) {
                double x[2];
                for (int r = 0; r < 2; r++) {
                    state = state * 1664525u + 1013904223u;       /* 线性同余发生器 */
                    x[r] = ((double)(state >> 8) / 16777216.0 * 2.0 - 1.0) * sqrt(3.0);
                }
                dot += x[0] * x[1];
            }
            raw[p] = dot;
        }
        double sum = 0.0, sum2 = 0.0;
        for (int p = 0; p < pairs; p++) {
            sum += raw[p];
            sum2 += raw[p] * raw[p];
        }
        /* 不缩放、除以 √d_k、除以 d_k：方差乘以缩放系数的平方 */
        double v = sum2 / pairs - (sum / pairs) * (sum / pairs);
        const double var[3] = {v, v / d, v / ((double)d * d)};
        CHECK_NEAR(var[0], 64.0, 6.4);                     /* q·k 的方差约为 d_k */
        CHECK_NEAR(var[1], 1.0, 0.1);                      /* 除以 √d_k：约 1 */
        CHECK_NEAR(var[2], 1.0 / 64, 0.1 / 64);            /* 除以 d_k：约 1/d_k */
    }
#line 554 "book/04-scaling.nw"
    check_section("点积的方差：从 d_k = 1 到 1024");
    {
        const size_t n = 10000;
        CHECK_NEAR(sqrt(8.0 / n), 0.028, 5e-4);
        CHECK_NEAR(sqrt(2.0 / n), 0.014, 5e-4);
        for (size_t d = 1; d <= 1024 && !check_light("d_k = 1…1024 各 10000 对向量"); d *= 2) {
            attn_rng r;
            attn_rng_seed(&r, 4000 + d);
            double raw = dot_variance(&r, d, n, 1.0f, 1.0f);
            attn_rng_seed(&r, 4000 + d);
            double scaled = dot_variance(&r, d, n, 1.0f, 1.0f / sqrtf((float)d));
            double se = sqrt((2.0 + 6.0 / d) / n);
            CHECK_NEAR(scaled, 1.0, 5 * se);
            CHECK_NEAR(raw / d, 1.0, 5 * se);
        }
    }
#line 573 "book/04-scaling.nw"
    check_section("GPT-2 式的初始化：x 的分量方差 1，W 的元素 N(0, 0.02²)，d_model = 768：q 的分量方差约 0.31，缩放后的分数方差约 0.094");
    {
        enum { D = 768, DK = 64, N = 256 };
        float *x = malloc((size_t)N * D * sizeof *x), *wq = malloc((size_t)D * DK * sizeof *wq);
        float *wk = malloc((size_t)D * DK * sizeof *wk), *q = malloc((size_t)N * DK * sizeof *q);
        float *k = malloc((size_t)N * DK * sizeof *k);
        CHECK(x && wq && wk && q && k);
        if (x && wq && wk && q && k) {
            attn_rng r;
            attn_rng_seed(&r, 2019);
            attn_rng_normal(&r, x, (size_t)N * D);          /* 层规范化之后：每个分量方差约 1 */
            attn_rng_normal(&r, wq, (size_t)D * DK);
            attn_rng_normal(&r, wk, (size_t)D * DK);
            for (size_t i = 0; i < (size_t)D * DK; i++) {
                wq[i] *= 0.02f;
                wk[i] *= 0.02f;
            }
            CHECK_OK(attn_linear(x, wq, NULL, q, N, D, DK));
            CHECK_OK(attn_linear(x, wk, NULL, k, N, D, DK));
            double var_q = 0.0, var_s = 0.0;
            for (size_t i = 0; i < (size_t)N * DK; i++)
                var_q += (double)q[i] * q[i] / ((double)N * DK);
            for (size_t i = 0; i < N; i++)               /* 查询 i 与另一个词的键 i+1 */
                for (size_t j = 0; j < N; j++) {
                    if (j == i)
                        continue;
                    float dot;
                    CHECK_OK(attn_dot(q + i * DK, k + j * DK, DK, &dot));
                    var_s += (double)dot * dot / 64.0 / ((double)N * (N - 1));
                }
            CHECK_NEAR(768 * 0.02 * 0.02, 0.3072, 1e-9);
            CHECK_NEAR(var_q, 0.3072, 0.02);
            CHECK_NEAR(var_s, 0.3072 * 0.3072, 0.012);
            CHECK(var_s < 0.2);                          /* 远小于论文假设的 1 */
        }
        free(x);
        free(wq);
        free(wk);
        free(q);
        free(k);
    }
#line 617 "book/04-scaling.nw"
    check_section("注意力模式的尖锐程度：缩放与不缩放");
    if (!check_light("d_k = 1 与 1024 各 200 次平均")) {
        double m1, h1, m2, h2, m3, h3, m4, h4;
        attn_rng r;
        attn_rng_seed(&r, 1); CHECK_OK(pattern_sharpness(&r, 1, 64, 200, 1.0f, &m1, &h1));
        attn_rng_seed(&r, 1024); CHECK_OK(pattern_sharpness(&r, 1024, 64, 200, 1.0f, &m2, &h2));
        attn_rng_seed(&r, 1); CHECK_OK(pattern_sharpness(&r, 1, 64, 200, 0.0f, &m3, &h3));
        attn_rng_seed(&r, 1024); CHECK_OK(pattern_sharpness(&r, 1024, 64, 200, 0.0f, &m4, &h4));
        CHECK_NEAR(log(64.0), 4.159, 1e-3);
        CHECK_NEAR(m1, 0.0930, 0.005);
        CHECK_NEAR(m2, 0.9524, 0.005);
        CHECK_NEAR(h1, 3.7651, 0.005);
        CHECK_NEAR(h2, 0.1284, 0.005);
        CHECK_NEAR(m4, 0.1068, 0.005);
        CHECK_NEAR(h4, 3.6775, 0.005);
        /* 缩放后，d_k = 1 与 d_k = 1024 的差别很小 */
        CHECK_NEAR(m3, m4, 0.05);
        CHECK_NEAR(h3, h4, 0.15);
    }
#line 639 "book/04-scaling.nw"
    check_section("softmax 的雅可比矩阵");
    {
        float half[2] = {0.5f, 0.5f}, j2[4];
        CHECK_OK(attn_softmax_jacobian(half, 2, j2));
        CHECK_NEAR(j2[0], 0.25, 1e-7);
        CHECK_NEAR(j2[1], -0.25, 1e-7);

        float s[3] = {1.0f, 0.5f, 0.0f}, t[3] = {10.0f, 5.0f, 0.0f}, js[9], jt[9];
        attn_softmax(s, 3);
        attn_softmax(t, 3);
        CHECK_OK(attn_softmax_jacobian(s, 3, js));
        CHECK_OK(attn_softmax_jacobian(t, 3, jt));
        CHECK_NEAR(js[0], 0.2500, 1e-4);
        CHECK_NEAR(js[4], 0.2128, 1e-4);
        CHECK_NEAR(js[8], 0.1516, 1e-4);
        CHECK_NEAR(jt[0], 0.00669, 1e-5);
        CHECK_NEAR(jt[4], 0.00665, 1e-5);
        CHECK_NEAR(jt[8], 0.0000451, 1e-7);
        CHECK(js[0] / jt[0] > 30 && js[8] / jt[8] > 3000);

        /* 有限差分：J 的第 j 列 ≈ (p(s + h·e_j) − p(s − h·e_j)) / 2h */
        const float base[3] = {1.0f, 0.5f, 0.0f}, h = 1e-2f;
        double worst = 0.0;
        for (size_t j = 0; j < 3; j++) {
            float up[3], dn[3];
            for (size_t i = 0; i < 3; i++)
                up[i] = dn[i] = base[i];
            up[j] += h;
            dn[j] -= h;
            attn_softmax(up, 3);
            attn_softmax(dn, 3);
            for (size_t i = 0; i < 3; i++)
                worst = fmax(worst, fabs((up[i] - dn[i]) / (2 * h) - js[i * 3 + j]));
        }
        CHECK_NEAR(worst, 0.0, 1e-4);
        CHECK_STATUS(attn_softmax_jacobian(s, 0, js), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax_jacobian(NULL, 3, js), ATTN_EINVAL);
    }
#line 683 "book/04-scaling.nw"
    check_section("分数拉开后：对分数、查询、键的梯度趋于 0，对值的梯度不会（正文的表）");
    {
        /* d_k = 1，scale = 1：s_j = q·k_j；v = (1, 0, 0)，L = o，所以 ∂L/∂p = v */
        const float k[3] = {1.0f, 0.5f, 0.0f}, v[3] = {1.0f, 0.0f, 0.0f};
        const float qs[3] = {1.0f, 10.0f, 20.0f};
        /* 每行：∂L/∂s_1、∂L/∂q、∂L/∂k_1、∂L/∂v_1 */
        const double want[3][4] = {{0.2500, 0.1722, 0.2500, 0.5065},
                                   {0.00669, 0.00337, 0.0669, 0.9933},
                                   {0.0000454, 0.0000227, 0.000908, 0.99995}};
        const double tol[3][4] = {{5e-5, 5e-5, 5e-5, 5e-5},
                                  {5e-6, 5e-6, 5e-5, 5e-5},
                                  {5e-8, 5e-8, 5e-7, 5e-6}};
        double got_s[3], got_q[3];
        for (int c = 0; c < 3; c++) {
            float p[3], jac[9];
            for (int j = 0; j < 3; j++)
                p[j] = qs[c] * k[j];
            CHECK_OK(attn_softmax(p, 3));
            CHECK_OK(attn_softmax_jacobian(p, 3, jac));
            double o = p[0] * v[0] + p[1] * v[1] + p[2] * v[2], ds[3], dq = 0.0;
            for (int i = 0; i < 3; i++) {
                /* ∂L/∂s_i = Σ_j v_j·J[j][i]，等于 p_i·(v_i − o) */
                ds[i] = 0.0;
                for (int j = 0; j < 3; j++)
                    ds[i] += v[j] * jac[j * 3 + i];
                CHECK_NEAR(ds[i], p[i] * (v[i] - o), 1e-7);
                dq += ds[i] * k[i];
            }
            CHECK_NEAR(ds[0], want[c][0], tol[c][0]);
            CHECK_NEAR(dq, want[c][1], tol[c][1]);
            CHECK_NEAR(qs[c] * ds[0], want[c][2], tol[c][2]);      /* ∂L/∂k_1 = q·∂L/∂s_1 */
            CHECK_NEAR(p[0], want[c][3], tol[c][3]);               /* ∂L/∂v_1 = p_1 */
            got_s[c] = ds[0];
            got_q[c] = dq;
            if (c < 2) {
                /* 中心差分：o 是 attn_sdpa 的输出，对 q、k_1、v_1 各挪一个小量；
                   k_1 挪 h/q，让分数 s_1 = q·k_1 挪动的量和 q = 1 时一样 */
                const float h = 1e-2f, hk = h / qs[c];
                float qq[2] = {qs[c] + h, qs[c] - h}, kk[2][3], vv[2][3], oq[2], ok[2], ov[2];
                for (int s = 0; s < 2; s++) {
                    for (int j = 0; j < 3; j++) {
                        kk[s][j] = k[j];
                        vv[s][j] = v[j];
                    }
                    kk[s][0] += s == 0 ? hk : -hk;
                    vv[s][0] += s == 0 ? h : -h;
                    /* 一个查询、三个键，d_k = d_v = 1，scale = 1 */
                    CHECK_OK(attn_sdpa(&qq[s], k, v, 1, 3, 1, 1, 1.0f, NULL, 0, &oq[s], NULL));
                    CHECK_OK(attn_sdpa(&qs[c], kk[s], v, 1, 3, 1, 1, 1.0f, NULL, 0, &ok[s], NULL));
                    CHECK_OK(attn_sdpa(&qs[c], k, vv[s], 1, 3, 1, 1, 1.0f, NULL, 0, &ov[s], NULL));
                }
                double fd_q = (oq[0] - oq[1]) / ((double)qq[0] - qq[1]);
                double fd_k = (ok[0] - ok[1]) / ((double)kk[0][0] - kk[1][0]);
                double fd_v = (ov[0] - ov[1]) / ((double)vv[0][0] - vv[1][0]);
                CHECK_NEAR(fd_q, dq, c == 0 ? 1e-4 : 2e-5);
                CHECK_NEAR(fd_k, qs[c] * ds[0], 1e-4);
                CHECK_NEAR(fd_v, p[0], 1e-4);
            }
        }
        /* 从 q = 1 到 q = 20：对分数和查询的梯度都小了五千倍以上 */
        CHECK(got_s[0] / got_s[2] > 5000 && got_q[0] / got_q[2] > 5000);
    }
#line 781 "book/04-scaling.nw"
    check_section("雅可比矩阵：上限 1/4，不缩放时趋于 0");
    {
        attn_rng r;
        attn_rng_seed(&r, 11);
        double bound = 0.0;
        for (size_t trial = 0; trial < 1000; trial++) {
            float p[5], jac[25];
            attn_rng_normal(&r, p, 5);
            for (size_t i = 0; i < 5; i++)
                p[i] *= 4.0f;
            attn_softmax(p, 5);
            attn_softmax_jacobian(p, 5, jac);
            for (size_t i = 0; i < 25; i++)
                bound = fmax(bound, fabs(jac[i]));
        }
        CHECK(bound <= 0.25);
        CHECK(bound > 0.2);   /* 上限确实会被接近，检查不是空的 */

        /* 行绝对值之和是 2p_i(1−p_i)；随机向量 x 经过 J，长度不超过原来的一半 */
        double worst_row = 0.0, worst_gain = 0.0;
        for (size_t trial = 0; trial < 400; trial++) {
            float p[6], x[6], jac[36];
            attn_rng_normal(&r, p, 6);
            attn_rng_normal(&r, x, 6);
            for (size_t i = 0; i < 6; i++)
                p[i] *= (float)(trial % 4);
            attn_softmax(p, 6);
            attn_softmax_jacobian(p, 6, jac);
            double in = 0.0, out = 0.0;
            for (size_t i = 0; i < 6; i++) {
                double row = 0.0, y = 0.0;
                for (size_t j = 0; j < 6; j++) {
                    row += fabs(jac[i * 6 + j]);
                    y += jac[i * 6 + j] * x[j];
                }
                worst_row = fmax(worst_row, fabs(row - 2.0 * p[i] * (1.0 - p[i])));
                in += (double)x[i] * x[i];
                out += y * y;
            }
            worst_gain = fmax(worst_gain, sqrt(out / in));
        }
        CHECK_NEAR(worst_row, 0.0, 1e-6);
        CHECK(worst_gain <= 0.5 + 1e-6);
        CHECK(worst_gain > 0.2);
        float even[2] = {0.5f, 0.5f}, je[4];           /* J·(1, −1) = ½·(1, −1)：正好取到 1/2 */
        CHECK_OK(attn_softmax_jacobian(even, 2, je));
        CHECK_NEAR(je[0] - je[1], 0.5, 1e-7);
        CHECK_NEAR(je[2] - je[3], -0.5, 1e-7);

        if (!check_light("d_k = 1024 的 200 次平均")) {
            attn_rng_seed(&r, 1024);
            double raw = mean_jacobian_max(&r, 1024, 64, 200, 1.0f);
            attn_rng_seed(&r, 1024);
            double scaled = mean_jacobian_max(&r, 1024, 64, 200, 0.0f);
            CHECK_NEAR(raw, 0.035, 0.0005);
            CHECK_NEAR(scaled, 0.093, 0.0005);
        }
    }
#line 842 "book/04-scaling.nw"
    check_section("e 的 50 次方，以及 expf 的溢出界限");
    {
        CHECK_REL(exp(50.0), 5.185e21, 1e-4);
        CHECK_REL(expf(50.0f), 5.185e21f, 1e-4);
        CHECK_REL(FLT_MAX, 3.4028e38, 1e-4);
        CHECK_NEAR(log(FLT_MAX), 88.72, 0.005);
        CHECK(isfinite(expf(88.72f)));
        CHECK(isinf(expf(88.73f)));
    }
#line 854 "book/04-scaling.nw"
    check_section("朴素 softmax 溢出成 NaN，减去最大值就不会");
    {
        float a[2] = {100.0f, 99.0f}, b[2] = {100.0f, 99.0f}, c[2] = {1.0f, 0.0f};
        float d[2] = {1000.0f, 990.0f};
        softmax_naive(a, 2);
        CHECK(isnan(a[0]) && isnan(a[1]));
        CHECK_OK(attn_softmax(b, 2));
        CHECK_OK(attn_softmax(c, 2));
        CHECK_NEAR(b[0], 0.7311, 1e-4);
        CHECK_NEAR(b[1], 0.2689, 1e-4);
        CHECK_NEAR(b[0], c[0], 0);
        CHECK_NEAR(b[1], c[1], 0);
        CHECK_OK(attn_softmax(d, 2));
        CHECK_NEAR(d[0], 0.99995, 1e-5);
        CHECK_NEAR(d[1], 0.0000454, 1e-7);
    }
#line 873 "book/04-scaling.nw"
    check_section("scale 参数：0 表示 1/√d_k，1 表示不缩放");
    {
        enum { NQ = 3, NK = 5, DK = 16, DV = 4 };
        float q[NQ * DK], k[NK * DK], v[NK * DV], q8[NQ * DK];
        float o0[NQ * DV], o1[NQ * DV], o2[NQ * DV], o3[NQ * DV], w0[NQ * NK], w1[NQ * NK];
        attn_rng r;
        attn_rng_seed(&r, 5);
        attn_rng_normal(&r, q, NQ * DK);
        attn_rng_normal(&r, k, NK * DK);
        attn_rng_normal(&r, v, NK * DV);
        CHECK_OK(attn_sdpa(q, k, v, NQ, NK, DK, DV, 0.0f, NULL, 0, o0, w0));
        CHECK_OK(attn_sdpa(q, k, v, NQ, NK, DK, DV, 0.25f, NULL, 0, o1, NULL));
        CHECK_ARRAY_NEAR(o0, o1, NQ * DV, 0);
        /* 把 1/√d_k 预先乘进查询，再用 scale = 1 */
        for (size_t i = 0; i < NQ * DK; i++)
            q8[i] = q[i] * 0.25f;
        CHECK_OK(attn_sdpa(q8, k, v, NQ, NK, DK, DV, 1.0f, NULL, 0, o2, NULL));
        CHECK_ARRAY_NEAR(o0, o2, NQ * DV, 1e-6);
        /* 缩放两次：注意力变平，结果就不同了 */
        CHECK_OK(attn_sdpa(q8, k, v, NQ, NK, DK, DV, 0.0f, NULL, 0, o3, NULL));
        double diff = 0.0;
        for (size_t i = 0; i < NQ * DV; i++)
            diff = fmax(diff, fabs(o3[i] - o0[i]));
        CHECK(diff > 0.01);
        /* scale = 1：不缩放的注意力更尖锐 */
        CHECK_OK(attn_sdpa(q, k, v, NQ, NK, DK, DV, 1.0f, NULL, 0, o1, w1));
        CHECK(row_entropy(w1, NK) < row_entropy(w0, NK));
        CHECK_STATUS(attn_sdpa(q, k, v, NQ, NK, DK, DV, -1.0f, NULL, 0, o1, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa(q, k, v, NQ, NK, DK, DV, NAN, NULL, 0, o1, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa(q, k, v, NQ, NK, DK, DV, INFINITY, NULL, 0, o1, NULL), ATTN_EINVAL);
    }
#line 907 "book/04-scaling.nw"
    check_section("除以 √d_model 而不是 √d_head");
    {
        CHECK_INT(12288 / 96, 128);
        CHECK_NEAR(sqrt(12288.0), 110.85, 0.005);
        CHECK_NEAR(sqrt(128.0), 11.31, 0.005);
        CHECK_NEAR(sqrt(12288.0) / sqrt(128.0), 9.80, 0.005);
        CHECK_NEAR(1.0 / sqrt(96.0), 0.102, 0.0005);

        const size_t n = 10000, d_head = 64, d_model = 512;
        attn_rng r;
        attn_rng_seed(&r, 512);
        double var = dot_variance(&r, d_head, n, 1.0f, 1.0f / sqrtf((float)d_model));
        /* 真实方差 1/8；标准误差是缩放后情形的 1/8 */
        CHECK_NEAR(var, 0.125, 5 * 0.125 * sqrt((2.0 + 6.0 / d_head) / n));

        double m_ok, h_ok, m_bad, h_bad;
        attn_rng_seed(&r, 64);
        CHECK_OK(pattern_sharpness(&r, d_head, 64, 200, 0.0f, &m_ok, &h_ok));
        attn_rng_seed(&r, 64);
        CHECK_OK(pattern_sharpness(&r, d_head, 64, 200, 1.0f / sqrtf((float)d_model), &m_bad, &h_bad));
        CHECK_NEAR(m_ok, 0.112, 0.0005);
        CHECK_NEAR(m_bad, 0.035, 0.0005);
        CHECK_NEAR(h_bad, 4.097, 0.0005);
    }
#line 934 "book/04-scaling.nw"
    check_section("缩放不是归一化：分量标准差为 2 时方差是 16");
    {
        const size_t n = 10000, d = 64;
        attn_rng r;
        attn_rng_seed(&r, 2);
        double var = dot_variance(&r, d, n, 2.0f, 1.0f / sqrtf((float)d));
        CHECK_NEAR(var, 16.0, 5 * 16.0 * sqrt((2.0 + 6.0 / d) / n));
    }
#line 500 "book/04-scaling.nw"
    return check_summary("ch04");
}
