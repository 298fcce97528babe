#line 1409 "book/D-cpu.nw"
/* src/layernorm_fast.c — 层规范化的反向传播分给几个线程，结果与第 12 章的循环一位不差。 */
#include "attn.h"
#include "linear_fast.h"
#include "flash_common.h"   /* ATTN_OMP */

#include <math.h>
#include <stdlib.h>
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF    /* 和第 12 章一样：不合成 FMA */
#endif

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
