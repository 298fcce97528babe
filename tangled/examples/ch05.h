#line 1226 "book/05-mask.nw"
/* examples/ch05.h：第 5 章的例子，练习程序、测试和图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH05_H
#define ATTN_EXAMPLES_CH05_H

#include "attn.h"

#include <math.h>

#line 90 "book/05-mask.nw"
/* 正确：看不见的分数换成 -inf，再做 softmax。p[n] 得到权重。 */
static inline void mask_neg_inf(const float *s, const unsigned char *visible,
                                size_t n, float *p)
{
    for (size_t j = 0; j < n; j++)
        p[j] = visible[j] ? s[j] : -INFINITY;
    attn_softmax(p, n);
}
#line 129 "book/05-mask.nw"
/* 错误一：看不见的分数置 0，再做 softmax。 */
static inline void mask_zero_scores(const float *s, const unsigned char *visible,
                                    size_t n, float *p)
{
    for (size_t j = 0; j < n; j++)
        p[j] = visible[j] ? s[j] : 0.0f;
    attn_softmax(p, n);
}

/* 错误二：先做 softmax，再把看不见的权重置 0。 */
static inline void mask_zero_weights(const float *s, const unsigned char *visible,
                                     size_t n, float *p)
{
    for (size_t j = 0; j < n; j++)
        p[j] = s[j];
    attn_softmax(p, n);
    for (size_t j = 0; j < n; j++)
        if (!visible[j])
            p[j] = 0.0f;
}

/* 错误三：分数加上 -1e9 代替 -inf。 */
static inline void mask_big_negative(const float *s, const unsigned char *visible,
                                     size_t n, float *p)
{
    for (size_t j = 0; j < n; j++)
        p[j] = visible[j] ? s[j] : s[j] + -1e9f;
    attn_softmax(p, n);
}

/* 错误四：填 -inf，但 softmax 只会减最大值、不管整行都是 -inf 的情形。 */
static inline void mask_naive_inf(const float *s, const unsigned char *visible,
                                  size_t n, float *p)
{
    float m = -INFINITY, sum = 0.0f;
    for (size_t j = 0; j < n; j++) {
        p[j] = visible[j] ? s[j] : -INFINITY;
        if (p[j] > m)
            m = p[j];
    }
    for (size_t j = 0; j < n; j++) {
        p[j] = expf(p[j] - m);
        sum += p[j];
    }
    for (size_t j = 0; j < n; j++)
        p[j] /= sum;
}
#line 1146 "book/05-mask.nw"
/* n_q×n_k 个 float 占多少字节；溢出时返回 0。 */
static inline unsigned long long pattern_bytes(unsigned long long n_q, unsigned long long n_k)
{
    unsigned long long n = n_q * n_k;
    if (n_q != 0 && n / n_q != n_k)
        return 0;
    if (n > ~0ULL / sizeof(float))
        return 0;
    return n * sizeof(float);
}
#line 1159 "book/05-mask.nw"
/* *acc += a·b·c；超出 64 位时返回 0 */
static inline int macs_add3(unsigned long long *acc, unsigned long long a,
                            unsigned long long b, unsigned long long c)
{
    unsigned long long p;
    return !__builtin_mul_overflow(a, b, &p) && !__builtin_mul_overflow(p, c, &p) &&
           !__builtin_add_overflow(*acc, p, acc);
}

/* 一次一个词地生成 n 个词，layers 层、宽 d 的注意力子层一共做多少次乘加；超出 64 位时返回 0。
   一层里，一个词的四个投影（W_Q、W_K、W_V、W_O）是 4d² 次；位置 s 上的词对 s+1 个键
   算一行注意力（分数、加权求和）是 2d(s+1) 次。
   cached 非零：第 t 步只算新词 t；为零：第 t 步把词 0..t 整段重算。 */
static inline unsigned long long kv_generation_macs(size_t n, size_t d, size_t layers, int cached)
{
    unsigned long long total = 0;
    for (unsigned long long t = 0; t < n; t++) {
        unsigned long long first = cached ? t : 0;          /* 这一步算词 first..t */
        unsigned long long words = t + 1 - first;
        /* Σ_{s=first}^{t} (s+1) */
        unsigned long long rows = (t + 1) * (t + 2) / 2 - first * (first + 1) / 2;
        if (!macs_add3(&total, layers, words, 4ULL * d * d) ||
            !macs_add3(&total, layers, rows, 2ULL * d))
            return 0;
    }
    return total;
}
#line 1189 "book/05-mask.nw"
/* 图 5.1、图 5.2、活图和测试共用：6 个位置的随机查询 q[6×8]、键 k[6×8]、值 v[6×1]（种子 5） */
enum { KVF_N = 6, KVF_DK = 8, KVF_DV = 1 };
static inline int causal_example(float *q, float *k, float *v)
{
    attn_rng r;
    int status = attn_rng_seed(&r, 5);
    if (status == ATTN_OK) status = attn_rng_normal(&r, q, KVF_N * KVF_DK);
    if (status == ATTN_OK) status = attn_rng_normal(&r, k, KVF_N * KVF_DK);
    if (status == ATTN_OK) status = attn_rng_normal(&r, v, KVF_N * KVF_DV);
    return status;
}
#line 1203 "book/05-mask.nw"
/* 图 5.2 与测试共用：图 5.1 的查询、键、值逐词追加进缓存；
   第 t 步新查询的权重写进 w[t][0..t]，其余为 0。 */
static inline int kv_figure_steps(float *q, float *k, float *v, float *w)
{
    attn_kv_cache c;
    float out[KVF_DV];
    int status = causal_example(q, k, v);
    if (status == ATTN_OK) status = attn_kv_cache_init(&c, KVF_N, KVF_DK, KVF_DV);
    if (status != ATTN_OK)
        return status;
    for (size_t i = 0; i < KVF_N * KVF_N; i++)
        w[i] = 0.0f;
    for (size_t t = 0; t < KVF_N && status == ATTN_OK; t++) {
        status = attn_kv_cache_append(&c, k + t * KVF_DK, v + t * KVF_DV, 1);
        if (status == ATTN_OK)      /* w[t][0..t]：缓存里此时有 t+1 行 */
            status = attn_kv_cache_attend(&c, q + t * KVF_DK, 1, 0.0f, out, w + t * KVF_N);
    }
    attn_kv_cache_free(&c);
    return status;
}

#line 1240 "book/05-mask.nw"
#endif
