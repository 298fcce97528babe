#line 621 "book/09-fast.nw"
/* src/flash.c — 分块、在线 softmax、多线程的缩放点积注意力。 */
#include "attn.h"
#include "attn_core.h"
#include "fastexp.h"
#include "internal.h"
#include "mask.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "flash_common.h"

#line 126 "book/09-fast.nw"
/* 一个头的问题。dvp 是 d_v 补到 FD 的倍数；fk 是键块的大小（通常是 FK）。 */
struct flash_problem {
    const float *q, *k, *v;           /* q[n_q][d_k]、k[n_k][d_k]、v[n_k][d_v] */
    size_t ld_q, ld_k, ld_v, ld_out;  /* 四个矩阵的行距 */
    size_t n_q, n_k, d_k, d_v, dvp, fk;
    float scale;
    const unsigned char *mask;        /* 空指针，或 [n_q][n_k] */
    int causal;
    float *out, *weights;             /* out[n_q][d_v]；weights 为空指针或 [n_q][n_k] */
    /* 空指针，或 [n_q]：每行最后的 m 和 l（第 12 章的反向传播要用） */
    float *row_m, *row_l;
};

/* 一个线程的工作区。dq = min(d_k, FDK)。 */
struct flash_work {
    float *qt;      /* [dq][FQ]   查询块乘以 scale 再转置 */
    float *kb;      /* [FK][dq]   附录 D：最后一个键块补零的副本 */
    float *vb;      /* [FK][dvp]  附录 D：值块补零的副本 */
    float *s;       /* [FK][FQ]   分数的转置，随后就地变成 exp */
    float *o;       /* [FQ][dvp]  还没除以 l 的输出 */
    float *m;       /* [FQ]       每行到目前为止的最大分数 */
    float *l;       /* [FQ]       每行到目前为止 exp 的和 */
    float *alpha;   /* [FQ]       这一块的修正因子 exp(m - m') */
};

#line 679 "book/09-fast.nw"
/* 工作区的字节数；溢出时返回 0。 */
static size_t flash_work_bytes(size_t d_k, size_t dvp)
{
    size_t a, b, sum;
    if (!attn_bytes2(&a, FQ + FK, d_k < FDK ? d_k : FDK) || !attn_bytes2(&b, FK + FQ, dvp) ||
        __builtin_add_overflow(a, b, &sum) ||
        __builtin_add_overflow(sum, (FK * FQ + 3 * FQ) * sizeof(float), &sum))
        return 0;
    return sum;
}

