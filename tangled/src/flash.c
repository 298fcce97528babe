#line 102 "book/09-fast.nw"
/* src/flash.c — 分块、在线 softmax、多线程的缩放点积注意力。 */
#include "attn.h"
#include "attn_core.h"
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

#line 180 "book/09-fast.nw"
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

#line 209 "book/09-fast.nw"
/* 一个头的问题。dvp 是 d_v 补到 TC 的倍数。 */
struct flash_problem {
    const float *q, *k, *v;           /* q[n_q][d_k]、k[n_k][d_k]、v[n_k][d_v] */
    size_t ld_q, ld_k, ld_v, ld_out;  /* 四个矩阵的行距 */
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

/* 工作区的字节数；溢出时返回 0。 */
static size_t flash_work_bytes(size_t d_k, size_t dvp)
{
    size_t a, b, sum;
    if (!attn_bytes2(&a, FQ + FK, d_k) || !attn_bytes2(&b, FK + FQ, dvp) ||
        __builtin_add_overflow(a, b, &sum) ||
        __builtin_add_overflow(sum, (FQ * FK + 2 * FQ) * sizeof(float), &sum))
        return 0;
    return sum;
}

/* 把 mem 开始的 flash_work_bytes 个字节分成工作区的各段 */
static void flash_work_carve(struct flash_work *w, float *mem, size_t d_k, size_t dvp)
{
    w->qb = mem;
    w->kt = w->qb + FQ * d_k;
    w->vb = w->kt + d_k * FK;
    w->s = w->vb + FK * dvp;
    w->o = w->s + FQ * FK;
    w->m = w->o + FQ * dvp;
    w->l = w->m + FQ;
}

/* 分配一个线程的工作区；失败时返回 NULL */
static float *flash_work_alloc(struct flash_work *w, size_t d_k, size_t dvp)
{
    size_t bytes = flash_work_bytes(d_k, dvp);
    float *mem = bytes ? aligned_alloc(64, bytes) : NULL;
    if (mem != NULL)
        flash_work_carve(w, mem, d_k, dvp);
    return mem;
}

#line 148 "book/09-fast.nw"
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

#line 437 "book/09-fast.nw"
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

#line 453 "book/09-fast.nw"
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

#line 702 "book/09-fast.nw"
/* 查询 i0 .. i0+rows-1 要看的键是 [0, 返回值)；不用减法，免得无符号数变成负数 */
static size_t flash_key_end(size_t n_q, size_t n_k, int causal, size_t i0, size_t rows)
{
    if (!causal)
        return n_k;
    size_t lim = i0 + rows + n_k;
    size_t end = lim > n_q ? lim - n_q : 0;
    return end < n_k ? end : n_k;
}

#line 271 "book/09-fast.nw"
/* s[rows][FK] = qb · kᵀ，键 j0 .. j0+cols；看不见的键和补出来的列为 -inf */
ATTN_INLINE void flash_scores(const struct flash_problem *p, const struct flash_work *w,
                              size_t i0, size_t rows, size_t j0, size_t cols)
{
    size_t d_k = p->d_k, rows_t = (rows + TR - 1) / TR * TR;
#line 283 "book/09-fast.nw"
    /* kt[d_k][FK] = k[j0 .. j0+cols)[d_k] 的转置，多出的列补零 */
    for (size_t c = 0; c < FK; c++)
        for (size_t t = 0; t < d_k; t++)
            w->kt[t * FK + c] = c < cols ? p->k[(j0 + c) * p->ld_k + t] : 0.0f;
#line 290 "book/09-fast.nw"
    /* s[rows_t][FK] = qb[rows_t][d_k] · kt[d_k][FK] */
    memset(w->s, 0, rows_t * FK * sizeof *w->s);
    for (size_t r = 0; r < rows_t; r += TR)
        for (size_t c = 0; c < FK; c += TC)
            tile_6x16(w->qb + r * d_k, d_k, w->kt + c, FK, w->s + r * FK + c, FK, d_k);
#line 301 "book/09-fast.nw"
    int partial = p->mask != NULL || cols < FK ||
                  (p->causal && j0 + cols - 1 + p->n_q > i0 + p->n_k);
    if (partial)
        for (size_t r = 0; r < rows; r++)
            for (size_t c = 0; c < FK; c++)
                if (c >= cols || !attn_key_visible(p->mask, p->causal, p->n_q, p->n_k, i0 + r, j0 + c))
                    w->s[r * FK + c] = -INFINITY;
#line 279 "book/09-fast.nw"
}

#line 561 "book/09-fast.nw"
ATTN_CLONES
static void flash_block(const struct flash_problem *p, const struct flash_work *w, size_t i0)
{
    size_t rows = p->n_q - i0 < FQ ? p->n_q - i0 : FQ;
    size_t rows_t = (rows + TR - 1) / TR * TR;
    size_t dvp = p->dvp;
#line 584 "book/09-fast.nw"
    /* qb[rows_t][d_k] = q[i0 .. i0+rows)[d_k] · scale，多出的行补零 */
    memset(w->qb, 0, rows_t * p->d_k * sizeof *w->qb);
    for (size_t r = 0; r < rows; r++)
        for (size_t t = 0; t < p->d_k; t++)
            w->qb[r * p->d_k + t] = p->q[(i0 + r) * p->ld_q + t] * p->scale;
#line 592 "book/09-fast.nw"
    memset(w->o, 0, rows_t * dvp * sizeof *w->o);
    for (size_t r = 0; r < rows; r++) {
        w->m[r] = -INFINITY;
        w->l[r] = 0.0f;
    }
#line 569 "book/09-fast.nw"
    size_t j_end = flash_key_end(p->n_q, p->n_k, p->causal, i0, rows);
    for (size_t j0 = 0; j0 < j_end; j0 += FK) {
        size_t cols = p->n_k - j0 < FK ? p->n_k - j0 : FK;
        flash_scores(p, w, i0, rows, j0, cols);
#line 413 "book/09-fast.nw"
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
#line 600 "book/09-fast.nw"
        /* vb[FK][dvp] = v[j0 .. j0+cols)[d_v]，多出的行和列补零 */
        memset(w->vb, 0, FK * dvp * sizeof *w->vb);
        for (size_t c = 0; c < cols; c++)
            memcpy(w->vb + c * dvp, p->v + (j0 + c) * p->ld_v, p->d_v * sizeof *w->vb);
#line 609 "book/09-fast.nw"
        /* o[rows_t][dvp] += s[rows_t][cols] · vb[cols][dvp] */
        for (size_t r = 0; r < rows_t; r += TR)
            for (size_t x = 0; x < dvp; x += TC)
                tile_6x16(w->s + r * FK, FK, w->vb + x, dvp, w->o + r * dvp + x, dvp, cols);
#line 576 "book/09-fast.nw"
    }
#line 618 "book/09-fast.nw"
    /* out[i0+r][d_v] = o[r] / l[r]；一个键也看不见的行 l = 0，输出全零 */
    for (size_t r = 0; r < rows; r++) {
        float inv = w->l[r] > 0.0f ? 1.0f / w->l[r] : 0.0f;
        for (size_t x = 0; x < p->d_v; x++)
            p->out[(i0 + r) * p->ld_out + x] = w->o[r * dvp + x] * inv;
    }
#line 578 "book/09-fast.nw"
    if (p->weights != NULL)
#line 630 "book/09-fast.nw"
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
#line 580 "book/09-fast.nw"
}

#line 656 "book/09-fast.nw"
static int flash_threads(int threads)
{
#ifdef _OPENMP
    return threads > 0 ? threads : omp_get_max_threads();
#else
    (void)threads;
    return 1;
#endif
}

size_t attn_flash_bytes(size_t d_k, size_t d_v, int threads)
{
    if (d_v > SIZE_MAX / 2)      /* 补到 TC 的倍数时不能绕回 0 */
        return 0;
    size_t dvp = (d_v + TC - 1) / TC * TC, one = flash_work_bytes(d_k, dvp), bytes;
    if (threads < 0 || threads > 1024 || d_k == 0 || d_v == 0 || one == 0 ||
        __builtin_mul_overflow(one, (size_t)flash_threads(threads), &bytes))
        return 0;
    return bytes;
}

#line 726 "book/09-fast.nw"
/* 快速路径实际算的分数个数（因果时跳过整块看不见的键块）；溢出时为 0 */
size_t attn_flash_scores(size_t n_q, size_t n_k, int causal)
{
    size_t all;
    if (__builtin_mul_overflow(n_q, n_k, &all))
        return 0;
    if (!causal || all == 0)
        return all;
    size_t blocks = (n_q + FQ - 1) / FQ, last = n_q - (blocks - 1) * FQ;
    size_t d = n_q > n_k ? n_q - n_k : 0, m0 = d / FQ + 1;
    size_t total = last * n_k;                      /* 最后一块看见全部键 */
    if (m0 <= blocks - 1) {
        size_t c = blocks - m0, e0 = m0 * FQ + n_k - n_q;   /* 满块 m0 .. blocks-1 */
        size_t tri = c % 2 == 0 ? c / 2 * (c - 1) : (c - 1) / 2 * c;
        total += FQ * (c * e0 + FQ * tri);
    }
    return total;
}

#line 966 "book/09-fast.nw"
/* 矩阵 x 的 n 行、每行 d 个数（行距 ld）里最大的绝对值；有无穷大或 NaN 时返回 INFINITY */
static double flash_max_abs(const float *x, size_t n, size_t d, size_t ld)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t t = 0; t < d; t++) {
            if (!isfinite(x[i * ld + t]))
                return INFINITY;
            m = fmax(m, fabs((double)x[i * ld + t]));
        }
    return m;
}

