#line 102 "book/09-fast.nw"
/* src/flash.c — 分块、在线 softmax、多线程的缩放点积注意力。 */
#include "attn.h"
#include "fastexp.h"
#include "internal.h"
#include "mask.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#line 85 "book/09-fast.nw"
/* 查询块 FQ 行，键块 FK 个键；寄存器块 TR 行 TC 列。FQ 是 TR 的倍数，FK 是 TC 的倍数。 */
enum { FQ = 192, FK = 64, TR = 6, TC = 16 };
#line 168 "book/09-fast.nw"
#if defined(__GNUC__) && defined(__x86_64__)
#define ATTN_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ATTN_CLONES
#endif

#ifdef __GNUC__
#define ATTN_INLINE static inline __attribute__((always_inline))
#else
#define ATTN_INLINE static inline
#endif

#ifdef _OPENMP
#define ATTN_OMP(directive) _Pragma(directive)
#else
#define ATTN_OMP(directive)
#endif
#line 197 "book/09-fast.nw"
/* 一个头的问题。dvp 是 d_v 补到 TC 的倍数。 */
struct flash_problem {
    const float *q, *k, *v;           /* q[n_q][d_k]、k[n_k][d_k]、v[n_k][d_v] */
    size_t n_q, n_k, d_k, d_v, dvp;
    float scale;
    const unsigned char *mask;        /* NULL 或 [n_q][n_k] */
    int causal;
    float *out, *weights;             /* out[n_q][d_v]；weights 为 NULL 或 [n_q][n_k] */
};

/* 一个线程的工作区，大小只和 d_k、d_v 有关，与序列长度无关。 */
struct flash_work {
    float *qb;   /* [FQ][d_k]  查询块乘以 scale，不足的行补零 */
    float *kt;   /* [d_k][FK]  键块的转置，不足的列补零 */
    float *vb;   /* [FK][dvp]  值块，不足的行和列补零 */
    float *s;    /* [FQ][FK]   分数，随后就地变成 exp */
    float *o;    /* [FQ][dvp]  还没除以 l 的输出 */
    float *m;    /* [FQ]       每行到目前为止的最大分数 */
    float *l;    /* [FQ]       每行到目前为止 exp 的和 */
};

/* 工作区的 float 个数；溢出时返回 0。 */
static size_t flash_work_floats(size_t d_k, size_t dvp)
{
    size_t a, b, c;
    if (!attn_size_mul(FQ + FK, d_k, &a) || !attn_size_mul(FK + FQ, dvp, &b))
        return 0;
    c = FQ * FK + 2 * FQ;
    if (a > SIZE_MAX - b || a + b > SIZE_MAX - c)
        return 0;
    return a + b + c;
}

static float *flash_work_alloc(struct flash_work *w, size_t d_k, size_t dvp)
{
    size_t n = flash_work_floats(d_k, dvp);
    float *mem = n ? aligned_alloc(64, n * sizeof(float)) : NULL;
    if (mem == NULL)
        return NULL;
    w->qb = mem;
    w->kt = w->qb + FQ * d_k;
    w->vb = w->kt + d_k * FK;
    w->s = w->vb + FK * dvp;
    w->o = w->s + FQ * FK;
    w->m = w->o + FQ * dvp;
    w->l = w->m + FQ;
    return mem;
}
#line 136 "book/09-fast.nw"
/* 8 个 float 的向量：AVX2 的一个 ymm 寄存器（GCC、Clang 的向量扩展） */
typedef float attn_v8 __attribute__((vector_size(32)));

