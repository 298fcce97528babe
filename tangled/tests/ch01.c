#line 745 "book/01-mlp.nw"
#include "attn.h"
#include "check.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "../examples/ch01.h"

int main(void)
{
#line 122 "book/01-mlp.nw"
    check_section("一个神经元：1·0.5 + 2·(-1) + 3·2 + 0.5 = 5");
    {
        float x[3] = {1, 2, 3}, w[3] = {0.5f, -1, 2}, b[1] = {0.5f}, z[1];
        CHECK_OK(attn_linear(x, w, b, z, 1, 3, 1));
        CHECK_NEAR(z[0], 5.0, 0.0);
    }
#line 144 "book/01-mlp.nw"
    check_section("二维方阵把 (1,0) 转到 (0,1)，把 (0,1) 转到 (-1,0)");
    {
        float w[4] = {0, 1,
                      -1, 0};
        float x[4] = {1, 0,
                      0, 1};
        float y[4];
        CHECK_OK(attn_matmul(x, w, y, 2, 2, 2));
        float want[4] = {0, 1, -1, 0};
        CHECK_ARRAY_NEAR(y, want, 4, 0.0);
    }
    check_section("矩阵乘法的错误输入");
    {
        float a[1] = {1}, c[1];
        CHECK_STATUS(attn_matmul(NULL, a, c, 1, 1, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_matmul(a, a, c, 1, 0, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_matmul(a, a, c, (size_t)1 << 40, (size_t)1 << 40, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_linear(a, a, NULL, NULL, 1, 1, 1), ATTN_EINVAL);
    }
#line 186 "book/01-mlp.nw"
    check_section("两层线性层合并成一层");
    {
        float w1[4] = {1, 2, 3, 4}, b1[2] = {1, -1};
        float w2[4] = {0, 1, 1, 0}, b2[2] = {0.5f, 0.5f};
        float x[8] = {1, 1,   0, 0,   -2, 3,   0.25f, -1};
        float h[8], two[8], w[4], b[2], one[8];
        CHECK_OK(attn_linear(x, w1, b1, h, 4, 2, 2));
        CHECK_OK(attn_linear(h, w2, b2, two, 4, 2, 2));
        CHECK_NEAR(h[0], 5.0, 0.0);
        CHECK_NEAR(two[0], 5.5, 0.0);
        CHECK_NEAR(two[1], 5.5, 0.0);
        /* 合并：W = W1·W2，b = b1·W2 + b2 */
        CHECK_OK(attn_matmul(w1, w2, w, 2, 2, 2));
        CHECK_OK(attn_linear(b1, w2, b2, b, 1, 2, 2));
        float want_w[4] = {2, 1, 4, 3}, want_b[2] = {-0.5f, 1.5f};
        CHECK_ARRAY_NEAR(w, want_w, 4, 0.0);
        CHECK_ARRAY_NEAR(b, want_b, 2, 0.0);
        CHECK_OK(attn_linear(x, w, b, one, 4, 2, 2));
        CHECK_ARRAY_NEAR(one, two, 8, 1e-5);
    }
#line 249 "book/01-mlp.nw"
    check_section("ReLU");
    {
        float x[5] = {-2, -0.0f, 0, 0.5f, 3};
        float want[5] = {0, 0, 0, 0.5f, 3};
        CHECK_OK(attn_relu(x, 5));
        CHECK_ARRAY_NEAR(x, want, 5, 0.0);
        float bad[1] = {NAN};
        CHECK_OK(attn_relu(bad, 1));
        CHECK(isnan(bad[0]));
        CHECK_STATUS(attn_relu(NULL, 3), ATTN_EINVAL);
        CHECK_STATUS(attn_relu(x, 0), ATTN_EINVAL);
    }
    check_section("中间放一个 ReLU，两层就合并不了");
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
#line 300 "book/01-mlp.nw"
    check_section("没有一条直线能分开异或");
    {
        static const float pts[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
        static const int label[4] = {0, 1, 1, 0};
        int found = 0, tried = 0;
        for (int a = -20; a <= 20; a++)
            for (int c = -20; c <= 20; c++)
                for (int d = -20; d <= 20; d++) {
                    float w[2] = {a * 0.1f, c * 0.1f}, b[1] = {d * 0.1f}, z[4];
                    attn_linear(&pts[0][0], w, b, z, 4, 2, 1);
                    int ok = 1;
                    for (int i = 0; i < 4; i++)
                        ok &= (z[i] > 0.0f) == (label[i] == 1);
                    found += ok;
                    tried++;
                }
        CHECK_INT(tried, 41 * 41 * 41);
        CHECK_INT(found, 0);
    }
#line 376 "book/01-mlp.nw"
    check_section("两层 ReLU 网络精确地算出异或");
    {
        float x[8] = {0, 0,   1, 0,   0, 1,   1, 1};
        float w1[4] = {1, 1,
                       1, 1};
        float b1[2] = {0, -1};
        float w2[2] = {1,
                       -2};
        float y[4];
        float want[4] = {0, 1, 1, 0};
        CHECK_OK(attn_ffn(x, 4, 2, w1, b1, 2, w2, NULL, 1, y));
        CHECK_ARRAY_NEAR(y, want, 4, 0.0);
    }
#line 438 "book/01-mlp.nw"
    check_section("用 n 段折线逼近 sin 的最大误差");
    {
        static const size_t pieces[4] = {2, 4, 8, 16};
        static const double want[4] = {0.2105, 0.0704, 0.0188, 0.0048};
        double err[4];
        for (int t = 0; t < 4; t++) {
            float w1[16], b1[16], w2[16], b2[1], x[4001], y[4001];
            size_t n = pieces[t];
            relu_sine_net(n, w1, b1, w2, b2);
            for (int i = 0; i <= 4000; i++)
                x[i] = (float)(3.14159265358979323846 * i / 4000.0);
            CHECK_OK(attn_ffn(x, 4001, 1, w1, b1, n, w2, b2, 1, y));
            err[t] = 0.0;
            for (int i = 0; i <= 4000; i++)
                err[t] = fmax(err[t], fabs(y[i] - sin(x[i])));
            CHECK_NEAR(err[t], want[t], 1e-4);
        }
        /* 段数翻倍，误差约为四分之一 */
        CHECK_NEAR(err[2] / err[3], 4.0, 0.1);
    }
#line 507 "book/01-mlp.nw"
    check_section("万能逼近只在区间内成立：8 段网络在 2π 处偏离约 3.06");
    {
        float w1[8], b1[8], w2[8], b2[1], x[1] = {(float)(2.0 * 3.14159265358979323846)}, y[1];
        relu_sine_net(8, w1, b1, w2, b2);
        CHECK_OK(attn_ffn(x, 1, 1, w1, b1, 8, w2, b2, 1, y));
        CHECK_NEAR(y[0] - sin(x[0]), -3.0615, 1e-3);
    }
    check_section("4 个 ReLU 拼出的 x²：区间内误差 0.0625，x = 10 处差 85.5");
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
    check_section("平方激活的网络再宽也只是二次多项式");
    {
        float w1[16], b1[16], w2[16], x[4] = {0.0f, 0.5f, 1.0f, 1.5f}, h[64], y[4];
        for (int i = 0; i < 16; i++) {
            w1[i] = (float)((i * 37) % 11 - 5) / 4.0f;
            b1[i] = (float)((i * 17) % 7 - 3) / 2.0f;
            w2[i] = (float)((i * 13) % 5 - 2) / 3.0f;
        }
        CHECK_OK(attn_linear(x, w1, b1, h, 4, 1, 16));
        for (int i = 0; i < 64; i++)
            h[i] = h[i] * h[i];                     /* σ(t) = t² 代替 ReLU */
        CHECK_OK(attn_linear(h, w2, NULL, y, 4, 16, 1));
        double third = y[3] - 3.0 * y[2] + 3.0 * y[1] - y[0];
        CHECK_NEAR(third, 0.0, 1e-4);
        CHECK(fabs(y[1] - y[0]) > 0.1);            /* 网络本身不是常数 */
    }
#line 574 "book/01-mlp.nw"
    check_section("前馈子层逐个位置独立：整句送入与逐行送入结果相同");
    {
        float x[3 * 2] = {0.5f, -1,   2, 0.25f,   -1.5f, 1};
        float w1[2 * 4] = {1, -1, 0.5f, 2,   -0.5f, 1, 1, -1};
        float b1[4] = {0.1f, -0.2f, 0, 0.3f};
        float w2[4 * 2] = {1, 0,   0, 1,   -1, 1,   0.5f, 0.5f};
        float b2[2] = {0, 1};
        float all[6], one[2];
        CHECK_OK(attn_ffn(x, 3, 2, w1, b1, 4, w2, b2, 2, all));
        for (int i = 0; i < 3; i++) {
            CHECK_OK(attn_ffn(x + 2 * i, 1, 2, w1, b1, 4, w2, b2, 2, one));
            CHECK_ARRAY_NEAR(one, all + 2 * i, 2, 0.0);
        }
    }
    check_section("attn_ffn 的错误输入");
    {
        float v[4] = {0};
        CHECK_STATUS(attn_ffn(NULL, 1, 1, v, NULL, 1, v, NULL, 1, v), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(v, 1, 1, v, NULL, 0, v, NULL, 1, v), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(v, SIZE_MAX / 2, 1, v, NULL, 4, v, NULL, 1, v), ATTN_EINVAL);
    }
#line 765 "book/01-mlp.nw"
    return check_summary("ch01");
}
