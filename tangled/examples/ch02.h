#line 917 "book/02-similarity.nw"
/* examples/ch02.h：第 2 章的例子，练习程序、测试和图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH02_H
#define ATTN_EXAMPLES_CH02_H

#include "attn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#line 36 "book/02-similarity.nw"
/* 一张手画的二维词地图：每个字一个行向量 (x, y)，group 是它所属的类别。 */
static const struct word_point {
    const char *word;
    float xy[2];
    int group;          /* 0 颜色，1 速度，2 家具，3 动物 */
} word_map[] = {
    {"红", { 1,  1}, 0}, {"蓝", { 1,  2}, 0}, {"绿", { 2,  1}, 0}, {"黄", { 2,  2}, 0},
    {"快", {-1, -1}, 1}, {"慢", {-2, -1}, 1}, {"香", {-2, -2}, 1},
    {"桌", {-2,  1}, 2}, {"椅", {-1,  1}, 2},
    {"狗", { 1, -1}, 3}, {"猫", { 2, -1}, 3}, {"豹", { 3, -1}, 3}, {"鹿", { 2, -2}, 3},
    {"马", { 1, -2}, 3},
};
enum { N_WORDS = sizeof word_map / sizeof word_map[0] };

/* 按字查坐标；找不到时返回 NULL。 */
static inline const float *word_xy(const char *w)
{
    for (size_t i = 0; i < N_WORDS; i++)
        if (strcmp(word_map[i].word, w) == 0)
            return word_map[i].xy;
    return NULL;
}
#line 418 "book/02-similarity.nw"
/* weights[n][n]：第 i 行第 j 列是 x[i] 与 x[j] 的余弦乘以 temp；
   normalize 非零时每行再把负数置零、除以行和（行和为 0 时报错，没法除）。
   out[n][d]：第 i 行 = Σ_j weights[i][j] · x[j]。 */
static inline int naive_attention(const float *x, size_t n, size_t d, int normalize,
                                  float temp, float *weights, float *out)
{
    for (size_t i = 0; i < n; i++) {
        float *w = weights + i * n;
        for (size_t j = 0; j < n; j++) {
            int s = attn_cosine(x + i * d, x + j * d, d, &w[j]);
            if (s != ATTN_OK)
                return s;
            w[j] *= temp;
        }
        if (normalize) {
            int s = attn_relu(w, n);                  /* 负的权重换成 0 */
            if (s != ATTN_OK)
                return s;
            double sum = 0.0;
            for (size_t j = 0; j < n; j++)
                sum += w[j];
            if (sum == 0.0)
                return ATTN_EINVAL;                   /* 这一行没有正的分数，没法除 */
            for (size_t j = 0; j < n; j++)
                w[j] = (float)(w[j] / sum);
        }
        int s = attn_weighted_sum(w, x, n, d, out + i * d);
        if (s != ATTN_OK)
            return s;
    }
    return ATTN_OK;
}

#line 930 "book/02-similarity.nw"
#endif
