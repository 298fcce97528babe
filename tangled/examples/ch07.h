#line 662 "book/07-multihead.nw"
/* examples/ch07.h：第 7 章的例子，练习程序、测试和图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH07_H
#define ATTN_EXAMPLES_CH07_H

#include "attn.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#line 713 "book/07-multihead.nw"
/* 可重复的伪随机数，落在 [-1, 1) */
static inline float rnd(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 8388608.0f - 1.0f;
}

static inline void rnd_fill(float *a, size_t n, unsigned *state)
{
    for (size_t i = 0; i < n; i++)
        a[i] = rnd(state);
}
#line 119 "book/07-multihead.nw"
enum { PH_N = 8, PH_D = 24 };   /* 这个直白的版本支持的最多词数和最大宽度 */

/* 从 big[rows][cols] 里抄出第 col0 列起的 width 列：small[rows][width] */
static inline void take_columns(const float *big, size_t rows, size_t cols, size_t col0,
                                size_t width, float *small)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < width; c++)
            small[r * width + c] = big[r * cols + col0 + c];
}

/* out[n_q×d_model] = concat(head_1, …, head_h)·W_O + b_O，一个头一个头地算 */
static inline int mha_per_head(const attn_mha_weights *w, const float *x_q, size_t n_q,
                               const float *x_kv, size_t n_kv, float *out)
{
    size_t dm = w->d_model, dh = w->d_head, dc = w->n_heads * w->d_head;
    float cat[PH_N * PH_D];                             /* 拼接矩阵 cat[n_q][dc] */
    float wq[PH_D * PH_D], wk[PH_D * PH_D], wv[PH_D * PH_D];
    float q[PH_N * PH_D], k[PH_N * PH_D], v[PH_N * PH_D], o[PH_N * PH_D];
#line 580 "book/07-multihead.nw"
    if (n_q > PH_N || n_kv > PH_N || dm > PH_D || dc > PH_D || dh == 0)
        return ATTN_EINVAL;
#line 139 "book/07-multihead.nw"
    for (size_t h = 0; h < w->n_heads; h++) {
        take_columns(w->w_q, dm, dc, h * dh, dh, wq);   /* W_Q 的第 h 段：dm×dh */
        take_columns(w->w_k, dm, dc, h * dh, dh, wk);
        take_columns(w->w_v, dm, dc, h * dh, dh, wv);
        attn_linear(x_q, wq, NULL, q, n_q, dm, dh);     /* q[n_q][dh] = x_q·W_Q^(h) */
        attn_linear(x_kv, wk, NULL, k, n_kv, dm, dh);   /* k[n_kv][dh] */
        attn_linear(x_kv, wv, NULL, v, n_kv, dm, dh);   /* v[n_kv][dh] */
        attn_sdpa(q, k, v, n_q, n_kv, dh, dh, 0.0f, NULL, 0, o, NULL);   /* head_h */
        for (size_t i = 0; i < n_q; i++)                /* 抄进 cat 的第 h 段 */
            for (size_t c = 0; c < dh; c++)
                cat[i * dc + h * dh + c] = o[i * dh + c];
    }
    return attn_linear(cat, w->w_o, w->b_o, out, n_q, dc, dm);
}
#line 999 "book/07-multihead.nw"
/* a[m][n] 的秩：带部分主元的高斯消元，绝对值小于 tol 的主元当作 0。a 会被改写。 */
static inline size_t matrix_rank(float *a, size_t m, size_t n, float tol)
{
    size_t rank = 0;
    for (size_t col = 0; col < n && rank < m; col++) {
        size_t best = rank;
        for (size_t r = rank + 1; r < m; r++)
            if (fabsf(a[r * n + col]) > fabsf(a[best * n + col]))
                best = r;
        if (fabsf(a[best * n + col]) < tol)
            continue;
        for (size_t c = 0; c < n; c++) {
            float t = a[rank * n + c];
            a[rank * n + c] = a[best * n + c];
            a[best * n + c] = t;
        }
        for (size_t r = rank + 1; r < m; r++) {
            float f = a[r * n + col] / a[rank * n + col];
            for (size_t c = col; c < n; c++)
                a[r * n + c] -= f * a[rank * n + c];
        }
        rank++;
    }
    return rank;
}

