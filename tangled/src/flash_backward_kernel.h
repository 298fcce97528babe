#line 1296 "book/D-cpu.nw"
/* src/flash_backward_kernel.h — 一个键块的反向传播，按一种向量宽度。没有包含保护。 */
#include "flash_vec.h"

#line 1269 "book/D-cpu.nw"
/* a 按行读，行距 FQ（Pᵀ、dSᵀ）：c[FR][2FW] (+)= a[FR][kdim] · b[kdim][2FW] */
static FTARGET BWD_NOINLINE void FNAME(bwd_tile_rows)(const float *a, const float *b, size_t ldb,
                                                      float *c, size_t ldc, size_t kdim, int add)
{
    FNAME(tile)(a, FQ, 1, b, ldb, c, ldc, kdim, add);
}

/* a 按列读（dSᵀ 当 dS 用）：第 r 行第 t 个是 a[r + t·FQ] */
static FTARGET BWD_NOINLINE void FNAME(bwd_tile_cols)(const float *a, const float *b, size_t ldb,
                                                      float *c, size_t ldc, size_t kdim, int add)
{
    FNAME(tile)(a, 1, FQ, b, ldb, c, ldc, kdim, add);
}

/* a 按行读，行距 lda（键块、值块） */
static FTARGET BWD_NOINLINE void FNAME(bwd_tile_lda)(const float *a, size_t lda, const float *b,
                                                     size_t ldb, float *c, size_t ldc, size_t kdim,
                                                     int add)
{
    FNAME(tile)(a, lda, 1, b, ldb, c, ldc, kdim, add);
}

#line 1352 "book/D-cpu.nw"
/* s[c][x] = exp(k[j0+c]·qt[·][i0+x] − m[i0+x]) / l[i0+x]，c < cols，x < rows_p；看不见的是 0 */
ATTN_INLINE FTARGET void FNAME(bwd_p)(const struct bwd_problem *p, const struct bwd_work *w,
                                      size_t i0, size_t rows, size_t rows_p,
                                      size_t j0, size_t cols)
{
    size_t cols_r = (cols + FR - 1) / FR * FR;
    for (size_t x = 0; x < rows_p; x += 2 * FW)
        for (size_t c = 0; c < cols_r; c += FR)
            FNAME(bwd_tile_lda)(w->kb + c * p->dkp, p->dkp, p->qt + i0 * p->d_k + x, FQ,
                                w->s + c * FQ + x, FQ, p->d_k, 0);
    if (p->mask != NULL) {
        for (size_t c = 0; c < cols; c++)
            for (size_t x = 0; x < rows; x++)
                if (!attn_key_visible(p->mask, p->causal, p->n_q, p->n_k, i0 + x, j0 + c))
                    w->s[c * FQ + x] = -INFINITY;
    } else if (p->causal) {
        for (size_t c = 0; c < cols; c++) {
            size_t lim = j0 + c + p->n_q, first = lim > i0 + p->n_k ? lim - i0 - p->n_k : 0;
            for (size_t x = 0; x < first && x < rows; x++)
                w->s[c * FQ + x] = -INFINITY;
        }
    }
    for (size_t x = 0; x < rows_p; x += FW) {
        vf base = FNAME(load)(p->base + i0 + x), il = FNAME(load)(p->il + i0 + x);
        for (size_t c = 0; c < cols; c++)
            FNAME(store)(w->s + c * FQ + x, FNAME(exp)(FNAME(load)(w->s + c * FQ + x) - base) * il);
    }
}

