#line 93 "book/11-block.nw"
#include "attn.h"
#include "internal.h"
#line 1767 "book/11-block.nw"
/* 附录 D 在这里包含线程要用的头文件 */
#line 1952 "book/D-cpu.nw"
#include "flash_common.h"   /* ATTN_OMP */

#line 97 "book/11-block.nw"
#include <math.h>

int attn_layernorm(const float *x, const float *gamma, const float *beta, float *y,
                   size_t n, size_t d, float eps)
{
#line 1789 "book/11-block.nw"
    size_t bytes;
    if (x == NULL || y == NULL || n == 0 || d == 0 || !attn_bytes2(&bytes, n, d))
        return ATTN_EINVAL;
    if (!(eps > 0.0f) || isinf(eps))
        return ATTN_EINVAL;
    /* bytes 是 x 和 y 各自的字节数 */
    if ((y != x && attn_overlap(x, bytes, y, bytes)) ||
        attn_overlap(gamma, d * sizeof(float), y, bytes) ||
        attn_overlap(beta, d * sizeof(float), y, bytes))
        return ATTN_EINVAL;
#line 103 "book/11-block.nw"
    return attn_layernorm_kernel(x, gamma, beta, y, n, d, eps);
}

/* 参数已经查过；只看数：有无穷大时拒绝，一个数也不写 */
int attn_layernorm_kernel(const float *x, const float *gamma, const float *beta,
                          float *y, size_t n, size_t d, float eps)
{
#line 1802 "book/11-block.nw"
    for (size_t t = 0; t < n * d; t++)
        if (isinf(x[t]))
            return ATTN_EINVAL;
    for (size_t j = 0; j < d; j++)
        if ((gamma != NULL && isinf(gamma[j])) || (beta != NULL && isinf(beta[j])))
            return ATTN_EINVAL;
#line 1771 "book/11-block.nw"
    /* 附录 D 在这里把各行分给几个线程 */
#line 1956 "book/D-cpu.nw"
    ATTN_OMP("omp parallel for schedule(static) if(n * d >= 65536)")
#line 112 "book/11-block.nw"
    for (size_t i = 0; i < n; i++) {
        const float *xi = x + i * d;
        float *yi = y + i * d;
#line 127 "book/11-block.nw"
        /* mean = Σ x[j] / d；var = Σ (x[j] − mean)² / d */
        double mean = 0.0, var = 0.0;
        for (size_t j = 0; j < d; j++)
            mean += xi[j];
        mean /= (double)d;
        for (size_t j = 0; j < d; j++) {
            double t = xi[j] - mean;
            var += t * t;
        }
        var /= (double)d;
        double inv = 1.0 / sqrt(var + (double)eps);
#line 141 "book/11-block.nw"
        /* y[j] = (x[j] − mean) · inv · gamma[j] + beta[j] */
        for (size_t j = 0; j < d; j++) {
            double g = gamma ? gamma[j] : 1.0;      /* 没有增益时是 1，没有偏移时是 0 */
            double b = beta ? beta[j] : 0.0;
            yi[j] = (float)((xi[j] - mean) * inv * g + b);
        }
#line 117 "book/11-block.nw"
    }
    return ATTN_OK;
}
#line 1553 "book/12-learning.nw"
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF    /* 见“同样的种子，同样的位”一节 */
#endif
#line 1661 "book/12-learning.nw"
/* 附录 D 在这里包含它的快速实现的声明 */
#line 1980 "book/D-cpu.nw"
#include "linear_fast.h"

#include <stdlib.h>
#line 508 "book/12-learning.nw"
int attn_layernorm_backward(const float *x, const float *gamma, const float *dy,
                            size_t n, size_t d, float eps,
                            float *dx, float *dgamma, float *dbeta)
{
#line 1279 "book/12-learning.nw"
    size_t bytes;
    size_t nd;
    if (x == NULL || dy == NULL || n == 0 || d == 0 || !(eps > 0.0f) || isinf(eps))
        return ATTN_EINVAL;
    if (dx == NULL && dgamma == NULL && dbeta == NULL)
        return ATTN_EINVAL;
    if (__builtin_mul_overflow(n, d, &nd) || !attn_bytes2(&bytes, n, d))
        return ATTN_EINVAL;
    size_t xb = nd * sizeof(float), vb = d * sizeof(float);
    if (attn_overlap(dx, xb, x, xb) || (dx != dy && attn_overlap(dx, xb, dy, xb)) ||
        attn_overlap(dx, xb, gamma, vb) || attn_overlap(dgamma, vb, x, xb) ||
        attn_overlap(dgamma, vb, dy, xb) || attn_overlap(dgamma, vb, gamma, vb) ||
        attn_overlap(dbeta, vb, x, xb) || attn_overlap(dbeta, vb, dy, xb) ||
        attn_overlap(dbeta, vb, gamma, vb) || attn_overlap(dbeta, vb, dgamma, vb) ||
        attn_overlap(dx, xb, dgamma, vb) || attn_overlap(dx, xb, dbeta, vb))
        return ATTN_EINVAL;
#line 513 "book/12-learning.nw"
    return attn_layernorm_backward_kernel(x, gamma, dy, n, d, eps, dx, dgamma, dbeta);
}

