#line 172 "book/D-cpu.nw"
/* src/flash_kernel.h — 一个查询块的全部工作，按一种向量宽度。没有包含保护。 */
#include "flash_vec.h"

#line 212 "book/D-cpu.nw"
/* qt[d][FQ] = (q[i0 .. i0+rows)[t0 .. t0+d) · scale)ᵀ，多出的列补零 */
ATTN_INLINE FTARGET void FNAME(queries)(const struct flash_problem *p, const struct flash_work *w,
                                        size_t i0, size_t rows, size_t rows_p, size_t t0, size_t d)
{
    for (size_t t = 0; t < d; t++)
        for (size_t x = 0; x < rows_p; x++)
            w->qt[t * FQ + x] = x < rows ? p->q[(i0 + x) * p->ld_q + t0 + t] * p->scale : 0.0f;
}

#line 235 "book/D-cpu.nw"
/* s[c][x] = k[j0+c] · qt[·][x]（键 c 在行，查询 x 在列），c < cols，x < rows_p；看不见的是 -inf。
   every = 0 时，在线 softmax 会整段写 0 的地方（见下文）不必填 -inf。 */
ATTN_INLINE FTARGET void FNAME(scores)(const struct flash_problem *p, const struct flash_work *w,
                                       size_t i0, size_t rows, size_t rows_p,
                                       size_t j0, size_t cols, int every)
{
    size_t cols_r = (cols + FR - 1) / FR * FR;
    for (size_t t0 = 0; t0 < p->d_k; t0 += FDK) {      /* 通常只有一段：d_k ≤ FDK */
        size_t d_k = p->d_k - t0 < FDK ? p->d_k - t0 : FDK;
        if (p->d_k > FDK)                               /* 分段时每段重新转置查询块 */
            FNAME(queries)(p, w, i0, rows, rows_p, t0, d_k);
#line 398 "book/D-cpu.nw"
        /* kb[cols_r][d_k]：最后一块凑不满 FR 的倍数时，读 K 会越界，改读补零的副本 */
        const float *kb = p->k + j0 * p->ld_k + t0;
        size_t ldk = p->ld_k;
        if (j0 + cols_r > p->n_k) {
            for (size_t c = 0; c < cols_r; c++)
                for (size_t t = 0; t < d_k; t++)
                    w->kb[c * d_k + t] = c < cols ? p->k[(j0 + c) * p->ld_k + t0 + t] : 0.0f;
            kb = w->kb;
            ldk = d_k;
        }
#line 247 "book/D-cpu.nw"
        for (size_t x = 0; x < rows_p; x += 2 * FW)
            for (size_t c = 0; c < cols_r; c += FR) {
#line 266 "book/D-cpu.nw"
                size_t last = (x + 2 * FW < rows ? x + 2 * FW : rows) - 1;   /* 块里最后一个真查询 */
                if (x >= rows || (p->causal && j0 + c + p->n_q > i0 + last + p->n_k)) {
                    if (every || x + 2 * FW > rows)
                        for (size_t r = 0; r < FR; r++)
                            for (size_t y = 0; y < 2 * FW; y++)
                                w->s[(c + r) * FQ + x + y] = -INFINITY;
                    continue;
                }
#line 250 "book/D-cpu.nw"
                /* 第一段从零算起，以后各段在上一段的结果上接着加 */
                FNAME(tile)(kb + c * ldk, ldk, 1, w->qt + x, FQ, w->s + c * FQ + x, FQ, d_k, t0 > 0);
            }
    }
#line 285 "book/D-cpu.nw"
    if (p->mask != NULL) {
        for (size_t c = 0; c < cols; c++)
            for (size_t x = 0; x < rows; x++)
                if (!attn_key_visible(p->mask, p->causal, p->n_q, p->n_k, i0 + x, j0 + c))
                    w->s[c * FQ + x] = -INFINITY;
    } else if (p->causal && j0 + cols - 1 + p->n_q > i0 + p->n_k) {
        for (size_t c = 0; c < cols; c++) {
            /* 键 j0+c 对查询 i0+x 可见，当且仅当 i0 + x + n_k >= j0 + c + n_q */
            size_t lim = j0 + c + p->n_q, first = lim > i0 + p->n_k ? lim - i0 - p->n_k : 0;
            for (size_t x = every ? 0 : first / FW * FW; x < first && x < rows; x++)
                w->s[c * FQ + x] = -INFINITY;
        }
    }
#line 255 "book/D-cpu.nw"
}

#line 304 "book/D-cpu.nw"
/* 对每个查询 x（s 的一列）：m' = max(m, max_c s[c][x])；s[c][x] = exp(s[c][x] - m')；
   α = exp(m - m')；l = l·α + Σ_c s[c][x]；o 的第 x 行乘 α。m' = -inf 时拿 0 去减。 */
