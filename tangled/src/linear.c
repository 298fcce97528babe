#line 49 "book/01-mlp.nw"
#include "attn.h"
#include "internal.h"

#line 405 "book/01-mlp.nw"
/* m×k、k×n、m×n 三个矩阵的尺寸都合法时返回 1 */
static int attn_shapes_ok(size_t m, size_t k, size_t n)
{
    size_t bytes;
    return m != 0 && k != 0 && n != 0 &&
           attn_bytes2(&bytes, m, k) && attn_bytes2(&bytes, k, n) && attn_bytes2(&bytes, m, n);
}

#line 97 "book/01-mlp.nw"
/* 第 9 章：分块、多线程的矩阵乘法 */
#line 434 "book/D-cpu.nw"
int attn_matmul_fast(const float *a, const float *b, float *c, size_t m, size_t k, size_t n);
#line 694 "book/D-cpu.nw"
#include "linear_fast.h"

#line 56 "book/01-mlp.nw"
int attn_matmul(const float *a, const float *b, float *c, size_t m, size_t k, size_t n)
{
#line 386 "book/01-mlp.nw"
    if (a == NULL || b == NULL || c == NULL || !attn_shapes_ok(m, k, n))
        return ATTN_EINVAL;
    /* 一边写 c 一边还要读 a、b：重叠就会读到刚写下的数 */
    if (attn_overlap(c, m * n * sizeof *c, a, m * k * sizeof *a) ||
        attn_overlap(c, m * n * sizeof *c, b, k * n * sizeof *b))
        return ATTN_EINVAL;
#line 101 "book/01-mlp.nw"
    /* 第 9 章在这里接手大的矩阵乘法 */
#line 438 "book/D-cpu.nw"
    if (attn_matmul_fast(a, b, c, m, k, n) == ATTN_OK)
        return ATTN_OK;
#line 698 "book/D-cpu.nw"
    if (attn_matmul_small(a, b, c, m, k, n) == ATTN_OK)
        return ATTN_OK;
#line 60 "book/01-mlp.nw"
    /* c[m][n] = a[m][k] · b[k][n]，按 i、p、j 的顺序，最内层沿行连续访问 */
    for (size_t i = 0; i < m; i++) {
        float *ci = c + i * n;
        for (size_t j = 0; j < n; j++)
            ci[j] = 0.0f;
        for (size_t p = 0; p < k; p++) {
            float aip = a[i * k + p];
            const float *bp = b + p * n;
            for (size_t j = 0; j < n; j++)
                ci[j] += aip * bp[j];
        }
    }
    return ATTN_OK;
}

int attn_linear(const float *x, const float *w, const float *bias, float *y,
                size_t n, size_t d_in, size_t d_out)
{
#line 397 "book/01-mlp.nw"
    if (y != NULL && attn_shapes_ok(n, d_in, d_out) &&
        attn_overlap(y, n * d_out * sizeof *y, bias, d_out * sizeof *bias))
        return ATTN_EINVAL;
#line 79 "book/01-mlp.nw"
    int status = attn_matmul(x, w, y, n, d_in, d_out);
    if (status != ATTN_OK || bias == NULL)
        return status;
    /* y[i][j] += bias[j]，对每一行 i */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d_out; j++)
            y[i * d_out + j] += bias[j];
    return ATTN_OK;
}
