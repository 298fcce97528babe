#line 115 "book/D-cpu.nw"
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

#line 695 "book/D-cpu.nw"
/* exp(x)，x <= 0（可以是 -inf），FW 个分量一起算；主体就是 attn_exp_neg 的 ATTN_EXP_CORE */
ATTN_INLINE FTARGET vf FNAME(exp)(vf x)
{
    x = FNAME(max)(x, FNAME(splat)(-87.9f));
    ATTN_EXP_CORE(vf)
    vi bits = (__builtin_convertvector(kf, vi) + 127) << 23;
    return p * (vf)bits;
}
#line 156 "book/D-cpu.nw"
#ifndef ATTN_EXP_POLY
/* exp(x)，x <= 0（可以是 -inf）：逐个分量 */
ATTN_INLINE FTARGET vf FNAME(exp)(vf x)
{
    for (size_t u = 0; u < FW; u++)
        x[u] = attn_exp_neg(x[u]);
    return x;
}
#endif

#line 47 "book/D-cpu.nw"
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