/* 把 mem 开始的 flash_work_bytes 个字节分成工作区的各段 */
static void flash_work_carve(struct flash_work *w, float *mem, size_t d_k, size_t dvp)
{
    size_t dq = d_k < FDK ? d_k : FDK;
    w->qt = mem;
    w->kb = w->qt + dq * FQ;
    w->vb = w->kb + FK * dq;
    w->s = w->vb + FK * dvp;
    w->o = w->s + FK * FQ;
    w->m = w->o + FQ * dvp;
    w->l = w->m + FQ;
    w->alpha = w->l + FQ;
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

#line 454 "book/09-fast.nw"
static inline int flash_visible(const struct flash_problem *p, size_t i, size_t j)
{
    return (!p->mask && !p->causal) || attn_key_visible(p->mask, p->causal, p->n_q, p->n_k, i, j);
}

static inline float flash_base(float m)
{
    return m == -INFINITY ? 0.0f : m;
}

#line 159 "book/09-fast.nw"
/* qt[t][x] = q[i0+x][t0+t] · scale：x < rows，t < d */
static void flash_queries(const struct flash_problem *p, const struct flash_work *w,
                          size_t i0, size_t rows, size_t t0, size_t d)
{
    for (size_t t = 0; t < d; t++)
        for (size_t x = 0; x < rows; x++)
            w->qt[t * FQ + x] = p->q[(i0 + x) * p->ld_q + t0 + t] * p->scale;
}

#line 173 "book/09-fast.nw"
/* s[c][x] = q[i0+x] · k[j0+c] · scale（键 c 在行，查询 x 在列），
   c < cols，x < rows；看不见的是 -inf */
static void flash_scores(const struct flash_problem *p, const struct flash_work *w,
                         size_t i0, size_t rows, size_t j0, size_t cols)
{
    for (size_t c = 0; c < cols; c++)
        for (size_t x = 0; x < rows; x++)
            w->s[c * FQ + x] = flash_visible(p, i0 + x, j0 + c) ? 0.0f : -INFINITY;
    for (size_t t0 = 0; t0 < p->d_k; t0 += FDK) {
        size_t d = p->d_k - t0 < FDK ? p->d_k - t0 : FDK;
        if (p->d_k > FDK)
            flash_queries(p, w, i0, rows, t0, d);
        for (size_t c = 0; c < cols; c++) {
            const float *k = p->k + (j0 + c) * p->ld_k + t0;
            float *s = w->s + c * FQ;
            for (size_t t = 0; t < d; t++)
                for (size_t x = 0; x < rows; x++)
                    s[x] += k[t] * w->qt[t * FQ + x];
        }
    }
}

#line 201 "book/09-fast.nw"
/* 每个查询 x（s 的一列）：m' = max(m, max_c s[c][x])，α = exp(m − m')，
   s[c][x] = exp(s[c][x] − m')，l = α·l + Σ_c s[c][x]，o 的第 x 行乘 α */
static void flash_online(const struct flash_problem *p, const struct flash_work *w,
                         size_t rows, size_t cols)
{
    for (size_t x = 0; x < rows; x++)
        w->alpha[x] = w->m[x];                          /* 先记下旧的 m */
    for (size_t c = 0; c < cols; c++)
        for (size_t x = 0; x < rows; x++)
            w->m[x] = w->s[c * FQ + x] > w->m[x] ? w->s[c * FQ + x] : w->m[x];
    for (size_t x = 0; x < rows; x++) {
        w->alpha[x] = attn_exp_neg(w->alpha[x] - flash_base(w->m[x]));
        w->l[x] *= w->alpha[x];
    }
    for (size_t c = 0; c < cols; c++)
        for (size_t x = 0; x < rows; x++) {
            float e = attn_exp_neg(w->s[c * FQ + x] - flash_base(w->m[x]));
            w->s[c * FQ + x] = e;
            w->l[x] += e;
        }
    for (size_t x = 0; x < rows; x++)
        for (size_t y = 0; y < p->d_v; y++)
            w->o[x * p->dvp + y] *= w->alpha[x];
}

#line 230 "book/09-fast.nw"
/* o[x][·] += Σ_c s[c][x] · v[j0+c][·]，x < rows，c < cols */
static void flash_accumulate(const struct flash_problem *p, const struct flash_work *w,
                             size_t rows, size_t j0, size_t cols)
{
    for (size_t x = 0; x < rows; x++) {
        float *o = w->o + x * p->dvp;
        for (size_t c = 0; c < cols; c++) {
            float e = w->s[c * FQ + x];
            const float *v = p->v + (j0 + c) * p->ld_v;
            for (size_t y = 0; y < p->d_v; y++)
                o[y] += e * v[y];
        }
    }
}

#line 250 "book/09-fast.nw"
static void flash_block(const struct flash_problem *p, const struct flash_work *w,
                        size_t i0)
{
    size_t rows = p->n_q - i0 < FQ ? p->n_q - i0 : FQ;
    if (p->d_k <= FDK)                          /* 转置一次，每个键块都用它 */
        flash_queries(p, w, i0, rows, 0, p->d_k);
    for (size_t x = 0; x < rows; x++) {
        w->m[x] = -INFINITY;
        w->l[x] = 0.0f;
        for (size_t y = 0; y < p->d_v; y++)
            w->o[x * p->dvp + y] = 0.0f;
    }
    size_t j_end = flash_key_end(p->n_q, p->n_k, p->causal, i0, rows);
    for (size_t j0 = 0; j0 < j_end; j0 += p->fk) {
        size_t cols = j_end - j0 < p->fk ? j_end - j0 : p->fk;
        flash_scores(p, w, i0, rows, j0, cols);
        flash_online(p, w, rows, cols);
        flash_accumulate(p, w, rows, j0, cols);
    }
#line 277 "book/09-fast.nw"
    for (size_t x = 0; x < rows; x++) {
        float inv = w->l[x] > 0.0f ? 1.0f / w->l[x] : 0.0f;
        for (size_t y = 0; y < p->d_v; y++)
            p->out[(i0 + x) * p->ld_out + y] = w->o[x * p->dvp + y] * inv;
#line 468 "book/09-fast.nw"
        if (p->row_m != NULL) {
            p->row_m[i0 + x] = w->m[x];
            p->row_l[i0 + x] = w->l[x];
        }
#line 282 "book/09-fast.nw"
    }
#line 475 "book/09-fast.nw"
    /* weights[i0+x][j] = exp(s − m[x]) / l[x]，m、l 已是整行的最终值；j_end 之后的键都看不见，分数是 -inf */
    for (size_t j0 = 0; p->weights != NULL && j0 < p->n_k; j0 += p->fk) {
        size_t cols = p->n_k - j0 < p->fk ? p->n_k - j0 : p->fk;
        flash_scores(p, w, i0, rows, j0, cols);
        for (size_t x = 0; x < rows; x++)
            for (size_t c = 0; c < cols; c++)
                p->weights[(i0 + x) * p->n_k + j0 + c] = w->l[x] > 0.0f
                    ? attn_exp_neg(w->s[c * FQ + x] - w->m[x]) / w->l[x] : 0.0f;
    }
#line 270 "book/09-fast.nw"
}

#line 721 "book/09-fast.nw"
/* 附录 D：flash_block_w8、flash_block_w16 */
#line 427 "book/D-cpu.nw"
#define FLASH_BODY "flash_kernel.h"
#include "flash_widths.h"

#line 517 "book/09-fast.nw"
static const char *const flash_isa_names[ATTN_ISA_COUNT] = {"portable", "avx2", "avx512"};

const char *attn_isa_name(int isa)
{
    return isa >= 0 && isa < ATTN_ISA_COUNT ? flash_isa_names[isa] : "unknown";
}

int attn_isa_lanes(int isa)
{
    return isa == ATTN_ISA_AVX512 ? 16 : isa == ATTN_ISA_AVX2 ? 8 : isa == ATTN_ISA_PORTABLE ? 4 : 0;
}

int attn_isa_available(int isa)
{
#line 599 "book/09-fast.nw"
    /* 附录 D：问 CPU 有没有 AVX2 和 AVX-512 */
#line 557 "book/D-cpu.nw"
    #if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (isa == ATTN_ISA_AVX2)
        return avx2;
    if (isa == ATTN_ISA_AVX512)
        return avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
    #endif
#line 532 "book/09-fast.nw"
    return isa == ATTN_ISA_PORTABLE;
}

/* 正在用的指令集；-1 表示还没选 */
static int flash_isa = -1;

int attn_isa_force(int isa)
{
    if (isa != -1 && !(isa >= 0 && isa < ATTN_ISA_COUNT && attn_isa_available(isa)))
        return ATTN_EINVAL;
    __atomic_store_n(&flash_isa, isa, __ATOMIC_RELAXED);
    return ATTN_OK;
}

int attn_isa_current(void)
{
    int isa = __atomic_load_n(&flash_isa, __ATOMIC_RELAXED);
    if (isa >= 0)
        return isa;
    isa = ATTN_ISA_PORTABLE;                      /* 能用的最宽的一份 */
    for (int i = 0; i < ATTN_ISA_COUNT; i++)
        if (attn_isa_available(i))
            isa = i;
#line 603 "book/09-fast.nw"
    /* 附录 D：环境变量 ATTN_ISA 可以指定一份较窄的 */
#line 573 "book/D-cpu.nw"
    #if defined(__x86_64__) && defined(__GNUC__)
    const char *want = getenv("ATTN_ISA");        /* 环境变量指定了一份能用的，就用它 */
    for (int i = 0; want != NULL && i < ATTN_ISA_COUNT; i++)
        if (strcmp(want, flash_isa_names[i]) == 0 && attn_isa_available(i))
            isa = i;
    #endif
#line 556 "book/09-fast.nw"
    __atomic_store_n(&flash_isa, isa, __ATOMIC_RELAXED);
    return isa;
}

#line 725 "book/09-fast.nw"
typedef void flash_block_fn(const struct flash_problem *, const struct flash_work *, size_t);

/* 指令集 isa 的查询块函数 */
static flash_block_fn *flash_block_for(int isa)
{
#line 737 "book/09-fast.nw"
    /* 附录 D：AVX2 和 AVX-512 的那一份 */
#line 432 "book/D-cpu.nw"
    if (isa != ATTN_ISA_PORTABLE && ATTN_FOR_ISA(isa, flash_block) != NULL)
        return ATTN_FOR_ISA(isa, flash_block);
#line 731 "book/09-fast.nw"
    (void)isa;
    return flash_block;
}

#line 1010 "book/09-fast.nw"
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
    if (d_v > SIZE_MAX / 2)      /* 补到 FD 的倍数时不能绕回 0 */
        return 0;
    size_t dvp = (d_v + FD - 1) / FD * FD, one = flash_work_bytes(d_k, dvp), bytes, row;
    /* 工作区只放 FDK 个分量，但一行查询的字节数装不下时，这样的问题本身就不存在 */
    if (threads < 0 || threads > 1024 || d_k == 0 || d_v == 0 || one == 0 || !attn_bytes1(&row, d_k) ||
        __builtin_mul_overflow(one, (size_t)flash_threads(threads), &bytes))
        return 0;
    return bytes;
}

