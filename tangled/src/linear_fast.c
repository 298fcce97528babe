#line 988 "book/D-cpu.nw"
/* src/linear_fast.c — 线性层反向传播的两个乘积、小矩阵乘法：寄存器块，与朴素的循环一位不差。 */
#include "attn.h"
#include "attn_core.h"
#include "internal.h"
#include "linear_fast.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF    /* 和 matmul_fast.c 一样：不合成 FMA（GCC 在 -std=c11 下本来就不合成） */
#endif

#include "flash_common.h"

/* k 方向每段 LF_KC；线程的一件工作是 c 的 LF_ROWS 行 × LF_COLS 列（6、12 和 8、16、32 的倍数）；
   乘加少于 LF_MIN 次的交给朴素的循环，少于 LF_MANY 次的不开线程 */
enum { LF_KC = 128, LF_ROWS = 48, LF_COLS = 128, LF_MIN = 4096, LF_MANY = 1048576 };

#define FLASH_BODY "linear_fast_kernel.h"
#include "flash_widths.h"

#line 1091 "book/D-cpu.nw"
/* 指令集 isa 的那一份是 ATTN_FOR_ISA(isa, gemm_block)（第 9 章的 src/flash_widths.h） */
typedef void gemm_block_fn(const float *, size_t, size_t, const float *, size_t, float *, size_t,
                           size_t, size_t, size_t, size_t, size_t, int);

#line 1097 "book/D-cpu.nw"
/* c[m×n] (+)= a·b：c 分成 LF_ROWS（或 m）× LF_COLS 的小块，每块只由一个线程算 */
static void gemm_parallel(gemm_block_fn *block, const float *a, size_t ars, size_t acs,
                          const float *b, size_t ldb, float *c, size_t ldc, size_t m, size_t k,
                          size_t n, int add)
{
    if ((double)m * (double)k * (double)n < LF_MANY) {    /* 小：不开线程，一块算完 */
        block(a, ars, acs, b, ldb, c, ldc, 0, m, 0, n, k, add);
        return;
    }
    /* c 不高、却很宽时（输出层的 dw：128 行、几千列），一件工作取 c 的整列：
       b 那几千列只从内存读一遍，不是每 LF_ROWS 行读一遍 */
    size_t cols = (n + LF_COLS - 1) / LF_COLS;
    size_t h = m <= 4 * LF_ROWS && cols >= 8 ? m : LF_ROWS;    /* 一件工作的行数 */
    size_t rows = (m + h - 1) / h;
    ATTN_OMP("omp parallel for schedule(dynamic, 1)")
    for (size_t item = 0; item < rows * cols; item++) {
        size_t i0 = item / cols * h, j0 = item % cols * LF_COLS;
        size_t i1 = m - i0 < h ? m : i0 + h, j1 = n - j0 < LF_COLS ? n : j0 + LF_COLS;
        block(a, ars, acs, b, ldb, c, ldc, i0, i1, j0, j1, k, add);
    }
}

#line 1121 "book/D-cpu.nw"
int attn_linear_backward_fast(const float *x, const float *w, const float *dy,
                              size_t n, size_t d_in, size_t d_out, float *dx, float *dw)
{
    gemm_block_fn *block = ATTN_FOR_ISA(attn_isa_current(), gemm_block);
    if (block == NULL || (double)n * (double)d_in * (double)d_out < LF_MIN)
        return -1;
    if (dx != NULL) {
        float *wt = malloc(d_in * d_out * sizeof *wt);      /* wᵀ[d_out][d_in] */
        if (wt == NULL)
            return -1;
        for (size_t k0 = 0; k0 < d_in; k0 += 16)           /* 16 × 16 的小块，读写都在缓存里 */
            for (size_t j0 = 0; j0 < d_out; j0 += 16)
                for (size_t k = k0; k < d_in && k < k0 + 16; k++)
                    for (size_t j = j0; j < d_out && j < j0 + 16; j++)
                        wt[j * d_in + k] = w[k * d_out + j];
        /* dx[n][d_in] = dy[n][d_out] · wᵀ[d_out][d_in] */
        gemm_parallel(block, dy, d_out, 1, wt, d_in, dx, d_in, n, d_out, d_in, 0);
        free(wt);
    }
    /* dw[d_in][d_out] += xᵀ · dy：xᵀ 的 (k, i) 元素是 x[i·d_in + k] */
    if (dw != NULL)
        gemm_parallel(block, x, 1, d_in, dy, d_out, dw, d_out, d_in, n, d_out, 1);
    return ATTN_OK;
}

int attn_matmul_small(const float *a, const float *b, float *c, size_t m, size_t k, size_t n)
{
    gemm_block_fn *block = ATTN_FOR_ISA(attn_isa_current(), gemm_block);
    if (block == NULL || (double)m * (double)k * (double)n < LF_MIN)
        return -1;
    block(a, k, 1, b, n, c, n, 0, m, 0, n, k, 0);
    return ATTN_OK;
}