ATTN_INLINE FTARGET void FNAME(online)(const struct flash_problem *p, const struct flash_work *w,
                                       size_t i0, size_t rows_p, size_t j0, size_t cols,
                                       size_t dvw, size_t dvp)
{
    for (size_t x = 0; x < rows_p; x += FW) {
        /* 因果时，键 j0+c 对这 FW 个查询里最后一个可见，当且仅当 j0 + c + n_q < i0 + x + FW + n_k */
        size_t seen = cols;
        if (p->causal) {
            size_t lim = i0 + x + FW + p->n_k;
            seen = lim > p->n_q + j0 ? lim - p->n_q - j0 : 0;
            seen = seen < cols ? seen : cols;
        }
        vf m_old = FNAME(load)(w->m + x), mx = m_old;
        for (size_t c = 0; c < seen; c++)
            mx = FNAME(max)(mx, FNAME(load)(w->s + c * FQ + x));
        vi none = mx == FNAME(splat)(-INFINITY);
        vf base = (vf)(~none & (vi)mx);           /* -inf 换成 0 */
        vf sum = FNAME(splat)(0.0f);
        for (size_t c = 0; c < seen; c++) {
            vf e = FNAME(exp)(FNAME(load)(w->s + c * FQ + x) - base);
            FNAME(store)(w->s + c * FQ + x, e);
            sum += e;
        }
        for (size_t c = seen; c < cols; c++)      /* 都看不见：exp(-inf) = 0 */
            FNAME(store)(w->s + c * FQ + x, FNAME(splat)(0.0f));
        vf alpha = FNAME(exp)(m_old - base);
        FNAME(store)(w->l + x, FNAME(load)(w->l + x) * alpha + sum);
        FNAME(store)(w->m + x, mx);
        FNAME(store)(w->alpha + x, alpha);
    }
    for (size_t r = 0; r < rows_p; r++)
        if (w->alpha[r] != 1.0f)                  /* 最大值没变时不必缩放 */
            for (size_t x = 0; x < dvw; x += FW)
                FNAME(store)(w->o + r * dvp + x, FNAME(load)(w->o + r * dvp + x) * w->alpha[r]);
}

#line 347 "book/D-cpu.nw"
/* o[rows][dvw] += s[cols][rows]ᵀ · v[j0 .. j0+cols)[dvw] */
ATTN_INLINE FTARGET void FNAME(accumulate)(const struct flash_problem *p, const struct flash_work *w,
                                           size_t i0, size_t rows, size_t j0, size_t cols,
                                           size_t dvw)
{
#line 411 "book/D-cpu.nw"
    /* vb[cols][dvw]：d_v 是 2·FW 的倍数时就是 V 本身，否则是补零的副本 */
    const float *vb = p->v + j0 * p->ld_v;
    size_t ldv = p->ld_v;
    if (dvw != p->d_v) {
        for (size_t c = 0; c < cols; c++)
            for (size_t x = 0; x < dvw; x++)
                w->vb[c * p->dvp + x] = x < p->d_v ? p->v[(j0 + c) * p->ld_v + x] : 0.0f;
        vb = w->vb;
        ldv = p->dvp;
    }
#line 353 "book/D-cpu.nw"
    for (size_t r = 0; r < rows; r += FR) {
        size_t kdim = cols;
        if (p->causal) {                      /* 块里最后一个查询看得见的键：j + n_q <= i + n_k */
            size_t lim = i0 + (r + FR < rows ? r + FR : rows) + p->n_k;
            kdim = lim > p->n_q + j0 ? lim - p->n_q - j0 : 0;
            kdim = kdim < cols ? kdim : cols;
        }
        for (size_t x = 0; kdim > 0 && x < dvw; x += 2 * FW)
            FNAME(tile)(w->s + r, 1, FQ, vb + x, ldv, w->o + r * p->dvp + x, p->dvp, kdim, 1);
    }
}

