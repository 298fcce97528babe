#line 944 "book/01-mlp.nw"
/* examples/ch01.h：第 1 章的例子，练习程序、测试和图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH01_H
#define ATTN_EXAMPLES_CH01_H

#include "attn.h"

#include <math.h>

#line 283 "book/01-mlp.nw"
/* 在 [0, π] 上等距取 n+1 个节点，构造 g(x) = relu(x·w1 + b1)·w2 + b2：
   w1[1×n], b1[n], w2[n×1], b2[1]，g 在每个节点上等于 sin。
   参数是算出来的，不是训练出来的。 */
static inline void relu_sine_net(size_t n, float *w1, float *b1, float *w2, float *b2)
{
    const double pi = 3.14159265358979323846;
    double h = pi / (double)n, prev_slope = 0.0;
    for (size_t i = 0; i < n; i++) {
        double xi = (double)i * h;
        double slope = (sin(xi + h) - sin(xi)) / h;     /* 第 i 段的斜率 s_i */
        w1[i] = 1.0f;
        b1[i] = (float)-xi;
        w2[i] = (float)(slope - prev_slope);            /* c_i = s_i - s_{i-1} */
        prev_slope = slope;
    }
    b2[0] = (float)sin(0.0);
}

#line 954 "book/01-mlp.nw"
#endif
