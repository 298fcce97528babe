#line 982 "book/10-position.nw"
#include "attn.h"
#include "check.h"

#include <math.h>
#include <string.h>

#include "../examples/ch10.h"
#line 725 "book/10-position.nw"
/* 第 j 对的波长 2π·10000^(2j/d) */
static double pair_wavelength_check(size_t j, size_t d)
{
    return 2 * acos(-1.0) * pow(10000.0, 2.0 * (double)j / (double)d);
}
#line 798 "book/10-position.nw"
static double dot_d(const float *a, const float *b, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += (double)a[i] * b[i];
    return s;
}

/* qᵀ R(δ·θ) k：把 k 的每一对转过 δ·θ_j 再与 q 点积，全部用 double；δ 可以为负 */
static double rope_score_by_offset(const float *q, const float *k, size_t d, double delta)
{
    double s = 0.0;
    for (size_t j = 0; j < d / 2; j++) {
        double t = delta * pow(10000.0, -2.0 * (double)j / (double)d);
        double a = k[2 * j], c = k[2 * j + 1];
        s += q[2 * j] * (a * cos(t) - c * sin(t)) + q[2 * j + 1] * (a * sin(t) + c * cos(t));
    }
    return s;
}
#line 922 "book/10-position.nw"
/* x[n×d] 原地转：第 j 维与第 j + d/2 维配成一对，转过 (pos0 + i)·10000^(−2j/d)（Hugging Face、GPT-NeoX 的写法） */
static void rope_rotate_half(float *x, size_t n, size_t d, size_t pos0)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d / 2; j++) {
            double t = (double)(pos0 + i) * pow(10000.0, -2.0 * (double)j / (double)d);
            float *row = x + i * d;
            double a = row[j], b = row[j + d / 2];
            row[j] = (float)(a * cos(t) - b * sin(t));
            row[j + d / 2] = (float)(a * sin(t) + b * cos(t));
        }
}

#line 993 "book/10-position.nw"
int main(void)
{
#line 517 "book/10-position.nw"
    check_section("没有位置信息：注意力随词的次序一起换");
    {
        enum { N = PM_N, D = 4 };
        float q[N * D], k[N * D], v[N * D], pq[N * D], pk[N * D], pv[N * D];
        float out[N * D], w[N * N], pout[N * D], pw[N * N], want[N * D];
        attn_rng r;
        attn_rng_seed(&r, 10);
        attn_rng_normal(&r, q, N * D);
        attn_rng_normal(&r, k, N * D);
        attn_rng_normal(&r, v, N * D);
        permute_rows(q, pm_perm, N, D, pq);
        permute_rows(k, pm_perm, N, D, pk);
        permute_rows(v, pm_perm, N, D, pv);
        CHECK_OK(attn_sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 0, out, w));
        CHECK_OK(attn_sdpa(pq, pk, pv, N, N, D, D, 0.0f, NULL, 0, pout, pw));
        permute_rows(out, pm_perm, N, D, want);
        CHECK_ARRAY_NEAR(pout, want, N * D, 1e-6);
        double worst = 0.0;
        for (size_t i = 0; i < N; i++)
            for (size_t j = 0; j < N; j++)
                worst = fmax(worst, fabs(pw[i * N + j] - w[pm_perm[i] * N + pm_perm[j]]));
        CHECK_NEAR(worst, 0.0, 1e-6);
        CHECK(max_abs_diff(pout, out, N * D) > 0.1);   /* 输出确实换了位置，不是处处相同 */
    }
#line 544 "book/10-position.nw"
    check_section("多头自注意力同样置换等变");
    {
        struct random_mha m;
        float x[PM_N * PM_D];
        attn_rng r;
        attn_rng_seed(&r, 11);
        double gap = INFINITY;
        CHECK_OK(random_mha_init(&m, &r));
        CHECK_OK(attn_rng_normal(&r, x, PM_N * PM_D));
        CHECK_OK(permutation_gap(&m, x, 0, 0, &gap));
        CHECK_NEAR(gap, 0.0, 1e-5);
    }