#line 189 "book/D-cpu.nw"
static FTARGET void FNAME(flash_block)(const struct flash_problem *p, const struct flash_work *w,
                                       size_t i0)
{
    size_t rows = p->n_q - i0 < FQ ? p->n_q - i0 : FQ;
    size_t rows_p = (rows + FP - 1) / FP * FP;
    size_t dvp = p->dvp, dvw = (p->d_v + 2 * FW - 1) / (2 * FW) * (2 * FW);
    if (p->d_k <= FDK)                 /* 转置一次，每个键块都用它（更长的 d_k 由 scores 分段转置） */
        FNAME(queries)(p, w, i0, rows, rows_p, 0, p->d_k);
#line 223 "book/D-cpu.nw"
    memset(w->o, 0, rows_p * dvp * sizeof *w->o);
    for (size_t x = 0; x < rows_p; x++) {
        w->m[x] = -INFINITY;
        w->l[x] = 0.0f;
    }
#line 198 "book/D-cpu.nw"
    size_t j_end = flash_key_end(p->n_q, p->n_k, p->causal, i0, rows);
    for (size_t j0 = 0; j0 < j_end; j0 += FK) {
        size_t cols = j_end - j0 < FK ? j_end - j0 : FK;   /* 最后一块在 j_end 处截断 */
        FNAME(scores)(p, w, i0, rows, rows_p, j0, cols, 0);
        FNAME(online)(p, w, i0, rows_p, j0, cols, dvw, dvp);
        FNAME(accumulate)(p, w, i0, rows, j0, cols, dvw);
    }
#line 367 "book/D-cpu.nw"
    /* out[i0+x][d_v] = o[x] / l[x]；一个键也看不见的行 l = 0，输出全零 */
    for (size_t x = 0; x < rows; x++) {
        float inv = w->l[x] > 0.0f ? 1.0f / w->l[x] : 0.0f;
        for (size_t y = 0; y < p->d_v; y++)
            p->out[(i0 + x) * p->ld_out + y] = w->o[x * dvp + y] * inv;
        if (p->row_m != NULL) {
            p->row_m[i0 + x] = w->m[x];
            p->row_l[i0 + x] = w->l[x];
        }
    }
#line 206 "book/D-cpu.nw"
    if (p->weights != NULL)
#line 380 "book/D-cpu.nw"
        /* weights[i0+x][j] = exp(s - m[x]) / l[x]，m、l 已是整行的最终值 */
        for (size_t j0 = 0; j0 < p->n_k; j0 += FK) {
            size_t cols = p->n_k - j0 < FK ? p->n_k - j0 : FK;
            if (j0 < j_end)
                FNAME(scores)(p, w, i0, rows, rows_p, j0, cols, 1);
            for (size_t x = 0; x < rows; x++) {
                float *wr = p->weights + (i0 + x) * p->n_k + j0;
                for (size_t c = 0; c < cols; c++)
                    wr[c] = j0 < j_end && w->l[x] > 0.0f
                          ? attn_exp_neg(w->s[c * FQ + x] - w->m[x]) / w->l[x] : 0.0f;
            }
        }
#line 208 "book/D-cpu.nw"
}

#line 454 "book/D-cpu.nw"
/* 逐个分量取较大者（整数） */
ATTN_INLINE FTARGET vi FNAME(maxi)(vi a, vi b)
{
    vi gt = a > b;
    return (gt & a) | (~gt & b);
}

/* x 的 n 行、每行 d 个数（行距 ld）：去掉符号位的位模式里最大的那个 */
static FTARGET uint32_t FNAME(max_bits)(const float *x, size_t n, size_t d, size_t ld)
{
    const int32_t sign_off = 0x7fffffff;
    vi top0 = {0}, top1 = {0};
    int32_t top = 0;
    for (size_t i = 0; i < n; i++) {
        const float *row = x + i * ld;
        size_t t = 0;
        for (; t + 2 * FW <= d; t += 2 * FW) {
            vi a, b;
            memcpy(&a, row + t, sizeof a);
            memcpy(&b, row + t + FW, sizeof b);
            top0 = FNAME(maxi)(top0, a & sign_off);
            top1 = FNAME(maxi)(top1, b & sign_off);
        }
        for (; t + FW <= d; t += FW) {
            vi a;
            memcpy(&a, row + t, sizeof a);
            top0 = FNAME(maxi)(top0, a & sign_off);
        }
        for (; t < d; t++) {
            int32_t b;
            memcpy(&b, row + t, sizeof b);
            b &= sign_off;
            top = b > top ? b : top;
        }
    }
    top0 = FNAME(maxi)(top0, top1);
    for (size_t u = 0; u < FW; u++)
        top = top0[u] > top ? top0[u] : top;
    return (uint32_t)top;
}

#line 718 "book/D-cpu.nw"
/* 2·FR 条独立的链，每条做 iters 次 acc = acc·x + y（每次 2·FW 次运算）；返回各分量之和，免得整个循环被优化掉。
   x、y 经 volatile 读进来：编译器不知道它们的值，就没法把哪一条链预先算出来
   （x = 0.999999、y = 1e-6 时，从 1 出发的那条链在 float 里永远是 1）。 */
static FTARGET float FNAME(fma_loop)(size_t iters)
{
    volatile float x_in = 0.999999f, y_in = 1e-6f;
    vf acc[2 * FR], x = FNAME(splat)(x_in), y = FNAME(splat)(y_in), total = FNAME(splat)(0.0f);
    for (size_t i = 0; i < 2 * FR; i++)
        acc[i] = FNAME(splat)((float)i);
    for (size_t it = 0; it < iters; it++) {
        ATTN_UNROLL                   /* 展开：acc 的 2·FR 个向量都待在寄存器里 */
        for (size_t i = 0; i < 2 * FR; i++)
            acc[i] = acc[i] * x + y;
    }
    for (size_t i = 0; i < 2 * FR; i++)
        total += acc[i];
    float sum = 0.0f;
    for (size_t u = 0; u < FW; u++)
        sum += total[u];
    return sum;
}
