#line 1495 "book/10-position.nw"
/* exercises/answers/ch10-rope-mha.c — 练习 5 的参考答案 */
#include "attn.h"
#include "ex.h"

#include <stdlib.h>

int ch10_rope_attention(const float *q, const float *k, const float *v, size_t n,
                        size_t n_heads, size_t d_head, float *out)
{
    if (n == 0 || n > 4096 || n_heads == 0 || d_head == 0 || d_head > 4096)
        return ATTN_EINVAL;
    size_t dc = n_heads * d_head;
    float *buf = malloc(4 * n * d_head * sizeof *buf);
    if (buf == NULL)
        return ATTN_ENOMEM;
    float *qh = buf, *kh = qh + n * d_head, *vh = kh + n * d_head, *oh = vh + n * d_head;
    int status = ATTN_OK;
    for (size_t h = 0; h < n_heads && status == ATTN_OK; h++) {
        for (size_t i = 0; i < n; i++)
            for (size_t c = 0; c < d_head; c++) {
                qh[i * d_head + c] = q[i * dc + h * d_head + c];
                kh[i * d_head + c] = k[i * dc + h * d_head + c];
                vh[i * d_head + c] = v[i * dc + h * d_head + c];
            }
        status = attn_rope(qh, n, d_head, 0, 0.0f);
        if (status == ATTN_OK)
            status = attn_rope(kh, n, d_head, 0, 0.0f);
        if (status == ATTN_OK)
            status = attn_sdpa(qh, kh, vh, n, n, d_head, d_head, 0.0f, NULL, 1, oh, NULL);
        for (size_t i = 0; i < n && status == ATTN_OK; i++)
            for (size_t c = 0; c < d_head; c++)
                out[i * dc + h * d_head + c] = oh[i * d_head + c];
    }
    free(buf);
    return status;
}
