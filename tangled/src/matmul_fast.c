#line 834 "book/D-cpu.nw"
/* src/matmul_fast.c — 库里唯一的矩阵乘法驱动：分块、多线程，结果与第 1 章的循环一位不差。 */
#include "attn.h"
#include "attn_core.h"
#include "internal.h"
#include "matmul_fast.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#include "flash_common.h"

/* k 方向每段 MM_KC；线程的一件工作是 c 的 MM_ROWS 行 × MM_COLS 列（6、12 和 8、16、32 的倍数）；
   乘加少于 MM_MIN 次的交给第 1 章的循环，少于 MM_MANY 次的不开线程 */
enum { MM_KC = 128, MM_ROWS = 48, MM_COLS = 128, MM_MIN = 4096, MM_MANY = 1048576 };

#define FLASH_BODY "matmul_kernel.h"
#include "flash_widths.h"

#line 957 "book/D-cpu.nw"
/* 指令集 isa 的那一份是 ATTN_FOR_ISA(isa, gemm_block)（第 9 章的 src/flash_widths.h） */
typedef void gemm_block_fn(const float *, size_t, size_t, const float *, size_t, float *, size_t,
                           size_t, size_t, size_t, size_t, size_t, int);

#line 963 "book/D-cpu.nw"
/* c[m×n] (+)= a·b：c 分成 MM_ROWS（或 m）× MM_COLS 的小块，每块只由一个线程算 */
int attn_gemm(const float *a, size_t ars, size_t acs, const float *b, size_t ldb, float *c, size_t ldc,
              size_t m, size_t k, size_t n, int add)
{
    gemm_block_fn *block = ATTN_FOR_ISA(attn_isa_current(), gemm_block);
    if (block == NULL)
        return -1;
    if ((double)m * (double)k * (double)n < MM_MANY) {    /* 小：不开线程，一块算完 */
        block(a, ars, acs, b, ldb, c, ldc, 0, m, 0, n, k, add);
        return ATTN_OK;
    }
    /* c 不高、却很宽时（输出层的 dw：128 行、几千列），一件工作取 c 的整列：
       b 那几千列只从内存读一遍，不是每 MM_ROWS 行读一遍 */
    size_t cols = (n + MM_COLS - 1) / MM_COLS;
    size_t h = m <= 4 * MM_ROWS && cols >= 8 ? m : MM_ROWS;    /* 一件工作的行数 */
    size_t rows = (m + h - 1) / h;
    ATTN_OMP("omp parallel for schedule(dynamic, 1)")
    for (size_t item = 0; item < rows * cols; item++) {
        size_t i0 = item / cols * h, j0 = item % cols * MM_COLS;
        size_t i1 = m - i0 < h ? m : i0 + h, j1 = n - j0 < MM_COLS ? n : j0 + MM_COLS;
        block(a, ars, acs, b, ldb, c, ldc, i0, i1, j0, j1, k, add);
    }
    return ATTN_OK;
}

#line 990 "book/D-cpu.nw"
int attn_matmul_fast(const float *a, const float *b, float *c, size_t m, size_t k, size_t n)
{
    if ((double)m * (double)k * (double)n < MM_MIN)
        return -1;
    return attn_gemm(a, k, 1, b, n, c, n, m, k, n, 0);
}
