#line 858 "book/D-cpu.nw"
/* src/matmul_kernel.h — c 的一段行 = a · b，按一种向量宽度。没有包含保护。 */
#include "flash_vec.h"

/* c[i0 .. i1)[n] = a[i0 .. i1)[k] · b[k][n]；每个数和第 1 章一样按 p 的顺序先乘后加 */
static FTARGET void FNAME(matmul_rows)(const float *a, const float *b, float *c,
                                       size_t i0, size_t i1, size_t k, size_t n)
{
    size_t nt = n / (2 * FW) * (2 * FW);         /* 寄存器块铺得满的列 */
    size_t it = i0 + (i1 - i0) / FR * FR;        /* 寄存器块铺得满的行 */
    for (size_t p0 = 0; p0 < k; p0 += MM_KC) {
        size_t kc = k - p0 < MM_KC ? k - p0 : MM_KC;
        for (size_t j = 0; j < nt; j += 2 * FW)
            for (size_t i = i0; i < it; i += FR)
                FNAME(tile)(a + i * k + p0, k, 1, b + p0 * n + j, n, c + i * n + j, n, kc, p0 > 0);
    }
    /* 剩下的行（全部列）和剩下的列：第 1 章的循环 */
    for (size_t i = i0; i < i1; i++) {
        size_t j0 = i < it ? nt : 0;
        for (size_t j = j0; j < n; j++)
            c[i * n + j] = 0.0f;
        for (size_t p = 0; p < k; p++) {
            float aip = a[i * k + p];
            for (size_t j = j0; j < n; j++)
                c[i * n + j] += aip * b[p * n + j];
        }
    }
}
