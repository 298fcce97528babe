#line 912 "book/01-mlp.nw"
#include "attn.h"
#include "check.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "../examples/ch01.h"

#line 769 "book/01-mlp.nw"
/* 三个平方神经元组成的网络在 x[n] 上的输出 y[n] = c0 + c1·x + c2·x²：
   隐藏层 t = x·(1, 1, 0) + (0, 1, 1)，平方之后乘 (c2 - c1/2, c1/2, c0 - c1/2) */
static int square_net(double c0, double c1, double c2, const float *x, size_t n, float *y)
{
    const float w1[3] = {1, 1, 0}, b1[3] = {0, 1, 1};
    const float w2[3] = {(float)(c2 - c1 / 2), (float)(c1 / 2), (float)(c0 - c1 / 2)};
    float h[3];
    for (size_t i = 0; i < n; i++) {
        int st = attn_linear(x + i, w1, b1, h, 1, 1, 3);
        if (st != ATTN_OK)
            return st;
        for (int u = 0; u < 3; u++)
            h[u] = h[u] * h[u];                 /* σ(t) = t² */
        st = attn_linear(h, w2, NULL, y + i, 1, 3, 1);
        if (st != ATTN_OK)
            return st;
    }
    return ATTN_OK;
}

/* sin - p 在 x[4] 上正负交替时，返回 min |sin - p|（任何二次多项式的最大误差的下界）；不交替时返回 -1 */
static double alternation_bound(const float *x, const float *p)
{
    double bound = INFINITY;
    for (int i = 0; i < 4; i++) {
        double e = sin(x[i]) - p[i];
        if (i > 0 && (e > 0) == (sin(x[i - 1]) - p[i - 1] > 0))
            return -1.0;
        bound = fmin(bound, fabs(e));
    }
    return bound;
}

