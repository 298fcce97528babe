#line 1068 "book/D-cpu.nw"
/* src/linear_fast.c — 线性层反向传播的两个乘积，交给附录 D 的矩阵乘法驱动：与朴素的循环一位不差。 */
#include "attn.h"
#include "internal.h"
#include "linear_fast.h"
#include "matmul_fast.h"

#include <stdlib.h>

/* 乘加少于 LF_MIN 次的交给第 12 章的循环 */
enum { LF_MIN = 4096 };

int attn_linear_backward_fast(const float *x, const float *w, const float *dy,
                              size_t n, size_t d_in, size_t d_out, float *dx, float *dw)
{
    if ((double)n * (double)d_in * (double)d_out < LF_MIN)
        return -1;
    float *wt = NULL;
    if (dx != NULL) {
        wt = malloc(d_in * d_out * sizeof *wt);             /* wᵀ[d_out][d_in] */
        if (wt == NULL)
            return -1;
        for (size_t k0 = 0; k0 < d_in; k0 += 16)           /* 16 × 16 的小块，读写都在缓存里 */
            for (size_t j0 = 0; j0 < d_out; j0 += 16)
                for (size_t k = k0; k < d_in && k < k0 + 16; k++)
                    for (size_t j = j0; j < d_out && j < j0 + 16; j++)
                        wt[j * d_in + k] = w[k * d_out + j];
        /* dx[n][d_in] = dy[n][d_out] · wᵀ[d_out][d_in]；驱动不能用时什么也没写 */
        if (attn_gemm(dy, d_out, 1, wt, d_in, dx, d_in, n, d_out, d_in, 0) != ATTN_OK) {
            free(wt);
            return -1;
        }
        free(wt);
    }
    /* dw[d_in][d_out] += xᵀ · dy：xᵀ 的 (k, i) 元素是 x[i·d_in + k]。驱动能不能用只看指令集，
       上面能用，这里也能用；dx 为 NULL 时这是第一次调用，失败时什么也没写 */
    if (dw != NULL && attn_gemm(x, 1, d_in, dy, d_out, dw, d_out, d_in, n, d_out, 1) != ATTN_OK)
        return -1;
    return ATTN_OK;
}
