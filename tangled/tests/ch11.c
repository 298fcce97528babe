#line 1693 "book/11-block.nw"
#include "attn.h"
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../examples/ch11.h"
#line 1313 "book/11-block.nw"
/* 一个参数全为 0 的小模型，参数块由调用者提供 */
static int tiny_zero(attn_gpt *m, float *params)
{
    attn_gpt_config c = tiny_config();
    memset(params, 0, 26496 * sizeof(float));
    return attn_gpt_bind(m, &c, params, 26496);
}
#line 1618 "book/11-block.nw"
/* 残差流每个位置的长度：norms[n] = ‖x[i]‖，x[n×d] */
static void row_norms(const float *x, size_t n, size_t d, double *norms)
{
    for (size_t i = 0; i < n; i++) {
        double s = 0.0;
        for (size_t j = 0; j < d; j++)
            s += (double)x[i * d + j] * x[i * d + j];
        norms[i] = sqrt(s);
    }
}

#line 1706 "book/11-block.nw"
int main(void)
{
#line 1029 "book/11-block.nw"
    check_section("层规范化：(1,2,3,4) 的均值 2.5、方差 1.25");
    {
        float x[4] = {1, 2, 3, 4}, y[4];
        CHECK_OK(attn_layernorm(x, NULL, NULL, y, 1, 4, 1e-5f));
        double s = 1.0 / sqrt(1.25 + 1e-5);
        float want[4] = {(float)(-1.5 * s), (float)(-0.5 * s), (float)(0.5 * s), (float)(1.5 * s)};
        CHECK_ARRAY_NEAR(y, want, 4, 1e-6);
        CHECK_NEAR(sqrt(1.25), 1.1180, 5e-5);
        CHECK_NEAR(y[0], -1.3416, 1e-4);
        CHECK_NEAR(y[1], -0.4472, 1e-4);
        CHECK_NEAR(y[3], 1.3416, 1e-4);
        /* 输出的均值 0，方差 1.25/(1.25 + 1e-5)，差一点点 1 */
        double m = 0, v = 0;
        for (int j = 0; j < 4; j++)
            m += y[j] / 4.0;
        for (int j = 0; j < 4; j++)
            v += (y[j] - m) * (y[j] - m) / 4.0;
        CHECK_NEAR(m, 0.0, 1e-7);
        CHECK_NEAR(v, 1.25 / (1.25 + 1e-5), 1e-6);
        CHECK(v < 1.0);
    }
    check_section("层规范化：平移、放大都不改变结果；就地计算；增益和偏移");
    {
        float x[4] = {1, 2, 3, 4}, y[4], shifted[4], scaled[4];
        for (int j = 0; j < 4; j++) {
            shifted[j] = x[j] + 100.0f;
            scaled[j] = x[j] * 2.0f;
        }
        CHECK_OK(attn_layernorm(x, NULL, NULL, y, 1, 4, 1e-5f));
        CHECK_OK(attn_layernorm(shifted, NULL, NULL, shifted, 1, 4, 1e-5f));   /* 就地 */
        CHECK_OK(attn_layernorm(scaled, NULL, NULL, scaled, 1, 4, 1e-5f));
        CHECK_ARRAY_NEAR(shifted, y, 4, 1e-6);
        /* 放大后方差是 5，分母 sqrt(5 + eps) 与 2·sqrt(1.25 + eps) 差一点点：eps 没有跟着放大 */
        CHECK_NEAR(scaled[0], -3.0 / sqrt(5.0 + 1e-5), 1e-6);
        CHECK_ARRAY_NEAR(scaled, y, 4, 1e-5);
        float g[4] = {2, 2, 2, 2}, b[4] = {1, 1, 1, 1}, z[4];
        CHECK_OK(attn_layernorm(x, g, b, z, 1, 4, 1e-5f));
        for (int j = 0; j < 4; j++)
            CHECK_NEAR(z[j], 2.0 * y[j] + 1.0, 1e-6);
        /* 两行各自归一化：第二行是常数，方差 0，eps 挡住了除以零，输出就是 beta */
        float two[8] = {1, 2, 3, 4,   5, 5, 5, 5}, out[8];
        CHECK_OK(attn_layernorm(two, g, b, out, 2, 4, 1e-5f));
        CHECK_ARRAY_NEAR(out, z, 4, 0.0);
        for (int j = 4; j < 8; j++)
            CHECK_NEAR(out[j], 1.0, 0.0);
    }
#line 1078 "book/11-block.nw"
    check_section("一遍公式 E[x²] − mean² 在单精度下丢掉了方差");
    {
        float x[4] = {10000, 10001, 10002, 10003}, small[4] = {1, 2, 3, 4}, y[4], want[4];
        /* volatile：每一步都舍入成 float，编译器不能把乘和加合成一次乘加（FMA 会保住那 1.25 的一部分） */
        volatile float sum = 0.0f, sum2 = 0.0f, sq, ex2, m2;
        for (int j = 0; j < 4; j++) {
            sum += x[j];
            sq = x[j] * x[j];
            sum2 += sq;
        }
        float mean = sum / 4.0f;
        ex2 = sum2 / 4.0f;
        m2 = mean * mean;
        float naive_var = ex2 - m2;
        CHECK_NEAR(mean, 10001.5, 0.0);
        CHECK_NEAR(naive_var, 0.0, 0.0);                 /* 一遍的公式：方差整个丢了 */
        CHECK_NEAR(sqrt(1e-5), 0.00316, 5e-6);
        CHECK_NEAR((x[0] - mean) / sqrt(naive_var + 1e-5), -474.3, 0.05);
        CHECK_NEAR((x[1] - mean) / sqrt(naive_var + 1e-5), -158.1, 0.05);
        CHECK_NEAR(nextafterf(1e8f, 2e8f) - 1e8f, 8.0, 0.0);   /* 1e8 附近的间隔是 8 */
        CHECK(1e8 > 0x1p26 && 1e8 < 0x1p27);
        CHECK_NEAR((10000.0 * 10000 + 10001.0 * 10001 + 10002.0 * 10002 + 10003.0 * 10003) / 4,
                   100030003.5, 0.0);                      /* 平方的均值 */
        /* 正文顺带说的范围：FLT_MAX 约 3.4e38，平方约 1.2e77，在 float 里是无穷大，离 DBL_MAX（约 1.8e308）很远 */
        volatile float big = FLT_MAX;
        float big2 = big * big;
        CHECK_REL(FLT_MAX, 3.4e38, 0.01);
        CHECK_REL((double)FLT_MAX * FLT_MAX, 1.2e77, 0.05);
        CHECK(isinf(big2));
        CHECK_REL(DBL_MAX / 1e308, 1.8, 0.01);
        CHECK_OK(attn_layernorm(x, NULL, NULL, y, 1, 4, 1e-5f));
        CHECK_OK(attn_layernorm(small, NULL, NULL, want, 1, 4, 1e-5f));
        CHECK_ARRAY_NEAR(y, want, 4, 1e-6);
    }
#line 1115 "book/11-block.nw"
    check_section("GELU(0) = 0，GELU(1) ≈ 0.8412，GELU(-1) ≈ -0.1588");
    {
        float x[3] = {0.0f, 1.0f, -1.0f};
        CHECK_OK(attn_gelu(x, 3));
        CHECK_NEAR(x[0], 0.0, 0.0);
        CHECK_NEAR(x[1], 0.8412, 5e-5);
        CHECK_NEAR(x[2], -0.1588, 5e-5);
        CHECK_NEAR(sqrt(2.0 / 3.14159265358979323846), 0.79788, 5e-6);
        CHECK_NEAR(0.79788456 * 1.044715, 0.83356, 5e-6);
        CHECK_NEAR(tanh(0.79788456 * 1.044715), 2 * 0.8412 - 1, 2e-4);   /* 手算的中间一步 */
        CHECK_NEAR(x[1] - x[2], 1.0, 1e-6);                              /* GELU(x) − GELU(−x) = x */
        /* 与照抄公式的写法一致 */
        for (int i = -40; i <= 40; i++) {
            float t = (float)i / 8.0f, g = t;
            double u = sqrt(2.0 / 3.14159265358979323846) * (t + 0.044715 * t * t * t);
            double direct = 0.5 * t * (1.0 + tanh(u));
            CHECK_OK(attn_gelu(&g, 1));
            CHECK_NEAR(g, direct, 1e-6);
        }
    }
    check_section("GELU 与 ReLU、与 erf 的精确定义：最低点约 -0.170，最多差 0.0005");
    {
        double lowest = 0.0, at = 0.0, far = 0.0, gap1 = 0.0;
        for (int i = 0; i <= 20000; i++) {
            float t = -10.0f + (float)i / 1000.0f, g = t, r = t;
            CHECK_OK(attn_gelu(&g, 1));
            CHECK_OK(attn_relu(&r, 1));
            double exact = 0.5 * t * (1.0 + erf(t / sqrt(2.0)));
            if (g < lowest) {
                lowest = g;
                at = t;
            }
            far = fmax(far, fabs(g - exact));
            if (t == 1.0f)
                gap1 = fabs(g - exact);
            CHECK(g <= r);                    /* GELU 处处不大于 ReLU */
            if (t >= 3.0f)
                CHECK(fabs(g - r) < 0.004);   /* 右边与 ReLU 几乎重合 */
        }
        CHECK_NEAR(lowest, -0.170, 5e-4);
        CHECK_NEAR(at, -0.75, 0.01);
        CHECK_NEAR(gap1, 0.00015, 1e-5);
        CHECK(far > 0.0004 && far < 0.0005);
    }
    check_section("GELU 的两端：−∞ 得 0，+∞ 不变，很负的数不会因相减丢掉");
    {
        float x[5] = {-INFINITY, INFINITY, -10.0f, -1e20f, NAN};
        CHECK_OK(attn_gelu(x, 5));
        CHECK_NEAR(x[0], 0.0, 0.0);
        CHECK(isinf(x[1]) && x[1] > 0);
        /* x = −10：u ≈ −43.66，−10 / (1 + e^87.31) ≈ −1.2e−37，照抄公式的 1 + tanh 只会得到 0 */
        const double u = 0.79788456080286535588 * (-10.0 - 44.715);
        CHECK_NEAR(u, -43.66, 0.005);
        CHECK_NEAR(-2.0 * u, 87.31, 0.005);
        CHECK_REL(exp(-2.0 * u), 8.3e37, 0.01);
        CHECK_REL(x[2], -10.0 / (1.0 + exp(-2.0 * u)), 1e-4);
        CHECK_REL(x[2], -1.2e-37, 0.02);
        CHECK(x[2] < 0.0f && isnormal(x[2]));
        CHECK_REL(2.0 * exp(2.0 * u), 2.4e-38, 0.02);        /* 1 + tanh u 的真值 */
        CHECK_NEAR(1.0 + tanh(u), 0.0, 0.0);                  /* double 里却恰好是 0：tanh(u) 舍入成了 −1 */
        CHECK_NEAR(nextafter(-1.0, 0.0) + 1.0, 1.1e-16, 0.02e-16);
        CHECK(x[3] == 0.0f);
        CHECK(isnan(x[4]));
        CHECK_STATUS(attn_gelu(NULL, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gelu(x, 0), ATTN_EINVAL);
        /* 字节数装不下的 n：在读任何一个数之前就拒绝，而不是一路读到内存的尽头 */
        CHECK_STATUS(attn_gelu(x, SIZE_MAX), ATTN_EINVAL);
        CHECK_STATUS(attn_gelu(x, SIZE_MAX / sizeof(float) + 1), ATTN_EINVAL);
    }
#line 1187 "book/11-block.nw"
    check_section("异或网络换上 GELU：(0,0) 得 0.3176，(1,1) 得 0.2722");
    {
        float x[8] = {0, 0,   1, 0,   0, 1,   1, 1};
        float w1[4] = {1, 1,
                       1, 1};
        float b1[2] = {0, -1};
        float w2[2] = {1,
                       -2};
        float relu[4], gelu[4], h[8], by_hand[4];
        float want_relu[4] = {0, 1, 1, 0};
        CHECK_OK(attn_ffn(x, 4, 2, w1, b1, 2, w2, NULL, 1, relu));
        CHECK_ARRAY_NEAR(relu, want_relu, 4, 0.0);
        CHECK_OK(attn_ffn_gelu(x, 4, 2, w1, b1, 2, w2, NULL, 1, gelu));
        CHECK_NEAR(gelu[0], 0.3176, 1e-4);
        CHECK_NEAR(gelu[1], 0.8412, 1e-4);
        CHECK_NEAR(gelu[3], 0.2722, 1e-4);
        float two[2] = {2.0f, 1.0f};
        CHECK_OK(attn_gelu(two, 2));
        CHECK_NEAR(two[0], 1.9546, 1e-4);
        CHECK_NEAR(2.0 * two[1], 1.6824, 1e-4);
        /* 与“线性层、GELU、线性层”逐步调用完全相同 */
        CHECK_OK(attn_linear(x, w1, b1, h, 4, 2, 2));
        CHECK_OK(attn_gelu(h, 8));
        CHECK_OK(attn_linear(h, w2, NULL, by_hand, 4, 2, 1));
        CHECK_ARRAY_NEAR(gelu, by_hand, 4, 0.0);
        float v[4] = {0};
        CHECK_STATUS(attn_ffn_gelu(NULL, 1, 1, v, NULL, 1, v, NULL, 1, v), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(v, 1, 1, v, NULL, 0, v, NULL, 1, v), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(v, SIZE_MAX / 2, 1, v, NULL, 4, v, NULL, 1, v), ATTN_EINVAL);
    }
#line 1220 "book/11-block.nw"
    check_section("小模型的参数：26496 个，与第 8 章的计数器一致");
    {
        attn_gpt_config c = tiny_config();
        attn_param_breakdown b;
        attn_gpt m;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(b.embedding, 512);
        CHECK_INT(b.positions, 512);
        CHECK_INT(b.attention, 4224);
        CHECK_INT(b.mlp, 8352);
        CHECK_INT(b.norms, 128);
        CHECK_INT(b.layer, 12704);
        CHECK_INT(b.layers, 25408);
        CHECK_INT(b.final_norm, 64);
        CHECK_INT(b.unembedding, 0);
        CHECK_INT(b.total, 26496);
        CHECK_OK(attn_gpt_init(&m, &c, 1));
        CHECK_INT(m.n_params, b.total);
        /* 参数块按约定的顺序排开，最后一块恰好结束在末尾 */
        CHECK(m.wte == m.params);
        CHECK(m.wpe == m.params + 512);
        CHECK(m.layers[0].ln1_g == m.params + 1024);
        CHECK(m.layers[0].w_q == m.params + 1024 + 64);
        CHECK(m.layers[1].ln1_g == m.params + 1024 + 12704);
        CHECK(m.layers[1].b_down + 32 == m.lnf_g);
        CHECK(m.lnf_b + 32 == m.params + m.n_params);
        CHECK_INT(sizeof(attn_gpt_layer), 16 * sizeof(float *));
        CHECK((uintptr_t)m.params % _Alignof(float) == 0);
        /* 参数表：4 + 16·2 = 36 个张量，一个接一个铺满参数块，名字是 GPT-2 的 */
        attn_gpt_tensor t;
        size_t at = 0;
        CHECK_INT(attn_gpt_tensor_count(&c), 36);
        for (size_t k = 0; k < 36; k++)
            if (CHECK_OK(attn_gpt_tensor_info(&c, k, &t))) {
                CHECK_INT(t.offset, at);
                at += t.rows * (t.cols ? t.cols : 1);
            }
        CHECK_INT(at, 26496);
        CHECK_OK(attn_gpt_tensor_info(&c, 2, &t));
        CHECK_STR(t.name, "h.0.ln_1.weight");
        CHECK(m.params + t.offset == m.layers[0].ln1_g);
        CHECK_OK(attn_gpt_tensor_info(&c, 2 + 16 + 6, &t));   /* 第 1 层的 W_V：c_attn 的第 2 份 */
        CHECK_STR(t.name, "h.1.attn.c_attn.weight");
        CHECK_INT(t.part, 2);
        CHECK_INT(t.rows, 32);
        CHECK_INT(t.cols, 32);
        CHECK(m.params + t.offset == m.layers[1].w_v);
        CHECK_OK(attn_gpt_tensor_info(&c, 35, &t));
        CHECK_STR(t.name, "ln_f.bias");
        CHECK_INT(t.cols, 0);
        CHECK(m.params + t.offset == m.lnf_b);
        CHECK_INT(attn_gpt_tensor_info(&c, 36, &t), ATTN_EINVAL);
        CHECK_INT(attn_gpt_tensor_info(&c, 0, NULL), ATTN_EINVAL);
        c.tied = 0;
        CHECK_INT(attn_gpt_tensor_count(&c), 0);
        CHECK_INT(attn_gpt_tensor_info(&c, 0, &t), ATTN_EINVAL);
        attn_gpt_free(&m);
        CHECK(m.params == NULL && m.layers == NULL);
        attn_gpt_free(&m);     /* 再释放一次也没事 */
        attn_gpt_free(NULL);
    }
    check_section("初值：增益 1，偏置 0，权重的标准差约 0.02，同一个种子同一个模型");
    {
        attn_gpt_config c = tiny_config();
        attn_gpt a, b, other;
        CHECK_OK(attn_gpt_init(&a, &c, 42));
        CHECK_OK(attn_gpt_init(&b, &c, 42));
        CHECK_OK(attn_gpt_init(&other, &c, 43));
        CHECK(memcmp(a.params, b.params, a.n_params * sizeof(float)) == 0);
        CHECK(memcmp(a.params, other.params, a.n_params * sizeof(float)) != 0);
        for (size_t j = 0; j < 32; j++) {
            CHECK_NEAR(a.layers[1].ln2_g[j], 1.0, 0.0);
            CHECK_NEAR(a.layers[1].ln2_b[j], 0.0, 0.0);
            CHECK_NEAR(a.layers[0].b_o[j], 0.0, 0.0);
            CHECK_NEAR(a.lnf_g[j], 1.0, 0.0);
        }
        double s = 0.0, s2 = 0.0;
        size_t k = 128 * 32;   /* 第 0 层的 w_down */
        for (size_t i = 0; i < k; i++) {
            s += a.layers[0].w_down[i];
            s2 += (double)a.layers[0].w_down[i] * a.layers[0].w_down[i];
        }
        CHECK_NEAR(s / k, 0.0, 0.001);
        CHECK_NEAR(sqrt(s2 / k), 0.02, 0.001);
        attn_gpt_free(&a);
        attn_gpt_free(&b);
        attn_gpt_free(&other);
    }
#line 1323 "book/11-block.nw"
    check_section("残差流：权重全零的块原样放过 x；b_O = 0.5 时每个数恰好加 0.5");
    {
        static float params[26496];
        attn_gpt m;
        float x[5 * 32], y[5 * 32];
        CHECK_OK(tiny_zero(&m, params));
        for (int t = 0; t < 5 * 32; t++)
            x[t] = y[t] = (float)sin(0.37 * t) * 3.0f;
        CHECK_OK(attn_gpt_block(&m, 0, y, 5));
        CHECK(memcmp(x, y, sizeof x) == 0);
        for (int j = 0; j < 32; j++)
            m.layers[0].b_o[j] = 0.5f;
        CHECK_OK(attn_gpt_block(&m, 0, y, 5));
        for (int t = 0; t < 5 * 32; t++)
            CHECK_NEAR(y[t], x[t] + 0.5f, 0.0);
        attn_gpt_free(&m);
    }
    check_section("一个块的输出 = 输入 + 注意力的改变量 + 前馈网络的改变量");
    {
        attn_gpt_config c = tiny_config();
        attn_gpt m;
        enum { N = 6, D = 32 };
        static const int tokens[N] = {3, 1, 4, 1, 5, 9};
        float x[N * D], y[N * D], h[N * D], da[N * D], df[N * D];
        CHECK_OK(attn_gpt_init(&m, &c, 7));
        CHECK_OK(attn_gpt_embed(&m, tokens, N, 0, x));
        memcpy(y, x, sizeof x);
        CHECK_OK(attn_gpt_block(&m, 0, y, N));
        /* 自己一步步算：da = MHA(LN1(x))，df = FFN(LN2(x + da)) */
        const attn_gpt_layer *L = &m.layers[0];
        attn_mha_weights w = {D, 4, 8, L->w_q, L->w_k, L->w_v, L->w_o,
                              L->b_q, L->b_k, L->b_v, L->b_o};
        CHECK_OK(attn_layernorm(x, L->ln1_g, L->ln1_b, h, N, D, 1e-5f));
        CHECK_OK(attn_mha(&w, h, N, h, N, NULL, 1, da));
        for (int t = 0; t < N * D; t++)
            h[t] = x[t] + da[t];
        CHECK_OK(attn_layernorm(h, L->ln2_g, L->ln2_b, h, N, D, 1e-5f));
        CHECK_OK(attn_ffn_gelu(h, N, D, L->w_up, L->b_up, 128, L->w_down, L->b_down, D, df));
        double biggest = 0.0;
        for (int t = 0; t < N * D; t++) {
            CHECK_NEAR(y[t], x[t] + da[t] + df[t], 1e-6);
            biggest = fmax(biggest, fabs(da[t] + df[t]));
        }
        CHECK(biggest > 0.01);   /* 改变量不是零：这个测试确实比较了东西 */
        attn_gpt_free(&m);
    }
#line 1372 "book/11-block.nw"
    check_section("整个模型：softmax 后每行和为 1；因果；未训练时概率都在 1/16 附近");
    {
        attn_gpt_config c = tiny_config();
        attn_gpt m;
        enum { N = 6, V = 16 };
        int tokens[N] = {3, 1, 4, 1, 5, 9};
        float logits[N * V], changed[N * V], x[N * 32], by_parts[N * V];
        CHECK_OK(attn_gpt_init(&m, &c, 2024));
        CHECK_OK(attn_gpt_forward(&m, tokens, N, logits));
        /* 与逐段调用 embed、block、logits 完全相同 */
        CHECK_OK(attn_gpt_embed(&m, tokens, N, 0, x));
        CHECK_OK(attn_gpt_block(&m, 0, x, N));
        CHECK_OK(attn_gpt_block(&m, 1, x, N));
        CHECK_OK(attn_gpt_logits(&m, x, N, by_parts));
        CHECK_ARRAY_NEAR(logits, by_parts, N * V, 0.0);
        /* 因果：第 4 个词（下标 4）变了，位置 0..3 不变 */
        tokens[4] = 15;
        CHECK_OK(attn_gpt_forward(&m, tokens, N, changed));
        CHECK(memcmp(logits, changed, 4 * V * sizeof(float)) == 0);
        CHECK(memcmp(logits + 4 * V, changed + 4 * V, V * sizeof(float)) != 0);
        float lo = 1.0f, hi = 0.0f, biggest = 0.0f;
        for (int t = 0; t < N * V; t++)
            biggest = fmaxf(biggest, fabsf(logits[t]));
        CHECK(biggest > 0.1f && biggest < 0.5f);
        for (int i = 0; i < N; i++) {
            float *p = logits + i * V;
            double sum = 0.0;
            CHECK_OK(attn_softmax(p, V));
            for (int t = 0; t < V; t++) {
                sum += p[t];
                lo = fminf(lo, p[t]);
                hi = fmaxf(hi, p[t]);
            }
            CHECK_NEAR(sum, 1.0, 1e-6);
        }
        CHECK(lo > 0.04f && hi < 0.10f);
        attn_gpt_free(&m);
    }
#line 1413 "book/11-block.nw"
    check_section("块交出的注意力模式：与第 7 章的 attn_mha_pattern 相同，块的输出与 attn_gpt_block 逐位相同");
    {
        attn_gpt_config c = tiny_config();
        attn_gpt m;
        enum { N = 6 };
        float x[N * 32], y[N * 32], h[N * 32], w[4 * N * N], p[N * N], x_before[N * 32];
        int tokens[N] = {3, 1, 4, 1, 5, 9};
        CHECK_OK(attn_gpt_init(&m, &c, 5));
        CHECK_OK(attn_gpt_embed(&m, tokens, N, 0, x));
        memcpy(y, x, sizeof x);
        const attn_gpt_layer *L = &m.layers[0];
        attn_mha_weights mw = {32, 4, 8, L->w_q, L->w_k, L->w_v, L->w_o, L->b_q, L->b_k, L->b_v, L->b_o};
        CHECK_OK(attn_layernorm(x, L->ln1_g, L->ln1_b, h, N, 32, 1e-5f));
        CHECK_OK(attn_gpt_block_weights(&m, 0, x, N, w));
        CHECK_OK(attn_gpt_block(&m, 0, y, N));
        CHECK(memcmp(x, y, sizeof x) == 0);
        double worst = 0.0;
        for (size_t hh = 0; hh < 4; hh++) {
            CHECK_OK(attn_mha_pattern(&mw, h, N, h, N, NULL, 1, hh, p));
            for (size_t t = 0; t < N * N; t++)
                worst = fmax(worst, fabs(p[t] - w[hh * N * N + t]));
            CHECK_NEAR(w[hh * N * N + 1], 0.0, 0.0);         /* 位置 0 看不见位置 1 */
        }
        CHECK(worst <= 1e-6);
        /* 模式写进参数、与 x 重叠：拒绝，x 不变 */
        memcpy(x_before, x, sizeof x);
        CHECK_STATUS(attn_gpt_block_weights(&m, 0, x, N, m.layers[1].w_up), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_block_weights(&m, 0, x, N, x + 1), ATTN_EINVAL);
        CHECK(memcmp(x, x_before, sizeof x) == 0);
        /* 残差流里有无穷大：层规范化拒绝，x 一个数也不变 */
        x[7] = INFINITY;
        memcpy(x_before, x, sizeof x);
        CHECK_STATUS(attn_gpt_block(&m, 0, x, N), ATTN_EINVAL);
        CHECK(memcmp(x, x_before, sizeof x) == 0);
        attn_gpt_free(&m);
    }
#line 1452 "book/11-block.nw"
    check_section("一次算完与逐词经过 KV 缓存：每个分数相差不到 1e-5");
    {
        attn_gpt_config c = tiny_config();
        attn_gpt m;
        attn_gpt_decoder dec;
        enum { N = 16, V = 16 };
        int tokens[N];
        float all[N * V], one[V];
        for (int i = 0; i < N; i++)
            tokens[i] = (7 * i + 3) % V;
        CHECK_OK(attn_gpt_init(&m, &c, 11));
        CHECK_OK(attn_gpt_forward(&m, tokens, N, all));
        CHECK_OK(attn_gpt_decoder_init(&dec, &m));
        /* 8 个缓存，共 2048 个 float = 8192 字节，与第 8 章的计数一致 */
        uint64_t bytes = 0, held = 0;
        CHECK_OK(attn_kv_cache_bytes(&c, 16, sizeof(float), &bytes));
        CHECK_INT(dec.n_caches, 8);
        for (size_t i = 0; i < dec.n_caches; i++)
            held += dec.caches[i].capacity * (dec.caches[i].d_k + dec.caches[i].d_v) * sizeof(float);
        CHECK_INT(2 * 2 * 4 * 8 * 16, 2048);
        CHECK_INT(held, 8192);
        CHECK_INT(bytes, held);
        double worst = 0.0, typical = 0.0;
        for (int i = 0; i < N; i++) {
            CHECK_OK(attn_gpt_step(&dec, tokens[i], one));
            for (int t = 0; t < V; t++) {
                worst = fmax(worst, fabs(one[t] - all[i * V + t]));
                typical = fmax(typical, fabs(all[i * V + t]));
            }
        }
        CHECK(worst <= 1e-5);
        CHECK_NEAR(worst, 0.0, 0.0);           /* 在这个模型上：逐位相同 */
        CHECK_NEAR(typical, 0.58, 0.005);
        CHECK_INT(dec.len, 16);
        CHECK_STATUS(attn_gpt_step(&dec, 0, one), ATTN_EFULL);
        CHECK_INT(dec.len, 16);
        CHECK_INT(dec.caches[0].len, 16);
        attn_gpt_decoder_free(&dec);
        attn_gpt_decoder_free(&dec);
        attn_gpt_decoder_free(NULL);
        attn_gpt_free(&m);
    }
#line 1499 "book/11-block.nw"
    check_section("贪心地往下写：与每步重算整句写出同样的词；最多续写 16 − 5 + 1 个");
    {
        attn_gpt_config c = tiny_config();
        attn_gpt m;
        enum { P = 5, W = 11, V = 16 };
        const int prompt[P] = {3, 1, 4, 1, 5};
        const int want[W] = {13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13};
        int out[W + 2], seq[16];
        float logits[16 * V];
        CHECK_OK(attn_gpt_init(&m, &c, 2024));
        CHECK_OK(generate_greedy(&m, prompt, P, out, W));
        for (size_t i = 0; i < W; i++)
            CHECK_INT(out[i], want[i]);
        /* 笨办法：每一步重算整句 */
        memcpy(seq, prompt, sizeof prompt);
        for (size_t i = 0; i < W; i++) {
            CHECK_OK(attn_gpt_forward(&m, seq, P + i, logits));
            seq[P + i] = most_likely(logits + (P + i - 1) * V, V);
            CHECK_INT(seq[P + i], out[i]);
        }
        /* 12 个还行（最后一个不必再读），13 个就超出了上下文 */
        CHECK_OK(generate_greedy(&m, prompt, P, out, W + 1));
        CHECK_STATUS(generate_greedy(&m, prompt, P, out, W + 2), ATTN_EFULL);
        CHECK_STATUS(generate_greedy(&m, prompt, 0, out, W), ATTN_EINVAL);
        CHECK_STATUS(generate_greedy(NULL, prompt, P, out, W), ATTN_EINVAL);
        /* 并列时取编号小的 */
        const float tie[4] = {0.5f, 2.0f, 2.0f, -1.0f};
        CHECK_INT(most_likely(tie, 4), 1);
        attn_gpt_free(&m);
    }
#line 1532 "book/11-block.nw"
    check_section("本章函数的错误输入");
    {
        float x[4] = {1, 2, 3, 4}, y[8];
        CHECK_STATUS(attn_layernorm(NULL, NULL, NULL, y, 1, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, NULL, NULL, NULL, 1, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, NULL, NULL, y, 0, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, NULL, NULL, y, 1, 0, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, NULL, NULL, y, 1, 4, 0.0f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, NULL, NULL, y, 1, 4, -1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, NULL, NULL, y, 1, 4, NAN), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, NULL, NULL, y, 1, 4, INFINITY), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, NULL, NULL, y, SIZE_MAX / 2, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(y, NULL, NULL, y + 1, 1, 4, 1e-5f), ATTN_EINVAL);   /* 部分重叠 */
        CHECK_STATUS(attn_layernorm(x, y, NULL, y, 1, 4, 1e-5f), ATTN_EINVAL);          /* gamma 是输出 */
        float inf_row[4] = {1, INFINITY, 3, 4}, keep[4] = {7, 7, 7, 7};
        CHECK_STATUS(attn_layernorm(inf_row, NULL, NULL, keep, 1, 4, 1e-5f), ATTN_EINVAL);
        CHECK(keep[0] == 7.0f && keep[3] == 7.0f);

        attn_gpt_config c = tiny_config();
        attn_gpt m;
        static float params[26496];
        CHECK_STATUS(attn_gpt_init(NULL, &c, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_init(&m, NULL, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_bind(&m, &c, NULL, 26496), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_bind(&m, &c, params, 26495), ATTN_EINVAL);   /* 长度不对 */
        attn_gpt_config bad = c;
        bad.n_heads = 3;                                                   /* 3·8 ≠ 32 */
        CHECK_STATUS(attn_gpt_init(&m, &bad, 1), ATTN_EINVAL);
        bad = c;
        bad.tied = 0;
        CHECK_STATUS(attn_gpt_init(&m, &bad, 1), ATTN_EINVAL);
        bad = c;
        bad.n_layers = 0;
        CHECK_STATUS(attn_gpt_init(&m, &bad, 1), ATTN_EINVAL);
        bad = c;
        bad.vocab = (uint64_t)1 << 62;                                     /* 字节数溢出 */
        CHECK_STATUS(attn_gpt_init(&m, &bad, 1), ATTN_EINVAL);
        CHECK(m.params == NULL && m.layers == NULL);

        CHECK_OK(attn_gpt_init(&m, &c, 1));
        int tokens[17] = {0};
        float logits[17 * 16], xs[17 * 32];
        CHECK_STATUS(attn_gpt_forward(NULL, tokens, 1, logits), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_forward(&m, NULL, 1, logits), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_forward(&m, tokens, 1, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_forward(&m, tokens, 0, logits), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_forward(&m, tokens, 17, logits), ATTN_EINVAL);   /* n > n_ctx */
        CHECK_STATUS(attn_gpt_forward(&m, tokens, 1, m.params), ATTN_EINVAL);  /* 写进参数 */
        tokens[2] = 16;
        CHECK_STATUS(attn_gpt_forward(&m, tokens, 3, logits), ATTN_EINVAL);    /* 词表外 */
        tokens[2] = -1;
        CHECK_STATUS(attn_gpt_forward(&m, tokens, 3, logits), ATTN_EINVAL);
        tokens[2] = 0;
        CHECK_STATUS(attn_gpt_embed(&m, tokens, 2, 15, xs), ATTN_EINVAL);      /* 15 + 2 > 16 */
        CHECK_OK(attn_gpt_embed(&m, tokens, 1, 15, xs));
        CHECK_STATUS(attn_gpt_embed(&m, tokens, 1, SIZE_MAX, xs), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_embed(&m, tokens, 4, 0, (float *)tokens), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_block(&m, 2, xs, 1), ATTN_EINVAL);               /* 只有 2 层 */
        CHECK_STATUS(attn_gpt_block(&m, 0, xs, 17), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_block(&m, 0, NULL, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_block(&m, 0, m.wpe, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_logits(&m, xs, 0, logits), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_logits(&m, xs, 1, m.wte), ATTN_EINVAL);

        attn_gpt_decoder dec;
        float one[16];
        CHECK_STATUS(attn_gpt_decoder_init(NULL, &m), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_decoder_init(&dec, NULL), ATTN_EINVAL);
        CHECK(dec.caches == NULL);
        CHECK_OK(attn_gpt_decoder_init(&dec, &m));
        CHECK_STATUS(attn_gpt_step(NULL, 0, one), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_step(&dec, 16, one), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_step(&dec, -1, one), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_step(&dec, 0, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_step(&dec, 0, dec.work + 3), ATTN_EINVAL);       /* 写进解码器的工作区 */
        CHECK_STATUS(attn_gpt_step(&dec, 0, dec.caches[5].v + 8), ATTN_EINVAL); /* 写进缓存里的值 */
        CHECK_STATUS(attn_gpt_step(&dec, 0, dec.caches[0].k), ATTN_EINVAL);     /* 写进缓存里的键 */
        CHECK_INT(dec.len, 0);                                                 /* 拒绝的步不算数 */
        CHECK_OK(attn_gpt_step(&dec, 0, one));
        CHECK_INT(dec.len, 1);
        attn_gpt_decoder_free(&dec);
        attn_gpt_free(&m);
    }
#line 1631 "book/11-block.nw"
    check_section("残差流：嵌入后长 0.156，每层加上约 0.08，8 层后 0.276");
    {
        attn_gpt_config c = tiny_config();
        c.n_layers = 8;
        attn_gpt m;
        enum { N = 16, D = 32 };
        int tokens[N];
        float x[N * D];
        float before[N * D];
        double norms[N], mean[9], delta[9];
        for (int i = 0; i < N; i++)
            tokens[i] = (5 * i + 2) % 16;
        CHECK_OK(attn_gpt_init(&m, &c, 5));
        CHECK_OK(attn_gpt_embed(&m, tokens, N, 0, x));
        for (int l = 0; l <= 8; l++) {
            memcpy(before, x, sizeof x);
            if (l > 0)
                CHECK_OK(attn_gpt_block(&m, (size_t)(l - 1), x, N));
            row_norms(x, N, D, norms);
            mean[l] = 0.0;
            for (int i = 0; i < N; i++)
                mean[l] += norms[i] / N;
            for (int t = 0; t < N * D; t++)
                before[t] = x[t] - before[t];          /* 这一层的改变量 Δx */
            row_norms(before, N, D, norms);
            delta[l] = 0.0;
            for (int i = 0; i < N; i++)
                delta[l] += norms[i] / N;
        }
        CHECK_NEAR(0.02 * sqrt(64.0), 0.16, 0.0);
        CHECK_NEAR(mean[0], 0.156, 0.0005);
        for (int l = 1; l <= 8; l++) {
            CHECK(mean[l] > mean[l - 1]);
            CHECK(delta[l] > 0.07 && delta[l] < 0.09);
        }
        CHECK_NEAR(sqrt(32.0), 5.66, 0.005);
        CHECK_NEAR(sqrt(0.156 * 0.156 + 8 * 0.08 * 0.08), 0.275, 0.0005);
        CHECK_NEAR(mean[8], 0.276, 0.0005);
        attn_gpt_free(&m);
    }
#line 1674 "book/11-block.nw"
    check_section("练习的参考答案：4 层 51904，d_ff = 64 时 18176");
    {
        attn_gpt_config c = tiny_config();
        attn_param_breakdown b;
        c.n_layers = 4;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(b.total, 26496 + 2 * 12704);
        CHECK_INT(b.total, 51904);
        c = tiny_config();
        c.d_ff = 64;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(b.mlp, 4192);
        CHECK_INT(8352 - 4192, 4160);
        CHECK_INT(b.total, 26496 - 2 * 4160);
        CHECK_INT(b.total, 18176);
    }
#line 1721 "book/11-block.nw"
    return check_summary("ch11");
}
