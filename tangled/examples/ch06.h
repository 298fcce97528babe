#line 359 "book/06-cross.nw"
/* examples/ch06.h：第 6 章的例子，练习程序、测试和图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH06_H
#define ATTN_EXAMPLES_CH06_H

#include "attn.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#line 92 "book/06-cross.nw"
enum { TR_NQ = 4, TR_NK = 5, TR_DK = 4, TR_DV = 5 };

static const char *const tr_src[TR_NK] = {"我", "昨天", "看见", "了", "她"};
static const char *const tr_tgt[TR_NQ] = {"I", "saw", "her", "yesterday"};

/* q[4][4]：英文词的查询，长度为 s；k[5][4]、v[5][5]：中文词的键和值 */
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
    /* 值的五个分量：我、她、时间、动作、完成 */
    static const float values[TR_NK * TR_DV] = {
        1, 0, 0, 0, 0,     /* 我 */
        0, 0, 1, 0, 0,     /* 昨天 */
        0, 0, 0, 1, 0,     /* 看见 */
        0, 0, 0, 0, 1,     /* 了 */
        0, 1, 0, 0, 0};    /* 她 */
    for (size_t i = 0; i < TR_NQ * TR_DK; i++)
        q[i] = s * dirs[i];
    for (size_t i = 0; i < TR_NK * TR_DK; i++)
        k[i] = keys[i];
    for (size_t i = 0; i < TR_NK * TR_DV; i++)
        v[i] = values[i];
}
#line 196 "book/06-cross.nw"
/* 键 kp[n_pad+5][4]、值 vp[n_pad+5][5]：前 5 行是原来的，后面是零键和全 1 的值 */
static inline void pad_source(const float *k, const float *v, size_t n_pad,
                              float *kp, float *vp)
{
    for (size_t i = 0; i < (TR_NK + n_pad) * TR_DK; i++)
        kp[i] = i < TR_NK * TR_DK ? k[i] : 0.0f;
    for (size_t i = 0; i < (TR_NK + n_pad) * TR_DV; i++)
        vp[i] = i < TR_NK * TR_DV ? v[i] : 1.0f;
}
#line 274 "book/06-cross.nw"
/* 解码 n_tgt 步的交叉注意力（一层、一个头，不带偏置）。
   源句读完后只算一次：k[n_src][d_k] = m[n_src][d] · w_k，v[n_src][d_v] = m · w_v；
   第 t 步只算 q[d_k] = y[t] · w_q，再用同一份 k、v 写出 out[t][d_v]。
   k、v、q 由调用者提供存储；返回库的状态码。 */
static inline int cross_attention_steps(const float *m, size_t n_src,
                                        const float *y, size_t n_tgt,
                                        size_t d, size_t d_k, size_t d_v,
                                        const float *w_q, const float *w_k,
                                        const float *w_v,
                                        float *k, float *v, float *q, float *out)
{
    int status = attn_linear(m, w_k, NULL, k, n_src, d, d_k);
    if (status == ATTN_OK)
        status = attn_linear(m, w_v, NULL, v, n_src, d, d_v);
    for (size_t t = 0; t < n_tgt && status == ATTN_OK; t++) {
        status = attn_linear(y + t * d, w_q, NULL, q, 1, d, d_k);
        if (status == ATTN_OK)
            status = attn_sdpa(q, k, v, 1, n_src, d_k, d_v, 0.0f, NULL, 0,
                               out + t * d_v, NULL);
    }
    return status;
}
#line 380 "book/06-cross.nw"
/* 一句源句的 K、V 投影：layers 层，每层 n_src·d·(d_k + d_v) 次乘加；超出 64 位时返回 0。 */
static inline unsigned long long kv_projection_macs(size_t n_src, size_t d, size_t d_k,
                                                    size_t d_v, size_t layers)
{
    unsigned long long r;
    if (__builtin_add_overflow(d_k, d_v, &r) || __builtin_mul_overflow(r, n_src, &r) ||
        __builtin_mul_overflow(r, d, &r) || __builtin_mul_overflow(r, layers, &r))
        return 0;
    return r;
}

#line 374 "book/06-cross.nw"
#endif
