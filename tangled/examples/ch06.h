#line 599 "book/06-cross.nw"
/* examples/ch06.h：第 6 章的例子，练习程序、测试和图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH06_H
#define ATTN_EXAMPLES_CH06_H

#include "attn.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#line 76 "book/06-cross.nw"
enum { TR_NQ = 4, TR_NK = 5, TR_DK = 4, TR_DV = 3 };

static const char *const tr_src[TR_NK] = {"我", "昨天", "看见", "了", "她"};
static const char *const tr_tgt[TR_NQ] = {"I", "saw", "her", "yesterday"};

/* q[4][4]：英文词的查询，长度为 s；k[5][4]、v[5][3]：中文词的键和值 */
static inline void translation_example(float s, float *q, float *k, float *v)
{
    /* 四个概念方向：0 说话人，1 时间，2 看见，3 她 */
    static const float keys[TR_NK * TR_DK] = {
        1, 0, 0,    0,     /* 我 */
        0, 1, 0,    0,     /* 昨天 */
        0, 0, 1,    0,     /* 看见 */
        0, 0, 0.5f, 0,     /* 了 */
        0, 0, 0,    1};    /* 她 */
    static const float dirs[TR_NQ * TR_DK] = {
        1, 0, 0, 0,        /* I */
        0, 0, 1, 0,        /* saw */
        0, 0, 0, 1,        /* her */
        0, 1, 0, 0};       /* yesterday */
    /* 值的三个分量：人、时间、动作 */
    static const float values[TR_NK * TR_DV] = {
        1, 0, 0,   0, 1, 0,   0, 0, 1,   0, 0, 0,   1, 0, 0};
    for (size_t i = 0; i < TR_NQ * TR_DK; i++)
        q[i] = s * dirs[i];
    for (size_t i = 0; i < TR_NK * TR_DK; i++)
        k[i] = keys[i];
    for (size_t i = 0; i < TR_NK * TR_DV; i++)
        v[i] = values[i];
}
#line 265 "book/06-cross.nw"
/* 键 kp[n_pad+5][4]、值 vp[n_pad+5][3]：前 5 行是原来的，后面是零键和 (1,1,1) 值 */
static inline void pad_source(const float *k, const float *v, size_t n_pad, float *kp, float *vp)
{
    for (size_t i = 0; i < (TR_NK + n_pad) * TR_DK; i++)
        kp[i] = i < TR_NK * TR_DK ? k[i] : 0.0f;
    for (size_t i = 0; i < (TR_NK + n_pad) * TR_DV; i++)
        vp[i] = i < TR_NK * TR_DV ? v[i] : 1.0f;
}

#line 612 "book/06-cross.nw"
#endif
