#line 3857 "book/12-learning.nw"
/* exercises/answers/ch12-gelu-backward.c — 练习 6 的参考答案 */
#include "attn.h"
#include "ex.h"

#include <math.h>

int ch12_gelu_backward(const float *x, const float *dy, float *dx, size_t n)
{
    if (n == 0)
        return ATTN_EINVAL;
    const double c = 0.79788456080286535588;     /* sqrt(2/π) */
    for (size_t i = 0; i < n; i++) {
        double t = x[i];
        double u = c * (t + 0.044715 * t * t * t);
        double sg = 1.0 / (1.0 + exp(-2.0 * u));  /* (1 + tanh u)/2 */
        double g = sg + 2.0 * t * sg * (1.0 - sg) * c * (1.0 + 3.0 * 0.044715 * t * t);
        dx[i] = (float)(dy[i] * g);
    }
    return ATTN_OK;
}
