#line 829 "book/D-cpu.nw"
/* src/matmul_fast.c — 分块、多线程的矩阵乘法，结果与第 1 章的循环一位不差。 */
#include "attn.h"
#include "attn_core.h"
#include "internal.h"

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

/* k 方向每段 MM_KC，每件工作 MM_ROWS 行（6 和 12 的倍数） */
enum { MM_KC = 128, MM_ROWS = 48 };

#define FLASH_BODY "matmul_kernel.h"
#include "flash_widths.h"

#line 888 "book/D-cpu.nw"
/* 指令集 isa 的那一份是 ATTN_FOR_ISA(isa, matmul_rows) */
typedef void matmul_rows_fn(const float *, const float *, float *, size_t, size_t, size_t, size_t);

#line 893 "book/D-cpu.nw"
/* c[m][n] = a[m][k] · b[k][n]，参数已由 attn_matmul 检查过；太小时返回 -1，留给第 1 章的循环 */
int attn_matmul_fast(const float *a, const float *b, float *c, size_t m, size_t k, size_t n)
{
    if ((double)m * (double)k * (double)n < 1048576.0)
        return -1;
    matmul_rows_fn *rows = ATTN_FOR_ISA(attn_isa_current(), matmul_rows);
    size_t items = (m + MM_ROWS - 1) / MM_ROWS;
    ATTN_OMP("omp parallel for schedule(dynamic, 1)")
    for (size_t it = 0; it < items; it++) {
        size_t i0 = it * MM_ROWS, i1 = m - i0 < MM_ROWS ? m : i0 + MM_ROWS;
        rows(a, b, c, i0, i1, k, n);
    }
    return ATTN_OK;
}
