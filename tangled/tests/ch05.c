#line 1246 "book/05-mask.nw"
#include "attn.h"
#include "check.h"
#include "mask.h"

#include <math.h>

#include "../examples/ch05.h"

#line 765 "book/05-mask.nw"
/* x 舍入到最近的 IEEE 754 半精度数（舍入到偶数），结果仍用 float 表示。
   半精度：11 位有效数字，最小正规数 2^-14，最小非正规数 2^-24，最大有限数 65504。 */
static float to_half(float x)
{
    if (isnan(x) || isinf(x) || x == 0.0f)
        return x;
    int e;
    frexpf(fabsf(x), &e);                       /* |x| = m·2^e，m ∈ [0.5, 1) */
    int exp_ulp = e - 1 >= -14 ? e - 11 : -24;   /* 这一段里相邻两个半精度数的间距 2^exp_ulp */
    float ulp = ldexpf(1.0f, exp_ulp);
    float r = nearbyintf(fabsf(x) / ulp) * ulp;  /* 默认的舍入方式：最近，一样近时取偶数 */
    return copysignf(r > 65504.0f ? INFINITY : r, x);
}

#line 1256 "book/05-mask.nw"
int main(void)
{
#line 634 "book/05-mask.nw"
    check_section("因果掩码：3×3");
    {
        float q[3] = {1, 2, 3}, k[3] = {1, 1, 1}, v[3] = {10, 20, 30}, out[3], w[9];
        CHECK_OK(attn_sdpa(q, k, v, 3, 3, 1, 1, 1.0f, NULL, 1, out, w));
        CHECK_NEAR(out[0], 10, 1e-5);
        CHECK_NEAR(out[1], 15, 1e-5);
        CHECK_NEAR(out[2], 20, 1e-5);
        CHECK_NEAR(w[1], 0, 0);
        CHECK_NEAR(w[2], 0, 0);
        CHECK_NEAR(w[5], 0, 0);
        /* 不用【MASK】输入词：把位置 2 换成别的向量，位置 0、1 的输出一位不差 */
        float k2[3] = {1, 1, -7}, v2[3] = {10, 20, 999}, q2[3] = {1, 2, 5}, out2[3];
        CHECK_OK(attn_sdpa(q2, k2, v2, 3, 3, 1, 1, 1.0f, NULL, 1, out2, NULL));
        CHECK_ARRAY_NEAR(out2, out, 2, 0);
        CHECK(fabsf(out2[2] - out[2]) > 1);
    }
    check_section("4 个位置：10 对可以看，右上角是 0");
    {
        int visible = 0, upper_right = 0;
        for (size_t i = 0; i < 4; i++)
            for (size_t j = 0; j < 4; j++) {
                visible += attn_key_visible(NULL, 1, 4, 4, i, j);
                if (j > i)
                    upper_right += attn_key_visible(NULL, 1, 4, 4, i, j);
            }
        CHECK_INT(visible, 10);
        CHECK_INT(visible, 4 * 5 / 2);
        CHECK_INT(upper_right, 0);
        CHECK_INT(attn_key_visible(NULL, 0, 4, 4, 0, 3), 1);
    }
#line 667 "book/05-mask.nw"
    check_section("右上角为 0，左下角留着；上限是 t，不是 T");
    {
        const float q[3] = {1, 2, 3}, k[3] = {1, 1, 1}, v[3] = {1, 2, 3};
        float out[3], w[9];
        CHECK_OK(attn_sdpa(q, k, v, 3, 3, 1, 1, 1.0f, NULL, 1, out, w));
        CHECK_NEAR(w[0 * 3 + 1], 0.0, 0.0);                /* 右上角 */
        CHECK_NEAR(w[0 * 3 + 2], 0.0, 0.0);
        CHECK_NEAR(w[1 * 3 + 2], 0.0, 0.0);
        CHECK(w[2 * 3 + 0] > 0.0f && w[1 * 3 + 0] > 0.0f);  /* 左下角留着 */
        const float q2[2] = {1.0f, 1.0f}, k2[2] = {1.0f, 5.0f}, v2[2] = {3.0f, 7.0f};
        float out2[2], w2[4];
        CHECK_OK(attn_sdpa(q2, k2, v2, 2, 2, 1, 1, 1.0f, NULL, 1, out2, w2));
        CHECK_NEAR(w2[0], 1.0, 0.0);
        CHECK_NEAR(w2[1], 0.0, 0.0);
        CHECK_NEAR(out2[0], 3.0, 1e-6);
    }
#line 686 "book/05-mask.nw"
    check_section("正确的掩码：softmax 之前填 -inf");
    {
        const float s[3] = {2.0f, 1.0f, 3.0f};
        const unsigned char vis[3] = {1, 1, 0};
        float p[3], two[2] = {2.0f, 1.0f};
        mask_neg_inf(s, vis, 3, p);
        CHECK_NEAR(p[0], 0.7311, 1e-4);
        CHECK_NEAR(p[1], 0.2689, 1e-4);
        CHECK_NEAR(p[2], 0.0, 0);
        CHECK_NEAR(p[0] + p[1] + p[2], 1.0, 1e-6);
        attn_softmax(two, 2);
        CHECK_NEAR(p[0], two[0], 0);
        CHECK_NEAR(p[1], two[1], 0);
    }
#line 703 "book/05-mask.nw"
    check_section("错误一：softmax 之前把分数置 0");
    {
        const float s[3] = {2.0f, 1.0f, 3.0f}, neg[3] = {-2.0f, -3.0f, 3.0f};
        const unsigned char vis[3] = {1, 1, 0};
        float p[3];
        mask_zero_scores(s, vis, 3, p);
        CHECK_NEAR(p[0], 0.6652, 1e-4);
        CHECK_NEAR(p[1], 0.2447, 1e-4);
        CHECK_NEAR(p[2], 0.0900, 1e-4);
        mask_zero_scores(neg, vis, 3, p);
        CHECK_NEAR(p[0], 0.1142, 1e-4);
        CHECK_NEAR(p[1], 0.0420, 1e-4);
        CHECK_NEAR(p[2], 0.8438, 1e-4);
    }
    check_section("错误二：softmax 之后把权重置 0");
    {
        const float s[3] = {2.0f, 1.0f, 3.0f};
        const unsigned char vis[3] = {1, 1, 0};
        float p[3], good[3];
        mask_zero_weights(s, vis, 3, p);
        CHECK_NEAR(p[0], 0.2447, 1e-4);
        CHECK_NEAR(p[1], 0.0900, 1e-4);
        CHECK_NEAR(p[2], 0.0, 0);
        CHECK_NEAR(p[0] + p[1] + p[2], 0.3348, 1e-4);
        CHECK_NEAR(1.0 / (p[0] + p[1] + p[2]), 3.0, 0.02);   /* 缩小了约三倍 */
        CHECK_NEAR(p[0] / p[1], exp(1.0), 1e-5);
        /* 重新归一化就等于正确的做法 */
        mask_neg_inf(s, vis, 3, good);
        CHECK_NEAR(p[0] / (p[0] + p[1]), good[0], 1e-6);
    }
    check_section("错误三：用 -1e9 代替 -inf");
    {
        const float s[3] = {2.0f, 1.0f, 3.0f};
        const unsigned char some[3] = {1, 1, 0}, none[3] = {0, 0, 0};
        float p[3], good[3];
        mask_big_negative(s, some, 3, p);
        mask_neg_inf(s, some, 3, good);
        CHECK_ARRAY_NEAR(p, good, 3, 0);
        volatile float big = -1e9f;
        CHECK(big + 2.0f == big);
        CHECK_NEAR(nextafterf(1e9f, 2e9f) - 1e9f, 64, 0);
        mask_big_negative(s, none, 3, p);
        CHECK_NEAR(p[0], 1.0 / 3, 1e-6);
        CHECK_NEAR(p[1], 1.0 / 3, 1e-6);
        CHECK_NEAR(p[2], 1.0 / 3, 1e-6);
    }
    check_section("错误四：整行都是 -inf 时得到 NaN");
    {
        const float s[3] = {2.0f, 1.0f, 3.0f};
        const unsigned char some[3] = {1, 1, 0}, none[3] = {0, 0, 0};
        float p[3], good[3];
        mask_naive_inf(s, some, 3, p);
        mask_neg_inf(s, some, 3, good);
        CHECK_ARRAY_NEAR(p, good, 3, 1e-7);
        mask_naive_inf(s, none, 3, p);
        CHECK(isnan(p[0]) && isnan(p[1]) && isnan(p[2]));
    }
#line 781 "book/05-mask.nw"
    check_section("-1e9 作掩码：单精度里整行遮住得均匀分布；半精度最大 65504，-1e9 变成 -inf，整行遮住时朴素 softmax 得 NaN");
    {
        CHECK_NEAR(to_half(65504.0f), 65504.0, 0);           /* 半精度最大的有限数 */
        CHECK_NEAR(to_half(65519.0f), 65504.0, 0);
        CHECK(isinf(to_half(65520.0f)));                     /* 不小于 65520 的都成了无穷大 */
        CHECK(isinf(to_half(-1e9f)) && to_half(-1e9f) < 0);
        CHECK_NEAR(to_half(1.0f + 1.0f / 4096), 1.0, 0);     /* 半精度只有 11 位有效数字 */
        const float s[3] = {2.0f, 1.0f, 3.0f};
        float p[3], some[3];
        /* 半精度里给每个分数加上 -1e9：三个都是 -inf */
        for (int j = 0; j < 3; j++) {
            p[j] = to_half(to_half(s[j]) + to_half(-1e9f));
            CHECK(isinf(p[j]) && p[j] < 0);
        }
        float m = fmaxf(fmaxf(p[0], p[1]), p[2]);
        CHECK(isnan(expf(p[0] - m)));                        /* −∞ − (−∞)：照公式减最大值得 NaN */
        CHECK_OK(attn_softmax(p, 3));                        /* 本库的 softmax：全是 −∞ 给全 0 */
        CHECK_NEAR(p[0] + p[1] + p[2], 0, 0);
        /* 只遮第三个：半精度里的 −∞ 没有害处，权重同 mask_neg_inf */
        const unsigned char vis[3] = {1, 1, 0};
        for (int j = 0; j < 3; j++)
            some[j] = vis[j] ? to_half(s[j]) : to_half(to_half(s[j]) + to_half(-1e9f));
        CHECK_OK(attn_softmax(some, 3));
        mask_neg_inf(s, vis, 3, p);
        CHECK_ARRAY_NEAR(some, p, 3, 1e-7);
        /* 单精度：部分遮住时 e^(-1e9) 就是 0；expf 的参数小于约 −104 时结果为 0 */
        CHECK_NEAR(expf(-104.0f), 0, 0);
        CHECK(expf(-103.0f) > 0.0f);
    }
#line 813 "book/05-mask.nw"
    check_section("整行都被遮住：权重和输出都是 0");
    {
        const float s[3] = {2.0f, 1.0f, 3.0f};
        const unsigned char none[3] = {0, 0, 0};
        float p[3];
        mask_neg_inf(s, none, 3, p);
        CHECK_NEAR(p[0], 0, 0);
        CHECK_NEAR(p[1], 0, 0);
        CHECK_NEAR(p[2], 0, 0);

        float q[2] = {1, 1}, k[2] = {1, 2}, v[4] = {10, 20, 30, 40}, out[4], w[4];
        const unsigned char mask[4] = {0, 0, 1, 1};   /* 查询 0 一个键也看不见 */
        CHECK_OK(attn_sdpa(q, k, v, 2, 2, 1, 2, 1.0f, mask, 0, out, w));
        CHECK_NEAR(w[0], 0, 0);
        CHECK_NEAR(w[1], 0, 0);
        CHECK_NEAR(out[0], 0, 0);
        CHECK_NEAR(out[1], 0, 0);
        CHECK_NEAR(w[2] + w[3], 1.0, 1e-6);
        CHECK(!isnan(out[2]) && !isnan(out[3]));
    }
#line 836 "book/05-mask.nw"
    check_section("图 5.1：右上角为 0，每行和为 1");
    {
        enum { N = KVF_N, D = KVF_DK };
        float q[N * D], k[N * D], v[N], out[N], w[N * N];
        CHECK_OK(causal_example(q, k, v));
        CHECK_OK(attn_sdpa(q, k, v, N, N, D, 1, 0.0f, NULL, 1, out, w));
        int zeros_ok = 1;
        double worst = 0.0;
        for (size_t i = 0; i < N; i++) {
            double sum = 0.0;
            for (size_t j = 0; j < N; j++) {
                sum += w[i * N + j];
                if (j > i && w[i * N + j] != 0.0f)
                    zeros_ok = 0;
            }
            worst = fmax(worst, fabs(sum - 1.0));
        }
        CHECK(zeros_ok);
        CHECK_NEAR(worst, 0.0, 1e-6);
        CHECK_NEAR(w[0], 1.0, 0);
    }
#line 860 "book/05-mask.nw"
    check_section("填充掩码与因果掩码同时生效");
    {
        enum { N = 6, LEN = 4, D = 4 };
        float q[N * D], k[N * D], v[N * 2], out[N * 2], w[N * N];
        unsigned char mask[N * N];
        attn_rng r;
        attn_rng_seed(&r, 9);
        attn_rng_normal(&r, q, N * D);
        attn_rng_normal(&r, k, N * D);
        attn_rng_normal(&r, v, N * 2);
        /* mask[i][j]：查询和键都不是填充符 */
        for (size_t i = 0; i < N; i++)
            for (size_t j = 0; j < N; j++)
                mask[i * N + j] = i < LEN && j < LEN;
        CHECK_OK(attn_sdpa(q, k, v, N, N, D, 2, 0.0f, mask, 1, out, w));
        for (size_t i = 0; i < N; i++) {
            double sum = 0.0;
            int bad = 0;
            for (size_t j = 0; j < N; j++) {
                sum += w[i * N + j];
                int allowed = i < LEN && j < LEN && j <= i;
                if (!allowed && w[i * N + j] != 0.0f)
                    bad = 1;
                if (allowed && !(w[i * N + j] > 0.0f))
                    bad = 1;
            }
            CHECK(!bad);
            CHECK_NEAR(sum, i < LEN ? 1.0 : 0.0, 1e-6);
        }
        CHECK_NEAR(out[4 * 2], 0, 0);
        CHECK_NEAR(out[5 * 2 + 1], 0, 0);
    }
#line 895 "book/05-mask.nw"
    check_section("右下角对齐：n_q = 2，n_k = 5");
    {
        float q[2] = {1, 1}, k[5] = {1, 1, 1, 1, 1}, v[5] = {1, 2, 3, 4, 5}, out[2], w[10];
        CHECK_OK(attn_sdpa(q, k, v, 2, 5, 1, 1, 1.0f, NULL, 1, out, w));
        const float want[10] = {0.25f, 0.25f, 0.25f, 0.25f, 0.0f,
                                0.2f, 0.2f, 0.2f, 0.2f, 0.2f};
        CHECK_ARRAY_NEAR(w, want, 10, 1e-6);
        CHECK_NEAR(out[0], 2.5, 1e-6);
        CHECK_NEAR(out[1], 3.0, 1e-6);
    }
    check_section("右下角对齐：n_q = 4，n_k = 2，前两行全 0");
    {
        float q[4] = {1, 1, 1, 1}, k[2] = {1, 1}, v[2] = {10, 20}, out[4], w[8];
        CHECK_OK(attn_sdpa(q, k, v, 4, 2, 1, 1, 1.0f, NULL, 1, out, w));
        const float want[8] = {0, 0, 0, 0, 1, 0, 0.5f, 0.5f};
        CHECK_ARRAY_NEAR(w, want, 8, 1e-6);
        const float want_out[4] = {0, 0, 10, 15};
        CHECK_ARRAY_NEAR(out, want_out, 4, 1e-5);
    }
#line 917 "book/05-mask.nw"
    check_section("因果的对齐：本书右下角，PyTorch 的 is_causal 左上角；3×4 时差 3 格，n_q = n_k 时相同");
    {
        static const unsigned char book_3x4[12] = {1, 1, 0, 0,  1, 1, 1, 0,  1, 1, 1, 1};
        static const unsigned char left_3x4[12] = {1, 0, 0, 0,  1, 1, 0, 0,  1, 1, 1, 0};
        int differ = 0;
        for (size_t i = 0; i < 3; i++)
            for (size_t j = 0; j < 4; j++) {
                int book = attn_key_visible(NULL, 1, 3, 4, i, j);
                int left = j <= i;                           /* torch.ones(3, 4).tril() */
                CHECK_INT(book, book_3x4[i * 4 + j]);
                CHECK_INT(left, left_3x4[i * 4 + j]);
                differ += book != left;
            }
        CHECK_INT(differ, 3);
        /* 左上角对齐里最后一个键谁也看不见 */
        CHECK_INT(left_3x4[0 * 4 + 3] + left_3x4[1 * 4 + 3] + left_3x4[2 * 4 + 3], 0);
        /* 同样的规则落到 attn_sdpa 的权重上：键都相同时，看得见的平分 */
        const float q[3] = {1, 1, 1}, k[4] = {1, 1, 1, 1}, v[4] = {1, 2, 3, 4};
        float out[3], w[12];
        CHECK_OK(attn_sdpa(q, k, v, 3, 4, 1, 1, 1.0f, NULL, 1, out, w));
        for (size_t c = 0; c < 12; c++)
            CHECK_INT(w[c] > 0.0f, book_3x4[c]);
        /* n_q = n_k 时两种对齐相同 */
        for (size_t n = 1; n <= 6; n++) {
            int same = 1;
            for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < n; j++)
                    same &= attn_key_visible(NULL, 1, n, n, i, j) == (j <= i);
            CHECK(same);
        }
    }