#line 1050 "book/09-fast.nw"
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

#line 897 "book/09-fast.nw"
/* 矩阵 x 的 n 行、每行 d 个数（行距 ld）里最大的绝对值；有无穷大或 NaN 时返回 INFINITY */
static double flash_max_abs(const float *x, size_t n, size_t d, size_t ld)
{
#line 939 "book/09-fast.nw"
    /* 附录 D：同样的事，按最宽的向量做 */
#line 443 "book/D-cpu.nw"
    {
        uint32_t bits = ATTN_FOR_ISA(attn_isa_current(), max_bits)(x, n, d, ld);
        if (bits >= 0x7f800000u)                  /* 指数位全是 1：无穷大或 NaN */
            return INFINITY;
        float big;
        memcpy(&big, &bits, sizeof big);
        return big;
    }
#line 901 "book/09-fast.nw"
    float top = 0.0f;
    int finite = 1;
    for (size_t i = 0; i < n; i++)
        for (size_t t = 0; t < d; t++) {
            float a = fabsf(x[i * ld + t]);
            finite &= a <= FLT_MAX;          /* NaN 和无穷大都不满足 */
            top = a > top ? a : top;
        }
    return finite ? top : INFINITY;
}

#ifdef _OPENMP
/* 有几个头、数据又多，值得分给几个线程 */
static int flash_many(const attn_problem *prob)
{
    return prob->heads > 1 && (prob->n_q + prob->n_k) * prob->d_k > 8192;
}
#endif