int attn_flash_applies(const attn_problem *prob)
{
    for (size_t h = 0; h < prob->heads; h++) {
        double mq = flash_max_abs(prob->q + h * prob->head_q, prob->n_q, prob->d_k, prob->ld_q);
        double mk = flash_max_abs(prob->k + h * prob->head_k, prob->n_k, prob->d_k, prob->ld_k);
        double mv = flash_max_abs(prob->v + h * prob->head_v, prob->n_k, prob->d_v, prob->ld_v);
        double bound = (double)prob->d_k * mq * mk * fmax(1.0, (double)prob->scale);
        if (mv == INFINITY || !(bound < 1e36) || !(mq * prob->scale < 1e36) ||
            !((double)prob->n_k * mv < 1e36))
            return 0;
    }
    return 1;
}

#line 884 "book/09-fast.nw"
int attn_flash(const attn_problem *prob)
{
    size_t n_q = prob->n_q, n_k = prob->n_k, d_k = prob->d_k, d_v = prob->d_v;
    size_t dvp = (d_v + TC - 1) / TC * TC;
    size_t n_blocks = (n_q + FQ - 1) / FQ, n_items = prob->heads * n_blocks;
    int failed = 0;
    ATTN_OMP("omp parallel num_threads(flash_threads(prob->threads))")
    {
        struct flash_work w = {0};       /* 分配失败时也不留未初始化的指针 */
        float *own = NULL, *mem = NULL;  /* own：自己分配的，最后释放 */
#line 912 "book/09-fast.nw"
        if (prob->scratch != NULL) {
        #ifdef _OPENMP
            size_t t = (size_t)omp_get_thread_num();
        #else
            size_t t = 0;
        #endif
            mem = (float *)((char *)prob->scratch + t * flash_work_bytes(d_k, dvp));
            flash_work_carve(&w, mem, d_k, dvp);
        } else {
            mem = own = flash_work_alloc(&w, d_k, dvp);
        }
#line 895 "book/09-fast.nw"
        if (mem == NULL) {
            ATTN_OMP("omp atomic write")
            failed = 1;
        }
        ATTN_OMP("omp for schedule(dynamic, 1)")
        for (size_t it = 0; it < n_items; it++) {
#line 926 "book/09-fast.nw"
            /* 头 h 的第 b 个查询块；同一个头里后面的块先分出去 */
            size_t h = it / n_blocks, b = n_blocks - 1 - it % n_blocks;
            struct flash_problem p = {
                .q = prob->q + h * prob->head_q, .k = prob->k + h * prob->head_k,
                .v = prob->v + h * prob->head_v,
                .ld_q = prob->ld_q, .ld_k = prob->ld_k, .ld_v = prob->ld_v, .ld_out = prob->ld_out,
                .n_q = n_q, .n_k = n_k, .d_k = d_k, .d_v = d_v, .dvp = dvp,
                .scale = prob->scale, .mask = prob->mask, .causal = prob->causal,
                .out = prob->out + h * prob->head_out,
                .weights = prob->weights ? prob->weights + h * n_q * n_k : NULL,
            };
#line 902 "book/09-fast.nw"
            if (mem != NULL)
                flash_block(&p, &w, b * FQ);
        }
        free(own);
    }
    return failed ? ATTN_ENOMEM : ATTN_OK;
}
