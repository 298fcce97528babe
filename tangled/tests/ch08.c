#line 677 "book/08-params.nw"
#include "attn.h"
#include "check.h"

#include <math.h>
#include <stdint.h>

#line 707 "book/08-params.nw"
static attn_gpt_config preset(const char *name, int plain)
{
    attn_gpt_config c;
    CHECK_OK(attn_gpt_preset(name, &c));
    if (plain) {
        c.biases = 0;
        c.layer_norms = 0;
        c.learned_positions = 0;
        c.tied = 0;
    }
    return c;
}

#line 685 "book/08-params.nw"
int main(void)
{
#line 722 "book/08-params.nw"
    check_section("玩具模型：240 个参数");
    {
        attn_gpt_config c = {.d_model = 4, .n_heads = 1, .d_head = 2, .n_layers = 1,
                             .d_ff = 16, .vocab = 10, .n_ctx = 8};
        attn_param_breakdown b;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(b.q, 8);
        CHECK_INT(b.attention, 32);
        CHECK_INT(b.mlp, 128);
        CHECK_INT(b.embedding, 40);
        CHECK_INT(b.unembedding, 40);
        CHECK_INT(b.positions, 0);
        CHECK_INT(b.norms_all, 0);
        CHECK_INT(b.total, 240);
        CHECK_INT(b.layers + b.embedding + b.positions + b.final_norm + b.unembedding, b.total);
    }
#line 741 "book/08-params.nw"
    check_section("没有位置向量时，注意力不区分词的先后");
    {
        /* x[3][2] 同时当作查询、键、值；y 是对调第 0 和第 2 个词后的输入 */
        const float x[6] = {1.0f, 0.0f, 0.5f, 2.0f, -1.0f, 1.0f};
        const float y[6] = {-1.0f, 1.0f, 0.5f, 2.0f, 1.0f, 0.0f};
        float ox[6], oy[6];
        CHECK_OK(attn_sdpa(x, x, x, 3, 3, 2, 2, 0.0f, NULL, 0, ox, NULL));
        CHECK_OK(attn_sdpa(y, y, y, 3, 3, 2, 2, 0.0f, NULL, 0, oy, NULL));
        CHECK_ARRAY_NEAR(oy, ox + 4, 2, 1e-6);
        CHECK_ARRAY_NEAR(oy + 2, ox + 2, 2, 1e-6);
        CHECK_ARRAY_NEAR(oy + 4, ox, 2, 1e-6);
        CHECK(fabsf(ox[0] - ox[4]) > 0.1f);                /* 输出确实因词而异 */

        /* 因果掩码下：对调第 0 和第 2 个词，输出不再只是跟着换位置 */
        float cx[6], cy[6], cz[6];
        CHECK_OK(attn_sdpa(x, x, x, 3, 3, 2, 2, 0.0f, NULL, 1, cx, NULL));
        CHECK_OK(attn_sdpa(y, y, y, 3, 3, 2, 2, 0.0f, NULL, 1, cy, NULL));
        CHECK_ARRAY_NEAR(cy, y, 2, 0);                     /* 新的第一个词只看见自己 */
        CHECK(fabsf(cy[0] - cx[4]) > 0.1f || fabsf(cy[1] - cx[5]) > 0.1f);
        /* 对调前两个词：最后一个词看见的还是同一组词，输出不变 */
        const float z[6] = {0.5f, 2.0f, 1.0f, 0.0f, -1.0f, 1.0f};
        CHECK_OK(attn_sdpa(z, z, z, 3, 3, 2, 2, 0.0f, NULL, 1, cz, NULL));
        CHECK_ARRAY_NEAR(cz + 4, cx + 4, 2, 1e-6);
    }
#line 768 "book/08-params.nw"
    check_section("参数计数拒绝错误的输入");
    {
        attn_gpt_config c = preset("gpt2-small", 0);
        attn_param_breakdown b = {.total = 7};
        CHECK_STATUS(attn_count_params(NULL, &b), ATTN_EINVAL);
        CHECK_STATUS(attn_count_params(&c, NULL), ATTN_EINVAL);
        c.d_ff = 0;
        CHECK_STATUS(attn_count_params(&c, &b), ATTN_EINVAL);
        c = preset("gpt2-small", 0);
        c.n_heads = 1000000;
        c.d_head = 1000000;
        c.n_layers = 1000000;
        CHECK_STATUS(attn_count_params(&c, &b), ATTN_EINVAL);
        CHECK_INT(b.total, 7);
        CHECK_STATUS(attn_gpt_preset("gpt4", &c), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_preset(NULL, &c), ATTN_EINVAL);
    }
#line 788 "book/08-params.nw"
    check_section("GPT-3 只数矩阵（3Blue1Brown 的数法）：每一个数");
    {
        attn_gpt_config c = preset("gpt3-175b", 1);
        attn_param_breakdown b;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(b.q % c.n_heads, 0);
        CHECK_INT(b.q / c.n_heads, 1572864);                 /* 一个头的 W_Q */
        CHECK_INT(b.attention / c.n_heads, 6291456);         /* 一个头：查询、键、值降维、值升维 */
        CHECK_INT(b.attention, 603979776);                   /* 一层 96 个头 */
        CHECK_INT(b.attention_all, 57982058496LL);           /* 96 层 */
        CHECK_INT(b.mlp, 1207959552);
        CHECK_INT(b.mlp_all, 115964116992LL);
        CHECK_INT(b.mlp_all, 2 * b.attention_all);
        CHECK_INT(b.embedding, 617558016);
        CHECK_INT(b.unembedding, 617558016);
        CHECK_INT(b.total, 175181291520LL);
        CHECK_NEAR((double)b.attention_all / 1e8, 580, 0.5);   /* 约 580 亿 */
        CHECK_NEAR((double)b.mlp_all / 1e8, 1160, 0.5);        /* 约 1160 亿 */
        CHECK_NEAR((double)b.total / 1e8, 1752, 0.5);          /* 约 1752 亿 */
    }
#line 811 "book/08-params.nw"
    check_section("第 7 章的数：96 个头、每层 6 亿、上下文 2048");
    {
        attn_gpt_config c;
        attn_param_breakdown b;
        CHECK_OK(attn_gpt_preset("gpt3-175b", &c));
        CHECK_INT(c.n_heads, 96);
        CHECK_INT(c.d_head, 128);
        CHECK_INT(c.d_model, 12288);
        CHECK_INT(c.n_ctx, 2048);                  /* 最多 2048 个值向量 */
        CHECK(c.n_ctx != c.d_model);
        c.biases = 0;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(b.attention, 4ULL * 12288 * 12288);
        CHECK_INT(b.attention_all, 57982058496LL);
        CHECK_NEAR((double)b.attention_all / (double)b.total, 1.0 / 3.0, 5e-3);   /* 约三分之一 */
    }
#line 830 "book/08-params.nw"
    check_section("GPT-3：按真实的搭法");
    {
        attn_gpt_config c = preset("gpt3-175b", 0);
        attn_param_breakdown b, v;
        CHECK_OK(attn_count_params(&c, &b));
        attn_gpt_config plain = preset("gpt3-175b", 1);
        CHECK_OK(attn_count_params(&plain, &v));
        CHECK_INT(b.attention - v.attention, 49152);
        CHECK_INT(b.mlp - v.mlp, 61440);
        CHECK_INT(b.norms, 49152);
        CHECK_INT(b.layer - v.layer, 159744);
        CHECK_INT(c.n_layers * (b.layer - v.layer), 15335424);
        CHECK_INT(b.positions, 25165824);
        CHECK_INT(b.final_norm, 24576);
        CHECK_INT(b.unembedding, 0);
        CHECK_INT(b.total, 174604259328LL);
        CHECK_NEAR((double)b.total / 1e8, 1746, 0.5);          /* 约 1746 亿 */
        CHECK(b.total > (UINT64_C(1) << 37) && b.total < (UINT64_C(1) << 38));
        CHECK_INT(v.total - b.total, 577032192);
        CHECK_INT(617558016 - 25165824 - 15335424 - 24576, 577032192);
        uint64_t extras = b.positions + c.n_layers * (b.layer - v.layer) + b.final_norm;
        CHECK_INT(extras, 40525824);                           /* 四千多万 */
        CHECK((double)extras / (double)b.total < 3e-4);        /* 不到万分之三 */
    }
#line 857 "book/08-params.nw"
    check_section("GPT-2 small：124 439 808");
    {
        attn_gpt_config c = preset("gpt2-small", 0);
        attn_param_breakdown b;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(b.attention, 2362368);
        CHECK_INT(768 * 2304 + 2304 + 768 * 768 + 768, 2362368);
        CHECK_INT(b.q + b.k + b.v, 768 * 2304 + 2304);     /* c_attn */
        CHECK_INT(b.o, 768 * 768 + 768);                   /* c_proj */
        CHECK_INT(b.embedding, 38597376);
        CHECK_INT(b.total, 124439808);
        CHECK_INT(b.layers + b.embedding + b.positions + b.final_norm + b.unembedding, b.total);
        CHECK_NEAR((double)b.embedding / (double)b.total, 0.31, 0.01);
        attn_gpt_config plain = preset("gpt2-small", 1);
        CHECK_OK(attn_count_params(&plain, &b));
        CHECK_INT(b.o, 589824);                            /* W_O 的权重 */
        CHECK_INT(4 * b.o, b.attention);                   /* 四分之一 */
    }
#line 878 "book/08-params.nw"
    check_section("GPT-2 small：124 439 808、124 412 160 与 117M");
    {
        attn_gpt_config c = preset("gpt2-small", 0);
        attn_param_breakdown b;
        CHECK_OK(attn_count_params(&c, &b));
        const uint64_t full = b.total;
        /* 查询、键、值的投影不带偏置（Raschka 的默认）：每层少 3 × 768 */
        const uint64_t qkv_biases = c.n_layers * 3 * c.n_heads * c.d_head;
        CHECK_INT(qkv_biases, 27648);
        CHECK_INT(full - qkv_biases, 124412160);
        /* 117M 不是哪一种省略：去掉位置向量、去掉全部偏置，都还在 1.2 亿以上 */
        CHECK_INT(full - b.positions, 123653376);
        attn_gpt_config nob = c;
        nob.biases = 0;
        CHECK_OK(attn_count_params(&nob, &b));
        CHECK_INT(b.total, 124356864);
        CHECK(b.total > 117000000 + 6000000);
    }
#line 899 "book/08-params.nw"
    check_section("4E²+4E：E = 512 时与头数无关");
    {
        const uint64_t heads[4] = {1, 8, 16, 64};
        for (int i = 0; i < 4; i++) {
            attn_gpt_config c = {.d_model = 512, .n_heads = heads[i], .d_head = 512 / heads[i],
                                 .n_layers = 1, .d_ff = 2048, .vocab = 1, .n_ctx = 1, .biases = 1};
            attn_param_breakdown b;
            CHECK_OK(attn_count_params(&c, &b));
            CHECK_INT(b.attention, 1050624);
            CHECK_INT(b.q + b.k + b.v, 3 * 512 * 512 + 3 * 512);
            CHECK_INT(b.o, 512 * 512 + 512);
        }
        CHECK_INT(4 * 512 * 512 + 4 * 512, 1050624);
        /* 每个头读完整的 X：一个头的 W_Q 是 d × d_head，不是 d_head × d_head */
        attn_gpt_config g2 = preset("gpt2-small", 1), g3 = preset("gpt3-175b", 1);
        attn_param_breakdown b;
        CHECK_INT(g2.n_heads, 12);
        CHECK_INT(g3.n_heads, 96);
        CHECK_OK(attn_count_params(&g2, &b));
        CHECK_INT(b.q / g2.n_heads, 49152);                /* 768 × 64 */
        CHECK_INT(b.q / g2.n_heads, g2.d_model * g2.d_head);
        CHECK_INT(64 * 64, 4096);
    }
#line 925 "book/08-params.nw"
    check_section("参数的去向：百分比");
    {
        attn_gpt_config c2 = preset("gpt2-small", 0), c3 = preset("gpt3-175b", 0);
        attn_param_breakdown a, b;
        CHECK_OK(attn_count_params(&c2, &a));
        CHECK_OK(attn_count_params(&c3, &b));
        double t2 = (double)a.total, t3 = (double)b.total;
        CHECK_NEAR(100.0 * (double)a.embeddings_all / t2, 31.6, 0.05);
        CHECK_NEAR(100.0 * (double)a.attention_all / t2, 22.8, 0.05);
        CHECK_NEAR(100.0 * (double)a.mlp_all / t2, 45.5, 0.05);
        CHECK_NEAR(100.0 * (double)b.embeddings_all / t3, 0.37, 0.005);
        CHECK_NEAR(100.0 * (double)b.attention_all / t3, 33.2, 0.05);
        CHECK_NEAR(100.0 * (double)b.mlp_all / t3, 66.4, 0.05);
        CHECK(100.0 * (double)a.norms_all / t2 < 0.04);
        CHECK(100.0 * (double)b.norms_all / t3 < 0.04);
        CHECK_NEAR((double)b.layers / (double)a.layers, 2000, 50);   /* 约 2000 倍 */
        CHECK_INT(b.embedding / a.embedding, 16);
        CHECK_INT(b.embedding % a.embedding, 0);
    }
#line 950 "book/08-params.nw"
    check_section("注意力的计算量；和矩阵的乘法相等的上下文长度，算与不算反嵌入");
    {
        attn_gpt_config c2 = preset("gpt2-small", 0), c3 = preset("gpt3-175b", 0);
        uint64_t f;
        CHECK_OK(attn_attention_flops(&c2, 1024, &f));
        CHECK_INT(f, 38654705664LL);
        CHECK_INT(f / 1024, 37748736);
        CHECK_OK(attn_attention_flops(&c3, 2048, &f));
        CHECK_INT(f, 19791209299968LL);
        CHECK_NEAR((double)f / 1e12, 20, 0.5);                 /* 约 20 万亿 */
        CHECK_INT(f / 2048, 9663676416LL);
        CHECK_INT(f % 2048, 0);
        /* 一个头、一层、N = 2：4·4·d_head */
        attn_gpt_config one = {.d_model = 8, .n_heads = 1, .d_head = 3, .n_layers = 1,
                               .d_ff = 1, .vocab = 1, .n_ctx = 2};
        CHECK_OK(attn_attention_flops(&one, 2, &f));
        CHECK_INT(f, 48);
        /* 每层的矩阵 12d² 个权重：四个投影加 MLP（h·d_head = d，d_ff = 4d） */
        attn_param_breakdown b;
        attn_gpt_config p2 = preset("gpt2-small", 1);
        CHECK_OK(attn_count_params(&p2, &b));
        CHECK_INT(b.layer, 12ULL * 768 * 768);
        /* N = 6d：注意力的矩阵乘与权重矩阵的乘法一样多 */
        CHECK_OK(attn_attention_flops(&c2, 6 * 768, &f));
        CHECK_INT(f / (6 * 768), 24ULL * 768 * 768 * 12);
        CHECK_INT(6 * 768, 4608);
        CHECK_INT(6 * 12288, 73728);
        CHECK_OK(attn_attention_flops(&c3, 73728, &f));
        CHECK_INT(f / 73728, 24ULL * 12288 * 12288 * 96);
        /* 加上反嵌入：每个词 2·d·n_vocab；分界 N = 6d + n_vocab/(2L) 落在两个整数之间 */
        const attn_gpt_config *cs[2] = {&c2, &c3};
        const uint64_t below[2] = {6702, 73989};               /* 约 6702、约 73990 */
        CHECK_NEAR(50257.0 / 24, 2094, 0.5);
        CHECK_NEAR(50257.0 / 192, 262, 0.5);
        for (int m = 0; m < 2; m++) {
            const attn_gpt_config *c = cs[m];
            uint64_t d = c->d_model, L = c->n_layers;
            uint64_t rhs = 24 * d * d * L + 2 * d * c->vocab, lo, hi;
            CHECK_OK(attn_attention_flops(c, below[m], &lo));
            CHECK_OK(attn_attention_flops(c, below[m] + 1, &hi));
            CHECK(lo / below[m] <= rhs && hi / (below[m] + 1) > rhs);
            CHECK_NEAR(6.0 * (double)d + (double)c->vocab / (2.0 * (double)L), (double)below[m] + 0.5, 0.5);
        }
        /* 因果掩码：只数看得见的对，N(N+1)/2 对，每对每头 4·d_head 个 FLOP */
        for (int m = 0; m < 2; m++) {
            const attn_gpt_config *c = cs[m];
            uint64_t n = 12 * c->d_model - 1, pairs = 0;
            for (uint64_t t = 1; t <= n; t++)
                pairs += t;                                    /* 第 t 个词看得见 t 个键 */
            uint64_t causal = pairs * 4 * c->d_head * c->n_heads * c->n_layers;
            CHECK_INT(causal / n, 24ULL * c->d_model * c->d_model * c->n_layers);
            CHECK_INT(causal % n, 0);
            CHECK_OK(attn_attention_flops(c, n, &f));
            CHECK(2 * causal > f && 2 * causal - f == 4 * n * c->d_model * c->n_layers);
        }
        CHECK_INT(12 * 768, 9216);
        CHECK_INT(12 * 12288, 147456);
        CHECK_STATUS(attn_attention_flops(&c2, 0, &f), ATTN_EINVAL);
        CHECK_STATUS(attn_attention_flops(&c3, UINT64_C(1) << 30, &f), ATTN_EINVAL);  /* 溢出 */
    }
#line 1013 "book/08-params.nw"
    check_section("键值缓存");
    {
        attn_gpt_config c2 = preset("gpt2-small", 0), c3 = preset("gpt3-175b", 0);
        attn_param_breakdown b;
        uint64_t bytes, f;
        CHECK_OK(attn_kv_cache_bytes(&c2, 1, 2, &bytes));
        CHECK_INT(bytes, 36864);
        CHECK_INT(bytes, 36 * 1024);
        CHECK_OK(attn_kv_cache_bytes(&c2, 1024, 2, &bytes));
        CHECK_INT(bytes, 36 * 1024 * 1024);
        CHECK_OK(attn_kv_cache_bytes(&c3, 1, 2, &bytes));
        CHECK_INT(bytes, 4718592);
        CHECK_INT(bytes * 2, 9 * 1024 * 1024);
        CHECK_OK(attn_kv_cache_bytes(&c3, 2048, 2, &bytes));
        CHECK_INT(bytes, 9ULL * 1024 * 1024 * 1024);
        CHECK_INT(bytes, 9663676416LL);
        CHECK_OK(attn_attention_flops(&c3, 2048, &f));
        CHECK_INT(bytes, f / 2048);
        /* 相等只在 2 字节时成立：float 的缓存是 18 GiB，是计算量那个数的两倍（第 5 章的数） */
        CHECK_OK(attn_kv_cache_bytes(&c3, 2048, 4, &bytes));
        CHECK_INT(bytes, 19327352832LL);
        CHECK_INT(bytes, 18ULL * 1024 * 1024 * 1024);
        CHECK_INT(bytes, 2 * (f / 2048));
        CHECK_OK(attn_count_params(&c3, &b));
        CHECK_NEAR(2.0 * (double)b.total / 1e9, 350, 1);     /* float16 的参数约 350 GB */
        CHECK_STATUS(attn_kv_cache_bytes(&c2, 1, 0, &bytes), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_bytes(NULL, 1, 2, &bytes), ATTN_EINVAL);
    }
#line 1044 "book/08-params.nw"
    check_section("值矩阵与查询、键的参数量：只在 d_v = d_k 的分解下相等；完整的值矩阵是 48 倍和 96 倍");
    {
        const uint64_t d = 12288, d_k = 128, d_v = 64;
        uint64_t qk = 2 * d * d_k;
        CHECK_INT(qk, 3145728);
        CHECK_INT(d * d_k + d_k * d, qk);                  /* 值降维 + 值升维，一个头 */
        CHECK(d * d_v + d_v * d != qk);                    /* d_v ≠ d_k 时不相等 */
        CHECK_INT(d * d_v + d_v * d, 1572864);
        CHECK_INT(d * d, 150994944);
        CHECK_INT(d * d / qk, 48);
        CHECK_INT(d * d % qk, 0);
        CHECK_NEAR(log10((double)(d * d / qk)), 1.68, 0.005);
        CHECK(d * d < 100 * qk);                           /* 比两个数量级略少 */
        CHECK_INT(d * d / (d * d_k), 96);
        CHECK_NEAR(log10(96.0), 1.98, 0.005);              /* 差不多两个数量级 */
        attn_gpt_config c = preset("gpt3-175b", 1);
        attn_param_breakdown b;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(c.n_ctx, 2048);                          /* 值向量最多 2048 个 */
        CHECK_INT(b.v, b.q);                               /* 代码里的 W_V 与 W_Q 一样大 */
        CHECK_INT(b.v + b.o, b.q + b.k);                   /* W_V 连同 W_O 才等于查询加键 */
    }
#line 1069 "book/08-params.nw"
    check_section("因果掩码下第一个词只看得见自己；每一行对 N 个值向量求和");
    {
        /* 3 个词，d_k = 2，d_v = 4：q[3][2]，k[3][2]，v[3][4] */
        const float q[6] = {1, 0, 0, 1, 1, 1};
        const float k[6] = {1, 0, 0, 1, 1, 1};
        const float v[12] = {1, 2, 3, 4, 10, 20, 30, 40, 5, 5, 5, 5};
        float out[12], w[9];
        CHECK_OK(attn_sdpa(q, k, v, 3, 3, 2, 4, 0.0f, NULL, 1, out, w));
        CHECK_NEAR(w[0], 1.0, 1e-6);
        CHECK_NEAR(w[1], 0.0, 0.0);
        CHECK_NEAR(w[2], 0.0, 0.0);
        CHECK_ARRAY_NEAR(out, v, 4, 1e-6);                 /* Δe_1 = v_1 */
        CHECK_NEAR(w[3] + w[4] + w[5], 1.0, 1e-6);         /* 每一行对 N = 3 个值求和 */
        CHECK(w[3] > 0.0f && w[4] > 0.0f);
    }
#line 1178 "book/08-params.nw"
    check_section("练习的参考答案");
    {
        attn_gpt_config c = preset("gpt2-small", 0);
        attn_param_breakdown b;
        uint64_t f, kv;
        c.n_ctx = 2048;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(b.total, 125226240);
        CHECK_INT(b.total - 124439808, 786432);
        CHECK_OK(attn_attention_flops(&c, 2048, &f));
        CHECK_INT(f, 154618822656LL);
        CHECK_OK(attn_kv_cache_bytes(&c, 2048, 2, &kv));
        CHECK_INT(kv, 75497472);
        c = preset("gpt2-small", 0);
        c.tied = 0;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(b.total, 163037184);
        CHECK_NEAR((double)b.total / 124439808.0, 1.3, 0.02);   /* 多了三成 */
        CHECK_INT(768 * 768, 589824);
        CHECK_INT(2 * 768 * 64, 98304);
        c = preset("gpt3-175b", 0);
        CHECK_OK(attn_kv_cache_bytes(&c, 1, 4, &kv));
        CHECK_INT(kv, 9437184);
        CHECK_INT(kv, 9 * 1024 * 1024);
        CHECK_OK(attn_kv_cache_bytes(&c, 2048, 4, &kv));
        CHECK_INT(kv, 19327352832LL);
        CHECK_INT(kv, 18ULL * 1024 * 1024 * 1024);
        /* 8.6：GPT-2 small 只留一个键值头，W_K、W_V 各少 11 个头，每个头 768·64 + 64 个参数 */
        c = preset("gpt2-small", 0);
        attn_gpt_config one = c;
        attn_param_breakdown b1;
        one.n_heads = 1;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_OK(attn_count_params(&one, &b1));
        CHECK_INT(2 * (b.k - b1.k), 1082752);
        CHECK_INT(2 * 11 * 64 * 769, 1082752);
        CHECK_INT(12 * 2 * (b.k - b1.k), 12993024);
        CHECK_INT(b.total - 12 * 2 * (b.k - b1.k), 111446784);
        CHECK_NEAR(12993024.0 / (double)b.total, 0.10, 0.01);   /* 只少了一成 */
    }
#line 702 "book/08-params.nw"
    return check_summary("ch08");
}
