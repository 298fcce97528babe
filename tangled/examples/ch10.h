#line 503 "book/10-position.nw"
/* examples/ch10.h：第 10 章的例子，练习程序和测试共用。 */
#ifndef ATTN_EXAMPLES_CH10_H
#define ATTN_EXAMPLES_CH10_H

#include "attn.h"

#include <math.h>

#line 431 "book/10-position.nw"
/* y[r][:] = x[perm[r]][:]，x、y 都是 n×d */
static inline void permute_rows(const float *x, const size_t *perm, size_t n, size_t d, float *y)
{
    for (size_t r = 0; r < n; r++)
        for (size_t c = 0; c < d; c++)
            y[r * d + c] = x[perm[r] * d + c];
}

static inline double max_abs_diff(const float *a, const float *b, size_t n)
{
    double worst = 0.0;
    for (size_t i = 0; i < n; i++)
        worst = fmax(worst, fabs((double)a[i] - (double)b[i]));
    return worst;
}

/* 把 5 个词的次序换成 3 0 4 1 2 */
enum { PM_N = 5 };
static const size_t pm_perm[PM_N] = {3, 0, 4, 1, 2};
#line 453 "book/10-position.nw"
/* 随机的多头注意力权重：d_model = 8，2 个头，每头 4 维，无偏置 */
enum { PM_D = 8, PM_H = 2, PM_DH = 4 };
struct random_mha {
    float wq[PM_D * PM_D], wk[PM_D * PM_D], wv[PM_D * PM_D], wo[PM_D * PM_D];
    attn_mha_weights w;
};

/* 返回第一个不是 ATTN_OK 的状态 */
static inline int random_mha_init(struct random_mha *m, attn_rng *r)
{
    attn_mha_weights w = {PM_D, PM_H, PM_DH, m->wq, m->wk, m->wv, m->wo,
                          NULL, NULL, NULL, NULL};
    m->w = w;
    int status = attn_rng_normal(r, m->wq, PM_D * PM_D);
    if (status == ATTN_OK)
        status = attn_rng_normal(r, m->wk, PM_D * PM_D);
    if (status == ATTN_OK)
        status = attn_rng_normal(r, m->wv, PM_D * PM_D);
    if (status == ATTN_OK)
        status = attn_rng_normal(r, m->wo, PM_D * PM_D);
    return status;
}

/* *gap = 自注意力 f(P·x) 与 P·f(x) 的最大差值，x 是 5 个词的嵌入 e[5×8]。
   positions 非零时，先按行号加上正弦位置编码：位置编码不跟着词走。返回库的状态。 */
static inline int permutation_gap(const struct random_mha *m, const float *e,
                                  int causal, int positions, double *gap)
{
    float pe[PM_N * PM_D], x[PM_N * PM_D], px[PM_N * PM_D];
    float out[PM_N * PM_D], pout[PM_N * PM_D], out_px[PM_N * PM_D];
    int status = attn_positions_sinusoidal(pe, PM_N, PM_D);
    if (status != ATTN_OK)
        return status;
    permute_rows(e, pm_perm, PM_N, PM_D, px);
    for (size_t i = 0; i < PM_N * PM_D; i++) {
        x[i] = e[i] + (positions ? pe[i] : 0.0f);
        px[i] += positions ? pe[i] : 0.0f;
    }
    status = attn_mha(&m->w, x, PM_N, x, PM_N, NULL, causal, out);
    if (status == ATTN_OK)
        status = attn_mha(&m->w, px, PM_N, px, PM_N, NULL, causal, out_px);
    if (status != ATTN_OK)
        return status;
    permute_rows(out, pm_perm, PM_N, PM_D, pout);
    *gap = max_abs_diff(out_px, pout, PM_N * PM_D);
    return ATTN_OK;
}

#line 513 "book/10-position.nw"
#endif
