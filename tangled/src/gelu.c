#line 216 "book/11-block.nw"
#include "attn.h"
#include "internal.h"
#line 1775 "book/11-block.nw"
/* 附录 D 在这里包含线程要用的头文件 */
#line 1925 "book/D-cpu.nw"
#include "flash_common.h"   /* ATTN_OMP */

#line 220 "book/11-block.nw"
#include <math.h>
#include <stdlib.h>

int attn_gelu(float *x, size_t n)
{
#line 1750 "book/11-block.nw"
    size_t bytes;
    if (x == NULL || n == 0 || !attn_bytes1(&bytes, n))   /* n 个 float 的字节数装得进 size_t */
        return ATTN_EINVAL;
#line 226 "book/11-block.nw"
    attn_gelu_kernel(x, n);
    return ATTN_OK;
}

void attn_gelu_kernel(float *x, size_t n)
{
    const double c = 0.79788456080286535588;   /* sqrt(2/π) */
#line 1779 "book/11-block.nw"
    /* 附录 D 在这里把各个数分给几个线程 */
#line 1929 "book/D-cpu.nw"
    ATTN_OMP("omp parallel for schedule(static) if(n >= 16384)")
#line 234 "book/11-block.nw"
    for (size_t i = 0; i < n; i++) {
        double t = x[i];
#line 1756 "book/11-block.nw"
        if (isinf(t) && t < 0.0) {
            x[i] = 0.0f;
            continue;
        }
#line 237 "book/11-block.nw"
        double u = c * (t + 0.044715 * t * t * t);
        x[i] = (float)(t / (1.0 + exp(-2.0 * u)));
    }
}

#line 271 "book/11-block.nw"
int attn_ffn_gelu(const float *x, size_t n, size_t d_in,
                  const float *w1, const float *b1, size_t d_hidden,
                  const float *w2, const float *b2, size_t d_out, float *y)
{
    return attn_ffn_with(x, n, d_in, w1, b1, d_hidden, w2, b2, d_out, y, attn_gelu);
}
#line 1553 "book/12-learning.nw"
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF    /* 见“同样的种子，同样的位”一节 */
#endif
#line 571 "book/12-learning.nw"
/* gelu'(x) = σ + 2x·σ(1−σ)·c·(1 + 3·0.044715·x²)，
   σ = 1/(1 + e^(−2u))，u = c·(x + 0.044715·x³) */
static double gelu_slope(double x)
{
#line 1272 "book/12-learning.nw"
    if (isinf(x))
        return x > 0 ? 1.0 : 0.0;
#line 576 "book/12-learning.nw"
    const double c = 0.79788456080286535588;     /* sqrt(2/π) */
    double u = c * (x + 0.044715 * x * x * x);
    double sg = 1.0 / (1.0 + exp(-2.0 * u));
    return sg + 2.0 * x * sg * (1.0 - sg) * c * (1.0 + 3.0 * 0.044715 * x * x);
}

int attn_gelu_backward(const float *x, const float *dy, float *dx, size_t n)
{
#line 1300 "book/12-learning.nw"
    size_t bytes;
    if (x == NULL || dy == NULL || dx == NULL || n == 0 || !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
    if (attn_overlap(dx, bytes, x, bytes) || (dx != dy && attn_overlap(dx, bytes, dy, bytes)))
        return ATTN_EINVAL;
#line 585 "book/12-learning.nw"
    attn_gelu_backward_kernel(x, dy, dx, n);
    return ATTN_OK;
}

/* 参数已经查过 */
void attn_gelu_backward_kernel(const float *x, const float *dy, float *dx, size_t n)
{
#line 1703 "book/12-learning.nw"
    /* 附录 D 在这里把各个数分给几个线程 */
#line 1933 "book/D-cpu.nw"
    ATTN_OMP("omp parallel for schedule(static) if(n >= 16384)")
#line 593 "book/12-learning.nw"
    for (size_t i = 0; i < n; i++)
        dx[i] = (float)((double)dy[i] * gelu_slope(x[i]));
}
