#line 47 "book/01-mlp.nw"
#include "attn.h"
#include "internal.h"

#line 89 "book/01-mlp.nw"
/* m×k、k×n、m×n 三个矩阵的尺寸都合法时返回 1 */
static int attn_shapes_ok(size_t m, size_t k, size_t n)
{
    return m != 0 && k != 0 && n != 0 &&
           attn_floats_fit(m, k) && attn_floats_fit(k, n) && attn_floats_fit(m, n);
}

#line 52 "book/01-mlp.nw"
int attn_matmul(const float *a, const float *b, float *c, size_t m, size_t k, size_t n)
{
    if (a == NULL || b == NULL || c == NULL || !attn_shapes_ok(m, k, n))
        return ATTN_EINVAL;
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
    int status = attn_matmul(x, w, y, n, d_in, d_out);
    if (status != ATTN_OK || bias == NULL)
        return status;
    /* y[i][j] += bias[j]，对每一行 i */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d_out; j++)
            y[i * d_out + j] += bias[j];
    return ATTN_OK;
}