/* 参数已经查过 */
int attn_layernorm_backward_kernel(const float *x, const float *gamma, const float *dy,
                                   size_t n, size_t d, float eps,
                                   float *dx, float *dgamma, float *dbeta)
{
#line 1699 "book/12-learning.nw"
    /* 附录 D 在这里接手够大的问题 */
#line 1975 "book/D-cpu.nw"
    if (attn_layernorm_backward_fast(x, gamma, dy, n, d, eps, dx, dgamma, dbeta) == ATTN_OK)
        return ATTN_OK;
#line 522 "book/12-learning.nw"
    for (size_t i = 0; i < n; i++) {
        const float *xi = x + i * d, *gi = dy + i * d;
        double mu = 0, var = 0;
        for (size_t j = 0; j < d; j++) mu += xi[j];
        mu /= (double)d;
        for (size_t j = 0; j < d; j++) var += (xi[j] - mu) * (xi[j] - mu);
        double r = 1.0 / sqrt(var / (double)d + eps);
        /* g = dy ⊙ γ；两个平均：mean(g)，mean(g ⊙ x̂) */
        double mg = 0, mgx = 0;
        for (size_t j = 0; j < d; j++) {
            double xh = (xi[j] - mu) * r, g = (double)gi[j] * (gamma ? gamma[j] : 1.0f);
            mg += g;
            mgx += g * xh;
            if (dgamma != NULL) dgamma[j] += (float)(gi[j] * xh);
            if (dbeta != NULL) dbeta[j] += gi[j];
        }
        mg /= (double)d;
        mgx /= (double)d;
        if (dx != NULL)
            for (size_t j = 0; j < d; j++) {
                double xh = (xi[j] - mu) * r;
                double g = (double)gi[j] * (gamma ? gamma[j] : 1.0f);
                dx[i * d + j] = (float)(r * (g - mg - xh * mgx));
            }
    }
    return ATTN_OK;
}
#line 1988 "book/D-cpu.nw"
/* 附录 D：层规范化的反向传播分给几个线程，结果与第 12 章的循环一位不差 */

/* 少于 LN_MANY 个数的问题留给第 12 章的循环；按列分时每件工作 LN_COLS 列 */
enum { LN_MANY = 65536, LN_COLS = 16 };

int attn_layernorm_backward_fast(const float *x, const float *gamma, const float *dy,
                                 size_t n, size_t d, float eps,
                                 float *dx, float *dgamma, float *dbeta)
{
    if ((double)n * (double)d < LN_MANY)
        return -1;
    double *st = malloc(2 * n * sizeof *st);        /* 第 i 行的 μ 和 r：st[2i]、st[2i + 1] */
    if (st == NULL)
        return -1;
    /* 第一遍，按行：μ 和 r */
    ATTN_OMP("omp parallel for schedule(static)")
    for (size_t i = 0; i < n; i++) {
        const float *xi = x + i * d;
        double mu = 0, var = 0;
        for (size_t j = 0; j < d; j++) mu += xi[j];
        mu /= (double)d;
        for (size_t j = 0; j < d; j++) var += (xi[j] - mu) * (xi[j] - mu);
        st[2 * i] = mu;
        st[2 * i + 1] = 1.0 / sqrt(var / (double)d + eps);
    }
    /* 第二遍，按列：dγ、dβ 的每一列只由一个线程、按行的顺序加 */
    if (dgamma != NULL || dbeta != NULL) {
        size_t items = (d + LN_COLS - 1) / LN_COLS;
        ATTN_OMP("omp parallel for schedule(static)")
        for (size_t it = 0; it < items; it++) {
            size_t j0 = it * LN_COLS, j1 = d - j0 < LN_COLS ? d : j0 + LN_COLS;
            for (size_t i = 0; i < n; i++) {
                const float *xi = x + i * d, *gi = dy + i * d;
                double mu = st[2 * i], r = st[2 * i + 1];
                for (size_t j = j0; j < j1; j++) {
                    double xh = (xi[j] - mu) * r;
                    if (dgamma != NULL) dgamma[j] += (float)(gi[j] * xh);
                    if (dbeta != NULL) dbeta[j] += gi[j];
                }
            }
        }
    }
    /* 第三遍，按行：dx（dy 已经读完，dx 就是 dy 也不要紧） */
    if (dx != NULL) {
        ATTN_OMP("omp parallel for schedule(static)")
        for (size_t i = 0; i < n; i++) {
            const float *xi = x + i * d, *gi = dy + i * d;
            double mu = st[2 * i], r = st[2 * i + 1];
            double mg = 0, mgx = 0;
            for (size_t j = 0; j < d; j++) {
                double xh = (xi[j] - mu) * r, g = (double)gi[j] * (gamma ? gamma[j] : 1.0f);
                mg += g;
                mgx += g * xh;
            }
            mg /= (double)d;
            mgx /= (double)d;
            for (size_t j = 0; j < d; j++) {
                double xh = (xi[j] - mu) * r, g = (double)gi[j] * (gamma ? gamma[j] : 1.0f);
                dx[i * d + j] = (float)(r * (g - mg - xh * mgx));
            }
        }
    }
    free(st);
    return ATTN_OK;
}