#line 1388 "book/D-cpu.nw"
ATTN_INLINE FTARGET void FNAME(bwd_grads)(const struct bwd_problem *p, const struct bwd_work *w,
                                          size_t i0, size_t rows_p, size_t cols,
                                          float *dq_acc, int want_dk, int want_dv)
{
    size_t cols_r = (cols + FR - 1) / FR * FR;
    size_t dkw = (p->d_k + 2 * FW - 1) / (2 * FW) * (2 * FW);
    size_t dvw = (p->d_v + 2 * FW - 1) / (2 * FW) * (2 * FW);
    /* dv[FK][dvw] += s[FK][rows_p] · dop[i0 ..][dvw] */
    for (size_t c = 0; want_dv && c < cols_r; c += FR)
        for (size_t y = 0; y < dvw; y += 2 * FW)
            FNAME(bwd_tile_rows)(w->s + c * FQ, p->dop + i0 * p->dvp + y, p->dvp,
                                 w->dv + c * p->dvp + y, p->dvp, rows_p, 1);
    /* dp[FK][rows_p] = vb[FK][d_v] · dot[d_v][i0 ..] */
    for (size_t x = 0; x < rows_p; x += 2 * FW)
        for (size_t c = 0; c < cols_r; c += FR)
            FNAME(bwd_tile_lda)(w->vb + c * p->dvp, p->dvp, p->dot + i0 * p->d_v + x, FQ,
                                w->dp + c * FQ + x, FQ, p->d_v, 0);
    /* s = s ⊙ (dp − D)：Pᵀ 变成 dSᵀ（还没乘 scale） */
    for (size_t c = 0; c < cols; c++)
        for (size_t x = 0; x < rows_p; x += FW)
            FNAME(store)(w->s + c * FQ + x, FNAME(load)(w->s + c * FQ + x) *
                         (FNAME(load)(w->dp + c * FQ + x) - FNAME(load)(p->D + i0 + x)));
    for (size_t c = cols; c < cols_r; c++)          /* 补出来的键：dS = 0 */
        memset(w->s + c * FQ, 0, rows_p * sizeof *w->s);
    /* dk[FK][dkw] += s[FK][rows_p] · qp[i0 ..][dkw] */
    for (size_t c = 0; want_dk && c < cols_r; c += FR)
        for (size_t y = 0; y < dkw; y += 2 * FW)
            FNAME(bwd_tile_rows)(w->s + c * FQ, p->qp + i0 * p->dkp + y, p->dkp,
                                 w->dk + c * p->dkp + y, p->dkp, rows_p, 1);
    /* dq_acc[i0 ..][dkw] += sᵀ[rows_p][cols] · kb[cols][dkw] */
    for (size_t x = 0; dq_acc != NULL && x < rows_p; x += FR)
        for (size_t y = 0; y < dkw; y += 2 * FW)
            FNAME(bwd_tile_cols)(w->s + x, w->kb + y, p->dkp,
                                 dq_acc + (i0 + x) * p->dkp + y, p->dkp, cols, 1);
}

#line 1305 "book/D-cpu.nw"
static FTARGET void FNAME(bwd_block)(const struct bwd_problem *p, const struct bwd_work *w,
                                     size_t j0, float *dq_acc, float *dk, float *dv,
                                     float scale)
{
    size_t cols = p->n_k - j0 < FK ? p->n_k - j0 : FK;
#line 1325 "book/D-cpu.nw"
    /* kb[FK][dkp]、vb[FK][dvp]：第 j0 .. j0+cols 个键和值，其余补零 */
    memset(w->kb, 0, FK * p->dkp * sizeof *w->kb);
    memset(w->vb, 0, FK * p->dvp * sizeof *w->vb);
    for (size_t c = 0; c < cols; c++) {
        memcpy(w->kb + c * p->dkp, p->k + (j0 + c) * p->d_k, p->d_k * sizeof *w->kb);
        memcpy(w->vb + c * p->dvp, p->v + (j0 + c) * p->d_v, p->d_v * sizeof *w->vb);
    }
    memset(w->dk, 0, FK * p->dkp * sizeof *w->dk);
    memset(w->dv, 0, FK * p->dvp * sizeof *w->dv);
#line 1311 "book/D-cpu.nw"
    size_t i_first = 0;                            /* 看得见键 j0 的第一个查询 */
    if (p->causal && j0 + p->n_q > p->n_k)
        i_first = j0 + p->n_q - p->n_k;
    for (size_t i0 = i_first / FQ * FQ; i0 < p->n_q; i0 += FQ) {
        size_t rows = p->n_q - i0 < FQ ? p->n_q - i0 : FQ;
        size_t rows_p = (rows + FP - 1) / FP * FP;
        FNAME(bwd_p)(p, w, i0, rows, rows_p, j0, cols);
        FNAME(bwd_grads)(p, w, i0, rows_p, cols, dq_acc, dk != NULL, dv != NULL);
    }
#line 1337 "book/D-cpu.nw"
    /* dk[j0+c] = scale · Σ dSᵀ·Q；dv[j0+c] = Σ Pᵀ·dO */
    for (size_t c = 0; c < cols; c++) {
        if (dk != NULL)
            for (size_t t = 0; t < p->d_k; t++)
                dk[(j0 + c) * p->d_k + t] = scale * w->dk[c * p->dkp + t];
        if (dv != NULL)
            memcpy(dv + (j0 + c) * p->d_v, w->dv + c * p->dvp, p->d_v * sizeof *dv);
    }
#line 1321 "book/D-cpu.nw"
}
