#line 268 "book/00-preface.nw"
/* src/internal.h — 库内部共用的小工具，不对外公开。 */
#ifndef ATTN_INTERNAL_H
#define ATTN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* *bytes = a 个 float 的字节数；溢出时返回 0，否则返回 1。 */
static inline int attn_bytes1(size_t *bytes, size_t a)
{
    return !__builtin_mul_overflow(a, sizeof(float), bytes);
}

/* *bytes = a×b 个 float 的字节数；溢出时返回 0，否则返回 1。 */
static inline int attn_bytes2(size_t *bytes, size_t a, size_t b)
{
    size_t n;
    return !__builtin_mul_overflow(a, b, &n) && attn_bytes1(bytes, n);
}

/* *bytes = a×b×c 个 float 的字节数；溢出时返回 0，否则返回 1。 */
static inline int attn_bytes3(size_t *bytes, size_t a, size_t b, size_t c)
{
    size_t n;
    return !__builtin_mul_overflow(a, b, &n) && attn_bytes2(bytes, n, c);
}

/* [a, a+a_bytes) 与 [b, b+b_bytes) 有共同的字节时返回 1；空指针或 0 字节不与任何东西重叠 */
static inline int attn_overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return a != NULL && b != NULL && a_bytes > 0 && b_bytes > 0 &&
           x < y + b_bytes && y < x + a_bytes;
}

#endif
