#line 227 "book/09-fast.nw"
/* src/flash_vec.h — 一种向量宽度的基本运算和寄存器块。没有包含保护：
   由 src/flash_widths.h 经 FLASH_BODY 按每种宽度包含一次。 */
#include "fastexp.h"

#define vf FNAME(vf)
#define vi FNAME(vi)
typedef float vf __attribute__((vector_size(FW * sizeof(float))));
typedef int32_t vi __attribute__((vector_size(FW * sizeof(float))));

ATTN_INLINE FTARGET vf FNAME(load)(const float *p)
{
    vf x;
    memcpy(&x, p, sizeof x);
    return x;
}

ATTN_INLINE FTARGET void FNAME(store)(float *p, vf x)
{
    memcpy(p, &x, sizeof x);
}

ATTN_INLINE FTARGET vf FNAME(splat)(float x)
{
    vf zero = {0};
    return zero + x;
}

/* 逐个分量取较大者：比较得到的 -1/0 当作位掩码，挑出 a 或 b */
ATTN_INLINE FTARGET vf FNAME(max)(vf a, vf b)
{
    vi gt = a > b;
    return (vf)((gt & (vi)a) | (~gt & (vi)b));
}

#line 693 "book/09-fast.nw"
/* 附录 D：FW 个分量一起算的多项式 exp */
#line 208 "book/D-cpu.nw"
/* exp(x)，x <= 0（可以是 -inf），FW 个分量一起算；算法与 attn_exp_neg 相同 */
ATTN_INLINE FTARGET vf FNAME(exp)(vf x)
{
    x = FNAME(max)(x, FNAME(splat)(-87.9f));
    vf kf = (x * 1.44269504f + 12582912.0f) - 12582912.0f;
    vf r = x - kf * 0.693359375f;
    r = r - kf * -2.12194440e-4f;
    vf p = FNAME(splat)(1.9875691500e-4f);
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    vi bits = (__builtin_convertvector(kf, vi) + 127) << 23;
    return p * (vf)bits;
}
#line 681 "book/09-fast.nw"
#ifndef ATTN_EXP_POLY
/* exp(x)，x <= 0（可以是 -inf）：逐个分量 */
ATTN_INLINE FTARGET vf FNAME(exp)(vf x)
{
    for (size_t u = 0; u < FW; u++)
        x[u] = attn_exp_neg(x[u]);
    return x;
}
#endif

#line 154 "book/09-fast.nw"
/* c[FR][2·FW] (+)= a[FR][kdim] · b[kdim][2·FW]：
   a 的第 r 行第 t 个数在 a[r·ars + t·ats]，b 的第 t 行从 b + t·ldb 开始，c 的第 r 行从 c + r·ldc 开始 */
ATTN_INLINE FTARGET void FNAME(tile)(const float *a, size_t ars, size_t ats,
                                     const float *b, size_t ldb,
                                     float *c, size_t ldc, size_t kdim, int add)
{
    vf acc[FR][2];
    for (size_t r = 0; r < FR; r++) {
        acc[r][0] = add ? FNAME(load)(c + r * ldc) : FNAME(splat)(0.0f);
        acc[r][1] = add ? FNAME(load)(c + r * ldc + FW) : FNAME(splat)(0.0f);
    }
    for (size_t t = 0; t < kdim; t++) {
        vf b0 = FNAME(load)(b + t * ldb), b1 = FNAME(load)(b + t * ldb + FW);
        for (size_t r = 0; r < FR; r++) {
            float ar = a[r * ars + t * ats];
            acc[r][0] += ar * b0;
            acc[r][1] += ar * b1;
        }
    }
    for (size_t r = 0; r < FR; r++) {
        FNAME(store)(c + r * ldc, acc[r][0]);
        FNAME(store)(c + r * ldc + FW, acc[r][1]);
    }
}
