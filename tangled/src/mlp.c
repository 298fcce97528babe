#line 154 "book/01-mlp.nw"
#include "attn.h"
#include "internal.h"

#include <stdlib.h>

int attn_relu(float *x, size_t n)
{
    size_t bytes;
    if (x == NULL || n == 0 || !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
    for (size_t i = 0; i < n; i++)
#line 173 "book/01-mlp.nw"
        if (x[i] < 0.0f)
            x[i] = 0.0f;
#line 166 "book/01-mlp.nw"
    return ATTN_OK;
}

#line 233 "book/01-mlp.nw"
int attn_ffn(const float *x, size_t n, size_t d_in,
             const float *w1, const float *b1, size_t d_hidden,
             const float *w2, const float *b2, size_t d_out, float *y)
{
    size_t bytes, h_bytes;
    if (x == NULL || w1 == NULL || w2 == NULL || y == NULL)
        return ATTN_EINVAL;
    /* 两层用到的五个矩阵，字节数都要合法，而且要在分配之前就查清 */
    if (n == 0 || d_in == 0 || d_hidden == 0 || d_out == 0 ||
        !attn_bytes2(&bytes, n, d_in) || !attn_bytes2(&bytes, d_in, d_hidden) ||
        !attn_bytes2(&h_bytes, n, d_hidden) || !attn_bytes2(&bytes, d_hidden, d_out) ||
        !attn_bytes2(&bytes, n, d_out))
        return ATTN_EINVAL;
    float *h = malloc(h_bytes);   /* h[n][d_hidden] */
    if (h == NULL)
        return ATTN_ENOMEM;
    int status = attn_linear(x, w1, b1, h, n, d_in, d_hidden);
    if (status == ATTN_OK)
        status = attn_relu(h, n * d_hidden);
    if (status == ATTN_OK)
        status = attn_linear(h, w2, b2, y, n, d_hidden, d_out);
    free(h);
    return status;
}
