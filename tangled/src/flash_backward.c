#line 1189 "book/D-cpu.nw"
/* src/flash_backward.c — 分块、重算注意力模式的 attn_sdpa_backward。 */
#include "attn.h"
#include "attn_core.h"
#include "internal.h"
#include "mask.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "flash_common.h"
#include <float.h>

/* 不内联的函数（见下面的 bwd_tile_rows） */
#ifdef __GNUC__
#define BWD_NOINLINE __attribute__((noinline))
#else
#define BWD_NOINLINE
#endif

#line 1234 "book/D-cpu.nw"
struct bwd_problem {
    const float *k, *v;            /* k[n_k][d_k]、v[n_k][d_v] */
    size_t n_q, n_k, d_k, d_v;
    size_t nqp, dkp, dvp;          /* n_q 补到 FQ 的倍数，d_k、d_v 补到 FD 的倍数 */
    const unsigned char *mask;
    int causal;
    const float *qt;               /* [nqp/FQ][d_k][FQ]  q·scale 的转置，每个查询块一段 */
    const float *qp;               /* [nqp][dkp]         q，列补零 */
    const float *dot;              /* [nqp/FQ][d_v][FQ]  dout 的转置，每个查询块一段 */
    const float *dop;              /* [nqp][dvp]  dout，列补零 */
    const float *base, *il, *D;    /* [nqp]       每行的 m（-inf 换成 0）、1/l（或 0）、D */
};

/* 一个线程的工作区（和 n 无关） */
struct bwd_work {
    float *kb;      /* [FK][dkp]  键块，补零 */
    float *vb;      /* [FK][dvp]  值块，补零 */
    float *s;       /* [FK][FQ]   Pᵀ，随后变成 dSᵀ */
    float *dp;      /* [FK][FQ]   dPᵀ */
    float *dk;      /* [FK][dkp]  这个键块的 dK（还没乘 scale） */
    float *dv;      /* [FK][dvp]  这个键块的 dV */
};

static size_t bwd_work_floats(size_t dkp, size_t dvp)
{
    return 2 * FK * dkp + 2 * FK * dvp + 2 * FK * FQ;
}

#line 1215 "book/D-cpu.nw"
#define FLASH_BODY "flash_backward_kernel.h"
#include "flash_widths.h"

#line 1428 "book/D-cpu.nw"
/* 指令集 isa 的那一份是 ATTN_FOR_ISA(isa, bwd_block)（第 9 章的 src/flash_widths.h） */
typedef void bwd_block_fn(const struct bwd_problem *, const struct bwd_work *, size_t,
                          float *, float *, float *, float);

#line 1439 "book/D-cpu.nw"
/* max |x_i|；有无穷大或 NaN 时是无穷大。在 float 里比较（取绝对值、比大小都是精确的），循环里没有分支，可以向量化 */
static double bwd_max_abs(const float *x, size_t n)
{
    float m = 0.0f;
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        float a = fabsf(x[i]);
        bad |= !(a <= FLT_MAX);          /* 无穷大和 NaN 都不满足 a <= FLT_MAX */
        m = a > m ? a : m;
    }
    return bad ? INFINITY : (double)m;
}

static int bwd_applies(const attn_problem *prob, const float *dout)
{
    size_t n_q = prob->n_q, n_k = prob->n_k;
    double mq = bwd_max_abs(prob->q, n_q * prob->d_k), mk = bwd_max_abs(prob->k, n_k * prob->d_k);
    double mv = bwd_max_abs(prob->v, n_k * prob->d_v), md = bwd_max_abs(dout, n_q * prob->d_v);
    double b = (double)prob->d_v * md * mv, n = (double)(n_q > n_k ? n_q : n_k);
    double grad = n * 2.0 * b * fmax(mq, mk) * fmax(1.0, (double)prob->scale);
    return attn_flash_applies(prob) && grad < 1e30 && n * md < 1e30;
}

#line 1466 "book/D-cpu.nw"
/* 实际的线程数；不合法时为 0 */
static size_t bwd_threads(int threads)
{
    if (threads < 0 || threads > 1024)
        return 0;
#ifdef _OPENMP
    return (size_t)(threads > 0 ? threads : omp_get_max_threads());
#else
    return 1;
#endif
}