#line 559 "book/10-position.nw"
    check_section("因果掩码下不再置换等变");
    {
        struct random_mha m;
        float x[PM_N * PM_D];
        attn_rng r;
        attn_rng_seed(&r, 11);
        double gap = 0.0;
        CHECK_OK(random_mha_init(&m, &r));
        CHECK_OK(attn_rng_normal(&r, x, PM_N * PM_D));
        CHECK_OK(permutation_gap(&m, x, 1, 0, &gap));
        CHECK(gap > 0.1);
    }
#line 574 "book/10-position.nw"
    check_section("因果掩码让输出数出了位置：1/(i+1)");
    {
        const float q[4] = {0, 0, 0, 0}, k[4] = {1, 2, 3, 4}, v[4] = {1, 0, 0, 0};
        float out[4];
        CHECK_OK(attn_sdpa(q, k, v, 4, 4, 1, 1, 1.0f, NULL, 1, out, NULL));
        CHECK_NEAR(out[0], 1.0, 1e-6);
        CHECK_NEAR(out[1], 0.5, 1e-6);
        CHECK_NEAR(out[2], 0.3333, 1e-4);
        CHECK_NEAR(out[3], 0.25, 1e-6);
        for (size_t i = 0; i < 4; i++)
            CHECK_NEAR(out[i], 1.0 / (double)(i + 1), 1e-6);
        CHECK_OK(attn_sdpa(q, k, v, 4, 4, 1, 1, 1.0f, NULL, 0, out, NULL));
        for (size_t i = 0; i < 4; i++)
            CHECK_NEAR(out[i], 0.25, 1e-6);
    }
#line 592 "book/10-position.nw"
    check_section("正弦位置编码：d = 4，p = 0, 1, 2");
    {
        float pe[3 * 4];
        CHECK_OK(attn_positions_sinusoidal(pe, 3, 4));
        const float want[3 * 4] = {0, 1, 0, 1,
                                   0.8415f, 0.5403f, 0.0100f, 0.99995f,
                                   0.9093f, -0.4161f, 0.0200f, 0.9998f};
        CHECK_ARRAY_NEAR(pe, want, 12, 5e-5);
        CHECK_NEAR(pow(10000.0, -2.0 / 4.0), 0.01, 1e-15);
        CHECK_NEAR(pe[0], 0.0, 0);
        CHECK_NEAR(pe[1], 1.0, 0);
        CHECK(pe[1 * 4 + 3] < 0.99995);   /* 存成 float 后略小于 0.99995（练习 2） */
    }
#line 608 "book/10-position.nw"
    check_section("正弦位置编码：逐项核对公式，每个向量长度的平方是 d/2");
    {
        enum { N = 64, D = 16 };
        float pe[N * D];
        CHECK_OK(attn_positions_sinusoidal(pe, N, D));
        double worst = 0.0, worst_len = 0.0;
        for (size_t p = 0; p < N; p++) {
            double len2 = 0.0;
            for (size_t j = 0; j < D / 2; j++) {
                double a = (double)p / pow(10000.0, 2.0 * (double)j / D);
                worst = fmax(worst, fabs(pe[p * D + 2 * j] - sin(a)));
                worst = fmax(worst, fabs(pe[p * D + 2 * j + 1] - cos(a)));
                len2 += (double)pe[p * D + 2 * j] * pe[p * D + 2 * j]
                      + (double)pe[p * D + 2 * j + 1] * pe[p * D + 2 * j + 1];
            }
            worst_len = fmax(worst_len, fabs(len2 - D / 2.0));
        }
        CHECK_NEAR(worst, 0.0, 1e-7);
        CHECK_NEAR(worst_len, 0.0, 1e-5);
    }