int attn_flash_applies(const attn_problem *prob)
{
    /* 这一遍要读完 Q、K、V；有几个头、数据又多时，几个线程分头去读 */
    int ok = 1;
    ATTN_OMP("omp parallel for num_threads(flash_threads(prob->threads)) reduction(&&:ok) if(flash_many(prob))")
    for (size_t h = 0; h < prob->heads; h++) {
        double mq = flash_max_abs(prob->q + h * prob->head_q, prob->n_q, prob->d_k, prob->ld_q);
        double mk = flash_max_abs(prob->k + h * prob->head_k, prob->n_k, prob->d_k, prob->ld_k);
        double mv = flash_max_abs(prob->v + h * prob->head_v, prob->n_k, prob->d_v, prob->ld_v);
        double bound = (double)prob->d_k * mq * mk * fmax(1.0, (double)prob->scale);
        if (mv == INFINITY || !(bound < 1e36) || !(mq * prob->scale < 1e36) ||
            !((double)prob->n_k * mv < 1e36))
            ok = 0;
    }
    return ok;
}

#line 327 "book/09-fast.nw"
/* row_m、row_l 为空指针，或 [heads][n_q]：每行最后的 m 和 l */
static int flash_run(const attn_problem *prob, float *row_m, float *row_l)
{
    size_t n_q = prob->n_q, n_k = prob->n_k, d_k = prob->d_k, d_v = prob->d_v;
    size_t dvp = (d_v + FD - 1) / FD * FD, fk = FK;
    size_t n_blocks = (n_q + FQ - 1) / FQ, n_items = prob->heads * n_blocks;
    flash_block_fn *block = flash_block_for(attn_isa_current());
    int failed = 0;
    ATTN_OMP("omp parallel num_threads(flash_threads(prob->threads))")
    {
        struct flash_work w = {0};
        float *own = NULL, *mem = NULL;  /* own：自己分配的，最后释放 */
#line 750 "book/09-fast.nw"
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
        if (mem == NULL) {
            ATTN_OMP("omp atomic write")
            failed = 1;
        }
#line 340 "book/09-fast.nw"
        ATTN_OMP("omp for schedule(dynamic, 1)")
        for (size_t it = 0; it < n_items; it++) {
#line 770 "book/09-fast.nw"
            /* 头 h 的第 b 个查询块；同一个头里后面的块先分出去 */
            size_t h = it / n_blocks, b = n_blocks - 1 - it % n_blocks;
            struct flash_problem p = {
                .q = prob->q + h * prob->head_q, .k = prob->k + h * prob->head_k,
                .v = prob->v + h * prob->head_v,
                .ld_q = prob->ld_q, .ld_k = prob->ld_k, .ld_v = prob->ld_v, .ld_out = prob->ld_out,
                .n_q = n_q, .n_k = n_k, .d_k = d_k, .d_v = d_v, .dvp = dvp, .fk = fk,
                .scale = prob->scale, .mask = prob->mask, .causal = prob->causal,
                .out = prob->out + h * prob->head_out,
                .weights = prob->weights ? prob->weights + h * n_q * n_k : NULL,
                .row_m = row_m ? row_m + h * n_q : NULL, .row_l = row_l ? row_l + h * n_q : NULL,
            };
#line 343 "book/09-fast.nw"
            if (mem)
                block(&p, &w, b * FQ);
        }
        free(own);
    }
    return failed ? ATTN_ENOMEM : ATTN_OK;
}