/* 共用的 float 个数写进 *shared，每个线程的写进 *each；溢出时返回 0 */
static int bwd_sizes(size_t n_q, size_t d_k, size_t d_v, size_t *shared, size_t *each)
{
    size_t nqp, dkp, dvp, b, c;
    if (n_q > SIZE_MAX - FQ || d_k > SIZE_MAX / 2 || d_v > SIZE_MAX / 2)
        return 0;
    nqp = (n_q + FQ - 1) / FQ * FQ;
    dkp = (d_k + FD - 1) / FD * FD;
    dvp = (d_v + FD - 1) / FD * FD;
    /* qt、qp；dot、dop；base、il、D */
    if (!attn_bytes2(&b, nqp, dkp + d_k) || !attn_bytes2(&c, nqp, dvp + d_v) ||
        __builtin_add_overflow(b, c, &b) ||
        __builtin_add_overflow(b / sizeof(float), 3 * nqp, shared) ||
        !attn_bytes2(&b, nqp, dkp) ||                          /* 每个线程的 dq[nqp][dkp] */
        __builtin_add_overflow(b / sizeof(float), bwd_work_floats(dkp, dvp), each))
        return 0;
    return 1;
}

/* attn_flash_backward_saved 分配的字节数；溢出或参数不合法时为 0 */
static size_t bwd_saved_bytes(size_t n_q, size_t n_k, size_t d_k, size_t d_v, int threads)
{
    size_t shared, each, all, nt = bwd_threads(threads);
    if (n_q == 0 || n_k == 0 || d_k == 0 || d_v == 0 || nt == 0 ||
        !bwd_sizes(n_q, d_k, d_v, &shared, &each) || __builtin_mul_overflow(each, nt, &all) ||
        __builtin_add_overflow(all, shared, &all) || all > SIZE_MAX / sizeof(float) - 16)
        return 0;
    return (all * sizeof(float) + 63) / 64 * 64;
}

/* 前向的 o[n_q][d_v]、每行的 m 和 l 的字节数；溢出时为 0 */
static size_t bwd_forward_bytes(size_t n_q, size_t d_v)
{
    size_t b;
    if (d_v > SIZE_MAX - 2 || !attn_bytes2(&b, n_q, d_v + 2))
        return 0;
    return b;
}

size_t attn_flash_backward_bytes(size_t n_q, size_t n_k, size_t d_k, size_t d_v, int threads)
{
    size_t a = bwd_saved_bytes(n_q, n_k, d_k, d_v, threads), b = bwd_forward_bytes(n_q, d_v);
    if (a == 0 || b == 0 || __builtin_add_overflow(a, b, &a))
        return 0;
    return a;
}

