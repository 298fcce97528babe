#line 235 "book/04-scaling.nw"
#include "attn.h"
#include "internal.h"

int attn_softmax_jacobian(const float *p, size_t n, float *jac)
{
#line 424 "book/04-scaling.nw"
    size_t bytes;
    if (p == NULL || jac == NULL || n == 0 || !attn_bytes2(&bytes, n, n) ||
        attn_overlap(jac, bytes, p, n * sizeof *p))
        return ATTN_EINVAL;
#line 241 "book/04-scaling.nw"
    /* jac[n][n] = diag(p) − pᵀ·p */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            jac[i * n + j] = (i == j ? p[i] : 0.0f) - p[i] * p[j];
    return ATTN_OK;
}
