#line 86 "book/00-preface.nw"
/* src/internal.h — 库内部共用的小工具，不对外公开。 */
#ifndef ATTN_INTERNAL_H
#define ATTN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* *out = a * b；溢出时返回 0，否则返回 1。 */
static inline int attn_size_mul(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return 0;
    *out = a * b;
    return 1;
}

/* a×b 个 float 的个数和字节数都不溢出时返回 1 */
static inline int attn_floats_fit(size_t a, size_t b)
{
    size_t n;
    return attn_size_mul(a, b, &n) && attn_size_mul(n, sizeof(float), &n);
}

#endif
