#line 887 "book/D-cpu.nw"
/* src/matmul_kernel.h — c 的一块 (+)= a·b，按一种向量宽度。没有包含保护。 */
#include "flash_vec.h"

/* c 的 nr 行 × nv 个向量 (+)= a·b，kdim 个 t；和 FNAME(tile) 一样，只是块小一些（nr ≤ 4，nv ≤ 2）。
   总是内联、nr 和 nv 是常数时，累加的数都留在寄存器里 */
ATTN_INLINE FTARGET void FNAME(tile_small)(const float *a, size_t ars, size_t ats,
                                           const float *b, size_t ldb, float *c, size_t ldc,
                                           size_t kdim, int add, size_t nr, size_t nv)
{
    vf acc[4][2];
    for (size_t r = 0; r < nr; r++)
        for (size_t v = 0; v < nv; v++)
            acc[r][v] = add ? FNAME(load)(c + r * ldc + v * FW) : FNAME(splat)(0.0f);
    for (size_t t = 0; t < kdim; t++)
        for (size_t r = 0; r < nr; r++) {
            float ar = a[r * ars + t * ats];
            for (size_t v = 0; v < nv; v++)
                acc[r][v] += ar * FNAME(load)(b + t * ldb + v * FW);
        }
    for (size_t r = 0; r < nr; r++)
        for (size_t v = 0; v < nv; v++)
            FNAME(store)(c + r * ldc + v * FW, acc[r][v]);
}

/* nr 行（常数）× nv 个向量（1 或 2，运行时才知道）：按 nv 挑一份常数的 tile_small */
ATTN_INLINE FTARGET void FNAME(tile_rows)(const float *a, size_t ars, size_t ats,
                                          const float *b, size_t ldb, float *c, size_t ldc,
                                          size_t kdim, int add, size_t nr, size_t nv)
{
    if (nv == 2)
        FNAME(tile_small)(a, ars, ats, b, ldb, c, ldc, kdim, add, nr, 2);
    else
        FNAME(tile_small)(a, ars, ats, b, ldb, c, ldc, kdim, add, nr, 1);
}

/* c[i0..i1)[j0..j1) (+)= a·b，t 走遍 [0, k)。每个 c 的数都按 t 从小到大先乘后加，和朴素的三重循环一样：
   k 分段时，下一段从存回 c 的和接着加。k 的每一段里，c 的每个数都算到：铺得满的行列用 FR × 2·FW 的寄存器块，
   剩下的行四行、一行地算，剩下的列一个向量、一个数地算。这样 a 和 b 的一段总在缓存里，剩下的行列不会把 b 从内存里再读一遍 */
static FTARGET void FNAME(gemm_block)(const float *a, size_t ars, size_t acs, const float *b,
                                      size_t ldb, float *c, size_t ldc, size_t i0, size_t i1,
                                      size_t j0, size_t j1, size_t k, int add)
{
    size_t jt = j0 + (j1 - j0) / (2 * FW) * (2 * FW);   /* 两个向量宽的列块铺得满的列 */
    size_t jv = jt + (j1 - jt) / FW * FW;               /* 再加一个向量宽的列 */
    for (size_t p0 = 0; p0 < k; p0 += MM_KC) {
        size_t kc = k - p0 < MM_KC ? k - p0 : MM_KC;
        int acc = add || p0 > 0;                        /* 从 c 原来的值（或上一段的和）接着加 */
        const float *ap = a + p0 * acs, *bp = b + p0 * ldb;
        for (size_t j = j0; j < jv; j += 2 * FW) {
            size_t nv = j < jt ? 2 : 1, i = i0;
            for (; nv == 2 && i + FR <= i1; i += FR)
                FNAME(tile)(ap + i * ars, ars, acs, bp + j, ldb, c + i * ldc + j, ldc, kc, acc);
            for (; i + 4 <= i1; i += 4)
                FNAME(tile_rows)(ap + i * ars, ars, acs, bp + j, ldb, c + i * ldc + j, ldc, kc, acc, 4, nv);
            for (; i < i1; i++)
                FNAME(tile_rows)(ap + i * ars, ars, acs, bp + j, ldb, c + i * ldc + j, ldc, kc, acc, 1, nv);
        }
        /* 不足一个向量的列：标量 */
        for (size_t i = i0; i < i1; i++)
            for (size_t j = jv; j < j1; j++) {
                float s = acc ? c[i * ldc + j] : 0.0f;
                for (size_t t = 0; t < kc; t++)
                    s += ap[i * ars + t * acs] * bp[t * ldb + j];
                c[i * ldc + j] = s;
            }
    }
}