#line 1544 "book/D-cpu.nw"
int attn_flash_backward_saved(const float *q, const float *k, const float *v, const float *o,
                              const float *row_m, const float *row_l,
                              size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                              float scale, const unsigned char *mask, int causal,
                              const float *dout, float *dq, float *dk, float *dv, int threads)
{
    size_t shared, each, nt = bwd_threads(threads);
    size_t bytes = bwd_saved_bytes(n_q, n_k, d_k, d_v, threads);
    if (bytes == 0 || o == NULL || row_m == NULL || row_l == NULL ||
        !bwd_sizes(n_q, d_k, d_v, &shared, &each))
        return -1;
    attn_problem prob = {
        .q = q, .k = k, .v = v, .heads = 1, .n_q = n_q, .n_k = n_k, .d_k = d_k, .d_v = d_v,
        .ld_q = d_k, .ld_k = d_k, .ld_v = d_v, .ld_out = d_v, .scale = scale,
        .mask = mask, .causal = causal, .threads = (int)nt,
    };
    if (!bwd_applies(&prob, dout))
        return -1;
    float *mem = aligned_alloc(64, bytes);
    if (mem == NULL)
        return -1;
    size_t nqp = (n_q + FQ - 1) / FQ * FQ, dkp = (d_k + FD - 1) / FD * FD;
    size_t dvp = (d_v + FD - 1) / FD * FD;
    float *dq_all = mem + shared;        /* 线程 t 的 dq[nqp][dkp] 和工作区从 dq_all + t·each 开始 */
    int status = ATTN_OK;
#line 1616 "book/D-cpu.nw"
    float *qt = mem, *qp = qt + d_k * nqp, *dot = qp + nqp * dkp;
    float *dop = dot + d_v * nqp, *base = dop + nqp * dvp, *il = base + nqp, *D = il + nqp;
    for (size_t i = 0; i < nqp; i++) {
        int real = i < n_q;                  /* 补出来的行全是 0 */
        size_t blk = i / FQ * FQ, x = i % FQ;    /* 第 blk/FQ 个查询块里的第 x 个 */
        for (size_t t = 0; t < d_k; t++)
            qt[blk * d_k + t * FQ + x] = real ? q[i * d_k + t] * scale : 0.0f;
        for (size_t t = 0; t < dkp; t++)
            qp[i * dkp + t] = real && t < d_k ? q[i * d_k + t] : 0.0f;
        for (size_t t = 0; t < d_v; t++)
            dot[blk * d_v + t * FQ + x] = real ? dout[i * d_v + t] : 0.0f;
        for (size_t t = 0; t < dvp; t++)
            dop[i * dvp + t] = real && t < d_v ? dout[i * d_v + t] : 0.0f;
        double di = 0.0;                     /* D_i = dout_i · o_i */
        for (size_t t = 0; real && t < d_v; t++)
            di += (double)dout[i * d_v + t] * o[i * d_v + t];
        D[i] = (float)di;
        il[i] = real && row_l[i] > 0.0f ? 1.0f / row_l[i] : 0.0f;
        base[i] = real && row_m[i] != -INFINITY ? row_m[i] : 0.0f;
    }
    struct bwd_problem p = {
        .k = k, .v = v, .n_q = n_q, .n_k = n_k, .d_k = d_k, .d_v = d_v,
        .nqp = nqp, .dkp = dkp, .dvp = dvp, .mask = mask, .causal = causal,
        .qt = qt, .qp = qp, .dot = dot, .dop = dop, .base = base, .il = il, .D = D,
    };
#line 1647 "book/D-cpu.nw"
    memset(dq_all, 0, nt * each * sizeof *dq_all);
    if (status == ATTN_OK) {
        bwd_block_fn *block = ATTN_FOR_ISA(attn_isa_current(), bwd_block);
        size_t n_blocks = (n_k + FK - 1) / FK;
        ATTN_OMP("omp parallel num_threads((int)nt)")
        {
    #ifdef _OPENMP
            size_t t = (size_t)omp_get_thread_num();
    #else
            size_t t = 0;
    #endif
            float *mine = dq_all + t * each, *wm = mine + nqp * dkp;
            struct bwd_work w = {
                .kb = wm, .vb = wm + FK * dkp, .s = wm + FK * (dkp + dvp),
                .dp = wm + FK * (dkp + dvp) + FK * FQ, .dk = wm + FK * (dkp + dvp) + 2 * FK * FQ,
                .dv = wm + FK * (2 * dkp + dvp) + 2 * FK * FQ,
            };
            ATTN_OMP("omp for schedule(static, 1)")
            for (size_t b = 0; b < n_blocks; b++)
                block(&p, &w, b * FK, dq != NULL ? mine : NULL, dk, dv, scale);
        }
    }
#line 1672 "book/D-cpu.nw"
    /* dq[i][t] = scale · Σ_线程 dq_线程[i][t]，按线程号的顺序加 */
    for (size_t i = 0; status == ATTN_OK && dq != NULL && i < n_q; i++)
        for (size_t t = 0; t < d_k; t++) {
            float sum = 0.0f;
            for (size_t th = 0; th < nt; th++)
                sum += dq_all[th * each + i * dkp + t];
            dq[i * d_k + t] = scale * sum;
        }
#line 1572 "book/D-cpu.nw"
    free(mem);
    return status == ATTN_OK ? ATTN_OK : -1;
}

int attn_flash_backward(const float *q, const float *k, const float *v,
                        size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                        float scale, const unsigned char *mask, int causal,
                        const float *dout, float *dq, float *dk, float *dv, int threads)
{
#line 1593 "book/D-cpu.nw"
    size_t fb = bwd_forward_bytes(n_q, d_v);
    attn_problem prob = {
        .q = q, .k = k, .v = v, .heads = 1, .n_q = n_q, .n_k = n_k, .d_k = d_k, .d_v = d_v,
        .ld_q = d_k, .ld_k = d_k, .ld_v = d_v, .ld_out = d_v, .scale = scale,
        .mask = mask, .causal = causal, .threads = (int)bwd_threads(threads),
    };
    if (fb == 0 || attn_flash_backward_bytes(n_q, n_k, d_k, d_v, threads) == 0 ||
        !bwd_applies(&prob, dout))
        return -1;
    float *o = malloc(fb);
    if (o == NULL)
        return -1;
    float *row_m = o + n_q * d_v, *row_l = row_m + n_q;
    prob.out = o;
    if (attn_flash_with_stats(&prob, row_m, row_l) != ATTN_OK) {
        free(o);
        return -1;
    }
#line 1582 "book/D-cpu.nw"
    int status = attn_flash_backward_saved(q, k, v, o, row_m, row_l, n_q, n_k, d_k, d_v, scale, mask,
                                           causal, dout, dq, dk, dv, threads);
    free(o);
    return status;
}
