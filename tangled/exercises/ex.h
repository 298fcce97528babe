#line 618 "book/C-programs.nw"
/* exercises/ex.h — 动手写的练习：检查函数的返回值和共用的小工具。 */
#ifndef ATTN_EX_H
#define ATTN_EX_H

#include "attn.h"

#include <math.h>
#include <stddef.h>

#define EX_PASS 0      /* 检查通过 */
#define EX_FAIL 1      /* 有一组输入的结果不对 */
#define EX_TODO (-77)  /* 读者的函数还没有写（骨架原样返回它） */

/* a[n] 与 b[n] 逐个比较的最大绝对差；有一个是 NaN 或无穷大时返回 INFINITY。 */
static inline float ex_max_diff(const float *a, const float *b, size_t n)
{
    float worst = 0.0f;
    for (size_t i = 0; i < n; i++) {
        float d = fabsf(a[i] - b[i]);
        if (!isfinite(d))
            return INFINITY;
        if (d > worst)
            worst = d;
    }
    return worst;
}

/* x[n] 填入标准正态随机数；同一个种子给出同一串数（第 3 章的 attn_rng）。 */
static inline void ex_fill_normal(float *x, size_t n, unsigned long long seed)
{
    attn_rng r;
    attn_rng_seed(&r, seed);
    attn_rng_normal(&r, x, n);
}

#endif
