#line 463 "book/01-mlp.nw"
/* 打印五列：x、sin(x)、2 段、4 段、8 段折线网络的输出 */
#include "attn.h"

#include <math.h>
#include <stdio.h>

#line 407 "book/01-mlp.nw"
/* 在 [0, π] 上等距取 n+1 个节点，构造 g(x) = relu(x·w1 + b1)·w2 + b2：
   w1[1×n], b1[n], w2[n×1], b2[1]，g 在每个节点上等于 sin */
static void relu_sine_net(size_t n, float *w1, float *b1, float *w2, float *b2)
{
    const double pi = 3.14159265358979323846;
    double h = pi / (double)n, prev_slope = 0.0;
    for (size_t i = 0; i < n; i++) {
        double xi = (double)i * h;
        double slope = (sin(xi + h) - sin(xi)) / h;
        w1[i] = 1.0f;
        b1[i] = (float)-xi;
        w2[i] = (float)(slope - prev_slope);
        prev_slope = slope;
    }
    b2[0] = (float)sin(0.0);
}

#line 471 "book/01-mlp.nw"
int main(void)
{
    enum { N = 241 };
    static float x[N], y[3][N];
    for (int i = 0; i < N; i++)
        x[i] = -0.5f + 5.0f * (float)i / (N - 1);          /* [-0.5, 4.5] */
    for (int t = 0; t < 3; t++) {
        size_t n = (size_t)2 << t;                      /* 2、4、8 段 */
        float w1[8], b1[8], w2[8], b2[1];
        relu_sine_net(n, w1, b1, w2, b2);
        if (attn_ffn(x, N, 1, w1, b1, n, w2, b2, 1, y[t]) != ATTN_OK)
            return 1;
    }
    for (int i = 0; i < N; i++)
        printf("%.4f %.5f %.5f %.5f %.5f\n", x[i], sin(x[i]), y[0][i], y[1][i], y[2][i]);
    return 0;
}
