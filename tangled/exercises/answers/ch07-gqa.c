#line 1493 "book/07-multihead.nw"
/* exercises/answers/ch07-gqa.c — 练习 5 的参考答案 */
#include "attn.h"
#include "ex.h"

#include <stdlib.h>

int ch07_gqa(const float *q, const float *k, const float *v, size_t n, size_t n_heads,
             size_t n_kv_heads, size_t d_head, float *out)
{
    if (n == 0 || n > 4096 || d_head == 0 || d_head > 4096 || n_kv_heads == 0 ||
        n_heads % n_kv_heads != 0)
        return ATTN_EINVAL;
    size_t group = n_heads / n_kv_heads, dq = n_heads * d_head, dkv = n_kv_heads * d_head;
    float *buf = malloc(4 * n * d_head * sizeof *buf);
    if (buf == NULL)
        return ATTN_ENOMEM;
    float *qh = buf, *kh = qh + n * d_head, *vh = kh + n * d_head, *oh = vh + n * d_head;
    int status = ATTN_OK;
    for (size_t h = 0; h < n_heads && status == ATTN_OK; h++) {
        size_t g = h / group;                              /* 这个查询头用的键值头 */
        for (size_t i = 0; i < n; i++)
            for (size_t c = 0; c < d_head; c++) {
                qh[i * d_head + c] = q[i * dq + h * d_head + c];
                kh[i * d_head + c] = k[i * dkv + g * d_head + c];
                vh[i * d_head + c] = v[i * dkv + g * d_head + c];
            }
        status = attn_sdpa(qh, kh, vh, n, n, d_head, d_head, 0.0f, NULL, 1, oh, NULL);
        for (size_t i = 0; i < n && status == ATTN_OK; i++)
            for (size_t c = 0; c < d_head; c++)
                out[i * dq + h * d_head + c] = oh[i * d_head + c];
    }
    free(buf);
    return status;
}
