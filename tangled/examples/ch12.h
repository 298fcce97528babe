#line 1534 "book/12-learning.nw"
/* examples/ch12.h — 第 12 章的小例子：L(x, y) = (x² + a·y²)/2 上的梯度下降、动量和 Adam，
   和学习率的预热与余弦。 */
#ifndef ATTN_EXAMPLES_CH12_H
#define ATTN_EXAMPLES_CH12_H

#include "attn.h"

#include <math.h>

#line 96 "book/12-learning.nw"
/* L(x, y) = (x² + a·y²)/2 */
static inline double quad_loss(const double w[2], double a)
{
    return 0.5 * (w[0] * w[0] + a * w[1] * w[1]);
}

/* 带动量的一步：g = (x, a·y)，v ← β·v + g，w ← w − η·v。β = 0 就是普通的梯度下降 */
static inline void quad_momentum_step(double w[2], double v[2], double a,
                                      double lr, double beta)
{
    const double g[2] = {w[0], a * w[1]};
    for (int i = 0; i < 2; i++) {
        v[i] = beta * v[i] + g[i];
        w[i] -= lr * v[i];
    }
}

/* Adam 的第 t 步（t 从 1 数起）：库里的 attn_adamw_step，β = (0.9, 0.999)，不衰减 */
static inline int quad_adam_step(float w[2], float m[2], float v[2], float a, float lr,
                                 unsigned long t)
{
    const float g[2] = {w[0], a * w[1]};
    return attn_adamw_step(w, g, m, v, 2, t, lr, 0.9f, 0.999f, 1e-8f, 0.0f);
}

#line 233 "book/12-learning.nw"
/* 第 t 步（t 从 1 数起）的学习率：前 warmup 步从 0 线性升到 lr，
   之后按余弦在第 steps 步降到 lr_min */
static inline double lr_warmup_cosine(unsigned long t, unsigned long warmup,
                                      unsigned long steps, double lr, double lr_min)
{
    if (t <= warmup)
        return lr * (double)t / (double)warmup;
    double progress = (double)(t - warmup) / (double)(steps - warmup);
    progress = progress > 1.0 ? 1.0 : progress;
    return lr_min
           + 0.5 * (lr - lr_min) * (1.0 + cos(3.14159265358979323846 * progress));
}

#line 1547 "book/12-learning.nw"
#endif
