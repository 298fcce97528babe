#line 921 "book/06-cross.nw"
/* exercises/answers/ch06-cross.c — 练习 6 的参考答案 */
#include "attn.h"
#include "ex.h"

#include <stdlib.h>

int ch06_cross_attention(const float *x_tgt, size_t n_q, const float *x_src, size_t n_k,
                         size_t n_valid, const float *w_q, const float *w_k, const float *w_v,
                         size_t d_model, size_t d_k, size_t d_v, float *out)
{
    if (n_q == 0 || n_k == 0 || n_q > 4096 || n_k > 4096 || d_k > 4096 || d_v > 4096)
        return ATTN_EINVAL;
    float *q = malloc((n_q * d_k + n_k * d_k + n_k * d_v) * sizeof *q);
    unsigned char *mask = malloc(n_q * n_k);
    int status = q == NULL || mask == NULL ? ATTN_ENOMEM : ATTN_OK;
    float *k = q + n_q * d_k, *v = k + n_k * d_k;
    if (status == ATTN_OK)
        status = attn_padding_mask(n_q, n_k, n_valid, mask);
    if (status == ATTN_OK)
        status = attn_linear(x_tgt, w_q, NULL, q, n_q, d_model, d_k);   /* Q 来自译文 */
    if (status == ATTN_OK)
        status = attn_linear(x_src, w_k, NULL, k, n_k, d_model, d_k);   /* K、V 来自源句 */
    if (status == ATTN_OK)
        status = attn_linear(x_src, w_v, NULL, v, n_k, d_model, d_v);
    if (status == ATTN_OK)
        status = attn_sdpa(q, k, v, n_q, n_k, d_k, d_v, 0.0f, mask, 0, out, NULL);
    free(mask);
    free(q);
    return status;
}
