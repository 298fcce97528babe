#line 25 "book/00-preface.nw"
/* attn.h — libattn 的公共接口。
 * 本文件由 book/ 下的 .nw 文件经 notangle 生成，请修改书稿而不是这里。 */
#ifndef ATTN_H
#define ATTN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#line 53 "book/00-preface.nw"
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
#line 210 "book/01-mlp.nw"
/* 就地计算 x[i] = max(0, x[i])，i < n */
int attn_relu(float *x, size_t n);
#line 312 "book/01-mlp.nw"
/* 两层前馈网络：y[n×d_out] = relu(x[n×d_in]·w1[d_in×d_hidden] + b1)·w2[d_hidden×d_out] + b2；
   b1、b2 可以为 NULL。中间结果占 n×d_hidden 个 float，由函数自己分配。 */
int attn_ffn(const float *x, size_t n, size_t d_in,
             const float *w1, const float *b1, size_t d_hidden,
             const float *w2, const float *b2, size_t d_out, float *y);
#line 106 "book/02-similarity.nw"
/* *out = a·b = Σ a[t]·b[t]，a 和 b 都是 n 维。 */
int attn_dot(const float *a, const float *b, size_t n, float *out);
#line 205 "book/02-similarity.nw"
/* *out = a·b / (|a|·|b|)，在 [-1, 1] 之间；a 或 b 是零向量时返回 ATTN_EINVAL。 */
int attn_cosine(const float *a, const float *b, size_t n, float *out);
#line 285 "book/02-similarity.nw"
/* *out = |a - b|²，欧氏距离的平方（不开方）。 */
int attn_sqdist(const float *a, const float *b, size_t n, float *out);
#line 412 "book/02-similarity.nw"
/* out[n_a×n_b] = a[n_a×d] · b[n_b×d]ᵀ：第 i 行第 j 列是 a 的第 i 行与 b 的第 j 行的点积。 */
int attn_dot_all(const float *a, const float *b, size_t n_a, size_t n_b, size_t d, float *out);
#line 456 "book/02-similarity.nw"
/* out[d] = Σ_j w[j] · v[j]：n 个值向量（v 的形状是 n×d）按权重 w[n] 加起来。 */
int attn_weighted_sum(const float *w, const float *v, size_t n, size_t d, float *out);
#line 36 "book/03-attention.nw"
/* 就地计算 softmax，数值稳定；元素可以是 -INFINITY，全部为 -INFINITY 的向量变成全 0。 */
int attn_softmax(float *x, size_t n);
#line 379 "book/03-attention.nw"
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

/* 参考实现：参数与结果同 attn_sdpa，一行一行地算，清楚但慢。第 9 章的快速实现拿它对答案。 */
int attn_sdpa_reference(const float *q, const float *k, const float *v,
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
#line 109 "book/08-params.nw"
/* 参数计数（第 8 章）：只有解码器的 Transformer 的形状。计数一律是 64 位无符号整数。 */

typedef struct attn_gpt_config {
    uint64_t d_model;       /* 嵌入向量的维数 d */
    uint64_t n_heads;       /* 每层的头数 h */
    uint64_t d_head;        /* 每个头的查询、键、值维数 d_h */
    uint64_t n_layers;      /* 层数 L */
    uint64_t d_ff;          /* MLP 隐藏层宽度 */
    uint64_t vocab;         /* 词表大小 */
    uint64_t n_ctx;         /* 上下文长度 */
    int biases;             /* 非零：线性层带偏置 */
    int layer_norms;        /* 非零：每层两个层归一化，最后再一个 */
    int learned_positions;  /* 非零：学到的位置向量，n_ctx × d_model */
    int tied;               /* 非零：反嵌入与嵌入共用一个矩阵 */
} attn_gpt_config;

typedef struct attn_param_breakdown {
    /* 一层之内 */
    uint64_t q, k, v, o;        /* 四个投影（所有头拼在一起），含偏置 */
    uint64_t attention;         /* q + k + v + o */
    uint64_t mlp;               /* 升维和降维两个线性层，含偏置 */
    uint64_t norms;             /* 两个层归一化 */
    uint64_t layer;             /* attention + mlp + norms */
    /* 整个模型 */
    uint64_t embedding;         /* vocab × d_model */
    uint64_t positions;         /* n_ctx × d_model，或 0 */
    uint64_t layers;            /* n_layers × layer */
    uint64_t final_norm;        /* 最后的层归一化 */
    uint64_t unembedding;       /* d_model × vocab，共用时为 0 */
    /* 按类别的总数 */
    uint64_t attention_all;     /* n_layers × attention */
    uint64_t mlp_all;           /* n_layers × mlp */
    uint64_t norms_all;         /* n_layers × norms + final_norm */
    uint64_t embeddings_all;    /* embedding + positions + unembedding */
    uint64_t total;
} attn_param_breakdown;

/* 按配置数参数，填满 *out。维度为 0、空指针、任何一步超出 64 位：ATTN_EINVAL，*out 不变。 */
int attn_count_params(const attn_gpt_config *cfg, attn_param_breakdown *out);

/* 已发表的形状："gpt2-small"、"gpt3-175b"。不认识的名字：ATTN_EINVAL。 */
int attn_gpt_preset(const char *name, attn_gpt_config *cfg);
#line 600 "book/08-params.nw"
/* 注意力的两次矩阵乘（QKᵀ 与 权重·V）在 n_tokens 个词上的浮点运算次数，全部层和头：
   4 · n_tokens² · d_head · n_heads · n_layers。按完整的 n×n 矩阵计，不扣除因果掩码省下的部分。 */
int attn_attention_flops(const attn_gpt_config *cfg, uint64_t n_tokens, uint64_t *flops);

/* n_tokens 个词的键值缓存字节数：2 · n_layers · n_heads · d_head · bytes_per_number · n_tokens。 */
int attn_kv_cache_bytes(const attn_gpt_config *cfg, uint64_t n_tokens, uint64_t bytes_per_number,
                        uint64_t *bytes);
#line 903 "book/09-fast.nw"
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

#line 39 "book/00-preface.nw"
#ifdef __cplusplus
}
#endif

#endif /* ATTN_H */
