#line 589 "book/08-params.nw"
/* src/checked.h — 带溢出检查的 64 位乘法和加法，供计数使用，不对外公开。 */
#ifndef ATTN_CHECKED_H
#define ATTN_CHECKED_H

#include <stdint.h>

/* 返回 a·b；溢出时把 *ok 置 0，返回 0。 */
static inline uint64_t attn_u64_mul(uint64_t a, uint64_t b, int *ok)
{
    if (a != 0 && b > UINT64_MAX / a) {
        *ok = 0;
        return 0;
    }
    return a * b;
}

/* 返回 a+b；溢出时把 *ok 置 0，返回 0。 */
static inline uint64_t attn_u64_add(uint64_t a, uint64_t b, int *ok)
{
    if (b > UINT64_MAX - a) {
        *ok = 0;
        return 0;
    }
    return a + b;
}

#endif