#line 923 "book/01-mlp.nw"
int main(void)
{
#line 523 "book/01-mlp.nw"
    check_section("一个神经元：1·0.5 + 2·(-1) + 3·2 + 0.5 = 5");
    {
        float x[3] = {1, 2, 3}, w[3] = {0.5f, -1, 2}, b[1] = {0.5f}, z[1];
        CHECK_OK(attn_linear(x, w, b, z, 1, 3, 1));
        CHECK_NEAR(z[0], 5.0, 0.0);
    }
#line 532 "book/01-mlp.nw"
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
    check_section("矩阵乘法的参数不对时返回 ATTN_EINVAL：空指针、零维度、字节数溢出、输出与输入重叠");
    {
        float a[4] = {1, 2, 3, 4}, c[4];
        CHECK_STATUS(attn_matmul(NULL, a, c, 1, 1, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_matmul(a, a, c, 1, 0, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_matmul(a, a, c, (size_t)1 << 40, (size_t)1 << 40, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_matmul(a, a + 2, a, 1, 1, 1), ATTN_EINVAL);      /* c 就是 a */
        CHECK_STATUS(attn_matmul(a, a + 2, a + 2, 1, 1, 1), ATTN_EINVAL);  /* c 就是 b */
        CHECK_OK(attn_matmul(a, a + 1, a + 2, 1, 1, 1));                   /* 首尾相接不算重叠 */
        CHECK_NEAR(a[2], 2.0, 0.0);
        CHECK_STATUS(attn_linear(a, a, NULL, NULL, 1, 1, 1), ATTN_EINVAL);
        float m[4] = {1, 2, 3, 4}, bias[2] = {0, 0}, y[2];
        CHECK_STATUS(attn_linear(m, m, y, y, 1, 2, 2), ATTN_EINVAL);        /* 偏置就是输出 */
        CHECK_OK(attn_linear(m, m, bias, y, 1, 2, 2));
    }
#line 561 "book/01-mlp.nw"
    check_section("两层线性层合并成一层：(1,1) 先得 (5,5)，再得 (5.5,5.5)；W1W2 = (2 1; 4 3)，b1W2 + b2 = (-0.5, 1.5)");
    {
        float w1[4] = {1, 2, 3, 4}, b1[2] = {1, -1};
        float w2[4] = {0, 1, 1, 0}, b2[2] = {0.5f, 0.5f};
        float x[8] = {1, 1,   0, 0,   -2, 3,   0.25f, -1};
        float h[8], two[8], w[4], b[2], one[8];
        CHECK_OK(attn_linear(x, w1, b1, h, 4, 2, 2));
        CHECK_OK(attn_linear(h, w2, b2, two, 4, 2, 2));
        CHECK_NEAR(h[0], 5.0, 0.0);
        CHECK_NEAR(h[1], 5.0, 0.0);
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
#line 585 "book/01-mlp.nw"
    check_section("ReLU 把负数变成 0，正数和 NaN 原样留下");
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
    check_section("中间放一个 ReLU，两层就合并不了：h = (-5, 0)，没有 ReLU 得 -5，有 ReLU 得 0");
    {
        const float x[2] = {1.0f, -2.0f};
        const float w1[4] = {1.0f, 2.0f,
                             3.0f, 1.0f};
        const float w2[2] = {1.0f, -1.0f};
        float h[2], two[1], w12[2], one[1], with_relu[1];
        CHECK_OK(attn_linear(x, w1, NULL, h, 1, 2, 2));
        CHECK_NEAR(h[0], -5.0, 0.0);
        CHECK_NEAR(h[1], 0.0, 0.0);
        CHECK_OK(attn_linear(h, w2, NULL, two, 1, 2, 1));
        CHECK_OK(attn_matmul(w1, w2, w12, 2, 2, 1));            /* W1·W2 = (-1, 2)ᵀ */
        CHECK_NEAR(w12[0], -1.0, 0.0);
        CHECK_NEAR(w12[1], 2.0, 0.0);
        CHECK_OK(attn_linear(x, w12, NULL, one, 1, 2, 1));
        CHECK_NEAR(two[0], -5.0, 0.0);
        CHECK_NEAR(one[0], -5.0, 0.0);
        CHECK_OK(attn_relu(h, 2));
        CHECK_OK(attn_linear(h, w2, NULL, with_relu, 1, 2, 1));
        CHECK_NEAR(with_relu[0], 0.0, 0.0);                     /* 加了 ReLU，结果不再是 -5 */
    }
#line 621 "book/01-mlp.nw"
    check_section("没有一条直线能分开异或：41×41×41 组 (w1, w2, b) 一组也不行");
    {
        static const float pts[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
        static const int label[4] = {0, 1, 1, 0};
        int found = 0, tried = 0;
        for (int a = -20; a <= 20; a++)
            for (int c = -20; c <= 20; c++)
                for (int d = -20; d <= 20; d++) {
                    float w[2] = {a * 0.1f, c * 0.1f}, b[1] = {d * 0.1f}, z[4];
                    CHECK_OK(attn_linear(&pts[0][0], w, b, z, 4, 2, 1));
                    int ok = 1;
                    for (int i = 0; i < 4; i++)
                        ok &= (z[i] > 0.0f) == (label[i] == 1);
                    found += ok;
                    tried++;
                }
        CHECK_INT(tried, 41 * 41 * 41);
        CHECK_INT(found, 0);
        /* 分类的代码能找到可分的问题：同一个网格上，“或”（OR）有解 */
        int found_or = 0;
        for (int a = -20; a <= 20; a++)
            for (int c = -20; c <= 20; c++)
                for (int d = -20; d <= 20; d++) {
                    float w[2] = {a * 0.1f, c * 0.1f}, b[1] = {d * 0.1f}, z[4];
                    CHECK_OK(attn_linear(&pts[0][0], w, b, z, 4, 2, 1));
                    found_or += (z[0] <= 0.0f) && z[1] > 0.0f && z[2] > 0.0f && z[3] > 0.0f;
                }
        CHECK(found_or > 0);
    }
#line 653 "book/01-mlp.nw"
    check_section("两层 ReLU 网络精确地算出异或：0、1、1、0");
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
#line 669 "book/01-mlp.nw"
    check_section("用 n 段折线逼近 sin：最大误差 0.2105、0.0704、0.0188、0.0048，不超过 h²/8");
    {
        static const size_t pieces[4] = {2, 4, 8, 16};
        static const double want[4] = {0.2105, 0.0704, 0.0188, 0.0048};
        const double pi = 3.14159265358979323846;
        double err[4];
        for (int t = 0; t < 4; t++) {
            float w1[16], b1[16], w2[16], b2[1], x[4001], y[4001];
            size_t n = pieces[t];
            relu_sine_net(n, w1, b1, w2, b2);
            for (int i = 0; i <= 4000; i++)
                x[i] = (float)(pi * i / 4000.0);
            CHECK_OK(attn_ffn(x, 4001, 1, w1, b1, n, w2, b2, 1, y));
            err[t] = 0.0;
            for (int i = 0; i <= 4000; i++)
                err[t] = fmax(err[t], fabs(y[i] - sin(x[i])));
            CHECK_NEAR(err[t], want[t], 1e-4);
            double h = pi / (double)n;
            CHECK(err[t] <= h * h / 8.0 + 1e-5);              /* 插值的误差上界，|sin''| ≤ 1 */
            /* 折线穿过每个节点：参数是照着节点上的 sin 算出来的 */
            for (size_t i = 0; i <= n; i++) {
                float xi = (float)(h * (double)i), gi;
                CHECK_OK(attn_ffn(&xi, 1, 1, w1, b1, n, w2, b2, 1, &gi));
                CHECK_NEAR(gi, sin(xi), 1e-5);
            }
        }
        CHECK_NEAR(pi * pi / 16.0 / 16.0 / 8.0, 0.0048, 1e-4);  /* n = 16 的上界 */
        /* 段数翻倍，误差约为四分之一 */
        CHECK_NEAR(err[2] / err[3], 4.0, 0.1);
    }
#line 702 "book/01-mlp.nw"
    check_section("区间之外：8 段网络在 x < 0 时恒为 0，在 2π 处偏离约 -3.0615；x² 的折线在 ±10 处是 14.5 和 1");
    {
        const double pi = 3.14159265358979323846;
        float w1[8], b1[8], w2[8], b2[1];
        relu_sine_net(8, w1, b1, w2, b2);
        float left[4] = {-0.001f, -0.5f, -1.0f, -100.0f}, y[4];
        CHECK_OK(attn_ffn(left, 4, 1, w1, b1, 8, w2, b2, 1, y));
        for (int i = 0; i < 4; i++)
            CHECK_NEAR(y[i], 0.0, 0.0);                          /* 所有神经元都没打开 */
        float slope = (float)((0.0 - sin(7.0 * pi / 8.0)) / (pi / 8.0));
        CHECK_NEAR(slope, -0.9745, 1e-4);
        CHECK_NEAR(7.0 * pi / 8.0, 2.749, 1e-3);                /* 最后一段的起点 */
        CHECK_NEAR(sin(7.0 * pi / 8.0), 0.3827, 1e-4);
        float x[1] = {(float)(2.0 * pi)};
        CHECK_OK(attn_ffn(x, 1, 1, w1, b1, 8, w2, b2, 1, y));
        CHECK_NEAR(y[0] - sin(x[0]), -3.0615, 1e-3);
        CHECK_NEAR(y[0], slope * pi, 1e-4);                      /* 沿最后一段直线 */
    }
    {
        /* g(x) = 1 - 1.5 relu(x+1) + relu(x+0.5) + relu(x) + relu(x-0.5) */
        const float w1[4] = {1, 1, 1, 1}, b1[4] = {1.0f, 0.5f, 0.0f, -0.5f};
        const float w2[4] = {-1.5f, 1.0f, 1.0f, 1.0f}, b2[1] = {1.0f};
        float x[201], g[201];
        for (int i = 0; i <= 200; i++)
            x[i] = -1.0f + 0.01f * (float)i;
        CHECK_OK(attn_ffn(x, 201, 1, w1, b1, 4, w2, b2, 1, g));
        double worst = 0.0;
        for (int i = 0; i <= 200; i++)
            worst = fmax(worst, fabs(g[i] - (double)x[i] * x[i]));
        CHECK(worst <= 0.5 * 0.5 * 2.0 / 8.0 + 1e-5);
        CHECK_NEAR(worst, 0.0625, 1e-3);                         /* 最坏处在两个节点的正中 */
        float far[2] = {10.0f, -10.0f}, gf[2];
        CHECK_OK(attn_ffn(far, 2, 1, w1, b1, 4, w2, b2, 1, gf));
        CHECK_NEAR(w2[0] + w2[1] + w2[2] + w2[3], 1.5, 0.0);    /* 右边的斜率 */
        CHECK_NEAR(gf[0], 14.5, 1e-5);
        CHECK_NEAR(100.0 - gf[0], 85.5, 1e-5);
        CHECK_NEAR(gf[1], 1.0, 0.0);                             /* 左边：所有神经元都关着 */
    }
#line 743 "book/01-mlp.nw"
    check_section("平方激活的网络再宽也只是二次多项式：三阶差分为零");
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
#line 804 "book/01-mlp.nw"
    check_section("sin 在 [0, π] 上没有拐点；最好的二次多项式 4x(π-x)/π² - 0.0280 差 0.0280，再宽的平方网络也降不下去");
    {
        const double pi = 3.14159265358979323846;
        enum { N = 4001 };
        static float x[N], y[N];
        for (int i = 0; i < N; i++)
            x[i] = (float)(pi * i / (N - 1));
        int bulges = 0;                                        /* 二阶差分处处 < 0：整段向下弯 */
        for (int i = 1; i + 1 < N; i++) {
            double step = pi / (N - 1);
            bulges += sin(step * (i - 1)) - 2 * sin(step * i) + sin(step * (i + 1)) >= 0;
        }
        CHECK_INT(bulges, 0);
        /* 抛物线 4x(π-x)/π² 在 0、π/2、π 处贴住 sin，中间最多高出 2E：下移 E 让误差两边一样大 */
        double c1 = 4.0 / pi, c2 = -4.0 / (pi * pi), over = 0.0, at = 0.0;
        CHECK_OK(square_net(0.0, c1, c2, x, N, y));
        for (int i = 0; i < N / 2; i++)
            if (y[i] - sin(x[i]) > over) {
                over = y[i] - sin(x[i]);
                at = x[i];
            }
        double e = over / 2;
        CHECK_NEAR(e, 0.0280, 1e-4);
        CHECK_NEAR(at, 0.4720, 1e-3);
        CHECK_OK(square_net(-e, c1, c2, x, N, y));
        double worst = 0.0;
        for (int i = 0; i < N; i++)
            worst = fmax(worst, fabs(y[i] - sin(x[i])));
        CHECK_NEAR(worst, 0.0280, 1e-4);
        CHECK(worst < 0.0329 && worst > 0.0188);               /* 比 6 段折线好，比 8 段差 */
        float pts[4] = {0.0f, (float)at, (float)(pi / 2), (float)(pi - at)}, p[4];
        CHECK_NEAR(pi - at, 2.6696, 1e-3);
        CHECK_OK(square_net(-e, c1, c2, pts, 4, p));
        double bound = alternation_bound(pts, p);
        CHECK(bound > 0.0279);                                 /* 任何二次多项式都至少差这么多 */
        /* 6 段折线的误差 0.0329 */
        float w1[6], b1[6], w2[6], b2[1];
        relu_sine_net(6, w1, b1, w2, b2);
        CHECK_OK(attn_ffn(x, N, 1, w1, b1, 6, w2, b2, 1, y));
        double err6 = 0.0;
        for (int i = 0; i < N; i++)
            err6 = fmax(err6, fabs(y[i] - sin(x[i])));
        CHECK_NEAR(err6, 0.0329, 1e-4);
    }
    check_section("[0, 2π] 上 sin 在 π 处有拐点：最好的二次多项式是一条直线，差 0.6825");
    {
        const double pi = 3.14159265358979323846;
        double lo = pi / 2, hi = pi;                           /* tan x = x - 2π 在 (π/2, π) 上的根 */
        for (int it = 0; it < 100; it++) {
            double mid = (lo + hi) / 2;
            if (tan(mid) - (mid - 2 * pi) < 0)                 /* 从 -∞ 一路增大到 π */
                lo = mid;
            else
                hi = mid;
        }
        double x1 = lo, c1 = cos(x1), c0 = -pi * c1;
        CHECK_NEAR(x1, 1.7898, 1e-4);
        CHECK_NEAR(c0, 0.6825, 1e-4);
        enum { N = 4001 };
        static float x[N], y[N];
        for (int i = 0; i < N; i++)
            x[i] = (float)(2 * pi * i / (N - 1));
        int bends = 0;                                          /* 二阶差分变号的次数：拐点的个数 */
        double prev = 0.0, step = 2 * pi / 3999;                /* 4000 个点，没有一个正好落在 π 上 */
        for (int i = 1; i + 1 < 4000; i++) {
            double d2 = sin(step * (i - 1)) - 2 * sin(step * i) + sin(step * (i + 1));
            bends += i > 1 && (d2 > 0) != (prev > 0);
            prev = d2;
        }
        CHECK_INT(bends, 1);
        CHECK_OK(square_net(c0, c1, 0.0, x, N, y));
        double worst = 0.0;
        for (int i = 0; i < N; i++)
            worst = fmax(worst, fabs(y[i] - sin(x[i])));
        CHECK_NEAR(worst, 0.6825, 1e-4);
        float pts[4] = {0.0f, (float)x1, (float)(2 * pi - x1), (float)(2 * pi)}, p[4];
        CHECK_OK(square_net(c0, c1, 0.0, pts, 4, p));
        CHECK(alternation_bound(pts, p) > 0.6824);
    }
#line 886 "book/01-mlp.nw"
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
#line 936 "book/01-mlp.nw"
    return check_summary("ch01");
}
