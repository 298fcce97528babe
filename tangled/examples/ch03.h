#line 1753 "book/03-attention.nw"
/* examples/ch03.h：第 3 章的例子，练习程序、测试和图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH03_H
#define ATTN_EXAMPLES_CH03_H

#include "attn.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#line 46 "book/03-attention.nw"
/* 照公式直接算：e^x[i] / Σ e^x[j]。输入大于 88 左右就会溢出。 */
static inline void softmax_naive(float *x, size_t n)
{
    float sum = 0.0f;
    for (size_t i = 0; i < n; i++) {
        x[i] = expf(x[i]);
        sum += x[i];
    }
    for (size_t i = 0; i < n; i++)
        x[i] /= sum;
}
#line 1813 "book/03-attention.nw"
/* 一行分数 (2, 1, 0, -1) 和四个温度 */
enum { TEMP_N = 4, TEMP_COUNT = 4 };
static const float temp_scores[TEMP_N] = {2, 1, 0, -1};
static const float temp_values[TEMP_COUNT] = {0.5f, 1, 2, 5};

/* w[TEMP_N] = softmax(temp_scores / t) */
static inline int softmax_at_temperature(float t, float *w)
{
    for (size_t j = 0; j < TEMP_N; j++)
        w[j] = temp_scores[j] / t;
    return attn_softmax(w, TEMP_N);
}
#line 211 "book/03-attention.nw"
/* out[n_q][d_v] = softmax(q[n_q][d_k] · k[n_k][d_k]ᵀ / √d_k) · v[n_k][d_v]，
   w[n_q][n_k] 接收注意力权重 */
static inline void sdpa_plain(const float *q, const float *k, const float *v,
                              size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                              float *w, float *out)
{
    for (size_t i = 0; i < n_q; i++) {
        float *p = w + i * n_k;               /* 查询 i 的一行 */
        /* 第一步：分数 p[j] = q[i]·k[j] / √d_k */
        for (size_t j = 0; j < n_k; j++) {
            float dot = 0.0f;
            for (size_t t = 0; t < d_k; t++)
                dot += q[i * d_k + t] * k[j * d_k + t];
            p[j] = dot / sqrtf((float)d_k);
        }
        /* 第二步：权重 p = softmax(p)，每个数在 0 和 1 之间，和为 1 */
        attn_softmax(p, n_k);
        /* 第三步：输出 out[i] = Σ_j p[j]·v[j]，各个值向量的加权平均 */
        for (size_t c = 0; c < d_v; c++) {
            float acc = 0.0f;
            for (size_t j = 0; j < n_k; j++)
                acc += p[j] * v[j * d_v + c];
            out[i * d_v + c] = acc;
        }
    }
}
#line 312 "book/03-attention.nw"
/* a fluffy blue creature roamed the verdant forest：八个词，每个词 5 维。
   分量：名词、形容词、第一个短语、第二个短语、动词。 */
enum { FL_N = 8, FL_D = 5, FL_DK = 3 };
static const char *const fluffy_words[FL_N] = {
    "a", "fluffy", "blue", "creature", "roamed", "the", "verdant", "forest"};
static const float fluffy_x[FL_N * FL_D] = {
    0, 0, 1, 0, 0,   /* a */
    0, 1, 1, 0, 0,   /* fluffy */
    0, 1, 1, 0, 0,   /* blue */
    1, 0, 1, 0, 0,   /* creature */
    0, 0, 0, 0, 1,   /* roamed */
    0, 0, 0, 1, 0,   /* the */
    0, 1, 0, 1, 0,   /* verdant */
    1, 0, 0, 1, 0,   /* forest */
};

/* 用强度 s（名词找形容词）和 c（同一短语）造出 W_Q、W_K，
   算出 q[8][3] = X W_Q 和 k[8][3] = X W_K */
static inline int fluffy_qk(float s, float c, float *q, float *k)
{
    /* w_q[5][3]、w_k[5][3]：行是词向量的分量，列是查询（键）的分量 */
    const float w_q[FL_D * FL_DK] = {
        s, 0, 0,    /* 名词 → “我在找形容词” */
        0, 0, 0,
        0, c, 0,    /* 第一个短语 */
        0, 0, c,    /* 第二个短语 */
        0, 0, 0,
    };
    const float w_k[FL_D * FL_DK] = {
        0, 0, 0,
        s, 0, 0,    /* 形容词 → “我是形容词” */
        0, c, 0,
        0, 0, c,
        0, 0, 0,
    };
    /* Q = X W_Q，K = X W_K */
    int status = attn_linear(fluffy_x, w_q, NULL, q, FL_N, FL_D, FL_DK);
    if (status == ATTN_OK)
        status = attn_linear(fluffy_x, w_k, NULL, k, FL_N, FL_D, FL_DK);
    return status;
}

/* 注意力权重 w[8][8] 和输出 out[8][5]（W_V 是单位矩阵，所以 V = X），用朴素的三步算 */
static inline int fluffy_attention(float s, float c, float *w, float *out)
{
    float q[FL_N * FL_DK], k[FL_N * FL_DK];
    int status = fluffy_qk(s, c, q, k);
    if (status == ATTN_OK)
        sdpa_plain(q, k, fluffy_x, FL_N, FL_N, FL_DK, FL_D, w, out);
    return status;
}

#line 1769 "book/03-attention.nw"
#endif
