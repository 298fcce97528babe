#line 530 "book/D-cpu.nw"
/* src/linear_fast_kernel.h — c 的一块 (+)= a·b，按一种向量宽度。没有包含保护。 */
#include "flash_vec.h"

/* c[i0..i1)[j0..j1) (+)= a·b，t 走遍 [0, k)：a(i, t) = a[i·ars + t·acs]，b(t, j) = b[t·ldb + j]。
   每个 c 的数都按 t 从小到大先乘后加，和朴素的三重循环一样 */
static FTARGET void FNAME(gemm_block)(const float *a, size_t ars, size_t acs, const float *b,
                                      size_t ldb, float *c, size_t ldc, size_t i0, size_t i1,
                                      size_t j0, size_t j1, size_t k, int add)
{
    size_t jt = j0 + (j1 - j0) / (2 * FW) * (2 * FW);   /* 寄存器块铺得满的列 */
    size_t it = i0 + (i1 - i0) / FR * FR;               /* 铺得满的行 */
    for (size_t p0 = 0; p0 < k; p0 += LF_KC) {
        size_t kc = k - p0 < LF_KC ? k - p0 : LF_KC;
        for (size_t j = j0; j < jt; j += 2 * FW)
            for (size_t i = i0; i < it; i += FR)
                FNAME(tile)(a + i * ars + p0 * acs, ars, acs, b + p0 * ldb + j, ldb,
                            c + i * ldc + j, ldc, kc, add || p0 > 0);
    }
    /* 剩下的行：一行一行，仍是一个向量 FW 列 */
    size_t jv = j0 + (j1 - j0) / FW * FW;
    for (size_t i = it; i < i1; i++)
        for (size_t j = j0; j < jv; j += FW) {
            vf acc = add ? FNAME(load)(c + i * ldc + j) : FNAME(splat)(0.0f);
            for (size_t t = 0; t < k; t++)
                acc += a[i * ars + t * acs] * FNAME(load)(b + t * ldb + j);
            FNAME(store)(c + i * ldc + j, acc);
        }
    /* 不足一个向量的列（铺得满的行从 jt 起，剩下的行从 jv 起）：标量 */
    for (size_t i = i0; i < i1; i++)
        for (size_t j = i < it ? jt : jv; j < j1; j++) {
            float s = add ? c[i * ldc + j] : 0.0f;
            for (size_t t = 0; t < k; t++)
                s += a[i * ars + t * acs] * b[t * ldb + j];
            c[i * ldc + j] = s;
        }
}
