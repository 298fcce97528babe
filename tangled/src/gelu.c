#line 211 "book/11-block.nw"
#include "attn.h"
#include "internal.h"
#line 248 "book/11-block.nw"
/* 附录 D 在这里包含线程要用的头文件 */
#line 1355 "book/D-cpu.nw"
#include "flash_common.h"   /* ATTN_OMP */

#line 215 "book/11-block.nw"
#include <math.h>
#include <stdlib.h>

int attn_gelu(float *x, size_t n)
{
    size_t bytes;
    if (x == NULL || n == 0 || !attn_bytes1(&bytes, n))   /* n 个 float 的字节数装得进 size_t */
        return ATTN_EINVAL;
    const double c = 0.79788456080286535588;   /* sqrt(2/π) */
#line 252 "book/11-block.nw"
    /* 附录 D 在这里把各个数分给几个线程 */
#line 1359 "book/D-cpu.nw"
    ATTN_OMP("omp parallel for schedule(static) if(n >= 16384)")
#line 225 "book/11-block.nw"
    for (size_t i = 0; i < n; i++) {
        double t = x[i];
#line 238 "book/11-block.nw"
        if (isinf(t) && t < 0.0) {
            x[i] = 0.0f;
            continue;
        }
#line 228 "book/11-block.nw"
        double u = c * (t + 0.044715 * t * t * t);
        x[i] = (float)(t / (1.0 + exp(-2.0 * u)));
    }
    return ATTN_OK;
}

#line 277 "book/11-block.nw"
int attn_ffn_gelu(const float *x, size_t n, size_t d_in,
                  const float *w1, const float *b1, size_t d_hidden,
                  const float *w2, const float *b2, size_t d_out, float *y)
{
#line 1642 "book/11-block.nw"
    size_t bytes;
    if (x == NULL || w1 == NULL || w2 == NULL || y == NULL)
        return ATTN_EINVAL;
    if (n == 0 || d_in == 0 || d_hidden == 0 || d_out == 0 ||
        !attn_bytes2(&bytes, n, d_in) || !attn_bytes2(&bytes, d_in, d_hidden) ||
        !attn_bytes2(&bytes, n, d_hidden) || !attn_bytes2(&bytes, d_hidden, d_out) ||
        !attn_bytes2(&bytes, n, d_out))
        return ATTN_EINVAL;
#line 282 "book/11-block.nw"
    float *h = malloc(n * d_hidden * sizeof(float));   /* h[n][d_hidden] */
    if (h == NULL)
        return ATTN_ENOMEM;
    int status = attn_linear(x, w1, b1, h, n, d_in, d_hidden);
    if (status == ATTN_OK)
        status = attn_gelu(h, n * d_hidden);
    if (status == ATTN_OK)
        status = attn_linear(h, w2, b2, y, n, d_hidden, d_out);
    free(h);
    return status;
}
