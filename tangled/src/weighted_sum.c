#line 334 "book/02-similarity.nw"
/* src/weighted_sum.c — 软查找的后半步：按权重把值向量加起来。 */
#include "attn.h"
#include "internal.h"

int attn_weighted_sum(const float *w, const float *v, size_t n, size_t d, float *out)
{
#line 514 "book/02-similarity.nw"
    size_t bytes;
    if (w == NULL || v == NULL || out == NULL || n == 0 || d == 0)
        return ATTN_EINVAL;
    if (!attn_bytes2(&bytes, n, d))
        return ATTN_EINVAL;
    if (attn_overlap(out, d * sizeof *out, w, n * sizeof *w) ||
        attn_overlap(out, d * sizeof *out, v, bytes))
        return ATTN_EINVAL;
#line 341 "book/02-similarity.nw"
    /* out[d] = w[n] · v[n][d] */
    for (size_t c = 0; c < d; c++)
        out[c] = 0.0f;
    for (size_t j = 0; j < n; j++)
        for (size_t c = 0; c < d; c++)
            out[c] += w[j] * v[j * d + c];
    return ATTN_OK;
}
