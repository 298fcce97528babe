#line 565 "book/09-fast.nw"
/* src/flash_common.h — 快速路径的源文件共用：块的大小、编译器的属性、一块查询要看的键到哪里为止。 */
#ifndef ATTN_FLASH_COMMON_H
#define ATTN_FLASH_COMMON_H

#include <stddef.h>

#line 118 "book/09-fast.nw"
/* 查询块 FQ 行，键块 FK 个键；值的列数补到 FD 的倍数（附录 D 的寄存器块要的）。
   d_k 长于 FDK 时，分数按 d_k 每 FDK 个分量一段累加，工作区不随 d_k 变大。 */
enum { FQ = 192, FK = 96, FD = 32, FDK = 512 };

#line 607 "book/09-fast.nw"
/* 附录 D：总是内联、完全展开循环 */
#line 591 "book/D-cpu.nw"
#ifdef __GNUC__
#define ATTN_INLINE static inline __attribute__((always_inline))
#endif

/* 把下一个循环完全展开（GCC 默认只完全展开 16 次以内的循环） */
#if defined(__clang__)
#define ATTN_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define ATTN_UNROLL _Pragma("GCC unroll 32")
#else
#define ATTN_UNROLL
#endif
#line 585 "book/09-fast.nw"
#ifndef ATTN_INLINE
#define ATTN_INLINE static inline
#endif

/* OpenMP 的编译指示；没有 OpenMP 时什么也不是 */
#ifdef _OPENMP
#define ATTN_OMP(directive) _Pragma(directive)
#else
#define ATTN_OMP(directive)
#endif

#line 295 "book/09-fast.nw"
/* 查询 i0 .. i0+rows-1 要看的键是 [0, 返回值)；不用减法，免得无符号数变成负数 */
static inline size_t flash_key_end(size_t n_q, size_t n_k, int causal,
                                   size_t i0, size_t rows)
{
    if (!causal)
        return n_k;
    size_t lim = i0 + rows + n_k;
    size_t end = lim > n_q ? lim - n_q : 0;
    return end < n_k ? end : n_k;
}

#line 577 "book/09-fast.nw"
#endif