#line 631 "book/10-position.nw"
    check_section("从 pos0 起算的几行与整张表里的那几行一位不差");
    {
        enum { N = 64, D = 16 };
        float pe[N * D], part[5 * D], one[D];
        CHECK_OK(attn_positions_sinusoidal(pe, N, D));
        CHECK_OK(attn_positions_sinusoidal_from(part, 5, D, 40));
        CHECK_ARRAY_NEAR(part, pe + 40 * D, 5 * D, 0);
        CHECK_OK(attn_positions_sinusoidal_from(one, 1, D, N - 1));      /* 只算最后一行 */
        CHECK_ARRAY_NEAR(one, pe + (N - 1) * D, D, 0);
        CHECK_OK(attn_positions_sinusoidal_from(part, 5, D, 0));         /* pos0 = 0：就是整张表的开头 */
        CHECK_ARRAY_NEAR(part, pe, 5 * D, 0);
        /* 很远的位置也只算一行：PE(10^6) 的第 0 对是 (sin 10^6, cos 10^6) */
        CHECK_OK(attn_positions_sinusoidal_from(one, 1, D, 1000000));
        CHECK_NEAR(one[0], sin(1e6), 1e-7);
        CHECK_NEAR(one[1], cos(1e6), 1e-7);
    }
#line 650 "book/10-position.nw"
    check_section("加上位置编码，换次序就换了输出");
    {
        struct random_mha m;
        float e[PM_N * PM_D];
        attn_rng r;
        attn_rng_seed(&r, 11);
        double plain = INFINITY, with_pe = 0.0;
        CHECK_OK(random_mha_init(&m, &r));
        CHECK_OK(attn_rng_normal(&r, e, PM_N * PM_D));
        CHECK_OK(permutation_gap(&m, e, 0, 0, &plain));   /* 同样的词，不加位置编码 */
        CHECK_NEAR(plain, 0.0, 1e-5);
        CHECK_OK(permutation_gap(&m, e, 0, 1, &with_pe));
        CHECK(with_pe > 0.1);
    }
#line 667 "book/10-position.nw"
    check_section("PE(p+k) 是 PE(p) 的一个固定旋转，点积只看距离");
    {
        enum { N = 64, D = 16 };
        float pe[N * D];
        CHECK_OK(attn_positions_sinusoidal(pe, N, D));
        const size_t shifts[3] = {1, 5, 17};
        for (size_t t = 0; t < 3; t++) {
            size_t k = shifts[t];
            double worst = 0.0, worst_dot = 0.0, dot_k = 0.0;
            for (size_t j = 0; j < D / 2; j++)
                dot_k += pe[k * D + 2 * j + 1];   /* Σ cos(k·ω_j) */
            for (size_t p = 0; p + k < N; p++) {
                double dot = 0.0;
                for (size_t j = 0; j < D / 2; j++) {
                    /* 旋转矩阵取自 PE(k) */
                    double sb = pe[k * D + 2 * j], cb = pe[k * D + 2 * j + 1];
                    double sa = pe[p * D + 2 * j], ca = pe[p * D + 2 * j + 1];
                    worst = fmax(worst, fabs(cb * sa + sb * ca - pe[(p + k) * D + 2 * j]));
                    worst = fmax(worst, fabs(-sb * sa + cb * ca - pe[(p + k) * D + 2 * j + 1]));
                    dot += sa * pe[(p + k) * D + 2 * j] + ca * pe[(p + k) * D + 2 * j + 1];
                }
                worst_dot = fmax(worst_dot, fabs(dot - dot_k));
            }
            CHECK_NEAR(worst, 0.0, 1e-6);
            CHECK_NEAR(worst_dot, 0.0, 1e-5);
        }
        /* 只有正弦做不到：sin 相同的两个角度，各加 1 之后就分开了 */
        const double pi = acos(-1.0);
        CHECK_NEAR(sin(1.0), sin(pi - 1.0), 1e-15);
        CHECK(fabs(sin(2.0) - sin(pi)) > 0.9);
    }
#line 701 "book/10-position.nw"
    check_section("波长：2π 到 47117（d = 64）");
    {
        CHECK_NEAR(2 * acos(-1.0) / pair_wavelength_check(0, 64), 1.0, 1e-12);
        CHECK_NEAR(pair_wavelength_check(0, 64), 6.28, 5e-3);
        CHECK_NEAR(pair_wavelength_check(31, 64), 47117, 0.5);
        /* 64 个维度的编码里，前 1000 个位置两两不同 */
        enum { N = 1000, D = 64 };
        static float pe[N * D];
        CHECK_OK(attn_positions_sinusoidal(pe, N, D));
        double closest = INFINITY;
        for (size_t p = 0; p < N; p++)
            for (size_t q = p + 1; q < N; q++) {
                double s = 0.0;
                for (size_t i = 0; i < D; i++) {
                    double t = (double)pe[p * D + i] - pe[q * D + i];
                    s += t * t;
                }
                closest = fmin(closest, s);
            }
        CHECK(closest > 1e-3);
    }
