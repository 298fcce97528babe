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
#line 38 "book/01-mlp.nw"
/* c[m×n] = a[m×k] · b[k×n]；c 不得与 a、b 重叠 */
int attn_matmul(const float *a, const float *b, float *c, size_t m, size_t k, size_t n);

/* y[n×d_out] = x[n×d_in] · w[d_in×d_out] + bias[d_out]；bias 可以为 NULL */
int attn_linear(const float *x, const float *w, const float *bias, float *y,
                size_t n, size_t d_in, size_t d_out);
#line 211 "book/01-mlp.nw"
/* 就地计算 x[i] = max(0, x[i])，i < n */
int attn_relu(float *x, size_t n);
#line 313 "book/01-mlp.nw"
/* 两层前馈网络：y[n×d_out] = relu(x[n×d_in]·w1[d_in×d_hidden] + b1)·w2[d_hidden×d_out] + b2；
   b1、b2 可以为 NULL。中间结果占 n×d_hidden 个 float，由函数自己分配。 */
int attn_ffn(const float *x, size_t n, size_t d_in,
             const float *w1, const float *b1, size_t d_hidden,
             const float *w2, const float *b2, size_t d_out, float *y);
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
#line 237 "book/06-cross.nw"
/* 填充掩码：mask[n_q×n_k] 的前 n_valid 列为 1（可以看），其余列为 0（填充位置）。
   n_valid 为 0 或大于 n_k 时返回 ATTN_EINVAL。 */
int attn_padding_mask(size_t n_q, size_t n_k, size_t n_valid, unsigned char *mask);
#line 105 "book/07-multihead.nw"
/* 多头注意力的权重。字段和顺序是公开约定。投影是 y = x·W + b（行向量）。
   w_q、w_k、w_v：d_model × (n_heads·d_head)，头 h 占第 [h·d_head, (h+1)·d_head) 列。
   w_o：(n_heads·d_head) × d_model。b_q、b_k、b_v 长 n_heads·d_head，b_o 长 d_model；
   每个偏置都可以是 NULL。n_heads·d_head 不必等于 d_model。 */
typedef struct attn_mha_weights {
    size_t d_model, n_heads, d_head;
    const float *w_q, *w_k, *w_v, *w_o;
    const float *b_q, *b_k, *b_v, *b_o;
} attn_mha_weights;

/* out[n_q×d_model] = MultiHead(x_q[n_q×d_model], x_kv[n_kv×d_model])。
   自注意力把同一块缓冲区同时传给 x_q 和 x_kv。每个头的缩放系数是 1/sqrt(d_head)；
   mask 和 causal 的含义与 attn_sdpa 相同，对每个头都生效。 */
int attn_mha(const attn_mha_weights *w,
             const float *x_q, size_t n_q, const float *x_kv, size_t n_kv,
             const unsigned char *mask, int causal, float *out);

/* 头 head 的注意力模式 pattern[n_q×n_kv]；其余参数与 attn_mha 相同。 */
int attn_mha_pattern(const attn_mha_weights *w,
                     const float *x_q, size_t n_q, const float *x_kv, size_t n_kv,
                     const unsigned char *mask, int causal, size_t head, float *pattern);

#line 38 "book/00-preface.nw"
#ifdef __cplusplus
}
#endif

#endif /* ATTN_H */
