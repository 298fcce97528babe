#line 302 "book/04-scaling.nw"
/* 图 4.2 的数据：d_k，不缩放的平均最大权重与熵，缩放后的平均最大权重与熵。 */
#include "attn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#line 225 "book/04-scaling.nw"
/* H = -Σ_j p[j]·ln p[j]，单位是奈特（nat） */
static double row_entropy(const float *p, size_t n)
{
    double h = 0.0;
    for (size_t j = 0; j < n; j++)
        if (p[j] > 0.0f)
            h -= (double)p[j] * log((double)p[j]);
    return h;
}
#line 240 "book/04-scaling.nw"
/* trials 次：随机 q[1×d_k]、k[n_k×d_k]，用 attn_sdpa 算出 w[1×n_k]，
   累计最大权重和熵，最后取平均。 */
static int pattern_sharpness(attn_rng *r, size_t d_k, size_t n_k, size_t trials,
                             float scale, double *max_w, double *entropy)
{
    int status = ATTN_ENOMEM;
    float *q = malloc(d_k * sizeof *q), *k = malloc(n_k * d_k * sizeof *k);
    float *v = calloc(n_k, sizeof *v), *w = malloc(n_k * sizeof *w), out;
    *max_w = 0.0;
    *entropy = 0.0;
    if (q == NULL || k == NULL || v == NULL || w == NULL)
        goto done;
    for (size_t s = 0; s < trials; s++) {
        attn_rng_normal(r, q, d_k);
        attn_rng_normal(r, k, n_k * d_k);
        status = attn_sdpa(q, k, v, 1, n_k, d_k, 1, scale, NULL, 0, &out, w);
        if (status != ATTN_OK)
            goto done;
        float m = 0.0f;
        for (size_t j = 0; j < n_k; j++)
            if (w[j] > m)
                m = w[j];
        *max_w += m / (double)trials;
        *entropy += row_entropy(w, n_k) / (double)trials;
    }
    status = ATTN_OK;
done:
    free(q);
    free(k);
    free(v);
    free(w);
    return status;
}

#line 312 "book/04-scaling.nw"
int main(void)
{
    for (size_t d = 1; d <= 1024; d *= 2) {
        double m_raw, h_raw, m_s, h_s;
        attn_rng r;
        attn_rng_seed(&r, d);
        if (pattern_sharpness(&r, d, 64, 200, 1.0f, &m_raw, &h_raw) != ATTN_OK)
            return 1;
        attn_rng_seed(&r, d);
        if (pattern_sharpness(&r, d, 64, 200, 0.0f, &m_s, &h_s) != ATTN_OK)
            return 1;
        printf("%zu %.6f %.6f %.6f %.6f\n", d, m_raw, h_raw, m_s, h_s);
    }
    return 0;
}
