#line 1252 "book/02-similarity.nw"
/* exercises/answers/ch02-cosine-all.c — 第 2 章练习 6 的参考答案 */
#include "attn.h"
#include "ex.h"

#include <math.h>

/* 一行的长度 |x|，x 是 d 维 */
static double row_length(const float *x, size_t d)
{
    double s = 0.0;
    for (size_t t = 0; t < d; t++)
        s += (double)x[t] * x[t];
    return sqrt(s);
}

int ch02_cosine_all(const float *a, const float *b, size_t n_a, size_t n_b, size_t d, float *out)
{
    int status = attn_dot_all(a, b, n_a, n_b, d, out);     /* out = a · bᵀ */
    if (status != ATTN_OK)
        return status;
    for (size_t i = 0; i < n_a; i++) {
        double la = row_length(a + i * d, d);
        for (size_t j = 0; j < n_b; j++) {
            double lb = row_length(b + j * d, d);
            if (la == 0.0 || lb == 0.0)
                return ATTN_EINVAL;
            out[i * n_b + j] = (float)(out[i * n_b + j] / (la * lb));
        }
    }
    return ATTN_OK;
}
