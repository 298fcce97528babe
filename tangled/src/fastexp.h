#line 490 "book/09-fast.nw"
/* src/fastexp.h — exp(x)，x <= 0：快速路径的每个分数都要一次。 */
#ifndef ATTN_FASTEXP_H
#define ATTN_FASTEXP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#line 615 "book/09-fast.nw"
/* 附录 D：多项式的 exp，定义 ATTN_EXP_POLY */
#line 643 "book/D-cpu.nw"
#define ATTN_EXP_POLY 1

#line 664 "book/D-cpu.nw"
/* exp 的主体，只写一次：T 是 float 或 FW 个 float 的向量（flash_vec.h）。x 已经夹在 -87.9 以上；
   声明 kf = round(x / ln2)、r = x − kf·ln2（ln2 分高低两位），和 p ≈ exp(r) */
#define ATTN_EXP_CORE(T)                                                          \
    T kf = (x * 1.44269504f + 12582912.0f) - 12582912.0f;                        \
    T r = x - kf * 0.693359375f;                                                 \
    r = r - kf * -2.12194440e-4f;                                                \
    T p = (T){0} + 1.9875691500e-4f;      /* 向量时每个分量都是这个数 */          \
    p = p * r + 1.3981999507e-3f;                                                \
    p = p * r + 8.3334519073e-3f;                                                \
    p = p * r + 4.1665795894e-2f;                                                \
    p = p * r + 1.6666665459e-1f;                                                \
    p = p * r + 5.0000001201e-1f;                                                \
    p = p * r * r + r + 1.0f;

#line 647 "book/D-cpu.nw"
/* exp(x)，只用于 x <= 0（也可以是 -inf，结果是 0）：只用加减乘和移位，循环里能被编译器向量化 */
static inline float attn_exp_neg(float x)
{
#line 657 "book/D-cpu.nw"
    x = x < -87.9f ? -87.9f : x;
#line 651 "book/D-cpu.nw"
    ATTN_EXP_CORE(float)
#line 680 "book/D-cpu.nw"
    uint32_t bits = (uint32_t)((int32_t)kf + 127) << 23;
    float two_k;
    memcpy(&two_k, &bits, sizeof two_k);
    return p * two_k;
#line 653 "book/D-cpu.nw"
}

#line 500 "book/09-fast.nw"
#ifndef ATTN_EXP_POLY
/* exp(x)，只用于 x <= 0（也可以是 -inf，结果是 0） */
static inline float attn_exp_neg(float x)
{
    return expf(x);
}
#endif

#endif