#line 733 "book/10-position.nw"
    check_section("图 10.1：最右边几列在前 100 个位置里几乎不变");
    {
        enum { N = 100, D = 64 };
        static float pe[N * D];
        CHECK_OK(attn_positions_sinusoidal(pe, N, D));
        /* 最后 16 列：j ≥ 24，99·ω_24 = 99·10000^(−0.75) ≈ 0.099 */
        double worst = 0.0;
        for (size_t p = 0; p < N; p++)
            for (size_t j = 24; j < D / 2; j++) {
                worst = fmax(worst, fabs(pe[p * D + 2 * j]));
                worst = fmax(worst, fabs(pe[p * D + 2 * j + 1] - 1.0));
            }
        CHECK(worst < 0.1);
        CHECK_NEAR(99 * pow(10000.0, -0.75), 0.099, 1e-3);
        /* 第 0 列在相邻两行之间变化很大 */
        CHECK(fabs(pe[1 * D] - pe[0]) > 0.8);
    }
#line 753 "book/10-position.nw"
    check_section("GPT-2 small 的位置向量：1024 × 768 = 786432");
    {
        attn_gpt_config c;
        attn_param_breakdown b;
        CHECK_OK(attn_gpt_preset("gpt2-small", &c));
        CHECK_INT(c.n_ctx, 1024);
        CHECK_INT(c.d_model, 768);
        CHECK(c.learned_positions);
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(b.positions, 786432);
        CHECK_INT(b.positions, 1024 * 768);
    }
#line 768 "book/10-position.nw"
    check_section("RoPE 的二维例子：分数是 cos 1");
    {
        float q[2] = {1, 0}, k[2] = {1, 0};
        CHECK_OK(attn_rope(q, 1, 2, 2, 0.0f));
        CHECK_OK(attn_rope(k, 1, 2, 1, 0.0f));
        CHECK_NEAR(q[0], -0.4161, 1e-4);
        CHECK_NEAR(q[1], 0.9093, 1e-4);
        CHECK_NEAR(k[0], 0.5403, 1e-4);
        CHECK_NEAR(k[1], 0.8415, 1e-4);
        CHECK_NEAR(q[0] * k[0], -0.2248, 1e-4);
        CHECK_NEAR(q[1] * k[1], 0.7651, 1e-4);
        CHECK_NEAR(q[0] * k[0] + q[1] * k[1], 0.5403, 1e-4);
        CHECK_NEAR(q[0] * k[0] + q[1] * k[1], cos(1.0), 1e-6);

        float q7[2] = {1, 0}, k6[2] = {1, 0};
        CHECK_OK(attn_rope(q7, 1, 2, 7, 0.0f));
        CHECK_OK(attn_rope(k6, 1, 2, 6, 123.0f));   /* d = 2 时 base 不起作用 */
        CHECK_NEAR(q7[0], 0.7539, 1e-4);
        CHECK_NEAR(q7[1], 0.6570, 1e-4);
        CHECK_NEAR(k6[0], 0.9602, 1e-4);
        CHECK_NEAR(k6[1], -0.2794, 1e-4);
        CHECK_NEAR(q7[0] * k6[0], 0.7239, 1e-4);
        CHECK_NEAR(q7[1] * k6[1], -0.1836, 1e-4);
        CHECK_NEAR(q7[0] * k6[0] + q7[1] * k6[1], cos(1.0), 1e-6);
    }
