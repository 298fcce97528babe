#line 1269 "book/01-mlp.nw"
/* exercises/answers/ch01-torch-linear.c — 第 1 章练习 6 的参考答案 */
#include "attn.h"
#include "ex.h"

int ch01_torch_linear(const float *x, const float *weight, const float *bias, float *y,
                      size_t n, size_t d_in, size_t d_out)
{
    /* y[i][o] = Σ_t x[i][t] · weight[o][t] + bias[o] */
    for (size_t i = 0; i < n; i++)
        for (size_t o = 0; o < d_out; o++) {
            float acc = bias ? bias[o] : 0.0f;
            for (size_t t = 0; t < d_in; t++)
                acc += x[i * d_in + t] * weight[o * d_in + t];
            y[i * d_out + o] = acc;
        }
    return ATTN_OK;
}
