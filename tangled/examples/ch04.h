#line 457 "book/04-scaling.nw"
/* examples/ch04.h：第 4 章的例子，练习程序、测试和图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH04_H
#define ATTN_EXAMPLES_CH04_H

#include "attn.h"
#include "ch03.h"                 /* softmax_naive */

#include <math.h>
#include <stdlib.h>

#line 84 "book/04-scaling.nw"
/* 用 n 对随机向量估计 Var(scale · q·k)；q、k 的分量独立，服从 N(0, sigma^2)。
   返回样本方差（分母 n - 1）；出错时返回 -1。 */
static inline double dot_variance(attn_rng *r, size_t d_k, size_t n, float sigma,
                                   float scale)
{
    float *q = malloc(d_k * sizeof *q), *k = malloc(d_k * sizeof *k);
    double sum = 0.0, sum2 = 0.0;
#line 434 "book/04-scaling.nw"
    if (q == NULL || k == NULL || n < 2) {
        free(q);
        free(k);
        return -1.0;
    }
#line 92 "book/04-scaling.nw"
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
#line 146 "book/04-scaling.nw"
/* H = -Σ_j p[j]·ln p[j]，单位是奈特（nat） */
static inline double row_entropy(const float *p, size_t n)
{
    double h = 0.0;
    for (size_t j = 0; j < n; j++)
        if (p[j] > 0.0f)
            h -= (double)p[j] * log((double)p[j]);
    return h;
}
#line 161 "book/04-scaling.nw"
/* trials 次：随机 q[1×d_k]、k[n_k×d_k]，用 attn_sdpa 算出 w[1×n_k]，
   累计最大权重和熵，最后取平均。 */
static inline int pattern_sharpness(attn_rng *r, size_t d_k, size_t n_k, size_t trials,
                             float scale, double *max_w, double *entropy)
{
    float *q = malloc(d_k * sizeof *q), *k = malloc(n_k * d_k * sizeof *k);
    float *v = calloc(n_k, sizeof *v), *w = malloc(n_k * sizeof *w), out;
    int status = ATTN_OK;
    *max_w = 0.0;
    *entropy = 0.0;
#line 442 "book/04-scaling.nw"
    if (q == NULL || k == NULL || v == NULL || w == NULL) {
        free(q);
        free(k);
        free(v);
        free(w);
        return ATTN_ENOMEM;
    }
#line 172 "book/04-scaling.nw"
    for (size_t s = 0; s < trials; s++) {
        attn_rng_normal(r, q, d_k);
        attn_rng_normal(r, k, n_k * d_k);
        status = attn_sdpa(q, k, v, 1, n_k, d_k, 1, scale, NULL, 0, &out, w);
        if (status != ATTN_OK)
            break;
        float m = 0.0f;
        for (size_t j = 0; j < n_k; j++)
            if (w[j] > m)
                m = w[j];
        *max_w += m / (double)trials;
        *entropy += row_entropy(w, n_k) / (double)trials;
    }
    free(q);
    free(k);
    free(v);
    free(w);
    return status;
}

#line 471 "book/04-scaling.nw"
#endif