#line 820 "book/10-position.nw"
    check_section("RoPE：q·k 只看 i − j");
    {
        enum { D = 64 };
        float q[D], k[D];
        attn_rng r;
        attn_rng_seed(&r, 12);
        attn_rng_normal(&r, q, D);
        attn_rng_normal(&r, k, D);
        const double want = rope_score_by_offset(q, k, D, -2.0);
        const size_t pos[5][2] = {{3, 1}, {10, 8}, {100, 98}, {1000, 998}, {100000, 99998}};
        for (size_t t = 0; t < 5; t++) {
            float qr[D], kr[D];
            memcpy(qr, q, sizeof q);
            memcpy(kr, k, sizeof k);
            CHECK_OK(attn_rope(qr, 1, D, pos[t][0], 0.0f));
            CHECK_OK(attn_rope(kr, 1, D, pos[t][1], 0.0f));
            CHECK_NEAR(dot_d(qr, kr, D), want, 1e-5);
            CHECK_NEAR(dot_d(qr, qr, D), dot_d(q, q, D), 1e-4);
        }
        /* 换一个距离，分数就变了：距离确实起作用 */
        CHECK(fabs(rope_score_by_offset(q, k, D, -3.0) - want) > 0.1);
        CHECK(fabs(dot_d(q, k, D) - want) > 0.1);
    }
#line 846 "book/10-position.nw"
    check_section("RoPE：整块转和逐行转一位不差");
    {
        enum { N = 5, D = 8 };
        float x[N * D], rows[N * D];
        attn_rng r;
        attn_rng_seed(&r, 13);
        attn_rng_normal(&r, x, N * D);
        memcpy(rows, x, sizeof x);
        CHECK_OK(attn_rope(x, N, D, 40, 0.0f));
        for (size_t i = 0; i < N; i++)
            CHECK_OK(attn_rope(rows + i * D, 1, D, 40 + i, 0.0f));
        CHECK_ARRAY_NEAR(rows, x, N * D, 0);
    }
#line 862 "book/10-position.nw"
    check_section("位置 10^6：角度用 float 差约 0.02 弧度");
    {
        const double w = pow(10000.0, -2.0 / 64.0);
        CHECK_NEAR(w, 0.7499, 1e-4);
        CHECK_NEAR(1e6 * w, 749894.2, 0.05);
        CHECK_NEAR(nextafterf(749894.0f, INFINITY) - 749894.0f, 0.0625, 0);
        CHECK_NEAR(nextafter(749894.0, INFINITY) - 749894.0, 1.2e-10, 0.05e-10);
        volatile float wf = powf(10000.0f, -2.0f / 64.0f), pf = 1e6f;
        float angle_f = pf * wf;
        double err = fabs((double)angle_f - 1e6 * w);
        CHECK(err > 0.01 && err < 0.03);
        CHECK_NEAR(fabs(cosf(angle_f) - cos(1e6 * w)), 0.016, 2e-3);
        /* attn_rope 的结果和 double 的公式一致 */
        float x[64] = {0};
        x[2] = 1.0f;   /* 第 1 对是 (1, 0) */
        CHECK_OK(attn_rope(x, 1, 64, 1000000, 0.0f));
        CHECK_NEAR(x[2], cos(1e6 * w), 1e-6);
        CHECK_NEAR(x[3], sin(1e6 * w), 1e-6);
    }
