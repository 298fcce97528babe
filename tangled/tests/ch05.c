#line 1213 "book/05-mask.nw"
#include "attn.h"
#include "check.h"
#include "mask.h"

#include <math.h>

#include "../examples/ch05.h"

int main(void)
{
#line 59 "book/05-mask.nw"
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
#line 105 "book/05-mask.nw"
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
#line 191 "book/05-mask.nw"
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
#line 255 "book/05-mask.nw"
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
#line 298 "book/05-mask.nw"
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
#line 362 "book/05-mask.nw"
    check_section("图 5.1：右上角为 0，每行和为 1");
    {
        enum { N = 6, D = 8 };
        float q[N * D], k[N * D], v[N], out[N], w[N * N];
        attn_rng r;
        attn_rng_seed(&r, 5);
        attn_rng_normal(&r, q, N * D);
        attn_rng_normal(&r, k, N * D);
        attn_rng_normal(&r, v, N);
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
#line 401 "book/05-mask.nw"
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
#line 448 "book/05-mask.nw"
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
#line 596 "book/05-mask.nw"
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
#line 740 "book/05-mask.nw"
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
        CHECK_INT(best, 3);
        CHECK_NEAR(w[5 * KVF_N + 3], 0.39, 0.005);
    }
#line 767 "book/05-mask.nw"
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
#line 800 "book/05-mask.nw"
    check_section("KV 缓存的大小：GPT-3");
    {
        unsigned long long per_token = 2ULL * 12288 * 96;
        CHECK_INT(per_token, 2359296);
        CHECK_INT(per_token * 4, 9437184);
        CHECK_INT(per_token * 4, 9ULL << 20);
        CHECK_INT(per_token * 4 * 2048, 18ULL << 30);
    }
#line 913 "book/05-mask.nw"
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
#line 966 "book/05-mask.nw"
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
#line 1237 "book/05-mask.nw"
    return check_summary("ch05");
}
