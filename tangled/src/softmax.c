#line 41 "book/03-attention.nw"
#include "attn.h"
#include "internal.h"

#include <math.h>

int attn_softmax(float *x, size_t n)
{
    size_t bytes;
    if (x == NULL || n == 0 || !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
#line 62 "book/03-attention.nw"
    float m = -INFINITY;
    int has_nan = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]))
            has_nan = 1;
        else if (x[i] > m)
            m = x[i];
    }
#line 79 "book/03-attention.nw"
    if (has_nan) {
        for (size_t i = 0; i < n; i++)
            x[i] = NAN;
        return ATTN_OK;
    }
#line 90 "book/03-attention.nw"
    if (m == INFINITY) {
        size_t count = 0;
        for (size_t i = 0; i < n; i++)
            count += x[i] == INFINITY;
        for (size_t i = 0; i < n; i++)
            x[i] = x[i] == INFINITY ? 1.0f / (float)count : 0.0f;
        return ATTN_OK;
    }
#line 105 "book/03-attention.nw"
    if (m == -INFINITY) {
        for (size_t i = 0; i < n; i++)
            x[i] = 0.0f;
        return ATTN_OK;
    }
#line 115 "book/03-attention.nw"
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        x[i] = expf(x[i] - m);
        sum += x[i];
    }
#line 125 "book/03-attention.nw"
    float inv = (float)(1.0 / sum);
    for (size_t i = 0; i < n; i++)
        x[i] *= inv;
#line 55 "book/03-attention.nw"
    return ATTN_OK;
}
