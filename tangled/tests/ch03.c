#line 1775 "book/03-attention.nw"
#include "attn.h"
#include "check.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "../examples/ch03.h"

int main(void)
{
#line 1188 "book/03-attention.nw"
    check_section("softmax：(0, 0) → (0.5, 0.5)，(0, ln 3) → (1/4, 3/4)，大 1 权重大 e 倍");
    {
        float a[2] = {0, 0}, b[2] = {0, logf(3)};
        CHECK_OK(attn_softmax(a, 2));
        CHECK_NEAR(a[0], 0.5, 1e-7);
        CHECK_OK(attn_softmax(b, 2));
        CHECK_NEAR(b[0], 0.25, 1e-7);
        CHECK_NEAR(b[1], 0.75, 1e-7);
        float c[2] = {0, 1};                         /* 大 1，权重大 e 倍 */
        CHECK_OK(attn_softmax(c, 2));
        CHECK_NEAR(c[1] / c[0], 2.718, 1e-3);
        CHECK_REL(FLT_MAX, 3.4e38, 0.01);
        CHECK_REL(expf(88.0f), 1.65e38, 0.01);
        CHECK(isinf(expf(89.0f)));
        CHECK_STATUS(attn_softmax(NULL, 2), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax(a, 0), ATTN_EINVAL);
    }
    check_section("softmax：先减最大值，(1000, 1001) 与 (-1, 0) 都是 (0.2689, 0.7311)，照公式算是 NaN");
    {
        float big[2] = {1000, 1001}, small[2] = {-1, 0}, naive[2] = {1000, 1001};
        CHECK_OK(attn_softmax(big, 2));
        CHECK_OK(attn_softmax(small, 2));
        CHECK_NEAR(big[0], 0.2689, 1e-4);
        CHECK_NEAR(big[1], 0.7311, 1e-4);
        CHECK_NEAR(big[0], small[0], 1e-7);
        CHECK_NEAR(big[1], small[1], 1e-7);
        softmax_naive(naive, 2);
        CHECK(isnan(naive[0]) && isnan(naive[1]));   /* ∞/∞ */
    }
    check_section("softmax：负无穷的权重是 0，全是负无穷的一行是全 0");
    {
        float x[3] = {1, -INFINITY, 1}, none[2] = {-INFINITY, -INFINITY};
        CHECK_OK(attn_softmax(x, 3));
        CHECK_NEAR(x[0], 0.5, 1e-7);
        CHECK_NEAR(x[1], 0, 0);
        CHECK_OK(attn_softmax(none, 2));
        CHECK_NEAR(none[0], 0, 0);
        CHECK_NEAR(none[1], 0, 0);
    }
#line 1230 "book/03-attention.nw"
    check_section("softmax 的温度：(2, 1, 0, -1) 的第一项 T = 0.5 时 0.8650，T = 1 时 0.6439，T = 5 时 0.3292（最后一项 0.1807）");
    {
        float w[TEMP_COUNT][TEMP_N];
        for (size_t t = 0; t < TEMP_COUNT; t++) {
            CHECK_OK(softmax_at_temperature(temp_values[t], w[t]));
            for (size_t j = 1; j < TEMP_N; j++)
                CHECK(w[t][j] < w[t][j - 1]);               /* 顺序不变 */
            if (t > 0)
                CHECK(w[t][0] < w[t - 1][0]);               /* 温度越高，第一项越小 */
        }
        CHECK_NEAR(temp_values[0], 0.5, 0);
        CHECK_NEAR(w[0][0], 0.8650, 5e-5);
        CHECK_NEAR(w[1][0], 0.6439, 5e-5);
        CHECK_NEAR(w[3][0], 0.3292, 5e-5);
        CHECK_NEAR(w[3][3], 0.1807, 5e-5);
    }
#line 1249 "book/03-attention.nw"
    check_section("今天天气很好：前五行和为 1，最后一行 1.2，0.5/1.2 ≈ 0.4167，c₂ = (0.25, 0.75)");
    {
        static const float table[6][6] = {
            {1},
            {0.5f, 0.5f},
            {0.25f, 0.25f, 0.5f},
            {0.1f, 0.2f, 0.3f, 0.4f},
            {0.05f, 0.1f, 0.25f, 0.27f, 0.33f},
            {0.05f, 0.05f, 0.1f, 0.2f, 0.3f, 0.5f},
        };
        for (int t = 0; t < 5; t++) {
            float sum = 0;
            for (int i = 0; i < 6; i++)
                sum += table[t][i];
            CHECK_NEAR(sum, 1, 1e-6);
        }
        float last = 0;
        for (int i = 0; i < 6; i++)
            last += table[5][i];
        CHECK_NEAR(last, 1.2, 1e-6);
        CHECK_NEAR(table[5][5] / last, 0.4167, 1e-4);
        /* softmax 的权重每行和为 1：把最后一行当分数做一次 softmax */
        float row[6];
        memcpy(row, table[5], sizeof row);
        CHECK_OK(attn_softmax(row, 6));
        CHECK_NEAR(row[0] + row[1] + row[2] + row[3] + row[4] + row[5], 1, 1e-6);
        /* x[6][2]：今 (1,0)，天 (0,1)，天 (0,1)，其余三个字对 c₂ 没有贡献 */
        const float x[6 * 2] = {1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};
        float c2[2];
        CHECK_OK(attn_weighted_sum(table[2], x, 6, 2, c2));
        CHECK_NEAR(c2[0], 0.25, 1e-7);
        CHECK_NEAR(c2[1], 0.75, 1e-7);
    }
#line 1285 "book/03-attention.nw"
    check_section("正文的 sdpa_plain 与库的 attn_sdpa：毛茸茸的蓝色生物和随机输入（n_q ≠ n_k、d_k ≠ d_v）上相差不到 1e-6");
    {
        float q[FL_N * FL_DK], k[FL_N * FL_DK];
        float w1[FL_N * FL_N], o1[FL_N * FL_D], w2[FL_N * FL_N], o2[FL_N * FL_D];
        CHECK_OK(fluffy_qk(3, 2, q, k));
        sdpa_plain(q, k, fluffy_x, FL_N, FL_N, FL_DK, FL_D, w1, o1);
        CHECK_OK(attn_sdpa(q, k, fluffy_x, FL_N, FL_N, FL_DK, FL_D, 0.0f, NULL, 0, o2, w2));
        CHECK_ARRAY_NEAR(w1, w2, FL_N * FL_N, 1e-6);
        CHECK_ARRAY_NEAR(o1, o2, FL_N * FL_D, 1e-6);
        static const size_t shapes[][4] = {{1, 1, 1, 1}, {3, 7, 4, 2}, {6, 6, 8, 8}, {5, 2, 16, 3}};
        attn_rng rng;
        attn_rng_seed(&rng, 33);
        for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
            size_t n_q = shapes[c][0], n_k = shapes[c][1], d_k = shapes[c][2], d_v = shapes[c][3];
            float rq[6 * 16], rk[7 * 16], rv[7 * 8], pw[6 * 7], po[6 * 8], lw[6 * 7], lo[6 * 8];
            attn_rng_normal(&rng, rq, n_q * d_k);
            attn_rng_normal(&rng, rk, n_k * d_k);
            attn_rng_normal(&rng, rv, n_k * d_v);
            sdpa_plain(rq, rk, rv, n_q, n_k, d_k, d_v, pw, po);
            CHECK_OK(attn_sdpa(rq, rk, rv, n_q, n_k, d_k, d_v, 0.0f, NULL, 0, lo, lw));
            CHECK_ARRAY_NEAR(pw, lw, n_q * n_k, 1e-6);
            CHECK_ARRAY_NEAR(po, lo, n_q * d_v, 1e-6);
        }
    }
