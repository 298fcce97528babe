#line 13 "book/A-errata.nw"
#include "attn.h"
#include "check.h"

#include <math.h>
#include <stdint.h>

int main(void)
{
    
#line 42 "book/A-errata.nw"
check_section("softmax 的括号：8，而不是 1");
{
    /* 一个查询、三个键，d_k = d_v = 1 */
    const float q[1] = {1.0f};
    const float k[3] = {logf(0.6f), logf(0.4f), 0.0f};
    const float v[3] = {10.0f, 5.0f, 2.0f};
    const unsigned char mask[3] = {1, 1, 0};
    float out[1], w[3];
    CHECK_OK(attn_sdpa(q, k, v, 1, 3, 1, 1, 1.0f, mask, 0, out, w));
    CHECK_NEAR(w[0], 0.6, 1e-6);
    CHECK_NEAR(w[1], 0.4, 1e-6);
    CHECK_NEAR(w[2], 0.0, 0.0);
    CHECK_NEAR(out[0], 8.0, 1e-5);
    /* 错误的括号：softmax(分数·V) 对一个数做 softmax */
    float wrong[1] = {0.6f * 10.0f + 0.4f * 5.0f};
    CHECK_OK(attn_softmax(wrong, 1));
    CHECK_NEAR(wrong[0], 1.0, 0.0);
    float wrong2[1] = {-123.0f};
    CHECK_OK(attn_softmax(wrong2, 1));
    CHECK_NEAR(wrong2[0], 1.0, 0.0);
}
#line 76 "book/A-errata.nw"
check_section("缩放：除以 √d_k，方差回到 1");
{
    const int d = 64, pairs = 4000;
    uint32_t state = 12345u;
    double raw[4000];
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
    /* 三种缩放：不缩放、除以 √d_k、除以 d_k */
    const double scale[3] = {1.0, 1.0 / sqrt((double)d), 1.0 / d};
    double var[3];
    for (int s = 0; s < 3; s++) {
        double sum = 0.0, sum2 = 0.0;
        for (int p = 0; p < pairs; p++) {
            sum += raw[p] * scale[s];
            sum2 += raw[p] * scale[s] * raw[p] * scale[s];
        }
        var[s] = sum2 / pairs - (sum / pairs) * (sum / pairs);
    }
    CHECK_NEAR(var[0], 64.0, 6.4);                     /* q·k 的方差约为 d_k */
    CHECK_NEAR(var[1], 1.0, 0.1);                      /* 除以 √d_k：约 1 */
    CHECK_NEAR(var[2], 1.0 / 64, 0.1 / 64);            /* 除以 d_k：约 1/d_k */
}
#line 123 "book/A-errata.nw"
check_section("上下文向量：原始点积不是权重");
{
    float a[2] = {2.0f, -1.0f}, b[2] = {2.0f, 1.0f};
    CHECK(a[1] < 0.0f);
    CHECK_NEAR(b[0] + b[1], 3.0, 0.0);
    CHECK_OK(attn_softmax(a, 2));
    CHECK_OK(attn_softmax(b, 2));
    CHECK(a[0] > 0.0f && a[0] < 1.0f && a[1] > 0.0f && a[1] < 1.0f);
    CHECK_NEAR(a[0] + a[1], 1.0, 1e-6);
    CHECK_NEAR(b[0] + b[1], 1.0, 1e-6);
    /* 上限是 t：因果掩码下第一个词的权重是 1, 0 */
    const float q[2] = {1.0f, 1.0f}, k[2] = {1.0f, 5.0f}, v[2] = {3.0f, 7.0f};
    float out[2], w[4];
    CHECK_OK(attn_sdpa(q, k, v, 2, 2, 1, 1, 1.0f, NULL, 1, out, w));
    CHECK_NEAR(w[1], 0.0, 0.0);
    CHECK_NEAR(out[0], 3.0, 1e-6);
}
#line 151 "book/A-errata.nw"
check_section("多头之后的 W_O：GPT-2 small 每层 589 824 个");
{
    attn_gpt_config c;
    attn_param_breakdown b;
    CHECK_OK(attn_gpt_preset("gpt2-small", &c));
    c.biases = 0;
    CHECK_OK(attn_count_params(&c, &b));
    CHECK_INT(b.o, 589824);
    CHECK_INT(4 * b.o, b.attention);
}
#line 172 "book/A-errata.nw"
check_section("笔记 002：权重在 0 和 1 之间，右上角为 0");
{
    float s[4] = {3.0f, -2.0f, 0.5f, 7.0f};
    CHECK_OK(attn_softmax(s, 4));
    double sum = 0.0;
    for (int j = 0; j < 4; j++) {
        CHECK(s[j] > 0.0f && s[j] < 1.0f);
        sum += s[j];
    }
    CHECK_NEAR(sum, 1.0, 1e-6);
    const float q[3] = {1, 2, 3}, k[3] = {1, 1, 1}, v[3] = {1, 2, 3};
    float out[3], w[9];
    CHECK_OK(attn_sdpa(q, k, v, 3, 3, 1, 1, 1.0f, NULL, 1, out, w));
    CHECK_NEAR(w[0 * 3 + 1], 0.0, 0.0);                /* 右上角 */
    CHECK_NEAR(w[0 * 3 + 2], 0.0, 0.0);
    CHECK_NEAR(w[1 * 3 + 2], 0.0, 0.0);
    CHECK(w[2 * 3 + 0] > 0.0f && w[1 * 3 + 0] > 0.0f);  /* 左下角留着 */
}
#line 207 "book/A-errata.nw"
check_section("值矩阵：48 倍，不到两个数量级");
{
    const uint64_t d = 12288, d_h = 128;
    CHECK_INT(2 * d * d_h, 3145728);
    CHECK_INT(d * d / (2 * d * d_h), 48);
    CHECK(d * d < 100 * 2 * d * d_h);
    attn_gpt_config c;
    CHECK_OK(attn_gpt_preset("gpt3-175b", &c));
    CHECK_INT(c.n_ctx, 2048);
    CHECK(c.n_ctx != c.d_model);
}
#line 236 "book/A-errata.nw"
check_section("多头：头数与参数量无关，每个头读完整的 X");
{
    const uint64_t heads[3] = {1, 8, 16};
    for (int i = 0; i < 3; i++) {
        attn_gpt_config c = {.d_model = 512, .n_heads = heads[i], .d_head = 512 / heads[i],
                             .n_layers = 1, .d_ff = 1, .vocab = 1, .n_ctx = 1, .biases = 1};
        attn_param_breakdown b;
        CHECK_OK(attn_count_params(&c, &b));
        CHECK_INT(b.attention, 1050624);
    }
    attn_gpt_config g2, g3;
    attn_param_breakdown b;
    CHECK_OK(attn_gpt_preset("gpt2-small", &g2));
    CHECK_OK(attn_gpt_preset("gpt3-175b", &g3));
    CHECK_INT(512 / 8, 64);                            /* 原始 Transformer：8 个头，每头 64 维 */
    CHECK_INT(1024 / 16, 64);                          /* 大模型：16 个头，每头 64 维 */
    CHECK_INT(g2.n_heads, 12);
    CHECK_INT(g3.n_heads, 96);
    g2.biases = 0;
    CHECK_OK(attn_count_params(&g2, &b));
    CHECK_INT(b.q / g2.n_heads, 49152);                /* 一个头的 W_Q：768 × 64 */
    CHECK_INT(b.q / g2.n_heads, g2.d_model * g2.d_head);
    CHECK_INT(64 * 64, 4096);
}
#line 280 "book/A-errata.nw"
check_section("通用逼近：只在有界区间上成立");
{
    const float shift[4] = {1.0f, 0.5f, 0.0f, -0.5f};
    const float out_w[4] = {-1.5f, 1.0f, 1.0f, 1.0f};
    double worst = 0.0;
    for (int i = 0; i <= 200; i++) {
        float x = -1.0f + 0.01f * (float)i;
        float h[4];
        for (int u = 0; u < 4; u++)
            h[u] = x + shift[u];
        CHECK_OK(attn_relu(h, 4));
        double g = 1.0;
        for (int u = 0; u < 4; u++)
            g += out_w[u] * h[u];
        if (fabs(g - (double)x * x) > worst)
            worst = fabs(g - (double)x * x);
    }
    CHECK(worst <= 0.0625 + 1e-5);
    CHECK_NEAR(worst, 0.0625, 1e-3);                  /* 最坏处在两个折点的正中 */
    float h[4];
    for (int u = 0; u < 4; u++)
        h[u] = 10.0f + shift[u];
    CHECK_OK(attn_relu(h, 4));
    double g10 = 1.0;
    for (int u = 0; u < 4; u++)
        g10 += out_w[u] * h[u];
    CHECK_NEAR(g10, 14.5, 1e-5);
    CHECK_NEAR(100.0 - g10, 85.5, 1e-5);
}
#line 317 "book/A-errata.nw"
check_section("两个线性层之间没有激活函数，就等于一个");
{
    /* x[1][2]，W1[2][2]，W2[2][1] */
    const float x[2] = {1.0f, -2.0f};
    const float w1[4] = {1.0f, 2.0f, 3.0f, 1.0f};
    const float w2[2] = {1.0f, -1.0f};
    float h[2] = {x[0] * w1[0] + x[1] * w1[2], x[0] * w1[1] + x[1] * w1[3]};   /* (-5, 0) */
    float two = h[0] * w2[0] + h[1] * w2[1];
    float w12[2] = {w1[0] * w2[0] + w1[1] * w2[1], w1[2] * w2[0] + w1[3] * w2[1]};
    float one = x[0] * w12[0] + x[1] * w12[1];
    CHECK_NEAR(two, one, 0.0);
    CHECK_NEAR(two, -5.0, 0.0);
    CHECK_OK(attn_relu(h, 2));
    float with_relu = h[0] * w2[0] + h[1] * w2[1];
    CHECK_NEAR(with_relu, 0.0, 0.0);                  /* 加了 ReLU，结果不再是 -5 */
}
#line 345 "book/A-errata.nw"
check_section("距离与点积");
{
    const float q[2] = {1.0f, 2.0f};
    const float k[3][2] = {{2.0f, 0.0f}, {0.0f, 1.0f}, {1.0f, 1.5f}};
    float by_dist[3], by_dot[3];
    for (int j = 0; j < 3; j++) {
        float dx = q[0] - k[j][0], dy = q[1] - k[j][1];
        float qk = q[0] * k[j][0] + q[1] * k[j][1];
        float kk = k[j][0] * k[j][0] + k[j][1] * k[j][1];
        float qq = q[0] * q[0] + q[1] * q[1];
        CHECK_NEAR(dx * dx + dy * dy, qq + kk - 2.0f * qk, 1e-5);
        by_dist[j] = -(dx * dx + dy * dy);
        by_dot[j] = 2.0f * qk - kk;
    }
    CHECK_OK(attn_softmax(by_dist, 3));
    CHECK_OK(attn_softmax(by_dot, 3));
    CHECK_ARRAY_NEAR(by_dist, by_dot, 3, 1e-6);
    /* 点积和距离的偏好可以相反 */
    const float a[2] = {1.0f, 0.0f}, b[2] = {3.0f, 0.0f};
    float dot_a = a[0] * 1.0f, dot_b = b[0] * 1.0f;
    float dist_a = fabsf(a[0] - 1.0f), dist_b = fabsf(b[0] - 1.0f);
    CHECK(dot_b > dot_a);
    CHECK(dist_a < dist_b);
    CHECK_NEAR(dist_b, 2.0, 0.0);
}
#line 380 "book/A-errata.nw"
check_section("权重表：最后一行加起来是 1.2");
{
    const double table[6][6] = {
        {1, 0, 0, 0, 0, 0},
        {0.5, 0.5, 0, 0, 0, 0},
        {0.25, 0.25, 0.5, 0, 0, 0},
        {0.1, 0.2, 0.3, 0.4, 0, 0},
        {0.05, 0.1, 0.25, 0.27, 0.33, 0},
        {0.05, 0.05, 0.1, 0.2, 0.3, 0.5},
    };
    double row[6];
    for (int i = 0; i < 6; i++) {
        row[i] = 0.0;
        for (int j = 0; j < 6; j++)
            row[i] += table[i][j];
    }
    for (int i = 0; i < 5; i++)
        CHECK_NEAR(row[i], 1.0, 1e-12);
    CHECK_NEAR(row[5], 1.2, 1e-12);
    CHECK_NEAR(row[5] - 0.5 + 0.3, 1.0, 1e-12);
}
#line 408 "book/A-errata.nw"
check_section("核对无误的数");
{
    CHECK_REL(exp(50.0), 5.185e21, 1e-3);
    attn_gpt_config c;
    CHECK_OK(attn_gpt_preset("gpt3-175b", &c));
    CHECK_INT(c.n_ctx * c.n_ctx, 4194304);
}
#line 22 "book/A-errata.nw"
    return check_summary("chA");
}