/* 头的值矩阵 m[d][d] = down[d][dh] · up[dh][d]，down 和 up 随机 */
static inline void random_value_map(size_t d, size_t dh, unsigned *seed, float *m)
{
    float down[16 * 16], up[16 * 16];   /* d·dh 不超过 256 */
    rnd_fill(down, d * dh, seed);
    rnd_fill(up, dh * d, seed);
    for (size_t r = 0; r < d; r++)
        for (size_t c = 0; c < d; c++) {
            float s = 0.0f;
            for (size_t t = 0; t < dh; t++)
                s += down[r * dh + t] * up[t * d + c];
            m[r * d + c] = s;
        }
}
#line 445 "book/07-multihead.nw"
enum { SENT_N = 8, SENT_D = 10, SENT_H = 3, SENT_DH = 8, SENT_DC = SENT_H * SENT_DH };

static const char *const sent_words[SENT_N] = {
    "a", "fluffy", "blue", "creature", "roamed", "the", "verdant", "forest"};
static const int sent_adj[SENT_N] = {0, 1, 1, 0, 0, 0, 1, 0};
static const int sent_noun[SENT_N] = {0, 0, 0, 1, 0, 0, 0, 1};

/* x[8][10]：位置的独热编码、形容词标记、名词标记 */
static inline void sent_embed(float *x)
{
    for (size_t i = 0; i < SENT_N * SENT_D; i++)
        x[i] = 0.0f;
    for (size_t i = 0; i < SENT_N; i++) {
        x[i * SENT_D + i] = 1.0f;
        x[i * SENT_D + 8] = (float)sent_adj[i];
        x[i * SENT_D + 9] = (float)sent_noun[i];
    }
}

/* w_q、w_k、w_v、w_o、b_q 由调用者提供存储；s 是对得上的一对缩放后的分数 */
static inline void sent_heads(float s, float *wq, float *wk, float *wv, float *wo,
                              float *bq)
{
    float c = s * sqrtf((float)SENT_DH);   /* 点积乘以 1/sqrt(8) 之后正好是 s */
    for (size_t i = 0; i < SENT_D * SENT_DC; i++)
        wq[i] = wk[i] = wv[i] = wo[i] = 0.0f;
    for (size_t i = 0; i < SENT_DC; i++)
        bq[i] = 0.0f;
    /* 头 0，列 0..7：查询 i 指向位置 i-1，键 j 就是位置 j */
    for (size_t p = 1; p < SENT_N; p++)
        wq[p * SENT_DC + 0 * SENT_DH + (p - 1)] = c;
    for (size_t p = 0; p < SENT_N; p++)
        wk[p * SENT_DC + 0 * SENT_DH + p] = 1.0f;
    /* 头 1，列 8..15：名词标记进入查询，形容词标记进入键 */
    wq[9 * SENT_DC + 1 * SENT_DH] = c;
    wk[8 * SENT_DC + 1 * SENT_DH] = 1.0f;
    /* 头 2，列 16..23：查询只有偏置，指向位置 0 */
    bq[2 * SENT_DH + 0] = c;
    for (size_t p = 0; p < SENT_N; p++)
        wk[p * SENT_DC + 2 * SENT_DH + p] = 1.0f;
    /* 值和输出：把位置编码原样搬运（本节只看注意力模式） */
    for (size_t p = 0; p < SENT_N; p++)
        for (size_t h = 0; h < SENT_H; h++) {
            wv[p * SENT_DC + h * SENT_DH + p] = 1.0f;
            wo[(h * SENT_DH + p) * SENT_D + p] = 1.0f / SENT_H;
        }
}

#line 677 "book/07-multihead.nw"
#endif