#line 1312 "book/03-attention.nw"
    check_section("极大的有限输入：10^30 × 10^30 不会变成 NaN，分数超出单精度时顺序不丢");
    {
        /* 查询 (1e30, 1e30)，键 (1e30, -1e30) 与 (1e30, 1e30)：float 里 1e60 溢出，
           第一个键的点积是 +inf 加 -inf。double 里它是 0，第二个键是 2e60，两者之差远超 float。 */
        float q[2] = {1e30f, 1e30f}, k[4] = {1e30f, -1e30f, 1e30f, 1e30f}, v[2] = {10, 20};
        float out[1], w[2];
        CHECK_OK(attn_sdpa(q, k, v, 1, 2, 2, 1, 1.0f, NULL, 0, out, w));
        CHECK(!isnan(out[0]) && !isnan(w[0]) && !isnan(w[1]));
        CHECK_NEAR(w[1], 1.0, 0.0);      /* 第二个键的分数大得多，拿走全部权重 */
        CHECK_NEAR(out[0], 20.0, 0.0);
        float naive = 1e30f * 1e30f + 1e30f * -1e30f;   /* 同样的点积在 float 里算 */
        CHECK(isnan(naive));
        /* 1e40 和 2e40 在 float 里都是 +inf；在 double 里减去最大值后，后者拿走全部权重 */
        const float q1[1] = {1e20f}, k2[2] = {1e20f, 2e20f};
        CHECK_OK(attn_sdpa_reference(q1, k2, v, 1, 2, 1, 1, 1.0f, NULL, 0, out, w));
        volatile double big = 1e40;
        CHECK(isinf((float)big));
        CHECK_NEAR(w[1], 1.0, 0.0);
        CHECK_NEAR(out[0], 20.0, 0.0);
    }
    check_section("attn_sdpa 等于一步一步的做法；一次算所有查询等于一次一个");
    {
        enum { N = 4, DK = 3, DV = 2 };
        attn_rng rng;
        attn_rng_seed(&rng, 7);
        float q[N * DK], k[N * DK], v[N * DV];
        attn_rng_normal(&rng, q, N * DK);
        attn_rng_normal(&rng, k, N * DK);
        attn_rng_normal(&rng, v, N * DV);
        float out[N * DV], w[N * N];
        CHECK_OK(attn_sdpa(q, k, v, N, N, DK, DV, 0.0f, NULL, 0, out, w));
        float s[N * N], want[N * DV];
        CHECK_OK(attn_dot_all(q, k, N, N, DK, s));
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++)
                s[i * N + j] /= sqrtf(DK);
            CHECK_OK(attn_softmax(s + i * N, N));
            CHECK_OK(attn_weighted_sum(s + i * N, v, N, DV, want + i * DV));
        }
        CHECK_ARRAY_NEAR(w, s, N * N, 1e-6);
        CHECK_ARRAY_NEAR(out, want, N * DV, 1e-5);
        for (int i = 0; i < N; i++) {                /* 一次一个查询 */
            float one[DV];
            CHECK_OK(attn_sdpa(q + i * DK, k, v, 1, N, DK, DV, 0.0f, NULL, 0, one, NULL));
            CHECK_ARRAY_NEAR(one, out + i * DV, DV, 1e-6);
        }
        CHECK_STATUS(attn_sdpa(q, k, v, N, N, DK, DV, -1.0f, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa(q, k, v, N, N, DK, DV, NAN, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa(q, k, NULL, N, N, DK, DV, 0.0f, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa(q, k, v, N, 0, DK, DV, 0.0f, NULL, 0, out, w), ATTN_EINVAL);
    }
#line 1369 "book/03-attention.nw"
    check_section("带掩码的调用：要么照办，要么是 ATTN_EINVAL 且什么也不写，绝不当作没有掩码");
    {
        /* 两个查询、两个键、d = 1；掩码不让查询 0 看键 1，因果规则也是如此 */
        const float q[2] = {1, 1}, k[2] = {1, 2}, v[2] = {10, 20};
        const unsigned char mask[4] = {1, 0, 1, 1};
        for (int kind = 0; kind < 4; kind++) {
            float out[2] = {-1, -1}, w[4] = {-1, -1, -1, -1};
            const unsigned char *m = kind % 2 == 0 ? mask : NULL;
            int causal = kind % 2 == 1;
            int st = kind < 2 ? attn_sdpa(q, k, v, 2, 2, 1, 1, 1.0f, m, causal, out, w)
                              : attn_sdpa_reference(q, k, v, 2, 2, 1, 1, 1.0f, m, causal, out, w);
            CHECK(st == ATTN_OK || st == ATTN_EINVAL);
            if (st == ATTN_OK) {
                CHECK_NEAR(w[0], 1.0, 1e-6);
                CHECK_NEAR(w[1], 0.0, 0.0);
                CHECK_NEAR(out[0], 10.0, 1e-5);
            } else {
                CHECK_NEAR(out[0], -1, 0);
                CHECK_NEAR(w[1], -1, 0);
            }
        }
    }
#line 1394 "book/03-attention.nw"
    check_section("毛茸茸的蓝色生物：正文里 Q = XW_Q、K = XW_K 和 QKᵀ 的表（s = 3，c = 2）");
    {
        static const float want_q[FL_N * FL_DK] = {
            0, 2, 0,  0, 2, 0,  0, 2, 0,  3, 2, 0,  0, 0, 0,  0, 0, 2,  0, 0, 2,  3, 0, 2};
        static const float want_k[FL_N * FL_DK] = {
            0, 2, 0,  3, 2, 0,  3, 2, 0,  0, 2, 0,  0, 0, 0,  0, 0, 2,  3, 0, 2,  0, 0, 2};
        static const float want_s[FL_N * FL_N] = {
            4, 4,  4,  4, 0, 0, 0,  0,
            4, 4,  4,  4, 0, 0, 0,  0,
            4, 4,  4,  4, 0, 0, 0,  0,
            4, 13, 13, 4, 0, 0, 9,  0,
            0, 0,  0,  0, 0, 0, 0,  0,
            0, 0,  0,  0, 0, 4, 4,  4,
            0, 0,  0,  0, 0, 4, 4,  4,
            0, 9,  9,  0, 0, 4, 13, 4,
        };
        float q[FL_N * FL_DK], k[FL_N * FL_DK], s[FL_N * FL_N];
        CHECK_OK(fluffy_qk(3, 2, q, k));
        CHECK_ARRAY_NEAR(q, want_q, FL_N * FL_DK, 0);
        CHECK_ARRAY_NEAR(k, want_k, FL_N * FL_DK, 0);
        CHECK_OK(attn_dot_all(q, k, FL_N, FL_N, FL_DK, s));
        CHECK_ARRAY_NEAR(s, want_s, FL_N * FL_N, 0);
        CHECK_NEAR(s[3 * FL_N + 1], 3 * 3 + 2 * 2, 0);   /* creature → fluffy：s² + c² */
        CHECK_NEAR(s[3 * FL_N + 0], 2 * 2, 0);           /* creature → a：c² */
        CHECK_NEAR(s[3 * FL_N + 6], 3 * 3, 0);           /* creature → verdant：s² */
    }
#line 1423 "book/03-attention.nw"
    check_section("毛茸茸的蓝色生物：正文里的权重表，0.947 与 0.826，比值 e^(9/√3) ≈ 180.6，creature 的输出与残差");
    {
        static const float want_w[FL_N * FL_N] = {   /* 正文的表，四舍五入到三位 */
            0.227f, 0.227f, 0.227f, 0.227f, 0.023f, 0.023f, 0.023f, 0.023f,
            0.227f, 0.227f, 0.227f, 0.227f, 0.023f, 0.023f, 0.023f, 0.023f,
            0.227f, 0.227f, 0.227f, 0.227f, 0.023f, 0.023f, 0.023f, 0.023f,
            0.003f, 0.473f, 0.473f, 0.003f, 0.000f, 0.000f, 0.047f, 0.000f,
            0.125f, 0.125f, 0.125f, 0.125f, 0.125f, 0.125f, 0.125f, 0.125f,
            0.028f, 0.028f, 0.028f, 0.028f, 0.028f, 0.286f, 0.286f, 0.286f,
            0.028f, 0.028f, 0.028f, 0.028f, 0.028f, 0.286f, 0.286f, 0.286f,
            0.000f, 0.082f, 0.082f, 0.000f, 0.000f, 0.005f, 0.826f, 0.005f,
        };
        float w[FL_N * FL_N], out[FL_N * FL_D];
        CHECK_OK(fluffy_attention(3, 2, w, out));
        CHECK_ARRAY_NEAR(w, want_w, FL_N * FL_N, 0.0005 + 1e-6);
        CHECK_STR(fluffy_words[3], "creature");          /* 行号与词对得上 */
        CHECK_STR(fluffy_words[7], "forest");
        const float *creature = w + 3 * FL_N, *forest = w + 7 * FL_N;
        CHECK_NEAR(creature[1] + creature[2], 0.947, 1e-3);
        CHECK_NEAR(creature[1], 0.4735, 5e-5);
        CHECK_NEAR(forest[6], 0.826, 1e-3);
        for (int j = 0; j < FL_N; j++) {
            CHECK(creature[1] >= creature[j]);
            CHECK(forest[6] >= forest[j]);
        }
        CHECK(creature[6] > 0 && creature[7] > 0);          /* 不加掩码：后面的词也看得见 */
        for (int i = 0; i < FL_N; i++) {
            float sum = 0;
            for (int j = 0; j < FL_N; j++) {
                CHECK(w[i * FL_N + j] >= 0 && w[i * FL_N + j] <= 1);
                sum += w[i * FL_N + j];
            }
            CHECK_NEAR(sum, 1, 1e-6);
        }
        /* 分数差 13 − 4 = 9，除以 √3：权重比 e^(9/√3) ≈ 180.6 */
        CHECK_NEAR(exp(9.0 / sqrt(3.0)), 180.6, 0.05);
        CHECK_NEAR(creature[1] / creature[0], 180.6, 0.05);
        for (int j = 0; j < FL_N; j++)               /* roamed 的查询是零向量 */
            CHECK_NEAR(w[4 * FL_N + j], 0.125, 1e-6);
        /* creature 的输出 ≈ (0.003, 0.994, 0.952, 0.048, 0.000) */
        const float want_out[FL_D] = {0.003f, 0.994f, 0.952f, 0.048f, 0.000f};
        CHECK_ARRAY_NEAR(out + 3 * FL_D, want_out, FL_D, 0.0005 + 1e-6);
        /* 正文的输出表：八行，权重相同的行输出也相同 */
        static const float want_all[FL_N * FL_D] = {
            0.250f, 0.477f, 0.910f, 0.068f, 0.023f,
            0.250f, 0.477f, 0.910f, 0.068f, 0.023f,
            0.250f, 0.477f, 0.910f, 0.068f, 0.023f,
            0.003f, 0.994f, 0.952f, 0.048f, 0.000f,
            0.250f, 0.375f, 0.500f, 0.375f, 0.125f,
            0.314f, 0.343f, 0.114f, 0.858f, 0.028f,
            0.314f, 0.343f, 0.114f, 0.858f, 0.028f,
            0.005f, 0.989f, 0.165f, 0.835f, 0.000f,
        };
        CHECK_ARRAY_NEAR(out, want_all, FL_N * FL_D, 0.0005 + 1e-6);
        /* 残差：e' = e + Δe ≈ (1.003, 0.994, 1.952, 0.048, 0)，名词和形容词两个分量都在 */
        const float want_res[FL_D] = {1.003f, 0.994f, 1.952f, 0.048f, 0.000f};
        float res[FL_D];
        for (int c = 0; c < FL_D; c++)
            res[c] = fluffy_x[3 * FL_D + c] + out[3 * FL_D + c];
        CHECK_ARRAY_NEAR(res, want_res, FL_D, 0.0005 + 1e-6);
        CHECK(out[3 * FL_D + 0] < 0.01f && res[0] > 1.0f);   /* 只用输出，名词分量就丢了 */
    }
#line 1488 "book/03-attention.nw"
    check_section("数据流图的形状：n = 8，d_model = 5，d_k = 3，d_v = 5；输出恰好写满 8×8 与 8×5");
    {
        CHECK_INT(FL_N, 8);
        CHECK_INT(FL_D, 5);
        CHECK_INT(FL_DK, 3);
        /* 用全是 NaN 的输出缓冲区检查 attn_sdpa 恰好写满 8×8 的权重和 8×5 的输出 */
        float w[FL_N * FL_N + 1], out[FL_N * FL_D + 1];
        for (size_t i = 0; i < FL_N * FL_N + 1; i++) w[i] = NAN;
        for (size_t i = 0; i < FL_N * FL_D + 1; i++) out[i] = NAN;
        float q[FL_N * FL_DK], k[FL_N * FL_DK];
        CHECK_OK(fluffy_qk(3, 2, q, k));
        CHECK_OK(attn_sdpa(q, k, fluffy_x, FL_N, FL_N, FL_DK, FL_D, 0.0f, NULL, 0, out, w));
        for (size_t i = 0; i < FL_N * FL_N; i++) CHECK(!isnan(w[i]));
        for (size_t i = 0; i < FL_N * FL_D; i++) CHECK(!isnan(out[i]));
        CHECK(isnan(w[FL_N * FL_N]) && isnan(out[FL_N * FL_D]));
    }
#line 1507 "book/03-attention.nw"
    check_section("点积的方差约为 d_k = 64，除以 √d_k 后约为 1；e^8 ≈ 2981");
    {
        attn_rng rng;
        attn_rng_seed(&rng, 42);
        enum { D = 64, SAMPLES = 4000 };
        double sum = 0, sum2 = 0;
        for (int s = 0; s < SAMPLES; s++) {
            float q[D], k[D], dot;
            attn_rng_normal(&rng, q, D);
            attn_rng_normal(&rng, k, D);
            CHECK_OK(attn_dot(q, k, D, &dot));
            sum += dot;
            sum2 += (double)dot * dot;
        }
        double mean = sum / SAMPLES, var = sum2 / SAMPLES - mean * mean;
        CHECK_REL(var, 64, 0.1);                     /* 方差约为 d_k */
        CHECK_REL(var / 64, 1, 0.1);                 /* 除以 √d_k 之后约为 1 */
        CHECK_NEAR(exp(8.0), 2981, 0.5);             /* 差一个标准差，权重差 e^8 倍 */
    }
    check_section("Thinking Machines：112 与 96 除以 8 是 14 与 12，权重 0.8808 与 0.1192；不缩放 0.99999989");
    {
        float s[2] = {112.0f / 8.0f, 96.0f / 8.0f};
        CHECK_OK(attn_softmax(s, 2));
        CHECK_NEAR(s[0], 0.8808, 1e-4);
        CHECK_NEAR(s[1], 0.1192, 1e-4);
        float raw[2] = {112, 96};
        CHECK_OK(attn_softmax(raw, 2));
        CHECK_NEAR(raw[0], 0.99999989, 1e-7);
    }
#line 1539 "book/03-attention.nw"
    check_section("高斯核回归就是一次点积注意力：键 1、2、3，查询 2.5，权重 (0.155, 0.422, 0.422)，估计 22.67");
    {
        const float keys[3] = {1, 2, 3}, values[3] = {10, 20, 30}, x = 2.5f;
        float gauss[3], dot[3], k[6], out[1], w[3];
        double est = 0;
        for (int i = 0; i < 3; i++) {
            gauss[i] = -0.5f * (x - keys[i]) * (x - keys[i]);     /* −1.125, −0.125, −0.125 */
            dot[i] = x * keys[i] - 0.5f * keys[i] * keys[i];      /* 2, 3, 3 */
            k[2 * i] = keys[i];                                   /* 键 (k, −k²/2) */
            k[2 * i + 1] = -0.5f * keys[i] * keys[i];
        }
        CHECK_NEAR(gauss[0], -1.125, 0);
        CHECK_NEAR(gauss[1], -0.125, 0);
        CHECK_NEAR(dot[0], 2, 0);
        CHECK_NEAR(dot[2], 3, 0);
        CHECK_OK(attn_softmax(gauss, 3));
        CHECK_OK(attn_softmax(dot, 3));
        CHECK_ARRAY_NEAR(gauss, dot, 3, 1e-6);                    /* 差一个常数，softmax 一样 */
        for (int i = 0; i < 3; i++)
            est += gauss[i] * values[i];
        CHECK_NEAR(est, 22.67, 0.005);
        const float q[2] = {x, 1};                                /* 查询 (x, 1) */
        CHECK_OK(attn_sdpa(q, k, values, 1, 3, 2, 1, 1.0f, NULL, 0, out, w));
        CHECK_NEAR(out[0], est, 1e-4);
        CHECK_ARRAY_NEAR(w, gauss, 3, 1e-6);
        CHECK_NEAR(w[0], 0.155, 5e-4);
        CHECK_NEAR(w[1], 0.422, 5e-4);
    }
#line 1570 "book/03-attention.nw"
    check_section("每个查询得到一行输出 Σ_j a_ij v_j，V 原样不动，2 个查询只有 2 行");
    {
        enum { NQ = 2, NK = 5, DK = 4, DV = 3 };
        float q[NQ * DK], k[NK * DK], v[NK * DV], v0[NK * DV], out[NQ * DV + 1], w[NQ * NK];
        attn_rng rng;
        attn_rng_seed(&rng, 3);
        attn_rng_normal(&rng, q, NQ * DK);
        attn_rng_normal(&rng, k, NK * DK);
        attn_rng_normal(&rng, v, NK * DV);
        memcpy(v0, v, sizeof v);
        out[NQ * DV] = 99.0f;
        CHECK_OK(attn_sdpa(q, k, v, NQ, NK, DK, DV, 0.0f, NULL, 0, out, w));
        CHECK_ARRAY_NEAR(v, v0, NK * DV, 0);               /* V 没有被代替 */
        CHECK_NEAR(out[NQ * DV], 99.0f, 0);                 /* 输出只有 n_q 行 */
        for (size_t i = 0; i < NQ; i++) {                  /* 第 i 行 = Σ_j a_ij v_j */
            float row[DV];
            CHECK_OK(attn_weighted_sum(w + i * NK, v, NK, DV, row));
            CHECK_ARRAY_NEAR(out + i * DV, row, DV, 1e-6);
        }
    }
#line 1593 "book/03-attention.nw"
    check_section("K = V：k 和 v 传同一块内存与传拷贝相同；毛茸茸的例子里值就是键时只剩 3·(权重和) ≈ 2.98");
    {
        const float q[2 * 2] = {1, 0, 0, 1}, k[2 * 2] = {2, 0, 0, 2};
        float copy[2 * 2], same[2 * 2], separate[2 * 2];
        memcpy(copy, k, sizeof copy);
        CHECK_OK(attn_sdpa(q, k, k, 2, 2, 2, 2, 0.0f, NULL, 0, same, NULL));
        CHECK_OK(attn_sdpa(q, k, copy, 2, 2, 2, 2, 0.0f, NULL, 0, separate, NULL));
        CHECK_ARRAY_NEAR(same, separate, 4, 0);
        /* 毛茸茸的例子里 K = XW_K 和 V = X 不同，creature 的输出当然也不同 */
        float w[FL_N * FL_N], out[FL_N * FL_D];
        CHECK_OK(fluffy_attention(3, 2, w, out));
        float fq[FL_N * FL_DK], fk[FL_N * FL_DK], kv_out[FL_N * FL_DK];
        CHECK_OK(fluffy_qk(3, 2, fq, fk));
        CHECK_OK(attn_sdpa(fq, fk, fk, FL_N, FL_N, FL_DK, FL_DK, 0.0f, NULL, 0, kv_out, NULL));
        /* 值就是键时，creature 收到的第 1 个分量是 3 乘它分给三个形容词的权重：
           只是“这里有形容词”的信号，不是词本身 */
        const float *cw = w + 3 * FL_N;
        CHECK_NEAR(kv_out[3 * FL_DK + 0], 3 * (cw[1] + cw[2] + cw[6]), 1e-5);
        CHECK_NEAR(kv_out[3 * FL_DK + 0], 2.98, 5e-3);
    }
#line 1616 "book/03-attention.nw"
    check_section("softmax 的括号：分数 ln 0.6 与 ln 0.4，值 10 与 5，得 8；错误的括号得 1");
    {
        /* 一个查询、两个键（apple、banana；chair 的权重是 0，不参与），d_k = d_v = 1 */
        const float q[1] = {1.0f};
        const float k[2] = {logf(0.6f), logf(0.4f)};
        const float v[2] = {10.0f, 5.0f};
        float out[1], w[2];
        CHECK_OK(attn_sdpa(q, k, v, 1, 2, 1, 1, 1.0f, NULL, 0, out, w));
        CHECK_NEAR(w[0], 0.6, 1e-6);
        CHECK_NEAR(w[1], 0.4, 1e-6);
        CHECK_NEAR(out[0], 8.0, 1e-5);
        /* 错误的括号：乘 V 的是分数（不是权重），再对乘出来的一个数做 softmax */
        float s[2];
        CHECK_OK(attn_dot_all(q, k, 1, 2, 1, s));
        float wrong[1] = {s[0] * v[0] + s[1] * v[1]};
        CHECK_NEAR(wrong[0], -9.69, 5e-3);           /* 10 ln 0.6 + 5 ln 0.4 */
        CHECK_OK(attn_softmax(wrong, 1));
        CHECK_NEAR(wrong[0], 1.0, 0.0);
        float wrong2[1] = {-123.0f};
        CHECK_OK(attn_softmax(wrong2, 1));
        CHECK_NEAR(wrong2[0], 1.0, 0.0);
    }
#line 1641 "book/03-attention.nw"
    check_section("括号的位置：softmax(QKᵀ/√d)·V 第一行 (6.698, 3.302)，softmax(QKᵀ/√d·V) 第一行 (0.99915, …)");
    {
        const float q[4] = {1, 0, 0, 1}, k[4] = {1, 0, 0, 1}, v[4] = {10, 0, 0, 10};
        float right[4], w[4];
        CHECK_OK(attn_sdpa(q, k, v, 2, 2, 2, 2, 0.0f, NULL, 0, right, w));
        CHECK_NEAR(w[0], 0.6698, 1e-4);
        CHECK_NEAR(right[0], 6.698, 1e-3);
        CHECK_NEAR(right[1], 3.302, 1e-3);
        CHECK_NEAR(right[0] + right[1], 10, 1e-5);
        /* 错误的括号：先算 (QKᵀ/√2)·V，乘 V 的是分数，再对每一行（d_v 个分量）做 softmax */
        float s[4], wrong[4];
        CHECK_OK(attn_dot_all(q, k, 2, 2, 2, s));
        for (int i = 0; i < 4; i++)
            s[i] /= sqrtf(2);
        for (int i = 0; i < 2; i++)
            for (int c = 0; c < 2; c++)
                wrong[i * 2 + c] = s[i * 2 + 0] * v[0 * 2 + c] + s[i * 2 + 1] * v[1 * 2 + c];
        CHECK_NEAR(wrong[0], 7.071, 1e-3);
        CHECK_OK(attn_softmax(wrong, 2));
        CHECK_OK(attn_softmax(wrong + 2, 2));
        CHECK_NEAR(wrong[0], 0.99915, 1e-5);
        CHECK_NEAR(wrong[0] + wrong[1], 1, 1e-6);
        CHECK(fabsf(wrong[0] - right[0]) > 1);       /* 两者确实不同 */
    }
#line 1668 "book/03-attention.nw"
    check_section("原始点积不是权重：(2, −1) 和为 1 却有负数，(2, 1) 和为 3；softmax 之后在 0 和 1 之间，和为 1");
    {
        float a[2] = {2.0f, -1.0f}, b[2] = {2.0f, 1.0f};
        CHECK(a[1] < 0.0f);
        CHECK_NEAR(a[0] + a[1], 1.0, 0.0);
        CHECK_NEAR(b[0] + b[1], 3.0, 0.0);
        CHECK_OK(attn_softmax(a, 2));
        CHECK_OK(attn_softmax(b, 2));
        CHECK(a[0] > 0.0f && a[0] < 1.0f && a[1] > 0.0f && a[1] < 1.0f);
        CHECK_NEAR(a[0] + a[1], 1.0, 1e-6);
        CHECK_NEAR(b[0] + b[1], 1.0, 1e-6);
        float s[4] = {3.0f, -2.0f, 0.5f, 7.0f};
        CHECK_OK(attn_softmax(s, 4));
        double sum = 0.0;
        for (int j = 0; j < 4; j++) {
            CHECK(s[j] > 0.0f && s[j] < 1.0f);
            sum += s[j];
        }
        CHECK_NEAR(sum, 1.0, 1e-6);
    }
#line 1691 "book/03-attention.nw"
    check_section("随机数发生器：splitmix64 参考代码的输出（种子 0 与 42）、可复现、均值与方差");
    {
        /* 期望的六个数按 splitmix64.c 的算法在 64 位整数上另外算出，不经过本库 */
        static const unsigned long long seed0[3] = {
            0xE220A8397B1DCDAFULL, 0x6E789E6AA1B965F4ULL, 0x06C45D188009454FULL};
        static const unsigned long long seed42[3] = {
            0xBDD732262FEB6E95ULL, 0x28EFE333B266F103ULL, 0x47526757130F9F52ULL};
        attn_rng r;
        CHECK_OK(attn_rng_seed(&r, 0));
        for (int i = 0; i < 3; i++)
            CHECK(attn_rng_next(&r) == seed0[i]);
        CHECK_OK(attn_rng_seed(&r, 42));
        for (int i = 0; i < 3; i++)
            CHECK(attn_rng_next(&r) == seed42[i]);
        CHECK(0x9E3779B97F4A7C15ULL % 2 == 1);              /* 增量是奇数 */
        CHECK_NEAR((double)0x9E3779B97F4A7C15ULL / 18446744073709551616.0, 2.0 / (1.0 + sqrt(5.0)), 1e-15);
        CHECK_STATUS(attn_rng_seed(NULL, 1), ATTN_EINVAL);
        CHECK(attn_rng_next(NULL) == 0);

        enum { N = 100000 };
        static float a[N], b[N];
        attn_rng r1, r2;
        attn_rng_seed(&r1, 42);
        attn_rng_seed(&r2, 42);
        CHECK_OK(attn_rng_normal(&r1, a, N));
        CHECK_OK(attn_rng_normal(&r2, b, N));
        int same = 1;
        for (size_t i = 0; i < N; i++)
            same &= a[i] == b[i];
        CHECK(same);

        double mean = 0, var = 0;
        for (size_t i = 0; i < N; i++)
            mean += a[i];
        mean /= N;
        for (size_t i = 0; i < N; i++)
            var += (a[i] - mean) * (a[i] - mean);
        var /= N - 1;
        CHECK_NEAR(1.0 / sqrt(N), 0.0032, 1e-4);
        CHECK_NEAR(sqrt(2.0 / N), 0.0045, 1e-4);
        CHECK_NEAR(mean, 0.0, 5.0 / sqrt(N));
        CHECK_NEAR(var, 1.0, 5.0 * sqrt(2.0 / N));
        CHECK_STATUS(attn_rng_normal(&r1, a, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_rng_normal(&r1, NULL, 3), ATTN_EINVAL);
    }
#line 1739 "book/03-attention.nw"
    check_section("随机数发生器：奇数个时写满最后一个，后面一个字节也不动");
    {
        float x[4] = {0, 0, 0, 99.0f};
        attn_rng r;
        attn_rng_seed(&r, 7);
        CHECK_OK(attn_rng_normal(&r, x, 3));
        CHECK(x[2] != 0.0f);
        CHECK_NEAR(x[3], 99.0f, 0);
    }
#line 1804 "book/03-attention.nw"
    return check_summary("ch03");
}
