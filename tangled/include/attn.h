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
#line 839 "book/09-fast.nw"
/* 与 attn_sdpa 算同一个东西（误差见第 9 章），分块计算，不保存 n_q×n_k 的分数；
   threads 个线程，0 表示 OpenMP 的默认值，负数是 ATTN_EINVAL。 */
int attn_sdpa_fast(const float *q, const float *k, const float *v,
                   size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                   float scale, const unsigned char *mask, int causal,
                   float *out, float *weights, int threads);

/* 多个头一起算：q[heads][n_q][d_k]、k[heads][n_k][d_k]、v[heads][n_k][d_v]、
   out[heads][n_q][d_v]；weights 为 NULL 或 [heads][n_q][n_k]；mask 为 NULL 或 [n_q][n_k]，各头共用。 */
int attn_sdpa_heads(const float *q, const float *k, const float *v, size_t heads,
                    size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                    float scale, const unsigned char *mask, int causal,
                    float *out, float *weights, int threads);

/* 快速路径自己分配的字节数（每个线程一块工作区）；参数不合法时为 0。 */
size_t attn_sdpa_fast_bytes(size_t d_k, size_t d_v, int threads);

/* 快速路径实际算的分数个数（因果时整块跳过看不见的键）；n_q·n_k 溢出时为 0。 */
size_t attn_sdpa_fast_scores(size_t n_q, size_t n_k, int causal);

#line 38 "book/00-preface.nw"
#ifdef __cplusplus
}
#endif

#endif /* ATTN_H */