/* c[TR][TC] += a[TR][kdim] · b[kdim][TC]；lda、ldb、ldc 是三者的行距 */
ATTN_INLINE void tile_6x16(const float *a, size_t lda, const float *b, size_t ldb,
                           float *c, size_t ldc, size_t kdim)
{
    attn_v8 acc[TR][2];
    for (size_t r = 0; r < TR; r++)
        memcpy(acc[r], c + r * ldc, sizeof acc[r]);
    for (size_t t = 0; t < kdim; t++) {
        attn_v8 b0, b1;
        memcpy(&b0, b + t * ldb, sizeof b0);
        memcpy(&b1, b + t * ldb + 8, sizeof b1);
        for (size_t r = 0; r < TR; r++) {
            float ar = a[r * lda + t];
            acc[r][0] += ar * b0;
            acc[r][1] += ar * b1;
        }
    }
    for (size_t r = 0; r < TR; r++)
        memcpy(c + r * ldc, acc[r], sizeof acc[r]);
}
#line 430 "book/09-fast.nw"
/* max(m, x[0..FK))，分 8 条道各自求最大 */
ATTN_INLINE float row_max(const float *x, float m)
{
    float lane[8];
    for (size_t u = 0; u < 8; u++)
        lane[u] = m;
    for (size_t c = 0; c < FK; c += 8)
        for (size_t u = 0; u < 8; u++)
            lane[u] = x[c + u] > lane[u] ? x[c + u] : lane[u];
    for (size_t u = 0; u < 8; u++)
        m = lane[u] > m ? lane[u] : m;
    return m;
}
#line 446 "book/09-fast.nw"
/* x[c] = exp(x[c] - mx)，返回它们的和；-inf 变成 0 */
ATTN_INLINE float row_exp(float *x, float mx)
{
    float lane[8] = {0};
    for (size_t c = 0; c < FK; c += 8)
        for (size_t u = 0; u < 8; u++) {
            float e = attn_exp_neg(x[c + u] - mx);
            x[c + u] = e;
            lane[u] += e;
        }
    float sum = 0.0f;
    for (size_t u = 0; u < 8; u++)
        sum += lane[u];
    return sum;
}
#line 692 "book/09-fast.nw"
/* 查询 i0 .. i0+rows-1 要看的键是 [0, 返回值)；不用减法，免得无符号数变成负数 */
static size_t flash_key_end(size_t n_q, size_t n_k, int causal, size_t i0, size_t rows)
{
    if (!causal)
        return n_k;
    size_t lim = i0 + rows + n_k;
    size_t end = lim > n_q ? lim - n_q : 0;
    return end < n_k ? end : n_k;
}
#line 252 "book/09-fast.nw"
/* s[rows][FK] = qb · kᵀ，键 j0 .. j0+cols；看不见的键和补出来的列为 -inf */
ATTN_INLINE void flash_scores(const struct flash_problem *p, const struct flash_work *w,
                              size_t i0, size_t rows, size_t j0, size_t cols)
{
    size_t d_k = p->d_k, rows_t = (rows + TR - 1) / TR * TR;
    
#line 264 "book/09-fast.nw"
/* kt[d_k][FK] = k[j0 .. j0+cols)[d_k] 的转置，多出的列补零 */
for (size_t c = 0; c < FK; c++)
    for (size_t t = 0; t < d_k; t++)
        w->kt[t * FK + c] = c < cols ? p->k[(j0 + c) * d_k + t] : 0.0f;
#line 258 "book/09-fast.nw"
    
#line 271 "book/09-fast.nw"
/* s[rows_t][FK] = qb[rows_t][d_k] · kt[d_k][FK] */
memset(w->s, 0, rows_t * FK * sizeof *w->s);
for (size_t r = 0; r < rows_t; r += TR)
    for (size_t c = 0; c < FK; c += TC)
        tile_6x16(w->qb + r * d_k, d_k, w->kt + c, FK, w->s + r * FK + c, FK, d_k);
#line 259 "book/09-fast.nw"
    
#line 282 "book/09-fast.nw"
int partial = p->mask != NULL || cols < FK ||
              (p->causal && j0 + cols - 1 + p->n_q > i0 + p->n_k);
if (partial)
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < FK; c++)
            if (c >= cols || !attn_key_visible(p->mask, p->causal, p->n_q, p->n_k, i0 + r, j0 + c))
                w->s[r * FK + c] = -INFINITY;
