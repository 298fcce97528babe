#line 867 "book/D-cpu.nw"
/* src/matmul_fast.h — 附录 D：库里唯一的矩阵乘法驱动（库内部用）。 */
#ifndef ATTN_MATMUL_FAST_H
#define ATTN_MATMUL_FAST_H

#include <stddef.h>

/* c[m×n] (+)= a·b，t 走遍 [0, k)：a(i, t) = a[i·ars + t·acs]，b(t, j) = b[t·ldb + j]，c(i, j) = c[i·ldc + j]；
   add 为 0 时 c 先清零。每个 c(i, j) 都按 t 从小到大先乘、舍入，再加、舍入，和朴素的三重循环一位不差；
   线程数不影响结果。参数由调用它的公开函数查过。这个构建没有可用的指令集时返回 -1，什么也不写 */
int attn_gemm(const float *a, size_t ars, size_t acs, const float *b, size_t ldb, float *c, size_t ldc,
              size_t m, size_t k, size_t n, int add);
/* c[m×n] = a[m×k]·b[k×n]，参数已由 attn_matmul 查过；太小时返回 -1，留给第 1 章的循环 */
int attn_matmul_fast(const float *a, const float *b, float *c, size_t m, size_t k, size_t n);

#endif
