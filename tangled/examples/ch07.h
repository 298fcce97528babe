#line 558 "book/07-multihead.nw"
/* examples/ch07.h：第 7 章的例子，练习程序、测试和图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH07_H
#define ATTN_EXAMPLES_CH07_H

#include "attn.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#line 607 "book/07-multihead.nw"
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
#line 862 "book/07-multihead.nw"
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
#line 435 "book/07-multihead.nw"
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
static inline void sent_heads(float s, float *wq, float *wk, float *wv, float *wo, float *bq)
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

#line 572 "book/07-multihead.nw"
#endif