#line 260 "book/09-fast.nw"
}
#line 554 "book/09-fast.nw"
ATTN_CLONES
static void flash_block(const struct flash_problem *p, const struct flash_work *w, size_t i0)
{
    size_t rows = p->n_q - i0 < FQ ? p->n_q - i0 : FQ;
    size_t rows_t = (rows + TR - 1) / TR * TR;
    size_t dvp = p->dvp;
    
#line 577 "book/09-fast.nw"
/* qb[rows_t][d_k] = q[i0 .. i0+rows)[d_k] · scale，多出的行补零 */
memset(w->qb, 0, rows_t * p->d_k * sizeof *w->qb);
for (size_t x = 0; x < rows * p->d_k; x++)
    w->qb[x] = p->q[i0 * p->d_k + x] * p->scale;
#line 561 "book/09-fast.nw"
    
#line 584 "book/09-fast.nw"
memset(w->o, 0, rows_t * dvp * sizeof *w->o);
for (size_t r = 0; r < rows; r++) {
    w->m[r] = -INFINITY;
    w->l[r] = 0.0f;
}
#line 562 "book/09-fast.nw"
    size_t j_end = flash_key_end(p->n_q, p->n_k, p->causal, i0, rows);
    for (size_t j0 = 0; j0 < j_end; j0 += FK) {
        size_t cols = p->n_k - j0 < FK ? p->n_k - j0 : FK;
        flash_scores(p, w, i0, rows, j0, cols);
        
#line 406 "book/09-fast.nw"
/* 对每一行 r：m' = max(m, max_c s[r][c])；s = exp(s - m')；
   l = l·exp(m - m') + Σ s；o[r] 乘同一个 exp(m - m') */
for (size_t r = 0; r < rows; r++) {
    float *sr = w->s + r * FK;
    float mx = row_max(sr, w->m[r]);
    if (mx == -INFINITY) {
        memset(sr, 0, FK * sizeof *sr);
        continue;
    }
    float alpha = attn_exp_neg(w->m[r] - mx);
    w->l[r] = w->l[r] * alpha + row_exp(sr, mx);
    w->m[r] = mx;
    if (alpha != 1.0f)                /* 最大值没变时不必缩放 */
        for (size_t x = 0; x < dvp; x++)
            w->o[r * dvp + x] *= alpha;
}
#line 567 "book/09-fast.nw"
        
#line 592 "book/09-fast.nw"
/* vb[FK][dvp] = v[j0 .. j0+cols)[d_v]，多出的行和列补零 */
memset(w->vb, 0, FK * dvp * sizeof *w->vb);
for (size_t c = 0; c < cols; c++)
    memcpy(w->vb + c * dvp, p->v + (j0 + c) * p->d_v, p->d_v * sizeof *w->vb);
#line 568 "book/09-fast.nw"
        
#line 601 "book/09-fast.nw"
/* o[rows_t][dvp] += s[rows_t][cols] · vb[cols][dvp] */
for (size_t r = 0; r < rows_t; r += TR)
    for (size_t x = 0; x < dvp; x += TC)
        tile_6x16(w->s + r * FK, FK, w->vb + x, dvp, w->o + r * dvp + x, dvp, cols);
#line 569 "book/09-fast.nw"
    }
    
#line 610 "book/09-fast.nw"
/* out[i0+r][d_v] = o[r] / l[r]；一个键也看不见的行 l = 0，输出全零 */
for (size_t r = 0; r < rows; r++) {
    float inv = w->l[r] > 0.0f ? 1.0f / w->l[r] : 0.0f;
    for (size_t x = 0; x < p->d_v; x++)
        p->out[(i0 + r) * p->d_v + x] = w->o[r * dvp + x] * inv;
}
#line 571 "book/09-fast.nw"
    if (p->weights != NULL)
        
#line 622 "book/09-fast.nw"
/* weights[i0+r][j] = exp(s - m[r]) / l[r]，m、l 已是整行的最终值 */
for (size_t j0 = 0; j0 < p->n_k; j0 += FK) {
    size_t cols = p->n_k - j0 < FK ? p->n_k - j0 : FK;
    if (j0 < j_end)
        flash_scores(p, w, i0, rows, j0, cols);
    for (size_t r = 0; r < rows; r++) {
        float *wr = p->weights + (i0 + r) * p->n_k + j0;
        for (size_t c = 0; c < cols; c++)
            wr[c] = 0.0f;
        if (j0 >= j_end || w->l[r] == 0.0f)
            continue;
        for (size_t c = 0; c < cols; c++)
            wr[c] = attn_exp_neg(w->s[r * FK + c] - w->m[r]) / w->l[r];
    }
}
#line 573 "book/09-fast.nw"
}
#line 646 "book/09-fast.nw"
static int flash_threads(int threads)
{
#ifdef _OPENMP
    return threads > 0 ? threads : omp_get_max_threads();
#else
    (void)threads;
    return 1;
#endif
}