int attn_flash(const attn_problem *prob)
{
    return flash_run(prob, NULL, NULL);
}

#line 789 "book/09-fast.nw"
int attn_flash_with_stats(const attn_problem *prob, float *row_m, float *row_l)
{
    return flash_run(prob, row_m, row_l);
}

int attn_flash_rows(const attn_problem *prob)
{
    if (!attn_flash_applies(prob))
        return attn_problem_reference(prob);
    size_t n_q = prob->n_q, n_k = prob->n_k, d_k = prob->d_k, d_v = prob->d_v, bytes;
    size_t dvp = (d_v + FD - 1) / FD * FD, fk = n_k, n_blocks = (n_q + FQ - 1) / FQ;
    float *row_m = NULL, *row_l = NULL;
    struct flash_work w = {0};
    float *mem = flash_work_alloc(&w, d_k, dvp);
    float *s = attn_bytes2(&bytes, n_k, FQ) ? malloc(bytes) : NULL;
    if (mem != NULL && s != NULL) {
        w.s = s;
        for (size_t it = 0; it < prob->heads * n_blocks; it++) {
#line 770 "book/09-fast.nw"
            /* 头 h 的第 b 个查询块；同一个头里后面的块先分出去 */
            size_t h = it / n_blocks, b = n_blocks - 1 - it % n_blocks;
            struct flash_problem p = {
                .q = prob->q + h * prob->head_q, .k = prob->k + h * prob->head_k,
                .v = prob->v + h * prob->head_v,
                .ld_q = prob->ld_q, .ld_k = prob->ld_k, .ld_v = prob->ld_v, .ld_out = prob->ld_out,
                .n_q = n_q, .n_k = n_k, .d_k = d_k, .d_v = d_v, .dvp = dvp, .fk = fk,
                .scale = prob->scale, .mask = prob->mask, .causal = prob->causal,
                .out = prob->out + h * prob->head_out,
                .weights = prob->weights ? prob->weights + h * n_q * n_k : NULL,
                .row_m = row_m ? row_m + h * n_q : NULL, .row_l = row_l ? row_l + h * n_q : NULL,
            };
#line 808 "book/09-fast.nw"
            flash_block(&p, &w, b * FQ);
        }
    }
    int status = mem != NULL && s != NULL ? ATTN_OK : ATTN_ENOMEM;
    free(mem);
    free(s);
    return status;
}

#line 611 "book/09-fast.nw"
/* 附录 D：测峰值的函数 */
#line 746 "book/D-cpu.nw"
double attn_isa_peak_flops(int isa, int threads, size_t iters)
{
    float (*loop)(size_t) = NULL;
    int fr = 6;
#if defined(__x86_64__) && defined(__GNUC__)
    if (isa == ATTN_ISA_AVX512) {
        loop = fma_loop_w16;
        fr = 12;
    }
    if (isa == ATTN_ISA_AVX2)
        loop = fma_loop_w8;
#endif
    if (isa == ATTN_ISA_PORTABLE)
        loop = fma_loop_w4;
    if (loop == NULL || !attn_isa_available(isa) || threads < 1 || threads > 1024)
        return 0.0;
    float sum = 0.0f;
    int ran = 0;
    ATTN_OMP("omp parallel num_threads(threads) reduction(+:ran, sum)")
    {
        sum += loop(iters);
        ran += 1;
    }
    volatile float sink = sum;   /* 结果要用到，循环才不会被删掉 */
    (void)sink;
    return (double)ran * (double)iters * 2.0 * fr * attn_isa_lanes(isa) * 2.0;
}
