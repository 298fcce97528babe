#line 399 "book/03-attention.nw"
#include "attn.h"
#include "internal.h"
#include "mask.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

int attn_sdpa_reference(const float *q, const float *k, const float *v,
                        size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                        float scale, const unsigned char *mask, int causal,
                        float *out, float *weights)
{
    
#line 442 "book/03-attention.nw"
if (q == NULL || k == NULL || v == NULL || out == NULL)
    return ATTN_EINVAL;
if (n_q == 0 || n_k == 0 || d_k == 0 || d_v == 0)
    return ATTN_EINVAL;
if (!attn_floats_fit(n_q, d_k) || !attn_floats_fit(n_k, d_k) ||
    !attn_floats_fit(n_k, d_v) || !attn_floats_fit(n_q, d_v) ||
    !attn_floats_fit(n_q, n_k))
    return ATTN_EINVAL;
if (isnan(scale) || scale < 0.0f || isinf(scale))
    return ATTN_EINVAL;
if (scale == 0.0f)
    scale = 1.0f / sqrtf((float)d_k);
#line 413 "book/03-attention.nw"
    
#line 460 "book/03-attention.nw"
float *row = NULL;
if (weights == NULL) {
    row = malloc(n_k * sizeof *row);
    if (row == NULL)
        return ATTN_ENOMEM;
}
#line 414 "book/03-attention.nw"
    for (size_t i = 0; i < n_q; i++) {
        float *p = weights ? weights + i * n_k : row;
        
#line 477 "book/03-attention.nw"
/* p[j] = q[i]·k[j] · scale，看不见的键记为 -inf */
for (size_t j = 0; j < n_k; j++) {
    if (!attn_key_visible(mask, causal, n_q, n_k, i, j)) {
        p[j] = -INFINITY;
        continue;
    }
    double dot = 0.0;
    for (size_t t = 0; t < d_k; t++)
        dot += (double)q[i * d_k + t] * k[j * d_k + t];
    dot *= scale;
    p[j] = dot > FLT_MAX ? FLT_MAX : dot < -FLT_MAX ? -FLT_MAX : (float)dot;
}
#line 417 "book/03-attention.nw"
        attn_softmax(p, n_k);
        
#line 494 "book/03-attention.nw"
/* out[i] = Σ_j p[j] · v[j] */
for (size_t c = 0; c < d_v; c++)
    out[i * d_v + c] = 0.0f;
for (size_t j = 0; j < n_k; j++) {
    if (p[j] == 0.0f)
        continue;
    for (size_t c = 0; c < d_v; c++)
        out[i * d_v + c] += p[j] * v[j * d_v + c];
}
#line 419 "book/03-attention.nw"
    }
    free(row);
    return ATTN_OK;
}

int attn_sdpa(const float *q, const float *k, const float *v,
              size_t n_q, size_t n_k, size_t d_k, size_t d_v,
              float scale, const unsigned char *mask, int causal,
              float *out, float *weights)
{
    
#line 956 "book/09-fast.nw"
return attn_sdpa_fast(q, k, v, n_q, n_k, d_k, d_v, scale, mask, causal, out, weights, 1);
#line 430 "book/03-attention.nw"
}