#line 951 "book/05-mask.nw"
    check_section("KV 缓存：k、v 碰到这次要写的键行或值行时是 ATTN_EINVAL，缓存不变；读已有的行没问题");
    {
        attn_kv_cache c;
        const float k0[2] = {1, 2}, v0[2] = {3, 4};
        CHECK_OK(attn_kv_cache_init(&c, 4, 2, 2));
        CHECK_OK(attn_kv_cache_append(&c, k0, v0, 1));
        /* 下一次要写的键行是 c.k[2..3]。先在那里放好 (7, 8)，让 v 指向它 */
        c.k[2] = 7.0f;
        c.k[3] = 8.0f;
        CHECK_STATUS(attn_kv_cache_append(&c, k0, c.k + 2, 1), ATTN_EINVAL);
        CHECK_INT(c.len, 1);
        CHECK_NEAR(c.k[2], 7.0, 0);                          /* 什么也没写 */
        /* k 指向这次要写的值行 */
        CHECK_STATUS(attn_kv_cache_append(&c, c.v + 2, v0, 1), ATTN_EINVAL);
        /* k 指向要写的键行、v 指向要写的值行（原来就拒绝的两种） */
        CHECK_STATUS(attn_kv_cache_append(&c, c.k + 2, v0, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_append(&c, k0, c.v + 2, 1), ATTN_EINVAL);
        /* 只碰到一个字节也算：v 从键行的最后一个 float 开始 */
        CHECK_STATUS(attn_kv_cache_append(&c, k0, c.k + 3, 1), ATTN_EINVAL);
        CHECK_INT(c.len, 1);
        /* 把缓存里已有的第 0 行再追加一次：读的是已有的行，写的是新行，合法 */
        CHECK_OK(attn_kv_cache_append(&c, c.k, c.v, 1));
        CHECK_INT(c.len, 2);
        CHECK_NEAR(c.k[2], 1.0, 0);
        CHECK_NEAR(c.v[3], 4.0, 0);
        attn_kv_cache_free(&c);
    }
#line 981 "book/05-mask.nw"
    check_section("KV 缓存：逐词生成等于一次算完");
    {
        enum { N = 6, DK = 4, DV = 3 };
        float q[N * DK], k[N * DK], v[N * DV], full[N * DV], step[N * DV], chunk[N * DV];
        attn_rng r;
        attn_rng_seed(&r, 17);
        attn_rng_normal(&r, q, N * DK);
        attn_rng_normal(&r, k, N * DK);
        attn_rng_normal(&r, v, N * DV);
        CHECK_OK(attn_sdpa(q, k, v, N, N, DK, DV, 0.0f, NULL, 1, full, NULL));

        attn_kv_cache c;
        CHECK_OK(attn_kv_cache_init(&c, N, DK, DV));
        for (size_t t = 0; t < N; t++) {
            CHECK_OK(attn_kv_cache_append(&c, k + t * DK, v + t * DV, 1));
            CHECK_OK(attn_kv_cache_attend(&c, q + t * DK, 1, 0.0f, step + t * DV, NULL));
        }
        CHECK_INT(c.len, N);
        CHECK_ARRAY_NEAR(step, full, N * DV, 0);

        /* 先整段放进 4 个位置，再逐个放进后 2 个 */
        attn_kv_cache_free(&c);
        CHECK_OK(attn_kv_cache_init(&c, N, DK, DV));
        CHECK_OK(attn_kv_cache_append(&c, k, v, 4));
        CHECK_OK(attn_kv_cache_attend(&c, q, 4, 0.0f, chunk, NULL));
        for (size_t t = 4; t < N; t++) {
            CHECK_OK(attn_kv_cache_append(&c, k + t * DK, v + t * DV, 1));
            CHECK_OK(attn_kv_cache_attend(&c, q + t * DK, 1, 0.0f, chunk + t * DV, NULL));
        }
        CHECK_ARRAY_NEAR(chunk, full, N * DV, 0);
        attn_kv_cache_free(&c);
    }
#line 1016 "book/05-mask.nw"
    check_section("图 5.2：逐词填进缓存的权重");
    {
        float q[KVF_N * KVF_DK], k[KVF_N * KVF_DK], v[KVF_N * KVF_DV], w[KVF_N * KVF_N];
        float full_w[KVF_N * KVF_N], full_out[KVF_N * KVF_DV];
        CHECK_OK(kv_figure_steps(q, k, v, w));
        CHECK_OK(attn_sdpa(q, k, v, KVF_N, KVF_N, KVF_DK, KVF_DV, 0.0f, NULL, 1, full_out, full_w));
        CHECK_ARRAY_NEAR(w, full_w, KVF_N * KVF_N, 0);
        for (size_t t = 0; t < KVF_N; t++) {
            float sum = 0;
            for (size_t j = 0; j <= t; j++)
                sum += w[t * KVF_N + j];
            CHECK_NEAR(sum, 1, 1e-6);
        }
        CHECK_NEAR(w[0], 1, 0);
        size_t best = 0;
        for (size_t j = 1; j < KVF_N; j++)
            if (w[5 * KVF_N + j] > w[5 * KVF_N + best])
                best = j;
        CHECK_INT(best, 1);
        CHECK_NEAR(w[5 * KVF_N + 1], 0.40, 0.005);
    }
#line 1040 "book/05-mask.nw"
    check_section("KV 缓存省下的乘加次数");
    {
        /* 手算：n = 3，d = 2，1 层。每个词的投影 16 次，位置 s 的一行注意力 4(s+1) 次。
           用缓存：20 + 24 + 28 = 72；不用：20 + (32 + 12) + (48 + 24) = 136 */
        CHECK_INT(kv_generation_macs(3, 2, 1, 1), 72);
        CHECK_INT(kv_generation_macs(3, 2, 1, 0), 136);
        /* 闭式：用缓存 L(4d²n + d n(n+1))，不用 L(2d² n(n+1) + d n(n+1)(n+2)/3) */
        const unsigned long long n = 1024, d = 768, L = 12;
        unsigned long long with = L * (4 * d * d * n + d * n * (n + 1));
        unsigned long long without = L * (2 * d * d * n * (n + 1) + d * n * (n + 1) * (n + 2) / 3);
        CHECK_INT(kv_generation_macs(n, d, L, 1), with);
        CHECK_INT(kv_generation_macs(n, d, L, 0), without);
        CHECK_INT(with, 38664142848ULL);
        CHECK_INT(without, 18166107340800ULL);
        CHECK_INT(without / with, 469);
        /* 2048 个词（练习 3）：用缓存是 1024 个词时的 2.5 倍，不用缓存是 4.7 倍 */
        CHECK_INT(kv_generation_macs(2048, d, L, 1), 96655638528ULL);
        CHECK_INT(kv_generation_macs(2048, d, L, 0), 85829565284352ULL);
        CHECK_NEAR(96655638528.0 / 38664142848.0, 2.5, 0.001);
        CHECK_NEAR(85829565284352.0 / 18166107340800.0, 4.72, 0.005);
        /* 超出 64 位时是 0，不是绕回来的小数 */
        CHECK_INT(kv_generation_macs(1000000, 1000000, 1000000, 0), 0);
    }
#line 1066 "book/05-mask.nw"
    check_section("KV 缓存：满了、空的、非法的尺寸");
    {
        attn_kv_cache c;
        float k[6] = {1, 2, 3, 4, 5, 6}, v[3] = {7, 8, 9}, q[2] = {1, 0}, out[1];
        CHECK_OK(attn_kv_cache_init(&c, 2, 2, 1));
        CHECK_STATUS(attn_kv_cache_attend(&c, q, 1, 0.0f, out, NULL), ATTN_EINVAL);
        CHECK_OK(attn_kv_cache_append(&c, k, v, 2));
        CHECK_STATUS(attn_kv_cache_append(&c, k + 4, v + 2, 1), ATTN_EFULL);
        CHECK_STATUS(attn_kv_cache_append(&c, k, v, (size_t)-1), ATTN_EFULL);
        CHECK_INT(c.len, 2);
        CHECK_NEAR(c.k[3], 4, 0);
        CHECK_NEAR(c.v[1], 8, 0);
        CHECK_STATUS(attn_kv_cache_append(&c, k, v, 0), ATTN_EINVAL);
        attn_kv_cache_free(&c);
        CHECK(c.k == NULL && c.len == 0 && c.capacity == 0);
        attn_kv_cache_free(&c);
        attn_kv_cache_free(NULL);
        CHECK_STATUS(attn_kv_cache_append(&c, k, v, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_init(&c, (size_t)-1 / 2, 4, 1), ATTN_EINVAL);
        CHECK(c.k == NULL && c.capacity == 0);
        CHECK_STATUS(attn_kv_cache_init(&c, 4, 0, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_init(NULL, 4, 2, 1), ATTN_EINVAL);
        const int efull = ATTN_EFULL;
        CHECK(efull != ATTN_OK && efull != ATTN_EINVAL && efull != ATTN_ENOMEM);
        CHECK_STR(attn_strerror(ATTN_EFULL), "cache is full");
    }
#line 1095 "book/05-mask.nw"
    check_section("KV 缓存的大小：GPT-3");
    {
        unsigned long long per_token = 2ULL * 12288 * 96;
        CHECK_INT(per_token, 2359296);
        CHECK_INT(per_token * 4, 9437184);
        CHECK_INT(per_token * 4, 9ULL << 20);
        CHECK_INT(per_token * 4 * 2048, 18ULL << 30);
        CHECK_INT(per_token * 2 * 2048, 9ULL << 30);            /* 半精度 */
    }
#line 1107 "book/05-mask.nw"
    check_section("多查询与分组查询：缓存缩小到 g/h");
    {
        /* 每个位置：键和值 × 层数 × 键值头 × d_head × 2 字节 */
        const unsigned long long layers = 80, d_head = 128, bytes = 2, n = 4096;
        const unsigned long long per_token[3] = {2 * layers * 64 * d_head * bytes,
                                                 2 * layers * 8 * d_head * bytes,
                                                 2 * layers * 1 * d_head * bytes};
        CHECK_INT(per_token[0], 2621440);
        CHECK_INT(per_token[0], 5ULL << 19);                   /* 2.5 MiB */
        CHECK_INT(per_token[1], 327680);
        CHECK_INT(per_token[1], 320ULL << 10);
        CHECK_INT(per_token[2], 40960);
        CHECK_INT(per_token[2], 40ULL << 10);
        CHECK_INT(per_token[0] * n, 10ULL << 30);
        CHECK_INT(per_token[1] * n * 4, 5ULL << 30);           /* 1.25 GiB */
        CHECK_INT(per_token[2] * n, 160ULL << 20);
        CHECK_INT(per_token[0] / per_token[1], 8);
    }
#line 1128 "book/05-mask.nw"
    check_section("注意力模式的大小：N 的平方");
    {
        CHECK_INT(pattern_bytes(1024, 1024), 4194304);
        CHECK_INT(pattern_bytes(1024, 1024), 4ULL << 20);
        CHECK_INT(pattern_bytes(8192, 8192), 268435456);
        CHECK_INT(pattern_bytes(8192, 8192), 256ULL << 20);
        CHECK_INT(pattern_bytes(131072, 131072), 68719476736ULL);
        CHECK_INT(pattern_bytes(131072, 131072), 64ULL << 30);
        CHECK_INT(131072 / 8192, 16);
        CHECK_INT(pattern_bytes(131072, 131072) / pattern_bytes(8192, 8192), 256);
        CHECK_INT(pattern_bytes(1ULL << 40, 1ULL << 40), 0);
        CHECK_INT(2048ULL * 2048, 4194304);                /* GPT-3 一个头的模式 */
    }
#line 1276 "book/05-mask.nw"
    return check_summary("ch05");
}
