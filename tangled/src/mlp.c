#line 10 "book/01-mlp.nw"
#include "attn.h"

int attn_relu(float *x, size_t n)
{
    if (x == NULL || n == 0)
        return ATTN_EINVAL;
    for (size_t i = 0; i < n; i++)
        
#line 23 "book/01-mlp.nw"
if (x[i] < 0.0f)
    x[i] = 0.0f;
#line 18 "book/01-mlp.nw"
    return ATTN_OK;
}
