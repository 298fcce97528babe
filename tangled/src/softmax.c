#line 41 "book/03-attention.nw"
#include "attn.h"

#include <math.h>

int attn_softmax(float *x, size_t n)
{
    if (x == NULL || n == 0)
        return ATTN_EINVAL;
    
#line 60 "book/03-attention.nw"
float m = -INFINITY;
for (size_t i = 0; i < n; i++)
    if (x[i] > m)
        m = x[i];
#line 50 "book/03-attention.nw"
    
#line 71 "book/03-attention.nw"
if (m == -INFINITY) {
    for (size_t i = 0; i < n; i++)
        x[i] = 0.0f;
    return ATTN_OK;
}
#line 51 "book/03-attention.nw"
    
#line 81 "book/03-attention.nw"
double sum = 0.0;
for (size_t i = 0; i < n; i++) {
    x[i] = expf(x[i] - m);
    sum += x[i];
}
#line 52 "book/03-attention.nw"
    
#line 91 "book/03-attention.nw"
float inv = (float)(1.0 / sum);
for (size_t i = 0; i < n; i++)
    x[i] *= inv;
#line 53 "book/03-attention.nw"
    return ATTN_OK;
}
