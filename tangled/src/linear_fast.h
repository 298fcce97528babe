#line 1047 "book/D-cpu.nw"
/* src/linear_fast.h — 附录 D：线性层和层规范化反向传播的快速路径（库内部用）。 */
#ifndef ATTN_LINEAR_FAST_H
#define ATTN_LINEAR_FAST_H

#include <stddef.h>

/* dx[n×d_in] = dy·wᵀ（dx 不为 NULL 时）；dw[d_in×d_out] += xᵀ·dy（dw 不为 NULL 时）。
   参数已由 attn_linear_backward 查过；结果与它的循环一位不差。
   问题太小、这个构建没有可用的指令集或内存不够时返回 -1，什么也不写。 */
int attn_linear_backward_fast(const float *x, const float *w, const float *dy,
                              size_t n, size_t d_in, size_t d_out, float *dx, float *dw);
/* 层规范化的反向传播（src/layernorm.c 的末尾）：参数已由 attn_layernorm_backward 查过，
   结果与它的循环一位不差；问题太小或内存不够时返回 -1，什么也不写 */
int attn_layernorm_backward_fast(const float *x, const float *gamma, const float *dy,
                                 size_t n, size_t d, float eps,
                                 float *dx, float *dgamma, float *dbeta);

#endif
