#line 2051 "book/03-attention.nw"
/* exercises/answers/ch03-self-attention.c — 第 3 章练习 6 的参考答案 */
#include "attn.h"
#include "ex.h"

#include <stdlib.h>

int ch03_self_attention(const float *x, const float *w_q, const float *w_k, const float *w_v,
                        size_t n, size_t d_model, size_t d_k, size_t d_v, float *out)
{
    if (n == 0 || d_k == 0 || d_v == 0 || n > 4096 || d_k > 4096 || d_v > 4096)
        return ATTN_EINVAL;
    float *q = malloc((2 * n * d_k + n * d_v) * sizeof *q);   /* q[n][d_k] k[n][d_k] v[n][d_v] */
    if (q == NULL)
        return ATTN_ENOMEM;
    float *k = q + n * d_k, *v = k + n * d_k;
    int status = attn_linear(x, w_q, NULL, q, n, d_model, d_k);
    if (status == ATTN_OK)
        status = attn_linear(x, w_k, NULL, k, n, d_model, d_k);
    if (status == ATTN_OK)
        status = attn_linear(x, w_v, NULL, v, n, d_model, d_v);
    if (status == ATTN_OK)
        status = attn_sdpa(q, k, v, n, n, d_k, d_v, 0.0f, NULL, 0, out, NULL);
    free(q);
    return status;
}
