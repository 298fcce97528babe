#line 188 "book/04-scaling.nw"
/* 图 4.1 的数据：d_k、未缩放点积的样本方差、缩放后的样本方差。 */
#include "attn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#line 117 "book/04-scaling.nw"
/* 用 n 对随机向量估计 Var(scale · q·k)；q、k 的分量独立，服从 N(0, sigma^2)。
   返回样本方差（分母 n - 1）；出错时返回 -1。 */
static double dot_variance(attn_rng *r, size_t d_k, size_t n, float sigma, float scale)
{
    float *q = malloc(d_k * sizeof *q), *k = malloc(d_k * sizeof *k);
    double sum = 0.0, sum2 = 0.0;
    if (q == NULL || k == NULL || n < 2) {
        free(q);
        free(k);
        return -1.0;
    }
    for (size_t s = 0; s < n; s++) {
        attn_rng_normal(r, q, d_k);
        attn_rng_normal(r, k, d_k);
        /* x = scale · sigma^2 · Σ_t q[t]·k[t] */
        double dot = 0.0;
        for (size_t t = 0; t < d_k; t++)
            dot += (double)q[t] * k[t];
        double x = dot * sigma * sigma * scale;
        sum += x;
        sum2 += x * x;
    }
    free(q);
    free(k);
    double mean = sum / (double)n;
    return (sum2 - (double)n * mean * mean) / (double)(n - 1);
}

#line 197 "book/04-scaling.nw"
int main(void)
{
    for (size_t d = 1; d <= 1024; d *= 2) {
        attn_rng r;
        attn_rng_seed(&r, 4000 + d);
        double raw = dot_variance(&r, d, 10000, 1.0f, 1.0f);
        attn_rng_seed(&r, 4000 + d);
        double scaled = dot_variance(&r, d, 10000, 1.0f, 1.0f / sqrtf((float)d));
        printf("%zu %.6f %.6f\n", d, raw, scaled);
    }
    return 0;
}