#line 937 "book/10-position.nw"
    check_section("相邻配对与 rotate_half：只差 W_Q、W_K 的列的一个排列");
    {
        enum { N = 7, DM = 12, D = 8 };
        float x[N * DM], wq[DM * D], wk[DM * D], wq2[DM * D], wk2[DM * D], v[N * D];
        float q[N * D], k[N * D], out[N * D], w_ours[N * N], w_hf[N * N], w_plain[N * N];
        attn_rng r;
        attn_rng_seed(&r, 31);
        attn_rng_normal(&r, x, N * DM);
        attn_rng_normal(&r, wq, DM * D);
        attn_rng_normal(&r, wk, DM * D);
        attn_rng_normal(&r, v, N * D);
        /* 本书：相邻配对 */
        CHECK_OK(attn_linear(x, wq, NULL, q, N, DM, D));
        CHECK_OK(attn_linear(x, wk, NULL, k, N, DM, D));
        CHECK_OK(attn_rope(q, N, D, 0, 0.0f));
        CHECK_OK(attn_rope(k, N, D, 0, 0.0f));
        CHECK_OK(attn_sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 1, out, w_ours));
        /* rotate_half，列排过的权重：第 2j 列 → 第 j 列，第 2j+1 列 → 第 j + D/2 列 */
        for (size_t row = 0; row < DM; row++)
            for (size_t j = 0; j < D / 2; j++) {
                wq2[row * D + j] = wq[row * D + 2 * j];
                wq2[row * D + j + D / 2] = wq[row * D + 2 * j + 1];
                wk2[row * D + j] = wk[row * D + 2 * j];
                wk2[row * D + j + D / 2] = wk[row * D + 2 * j + 1];
            }
        CHECK_OK(attn_linear(x, wq2, NULL, q, N, DM, D));
        CHECK_OK(attn_linear(x, wk2, NULL, k, N, DM, D));
        rope_rotate_half(q, N, D, 0);
        rope_rotate_half(k, N, D, 0);
        CHECK_OK(attn_sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 1, out, w_hf));
        CHECK_ARRAY_NEAR(w_hf, w_ours, N * N, 1e-6);
        /* rotate_half 配原来的权重：不是同一个模型 */
        CHECK_OK(attn_linear(x, wq, NULL, q, N, DM, D));
        CHECK_OK(attn_linear(x, wk, NULL, k, N, DM, D));
        rope_rotate_half(q, N, D, 0);
        rope_rotate_half(k, N, D, 0);
        CHECK_OK(attn_sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 1, out, w_plain));
        float worst = 0.0f;
        for (size_t i = 0; i < N * N; i++)
            worst = fmaxf(worst, fabsf(w_plain[i] - w_ours[i]));
        CHECK(worst > 0.05f);
    }
#line 884 "book/10-position.nw"
    check_section("RoPE 加 KV 缓存：逐词生成等于一次算完");
    {
        enum { N = 6, DK = 8, DV = 4 };
        float q[N * DK], k[N * DK], v[N * DV], qr[N * DK], kr[N * DK], full[N * DV], step[N * DV];
        attn_rng r;
        attn_rng_seed(&r, 14);
        attn_rng_normal(&r, q, N * DK);
        attn_rng_normal(&r, k, N * DK);
        attn_rng_normal(&r, v, N * DV);
        /* 一次算完：整块旋转，再做因果注意力 */
        memcpy(qr, q, sizeof q);
        memcpy(kr, k, sizeof k);
        CHECK_OK(attn_rope(qr, N, DK, 0, 0.0f));
        CHECK_OK(attn_rope(kr, N, DK, 0, 0.0f));
        CHECK_OK(attn_sdpa(qr, kr, v, N, N, DK, DV, 0.0f, NULL, 1, full, NULL));
        /* 逐词：每个键在追加时转一次，转到它自己的位置 */
        attn_kv_cache c;
        CHECK_OK(attn_kv_cache_init(&c, N, DK, DV));
        for (size_t t = 0; t < N; t++) {
            float kt[DK], qt[DK];
            memcpy(kt, k + t * DK, sizeof kt);
            memcpy(qt, q + t * DK, sizeof qt);
            CHECK_OK(attn_rope(kt, 1, DK, t, 0.0f));
            CHECK_OK(attn_rope(qt, 1, DK, t, 0.0f));
            CHECK_OK(attn_kv_cache_append(&c, kt, v + t * DV, 1));
            CHECK_OK(attn_kv_cache_attend(&c, qt, 1, 0.0f, step + t * DV, NULL));
        }
        CHECK_ARRAY_NEAR(c.k, kr, N * DK, 0);   /* 缓存里的键就是整块转好的键 */
        CHECK_ARRAY_NEAR(step, full, N * DV, 0);
        attn_kv_cache_free(&c);
        /* 不转的结果确实不同：旋转起了作用 */
        float plain[N * DV];
        CHECK_OK(attn_sdpa(q, k, v, N, N, DK, DV, 0.0f, NULL, 1, plain, NULL));
        CHECK(max_abs_diff(plain, full, N * DV) > 0.01);
    }
#line 1013 "book/10-position.nw"
    return check_summary("ch10");
}
