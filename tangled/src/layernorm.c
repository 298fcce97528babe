#line 92 "book/11-block.nw"
#include "attn.h"
#include "internal.h"
#line 143 "book/11-block.nw"
/* 附录 D 在这里包含线程要用的头文件 */
#line 1382 "book/D-cpu.nw"
#include "flash_common.h"   /* ATTN_OMP */

#line 96 "book/11-block.nw"
#include <math.h>

int attn_layernorm(const float *x, const float *gamma, const float *beta, float *y,
                   size_t n, size_t d, float eps)
{
#line 1621 "book/11-block.nw"
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
    for (size_t t = 0; t < n * d; t++)
        if (isinf(x[t]))
            return ATTN_EINVAL;
    for (size_t j = 0; j < d; j++)
        if ((gamma != NULL && isinf(gamma[j])) || (beta != NULL && isinf(beta[j])))
            return ATTN_EINVAL;
#line 147 "book/11-block.nw"
    /* 附录 D 在这里把各行分给几个线程 */
#line 1386 "book/D-cpu.nw"
    ATTN_OMP("omp parallel for schedule(static) if(n * d >= 65536)")
#line 103 "book/11-block.nw"
    for (size_t i = 0; i < n; i++) {
        const float *xi = x + i * d;
        float *yi = y + i * d;
#line 118 "book/11-block.nw"
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
#line 132 "book/11-block.nw"
        /* y[j] = (x[j] − mean) · inv · gamma[j] + beta[j] */
        for (size_t j = 0; j < d; j++) {
            double g = gamma != NULL ? gamma[j] : 1.0;
            double b = beta != NULL ? beta[j] : 0.0;
            yi[j] = (float)((xi[j] - mean) * inv * g + b);
        }
#line 108 "book/11-block.nw"
    }
    return ATTN_OK;
}
