#line 1586 "book/03-attention.nw"
/* examples/ch03.h：第 3 章的例子，练习程序、测试和图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH03_H
#define ATTN_EXAMPLES_CH03_H

#include "attn.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#line 30 "book/03-attention.nw"
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
#line 309 "book/03-attention.nw"
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

/* 用强度 s（名词找形容词）和 c（同一短语）造出 W_Q、W_K，算出 q[8][3] = X W_Q 和 k[8][3] = X W_K */
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
    int status = attn_linear(fluffy_x, w_q, NULL, q, FL_N, FL_D, FL_DK);   /* Q = X W_Q */
    if (status == ATTN_OK)
        status = attn_linear(fluffy_x, w_k, NULL, k, FL_N, FL_D, FL_DK);  /* K = X W_K */
    return status;
}

/* 注意力权重 w[8][8] 和输出 out[8][5]（W_V 是单位矩阵，所以 V = X） */
static inline int fluffy_attention(float s, float c, float *w, float *out)
{
    float q[FL_N * FL_DK], k[FL_N * FL_DK];
    int status = fluffy_qk(s, c, q, k);
    return status != ATTN_OK ? status
         : attn_sdpa(q, k, fluffy_x, FL_N, FL_N, FL_DK, FL_D, 0.0f, NULL, 0, out, w);
}

#line 1600 "book/03-attention.nw"
#endif
