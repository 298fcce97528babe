#line 775 "book/09-fast.nw"
/* src/fastexp.h — 只用加减乘和移位的 exp，循环里能被编译器向量化。 */
#ifndef ATTN_FASTEXP_H
#define ATTN_FASTEXP_H

#include <stdint.h>
#include <string.h>

/* exp(x)，只用于 x <= 0（也可以是 -inf，结果是 0）。 */
static inline float attn_exp_neg(float x)
{
#line 795 "book/09-fast.nw"
    x = x < -87.9f ? -87.9f : x;
#line 799 "book/09-fast.nw"
    float kf = (x * 1.44269504f + 12582912.0f) - 12582912.0f;   /* k = round(x / ln2) */
    float r = x - kf * 0.693359375f;                            /* ln2 的高位 */
    r = r - kf * -2.12194440e-4f;                               /* ln2 的低位 */
#line 805 "book/09-fast.nw"
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
#line 815 "book/09-fast.nw"
    uint32_t bits = (uint32_t)((int32_t)kf + 127) << 23;
    float two_k;
    memcpy(&two_k, &bits, sizeof two_k);
    return p * two_k;
#line 789 "book/09-fast.nw"
}

#endif
