#line 409 "book/01-mlp.nw"
#include "attn.h"
#include "internal.h"

#line 511 "book/01-mlp.nw"
/* m×k、k×n、m×n 三个矩阵的尺寸都合法时返回 1 */
static int attn_shapes_ok(size_t m, size_t k, size_t n)
{
    size_t bytes;
    return m != 0 && k != 0 && n != 0 &&
           attn_bytes2(&bytes, m, k) && attn_bytes2(&bytes, k, n) && attn_bytes2(&bytes, m, n);
}

#line 446 "book/01-mlp.nw"
/* 第 9 章：分块、多线程的矩阵乘法 */
#line 1001 "book/D-cpu.nw"
#include "matmul_fast.h"

#line 56 "book/01-mlp.nw"
/* c[m][n] = a[m][k] · b[k][n]，按 i、p、j 的顺序，最内层沿行连续访问 */
static void matmul_loops(const float *a, const float *b, float *c,
                         size_t m, size_t k, size_t n)
{
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
}

/* y[i][j] += bias[j]，对每一行 i */
static void add_bias(float *y, const float *bias, size_t n, size_t d_out)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d_out; j++)
            y[i * d_out + j] += bias[j];
}

#line 418 "book/01-mlp.nw"
/* 乘法本身，参数已经查过（第 11 章的模型直接调用它） */
int attn_matmul_kernel(const float *a, const float *b, float *c, size_t m, size_t k, size_t n)
{
#line 450 "book/01-mlp.nw"
    /* 第 9 章在这里接手大的矩阵乘法 */
#line 1005 "book/D-cpu.nw"
    if (attn_matmul_fast(a, b, c, m, k, n) == ATTN_OK)
        return ATTN_OK;
#line 422 "book/01-mlp.nw"
    matmul_loops(a, b, c, m, k, n);
    return ATTN_OK;
}

int attn_matmul(const float *a, const float *b, float *c, size_t m, size_t k, size_t n)
{
#line 464 "book/01-mlp.nw"
    if (a == NULL || b == NULL || c == NULL || !attn_shapes_ok(m, k, n))
        return ATTN_EINVAL;
    /* 一边写 c 一边还要读 a、b：重叠就会读到刚写下的数 */
    if (attn_overlap(c, m * n * sizeof *c, a, m * k * sizeof *a) ||
        attn_overlap(c, m * n * sizeof *c, b, k * n * sizeof *b))
        return ATTN_EINVAL;
#line 429 "book/01-mlp.nw"
    return attn_matmul_kernel(a, b, c, m, k, n);
}

int attn_linear(const float *x, const float *w, const float *bias, float *y,
                size_t n, size_t d_in, size_t d_out)
{
#line 476 "book/01-mlp.nw"
    if (y != NULL && attn_shapes_ok(n, d_in, d_out) &&
        attn_overlap(y, n * d_out * sizeof *y, bias, d_out * sizeof *bias))
        return ATTN_EINVAL;
#line 436 "book/01-mlp.nw"
    int status = attn_matmul(x, w, y, n, d_in, d_out);
    if (status == ATTN_OK && bias != NULL)
        add_bias(y, bias, n, d_out);
    return status;
}
