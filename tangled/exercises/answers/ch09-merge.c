#line 2135 "book/09-fast.nw"
/* exercises/answers/ch09-merge.c — 练习 5 的参考答案 */
#include "attn.h"
#include "ex.h"

#include <math.h>

int ch09_merge(float m1, float l1, const float *acc1, float m2, float l2,
               const float *acc2, size_t d, float *m, float *l, float *acc)
{
    if (d == 0)
        return ATTN_EINVAL;
    float mm = m1 > m2 ? m1 : m2;
    if (mm == -INFINITY) {            /* 两段都空 */
        *m = mm;
        *l = 0.0f;
        for (size_t c = 0; c < d; c++)
            acc[c] = 0.0f;
        return ATTN_OK;
    }
    float a1 = expf(m1 - mm), a2 = expf(m2 - mm);    /* 都不大于 1 */
    *m = mm;
    *l = a1 * l1 + a2 * l2;
    for (size_t c = 0; c < d; c++)
        acc[c] = a1 * acc1[c] + a2 * acc2[c];
    return ATTN_OK;
}
