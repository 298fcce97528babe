#line 76 "book/03-attention.nw"
#include "attn.h"
#include "internal.h"

#include <math.h>

int attn_softmax(float *x, size_t n)
{
#line 613 "book/03-attention.nw"
    size_t bytes;
    if (x == NULL || n == 0 || !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
#line 93 "book/03-attention.nw"
    /* m = max_i x[i]；NaN 和谁比较都是“假”，不会成为 m */
    float m = -INFINITY;
    for (size_t i = 0; i < n; i++)
        if (x[i] > m)
            m = x[i];
#line 628 "book/03-attention.nw"
    for (size_t i = 0; i < n; i++)
        if (isnan(x[i])) {
            for (size_t j = 0; j < n; j++)
                x[j] = NAN;
            return ATTN_OK;
        }
#line 640 "book/03-attention.nw"
    if (m == INFINITY) {
        size_t count = 0;
        for (size_t i = 0; i < n; i++)
            count += x[i] == INFINITY;
        for (size_t i = 0; i < n; i++)
            x[i] = x[i] == INFINITY ? 1.0f / (float)count : 0.0f;
        return ATTN_OK;
    }
#line 654 "book/03-attention.nw"
    if (m == -INFINITY) {
        for (size_t i = 0; i < n; i++)
            x[i] = 0.0f;
        return ATTN_OK;
    }
#line 103 "book/03-attention.nw"
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        x[i] = expf(x[i] - m);
        sum += x[i];
    }
#line 113 "book/03-attention.nw"
    float inv = (float)(1.0 / sum);
    for (size_t i = 0; i < n; i++)
        x[i] *= inv;
#line 88 "book/03-attention.nw"
    return ATTN_OK;
}
