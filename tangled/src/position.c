#line 134 "book/10-position.nw"
/* src/position.c — 位置：正弦位置编码与旋转位置编码（RoPE）。 */
#include "attn.h"
#include "internal.h"

#include <float.h>
#include <math.h>

#line 1025 "book/10-position.nw"
/* n、d 不为 0，d 是偶数，n·d 个 float 的字节数装得进 size_t，最后一行的位置 pos0 + n − 1 也装得进 */
static int position_sizes_ok(size_t n, size_t d, size_t pos0)
{
    size_t bytes;
    return n != 0 && d != 0 && d % 2 == 0 && attn_bytes2(&bytes, n, d) &&
           n - 1 <= SIZE_MAX - pos0;
}
#line 173 "book/10-position.nw"
/* ω_j = base^(−2j/d)，j < d/2 */
static double pair_frequency(double base, size_t j, size_t d)
{
    return pow(base, -(double)(2 * j) / (double)d);
}

#line 144 "book/10-position.nw"
int attn_positions_sinusoidal_from(float *pe, size_t n, size_t d, size_t pos0)
{
#line 1037 "book/10-position.nw"
    if (pe == NULL || !position_sizes_ok(n, d, pos0))
        return ATTN_EINVAL;
#line 181 "book/10-position.nw"
    /* 第 i 行在位置 p = pos0 + i：pe[i][2j] = sin(p·ω_j)，pe[i][2j+1] = cos(p·ω_j)；
       i < n，j < d/2 */
    for (size_t j = 0; j < d / 2; j++) {
        double w = pair_frequency(10000.0, j, d);
        for (size_t p = 0; p < n; p++) {
            double a = (double)(pos0 + p) * w;
            pe[p * d + 2 * j] = (float)sin(a);
            pe[p * d + 2 * j + 1] = (float)cos(a);
        }
    }
#line 148 "book/10-position.nw"
    return ATTN_OK;
}

int attn_positions_sinusoidal(float *pe, size_t n, size_t d)
{
    return attn_positions_sinusoidal_from(pe, n, d, 0);
}

#line 1044 "book/10-position.nw"
/* 成功时 *base_used 是实际用的底数 */
static int rope_check(const float *x, size_t n, size_t d, size_t pos0, float base,
                      double *base_used)
{
    if (x == NULL || !position_sizes_ok(n, d, pos0))
        return ATTN_EINVAL;
    if (!(base >= 0.0f) || isinf(base))
        return ATTN_EINVAL;
    *base_used = base == 0.0f ? 10000.0 : (double)base;
#line 1064 "book/10-position.nw"
    const double limit = (double)FLT_MAX * (double)FLT_MAX;
    for (size_t i = 0; i < n * d; i += 2) {
        double a = x[i], b = x[i + 1];
        if (a * a + b * b > limit)
            return ATTN_EINVAL;
    }
#line 1054 "book/10-position.nw"
    return ATTN_OK;
}

#line 158 "book/10-position.nw"
int attn_rope(float *x, size_t n, size_t d, size_t pos0, float base)
{
    double base_used;
    int status = rope_check(x, n, d, pos0, base, &base_used);
    if (status != ATTN_OK)
        return status;
#line 316 "book/10-position.nw"
    /* 第 i 行在位置 pos0 + i，第 j 对转过 t = (pos0 + i)·θ_j：
       (a, b) → (a·cos t − b·sin t, a·sin t + b·cos t) */
    for (size_t j = 0; j < d / 2; j++) {
        double w = pair_frequency(base_used, j, d);
        for (size_t i = 0; i < n; i++) {
            double t = (double)(pos0 + i) * w;
            double cs = cos(t), sn = sin(t);
            float *pair = x + i * d + 2 * j;
            double a = pair[0], b = pair[1];
            pair[0] = (float)(a * cs - b * sn);
            pair[1] = (float)(a * sn + b * cs);
        }
    }
#line 165 "book/10-position.nw"
    return ATTN_OK;
}
