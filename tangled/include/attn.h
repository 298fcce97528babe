#line 25 "book/00-preface.nw"
/* attn.h — libattn 的公共接口。
 * 本文件由 book/ 下的 .nw 文件经 notangle 生成，请修改书稿而不是这里。 */
#ifndef ATTN_H
#define ATTN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#line 52 "book/00-preface.nw"
/* 状态码：0 表示成功。 */
enum {
    ATTN_OK = 0,
    ATTN_EINVAL = 1,   /* 空指针、零维度、非法的缩放系数、尺寸乘积溢出 */
    ATTN_ENOMEM = 2    /* 内存分配失败 */
};

/* 任何状态码都有一句简短的说明，永不返回 NULL。 */
const char *attn_strerror(int status);
#line 6 "book/01-mlp.nw"
int attn_relu(float *x, size_t n);
#line 8 "book/03-attention.nw"
/* 就地计算 softmax，数值稳定；元素可以是 -INFINITY，全部为 -INFINITY 的向量变成全 0。 */
int attn_softmax(float *x, size_t n);
#line 61 "book/03-attention.nw"
/* 缩放点积注意力：out = softmax(q·kᵀ·scale，掩码)·v
   q[n_q×d_k], k[n_k×d_k], v[n_k×d_v], out[n_q×d_v]。
   scale 为 0 表示 1/sqrt(d_k)；负数或 NaN 是 ATTN_EINVAL。
   mask 为 NULL，或 n_q×n_k 个字节，非零表示“查询 i 可以看键 j”。
   causal 非零时，查询 i 只能看 j <= i + (n_k - n_q) 的键（右下角对齐）。
   mask 与 causal 同时生效。没有任何可看的键的查询行，out（和 weights）中得到全零。
   weights 为 NULL，或 n_q×n_k 的缓冲区，用来接收注意力模式（每个可看的行和为 1）。 */
int attn_sdpa(const float *q, const float *k, const float *v,
              size_t n_q, size_t n_k, size_t d_k, size_t d_v,
              float scale, const unsigned char *mask, int causal,
              float *out, float *weights);
#line 81 "book/04-scaling.nw"
/* 可复现的伪随机数发生器（splitmix64）。同一个种子，任何平台上都给出同一串数。 */
typedef struct attn_rng {
    unsigned long long state;   /* 按 64 位无符号整数运算 */
} attn_rng;

int attn_rng_seed(attn_rng *r, unsigned long long seed);
/* 下一个 64 位随机整数；r 为 NULL 时返回 0。 */
unsigned long long attn_rng_next(attn_rng *r);
/* x[n] 填入独立的标准正态随机数（均值 0，方差 1），用 Box–Muller 方法。 */
int attn_rng_normal(attn_rng *r, float *x, size_t n);
#line 466 "book/04-scaling.nw"
/* softmax 的雅可比矩阵：jac[i×n + j] = ∂p_i/∂s_j = p_i·(δ_ij − p_j)。
   p[n] 是 softmax 的输出，jac 是 n×n 的缓冲区。 */
int attn_softmax_jacobian(const float *p, size_t n, float *jac);
#line 474 "book/05-mask.nw"
/* 状态码（续）：缓存没有空位了。 */
enum {
    ATTN_EFULL = 3
};

/* KV 缓存：按位置顺序存放键 k[capacity×d_k] 和值 v[capacity×d_v]，前 len 行有效。 */
typedef struct attn_kv_cache {
    size_t capacity, len, d_k, d_v;
    float *k, *v;
} attn_kv_cache;

/* 为 capacity 个位置分配空间，len 置 0。失败时 *c 被清零。 */
int attn_kv_cache_init(attn_kv_cache *c, size_t capacity, size_t d_k, size_t d_v);
/* 追加 n 个位置：k[n×d_k]，v[n×d_v]。放不下时返回 ATTN_EFULL，缓存不变。 */
int attn_kv_cache_append(attn_kv_cache *c, const float *k, const float *v, size_t n);
/* 缓存里最后 n_q 个位置的查询 q[n_q×d_k] 对全部缓存做因果注意力（右下角对齐）：
   out[n_q×d_v]，weights 为 NULL 或 n_q×len。scale 的含义同 attn_sdpa。 */
int attn_kv_cache_attend(const attn_kv_cache *c, const float *q, size_t n_q,
                         float scale, float *out, float *weights);
/* 释放空间并把 *c 清零；c 为 NULL 时什么也不做。 */
void attn_kv_cache_free(attn_kv_cache *c);

#line 38 "book/00-preface.nw"
#ifdef __cplusplus
}
#endif

#endif /* ATTN_H */
