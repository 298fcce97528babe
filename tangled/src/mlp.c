#line 143 "book/01-mlp.nw"
#include "attn.h"
#include "internal.h"

#include <stdlib.h>

int attn_relu(float *x, size_t n)
{
#line 484 "book/01-mlp.nw"
    size_t bytes;
    if (x == NULL || n == 0 || !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
#line 151 "book/01-mlp.nw"
    for (size_t i = 0; i < n; i++)
#line 160 "book/01-mlp.nw"
        if (x[i] < 0.0f)
            x[i] = 0.0f;
#line 153 "book/01-mlp.nw"
    return ATTN_OK;
}

#line 229 "book/01-mlp.nw"
int attn_ffn(const float *x, size_t n, size_t d_in,
             const float *w1, const float *b1, size_t d_hidden,
             const float *w2, const float *b2, size_t d_out, float *y)
{
    return attn_ffn_with(x, n, d_in, w1, b1, d_hidden, w2, b2, d_out, y, attn_relu);
}

/* 同上，激活函数 act 由调用者给（第 11 章换成 GELU） */
int attn_ffn_with(const float *x, size_t n, size_t d_in,
                  const float *w1, const float *b1, size_t d_hidden,
                  const float *w2, const float *b2, size_t d_out, float *y,
                  int (*act)(float *, size_t))
{
#line 493 "book/01-mlp.nw"
    size_t bytes;
    if (x == NULL || w1 == NULL || w2 == NULL || y == NULL)
        return ATTN_EINVAL;
    if (n == 0 || d_in == 0 || d_hidden == 0 || d_out == 0 ||
        !attn_bytes2(&bytes, n, d_in) || !attn_bytes2(&bytes, d_in, d_hidden) ||
        !attn_bytes2(&bytes, n, d_hidden) || !attn_bytes2(&bytes, d_hidden, d_out) ||
        !attn_bytes2(&bytes, n, d_out))
        return ATTN_EINVAL;
#line 243 "book/01-mlp.nw"
    float *h = malloc(n * d_hidden * sizeof *h);   /* h[n][d_hidden] */
#line 504 "book/01-mlp.nw"
    if (h == NULL)
        return ATTN_ENOMEM;
#line 245 "book/01-mlp.nw"
    int status = attn_linear(x, w1, b1, h, n, d_in, d_hidden);
    if (status == ATTN_OK)
        status = act(h, n * d_hidden);
    if (status == ATTN_OK)
        status = attn_linear(h, w2, b2, y, n, d_hidden, d_out);
    free(h);
    return status;
}
