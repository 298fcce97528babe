#line 297 "book/00-preface.nw"
/* src/internal.h — 库内部共用的小工具，不对外公开。 */
#ifndef ATTN_INTERNAL_H
#define ATTN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* *bytes = a 个 float 的字节数；溢出时返回 0，否则返回 1。 */
static inline int attn_bytes1(size_t *bytes, size_t a)
{
    return !__builtin_mul_overflow(a, sizeof(float), bytes);
}

/* *bytes = a×b 个 float 的字节数；溢出时返回 0，否则返回 1。 */
static inline int attn_bytes2(size_t *bytes, size_t a, size_t b)
{
    size_t n;
    return !__builtin_mul_overflow(a, b, &n) && attn_bytes1(bytes, n);
}

/* *bytes = a×b×c 个 float 的字节数；溢出时返回 0，否则返回 1。 */
static inline int attn_bytes3(size_t *bytes, size_t a, size_t b, size_t c)
{
    size_t n;
    return !__builtin_mul_overflow(a, b, &n) && attn_bytes2(bytes, n, c);
}

/* [a, a+a_bytes) 与 [b, b+b_bytes) 有共同的字节时返回 1；空指针或 0 字节不与任何东西重叠 */
static inline int attn_overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return a != NULL && b != NULL && a_bytes > 0 && b_bytes > 0 &&
           x < y + b_bytes && y < x + a_bytes;
}

/* 不再检查参数的计算核心：公开函数在入口处查过一次参数，库里的调用者（第 11 章起的模型）直接用它们 */
#line 339 "book/00-preface.nw"
/* 各章在这里声明 */
#line 256 "book/01-mlp.nw"
/* 两层前馈网络（第 1 章），激活函数由调用者给；它自己查参数，与 attn_ffn 相同 */
int attn_ffn_with(const float *x, size_t n, size_t d_in,
                  const float *w1, const float *b1, size_t d_hidden,
                  const float *w2, const float *b2, size_t d_out, float *y,
                  int (*act)(float *, size_t));
#line 457 "book/01-mlp.nw"
/* c[m×n] = a[m×k]·b[k×n]（第 1 章），不检查参数 */
int attn_matmul_kernel(const float *a, const float *b, float *c, size_t m, size_t k, size_t n);
#line 518 "book/05-mask.nw"
/* KV 缓存（第 5 章），不检查参数：调用者保证放得下（n ≤ capacity − len）、k 和 v 不碰要写的行 */
struct attn_kv_cache;
void attn_kv_cache_append_kernel(struct attn_kv_cache *c, const float *k, const float *v, size_t n);
/* 同 attn_kv_cache_attend，不要 weights；调用者保证 1 ≤ n_q ≤ len、scale 合法、out 不碰缓存和 q */
int attn_kv_cache_attend_kernel(const struct attn_kv_cache *c, const float *q, size_t n_q,
                                float scale, float *out);
#line 1739 "book/11-block.nw"
/* 层规范化（第 11 章），不检查参数；x、gamma、beta 里有无穷大：ATTN_EINVAL，y 不变 */
int attn_layernorm_kernel(const float *x, const float *gamma, const float *beta, float *y,
                          size_t n, size_t d, float eps);
/* GELU（第 11 章），就地，不检查参数 */
void attn_gelu_kernel(float *x, size_t n);
#line 1667 "book/12-learning.nw"
/* 第 12 章的反向传播，不检查参数（与去掉 _kernel 的公开函数相同） */
int attn_linear_backward_kernel(const float *x, const float *w, const float *dy,
                                size_t n, size_t d_in, size_t d_out,
                                float *dx, float *dw, float *db);
int attn_layernorm_backward_kernel(const float *x, const float *gamma, const float *dy,
                                   size_t n, size_t d, float eps,
                                   float *dx, float *dgamma, float *dbeta);
void attn_gelu_backward_kernel(const float *x, const float *dy, float *dx, size_t n);
/* 注意力的反向传播（try_fast 为 0 时是参考版本）和交叉熵，不检查参数；
   交叉熵的损失不是有限的数（logits 里有 NaN 或无穷大）时返回 ATTN_EINVAL，*loss 不变 */
int attn_sdpa_backward_kernel(const float *q, const float *k, const float *v,
                              size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                              float scale, const unsigned char *mask, int causal,
                              const float *dout, float *dq, float *dk, float *dv, int try_fast);
int attn_cross_entropy_kernel(const float *logits, const int *targets, size_t n, size_t vocab,
                              float *loss, float *dlogits);

#line 335 "book/00-preface.nw"
#endif