size_t attn_sdpa_fast_bytes(size_t d_k, size_t d_v, int threads)
{
    if (d_v > SIZE_MAX / 2)      /* 补到 TC 的倍数时不能绕回 0 */
        return 0;
    size_t dvp = (d_v + TC - 1) / TC * TC, n = flash_work_floats(d_k, dvp), bytes;
    if (threads < 0 || d_k == 0 || d_v == 0 || n == 0 ||
        !attn_size_mul(n, sizeof(float) * (size_t)flash_threads(threads), &bytes))
        return 0;
    return bytes;
}
#line 712 "book/09-fast.nw"
/* 快速路径实际算的分数个数（因果时跳过整块看不见的键块）；溢出时为 0 */
size_t attn_sdpa_fast_scores(size_t n_q, size_t n_k, int causal)
{
    size_t total, all;
    if (!attn_size_mul(n_q, n_k, &all))
        return 0;
    total = 0;
    for (size_t i0 = 0; i0 < n_q; i0 += FQ) {
        size_t rows = n_q - i0 < FQ ? n_q - i0 : FQ;
        total += rows * flash_key_end(n_q, n_k, causal, i0, rows);
    }
    return total;
}
#line 852 "book/09-fast.nw"
static int flash_all_finite(const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* 所有分数 |q_i·k_j|·scale 的一个上界是否可能接近 float 的上限；输入不是有限数也算 */
static int flash_scores_may_overflow(const float *q, size_t nq, const float *k, size_t nk,
                                     size_t d_k, float scale)
{
    if (!flash_all_finite(q, nq) || !flash_all_finite(k, nk))
        return 1;
    double mq = 0.0, mk = 0.0;
    for (size_t i = 0; i < nq; i++)
        mq = fmax(mq, fabs((double)q[i]));
    for (size_t i = 0; i < nk; i++)
        mk = fmax(mk, fabs((double)k[i]));
    double bound = (double)d_k * mq * mk * fmax(1.0, (double)scale);
    return !(bound < 1e36);
}
#line 768 "book/09-fast.nw"
int attn_sdpa_heads(const float *q, const float *k, const float *v, size_t heads,
                    size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                    float scale, const unsigned char *mask, int causal,
                    float *out, float *weights, int threads)
{
    
#line 811 "book/09-fast.nw"
size_t size;
if (q == NULL || k == NULL || v == NULL || out == NULL)
    return ATTN_EINVAL;
if (heads == 0 || n_q == 0 || n_k == 0 || d_k == 0 || d_v == 0 || threads < 0)
    return ATTN_EINVAL;
if (!attn_size_mul(n_q, d_k, &size) || !attn_floats_fit(size, heads) ||
    !attn_size_mul(n_k, d_k, &size) || !attn_floats_fit(size, heads) ||
    !attn_size_mul(n_k, d_v, &size) || !attn_floats_fit(size, heads) ||
    !attn_size_mul(n_q, d_v, &size) || !attn_floats_fit(size, heads) ||
    !attn_size_mul(n_q, n_k, &size) || !attn_floats_fit(size, heads) ||
    attn_sdpa_fast_bytes(d_k, d_v, threads) == 0)
    return ATTN_EINVAL;
if (isnan(scale) || scale < 0.0f || isinf(scale))
    return ATTN_EINVAL;
if (scale == 0.0f)
    scale = 1.0f / sqrtf((float)d_k);
#line 774 "book/09-fast.nw"
    
#line 838 "book/09-fast.nw"
if (flash_scores_may_overflow(q, heads * n_q * d_k, k, heads * n_k * d_k, d_k, scale) ||
    !flash_all_finite(v, heads * n_k * d_v)) {
    for (size_t h = 0; h < heads; h++) {
        int st = attn_sdpa_reference(q + h * n_q * d_k, k + h * n_k * d_k, v + h * n_k * d_v,
                                     n_q, n_k, d_k, d_v, scale, mask, causal, out + h * n_q * d_v,
                                     weights ? weights + h * n_q * n_k : NULL);
        if (st != ATTN_OK)
            return st;
    }
    return ATTN_OK;
}
#line 775 "book/09-fast.nw"
    size_t dvp = (d_v + TC - 1) / TC * TC;
    size_t n_blocks = (n_q + FQ - 1) / FQ, n_items = heads * n_blocks;
    int failed = 0;
    ATTN_OMP("omp parallel num_threads(flash_threads(threads))")
    {
        struct flash_work w = {0};       /* 分配失败时也不留未初始化的指针 */
        float *mem = flash_work_alloc(&w, d_k, dvp);
        if (mem == NULL) {
            ATTN_OMP("omp atomic write")
            failed = 1;
        }
        ATTN_OMP("omp for schedule(dynamic, 1)")
        for (size_t it = 0; it < n_items; it++) {
            
#line 799 "book/09-fast.nw"
/* 头 h 的第 b 个查询块；同一个头里后面的块先分出去 */
size_t h = it / n_blocks, b = n_blocks - 1 - it % n_blocks;
struct flash_problem p = {
    q + h * n_q * d_k, k + h * n_k * d_k, v + h * n_k * d_v,
    n_q, n_k, d_k, d_v, dvp, scale, mask, causal,
    out + h * n_q * d_v, weights ? weights + h * n_q * n_k : NULL
};
#line 789 "book/09-fast.nw"
            if (mem != NULL)
                flash_block(&p, &w, b * FQ);
        }
        free(mem);
    }
    return failed ? ATTN_ENOMEM : ATTN_OK;
}
#line 892 "book/09-fast.nw"
int attn_sdpa_fast(const float *q, const float *k, const float *v,
                   size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                   float scale, const unsigned char *mask, int causal,
                   float *out, float *weights, int threads)
{
    return attn_sdpa_heads(q, k, v, 1, n_q, n_k, d_k, d_v, scale, mask, causal,
                           out, weights, threads);
}
