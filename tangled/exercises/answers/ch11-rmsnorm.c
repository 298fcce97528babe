#line 2716 "book/11-block.nw"
/* exercises/answers/ch11-rmsnorm.c — 练习 7 的参考答案 */
#include "attn.h"
#include "ex.h"

#include <math.h>

int ch11_rmsnorm(const float *x, const float *gain, float *y, size_t n, size_t d, float eps)
{
    if (n == 0 || d == 0 || !(eps > 0.0f))
        return ATTN_EINVAL;
    for (size_t i = 0; i < n; i++) {
        double ss = 0.0;
        for (size_t j = 0; j < d; j++)
            ss += (double)x[i * d + j] * x[i * d + j];
        double r = 1.0 / sqrt(ss / (double)d + eps);
        for (size_t j = 0; j < d; j++)
            y[i * d + j] = (float)(x[i * d + j] * r * gain[j]);
    }
    return ATTN_OK;
}
