#line 225 "book/00-preface.nw"
/* attn.h — libattn 的公共接口。
 * 本文件由 book/ 下的 .nw 文件经 notangle 生成，请修改书稿而不是这里。 */
#ifndef ATTN_H
#define ATTN_H

#include <stddef.h>
#include <stdint.h>

#line 265 "book/00-preface.nw"
/* 库的版本 MAJOR.MINOR.PATCH；attn_version() 返回同样的数。CMakeLists.txt 从这里读出项目的版本。 */
#define ATTN_VERSION_MAJOR 0
#define ATTN_VERSION_MINOR 1
#define ATTN_VERSION_PATCH 0

#line 235 "book/00-preface.nw"
#ifdef __cplusplus
extern "C" {
#endif

#line 253 "book/00-preface.nw"
/* 附录 C：从这里起的声明从 libattn.so 导出 */
#line 16 "book/C-programs.nw"
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#line 182 "book/00-preface.nw"
/* 状态码：0 表示成功。 */
enum {
    ATTN_OK = 0,
    ATTN_EINVAL = 1,   /* 空指针、零维度、非法的缩放系数、尺寸乘积溢出 */
    ATTN_ENOMEM = 2    /* 内存分配失败 */
};

/* 任何状态码都有一句简短的说明，永不返回 NULL。 */
const char *attn_strerror(int status);
#line 272 "book/00-preface.nw"
/* 运行时载入的库的版本，"MAJOR.MINOR.PATCH"（与编译时 attn.h 的三个宏比较） */
const char *attn_version(void);
#line 45 "book/01-mlp.nw"
/* c[m×n] = a[m×k] · b[k×n]；c 与 a 或 b 重叠时是 ATTN_EINVAL（按地址范围比较） */
int attn_matmul(const float *a, const float *b, float *c,
                size_t m, size_t k, size_t n);

/* y[n×d_out] = x[n×d_in] · w[d_in×d_out] + bias[d_out]；bias 可以为 NULL。
   y 与 x、w 或 bias 重叠时是 ATTN_EINVAL。 */
int attn_linear(const float *x, const float *w, const float *bias, float *y,
                size_t n, size_t d_in, size_t d_out);
#line 138 "book/01-mlp.nw"
/* 就地计算 x[i] = max(0, x[i])，i < n */
int attn_relu(float *x, size_t n);
#line 214 "book/01-mlp.nw"
/* 两层前馈网络：
   y[n×d_out] = relu(x[n×d_in]·w1[d_in×d_hidden] + b1)·w2[d_hidden×d_out] + b2；
   b1、b2 可以为 NULL。中间结果占 n×d_hidden 个 float，由函数自己分配。
   y 可以与 x、w1、b1 重叠（写 y 之前它们已经用完）；
   与 w2 或 b2 重叠是 ATTN_EINVAL。 */
int attn_ffn(const float *x, size_t n, size_t d_in,
             const float *w1, const float *b1, size_t d_hidden,
             const float *w2, const float *b2, size_t d_out, float *y);
#line 103 "book/02-similarity.nw"
/* *out = a·b = Σ a[t]·b[t]，a 和 b 都是 n 维。
   out 最后才写，可以指向 a 或 b 里的一个数。 */
int attn_dot(const float *a, const float *b, size_t n, float *out);
#line 166 "book/02-similarity.nw"
/* *out = a·b / (|a|·|b|)，在 [-1, 1] 之间；a 或 b 是零向量时返回 ATTN_EINVAL。
   out 最后才写，可以指向 a 或 b 里的一个数。 */
int attn_cosine(const float *a, const float *b, size_t n, float *out);
#line 229 "book/02-similarity.nw"
/* *out = |a - b|²，欧氏距离的平方（不开方）。
   out 最后才写，可以指向 a 或 b 里的一个数。 */
int attn_sqdist(const float *a, const float *b, size_t n, float *out);
#line 301 "book/02-similarity.nw"
/* out[n_a×n_b] = a[n_a×d] · b[n_b×d]ᵀ：
   第 i 行第 j 列是 a 的第 i 行与 b 的第 j 行的点积。
   out 与 a 或 b 重叠时是 ATTN_EINVAL。 */
int attn_dot_all(const float *a, const float *b, size_t n_a, size_t n_b, size_t d,
                 float *out);
#line 328 "book/02-similarity.nw"
/* out[d] = Σ_j w[j] · v[j]：n 个值向量（v 的形状是 n×d）按权重 w[n] 加起来。
   out 与 w 或 v 重叠时是 ATTN_EINVAL。 */
int attn_weighted_sum(const float *w, const float *v, size_t n, size_t d, float *out);
#line 70 "book/03-attention.nw"
/* 就地计算 softmax，数值稳定；元素可以是 -INFINITY，
   全部为 -INFINITY 的向量变成全 0。 */
int attn_softmax(float *x, size_t n);
#line 245 "book/03-attention.nw"
/* 缩放点积注意力：out = softmax(q·kᵀ·scale，掩码)·v
   q[n_q×d_k], k[n_k×d_k], v[n_k×d_v], out[n_q×d_v]。
   scale 为 0 表示 1/sqrt(d_k)；负数、无穷大和 NaN 都不合法。
   mask 为 NULL，或 n_q×n_k 个字节，非零表示“查询 i 可以看键 j”。
   causal 非零时加上因果掩码：每个查询只看它自己和之前的位置（第 5 章）。
   mask 与 causal 同时生效。没有任何可看的键的查询行，out（和 weights）中得到全零。
   weights 为 NULL，或 n_q×n_k 的缓冲区，用来接收注意力模式（每个可看的行和为 1）。
   out 或 weights 与 q、k、v、mask 有重叠，或 out 与 weights 重叠：
   ATTN_EINVAL，什么也不写。 */
int attn_sdpa(const float *q, const float *k, const float *v,
              size_t n_q, size_t n_k, size_t d_k, size_t d_v,
              float scale, const unsigned char *mask, int causal,
              float *out, float *weights);

/* 参考实现：参数与结果同 attn_sdpa，一行一行地算，清楚但慢。
   第 9 章的快速实现拿它对答案。 */
int attn_sdpa_reference(const float *q, const float *k, const float *v,
                        size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                        float scale, const unsigned char *mask, int causal,
                        float *out, float *weights);
#line 1091 "book/03-attention.nw"
/* 可复现的伪随机数发生器（splitmix64）。同一个种子，任何平台上都给出同一串数。 */
typedef struct attn_rng {
    unsigned long long state;   /* 按 64 位无符号整数运算 */
} attn_rng;

int attn_rng_seed(attn_rng *r, unsigned long long seed);
/* 下一个 64 位随机整数；r 为 NULL 时返回 0。 */
unsigned long long attn_rng_next(attn_rng *r);
/* x[n] 填入独立的标准正态随机数（均值 0，方差 1），用 Box–Muller 方法。 */
int attn_rng_normal(attn_rng *r, float *x, size_t n);
#line 232 "book/04-scaling.nw"
/* softmax 的雅可比矩阵：jac[i×n + j] = ∂p_i/∂s_j = p_i·(δ_ij − p_j)。
   p[n] 是 softmax 的输出，jac 是 n×n 的缓冲区；两者重叠时是 ATTN_EINVAL。 */
int attn_softmax_jacobian(const float *p, size_t n, float *jac);
#line 329 "book/05-mask.nw"
/* KV 缓存：按位置顺序存放键 k[capacity×d_k] 和值 v[capacity×d_v]，前 len 行有效。 */
typedef struct attn_kv_cache {
    size_t capacity, len, d_k, d_v;
    float *k, *v;
} attn_kv_cache;

/* 为 capacity 个位置分配空间，len 置 0。失败时 *c 被清零。 */
int attn_kv_cache_init(attn_kv_cache *c, size_t capacity, size_t d_k, size_t d_v);
/* 追加 n 个位置：k[n×d_k]，v[n×d_v]。放不下时返回 ATTN_EFULL，缓存不变。
   k 或 v 与这次要写入的键行（c->k 的第 len..len+n 行）或值行（c->v 的同样几行）
   有一个字节重叠时是 ATTN_EINVAL，缓存不变。 */
int attn_kv_cache_append(attn_kv_cache *c, const float *k, const float *v, size_t n);
/* 缓存里最后 n_q 个位置的查询 q[n_q×d_k] 对全部缓存做因果注意力（右下角对齐）：
   out[n_q×d_v]，weights 为 NULL 或 n_q×len。scale 的含义同 attn_sdpa。
   n_q 不能大于缓存里的位置数 len：查询一定已经在缓存里。
   参数不合法（同 attn_sdpa，含重叠）时返回错误码。 */
int attn_kv_cache_attend(const attn_kv_cache *c, const float *q, size_t n_q,
                         float scale, float *out, float *weights);
/* 释放空间并把 *c 清零；c 为 NULL 时什么也不做。 */
void attn_kv_cache_free(attn_kv_cache *c);
#line 504 "book/05-mask.nw"
/* 状态码（续）：缓存没有空位了。 */
enum {
    ATTN_EFULL = 3
};
#line 172 "book/06-cross.nw"
/* 填充掩码：mask[n_q×n_k] 的前 n_valid 列为 1（可以看），其余列为 0（填充位置）。
   n_valid 必须在 1 和 n_k 之间。 */
/* ATTN_EINVAL：mask 为 NULL，n_q、n_k 或 n_valid 为 0，n_valid > n_k，n_q·n_k 溢出。 */
int attn_padding_mask(size_t n_q, size_t n_k, size_t n_valid, unsigned char *mask);
#line 82 "book/07-multihead.nw"
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
   mask 和 causal 的含义与 attn_sdpa 相同，对每个头都生效。
   out 可以与 x_q、x_kv、mask 重叠（它们在写 out 之前已经读完）。 */
/* out 与 w_o 或 b_o 重叠：ATTN_EINVAL。 */
int attn_mha(const attn_mha_weights *w,
             const float *x_q, size_t n_q, const float *x_kv, size_t n_kv,
             const unsigned char *mask, int causal, float *out);

/* 头 head 的注意力模式 pattern[n_q×n_kv]；其余参数与 attn_mha 相同。
   pattern 可以与 x_q、x_kv 和权重重叠（投影之后才写它）。 */
/* pattern 与 mask 重叠：ATTN_EINVAL。 */
int attn_mha_pattern(const attn_mha_weights *w,
                     const float *x_q, size_t n_q, const float *x_kv, size_t n_kv,
                     const unsigned char *mask, int causal, size_t head,
                     float *pattern);
#line 106 "book/08-params.nw"
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
    int layer_norms;        /* 非零：每层两个层规范化，最后再一个 */
    int learned_positions;  /* 非零：学到的位置向量，n_ctx × d_model */
    int tied;               /* 非零：反嵌入与嵌入共用一个矩阵 */
} attn_gpt_config;

typedef struct attn_param_breakdown {
    /* 一层之内 */
    uint64_t q, k, v, o;        /* 四个投影（所有头拼在一起），含偏置 */
    uint64_t attention;         /* q + k + v + o */
    uint64_t mlp;               /* 升维和降维两个线性层，含偏置 */
    uint64_t norms;             /* 两个层规范化 */
    uint64_t layer;             /* attention + mlp + norms */
    /* 整个模型 */
    uint64_t embedding;         /* vocab × d_model */
    uint64_t positions;         /* n_ctx × d_model，或 0 */
    uint64_t layers;            /* n_layers × layer */
    uint64_t final_norm;        /* 最后的层规范化 */
    uint64_t unembedding;       /* d_model × vocab，共用时为 0 */
    /* 按类别的总数 */
    uint64_t attention_all;     /* n_layers × attention */
    uint64_t mlp_all;           /* n_layers × mlp */
    uint64_t norms_all;         /* n_layers × norms + final_norm */
    uint64_t embeddings_all;    /* embedding + positions + unembedding */
    uint64_t total;
} attn_param_breakdown;

/* 按配置数参数，填满 *out。
   维度为 0、空指针、任何一步超出 64 位：ATTN_EINVAL，*out 不变。 */
int attn_count_params(const attn_gpt_config *cfg, attn_param_breakdown *out);

/* 已发表的形状："gpt2-small"、"gpt3-175b"。不认识的名字：ATTN_EINVAL。 */
int attn_gpt_preset(const char *name, attn_gpt_config *cfg);
#line 345 "book/08-params.nw"
/* 注意力的两次矩阵乘（QKᵀ 与 权重·V）在 n_tokens 个词上的浮点运算次数，全部层和头：
   4 · n_tokens² · d_head · n_heads · n_layers。
   按完整的 n×n 矩阵计，不扣除因果掩码省下的部分。 */
int attn_attention_flops(const attn_gpt_config *cfg, uint64_t n_tokens,
                         uint64_t *flops);

/* n_tokens 个词的键值缓存字节数：
   2 · n_layers · n_heads · d_head · bytes_per_number · n_tokens。 */
int attn_kv_cache_bytes(const attn_gpt_config *cfg, uint64_t n_tokens,
                        uint64_t bytes_per_number, uint64_t *bytes);
#line 948 "book/09-fast.nw"
/* attn_sdpa_ex 的选项。 */
typedef struct attn_sdpa_options {
    size_t heads;   /* 头数，至少 1：q[heads][n_q][d_k]、k[heads][n_k][d_k]、v[heads][n_k][d_v]、
                       out[heads][n_q][d_v]，weights 为 NULL 或 [heads][n_q][n_k]；mask 各头共用 */
    int threads;    /* 线程数；0 表示 OpenMP 的默认值，负数或大于 1024 是 ATTN_EINVAL */
} attn_sdpa_options;

/* 与 attn_sdpa 相同（快速实现，误差见第 9 章），另有头数和线程数；opt 为 NULL 时与 attn_sdpa 相同。
   out、weights 与输入重叠时同样是 ATTN_EINVAL（按所有头的范围比较）。 */
int attn_sdpa_ex(const float *q, const float *k, const float *v,
                 size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                 float scale, const unsigned char *mask, int causal,
                 float *out, float *weights, const attn_sdpa_options *opt);
#line 105 "book/10-position.nw"
/* 正弦位置编码（Vaswani 等，2017）：pe[n×d]，d 为偶数，位置 p 就是行号，
   pe[p][2j] = sin(p / 10000^(2j/d))，pe[p][2j+1] = cos(p / 10000^(2j/d))。 */
/* ATTN_EINVAL：pe 为 NULL、n 或 d 为 0、d 为奇数、n·d 个 float 的字节数溢出。 */
int attn_positions_sinusoidal(float *pe, size_t n, size_t d);
/* 同上，但第 i 行是位置 pos0 + i 的编码（pos0 = 0 时就是 attn_positions_sinusoidal）。
   生成时一次只要一行：attn_positions_sinusoidal_from(pe, 1, d, t) 就是 PE(t)。 */
/* 另有一条：最后一行的位置 pos0 + n − 1 超出 size_t 时也是 ATTN_EINVAL。
   出错时 pe 不被改动。 */
int attn_positions_sinusoidal_from(float *pe, size_t n, size_t d, size_t pos0);

/* 旋转位置编码（RoPE，Su 等，2021），原地作用于 x[n×d]，d 为偶数。
   第 i 行位于位置 pos0 + i；
   每一对 (x[2j], x[2j+1]) 转过角度 θ = (pos0 + i)·base^(−2j/d)：
   (a, b) → (a·cos θ − b·sin θ, a·sin θ + b·cos θ)。base 为 0 表示 10000。
   x 里的 NaN 只会传给同一对里的另一个数。 */
/* ATTN_EINVAL，x 不被改动：base 为负数、NaN 或无穷大；
   x 为 NULL、n 或 d 为 0、d 为奇数、字节数溢出、
   最后一行的位置 pos0 + n − 1 超出 size_t、
   某一对的长度超出 float 的范围（含无穷大）。 */
int attn_rope(float *x, size_t n, size_t d, size_t pos0, float base);
#line 76 "book/11-block.nw"
/* 层规范化（第 11 章）：对 x[n×d] 的每一行
   y = (x − mean) / sqrt(var + eps) · gamma + beta，var 是总体方差（除以 d）。
   gamma、beta 各 d 个数，或 NULL（表示全 1、全 0）。eps 必须是有限的正数。
   y 可以就是 x（就地计算）。NaN 只让它所在的行变成 NaN。 */
/* ATTN_EINVAL，y 不被改动：y 与 x 部分重叠，或与 gamma、beta 重叠；
   x、gamma、beta 里有无穷大（均值没有定义）。 */
int attn_layernorm(const float *x, const float *gamma, const float *beta, float *y,
                   size_t n, size_t d, float eps);
#line 195 "book/11-block.nw"
/* GELU（第 11 章），GPT-2 用的 tanh 近似，就地计算：
   x = 0.5·x·(1 + tanh(sqrt(2/π)·(x + 0.044715·x³)))。−∞ 变成 0，+∞ 不变，NaN 不变。
   x 为 NULL、n 为 0、n 个 float 的字节数超出 size_t：ATTN_EINVAL。 */
int attn_gelu(float *x, size_t n);
#line 260 "book/11-block.nw"
/* 与 attn_ffn 相同，只是激活函数换成 attn_gelu（第 11 章）：
   y[n×d_out] = gelu(x[n×d_in]·w1[d_in×d_hidden] + b1)·w2[d_hidden×d_out] + b2。 */
int attn_ffn_gelu(const float *x, size_t n, size_t d_in,
                  const float *w1, const float *b1, size_t d_hidden,
                  const float *w2, const float *b2, size_t d_out, float *y);
#line 338 "book/11-block.nw"
/* 一个 Transformer 块（第 11 章）的权重，全部指向模型的参数块。
   投影与 attn_mha_weights 相同：y = x·W + b，hd = n_heads·d_head。 */
typedef struct attn_gpt_layer {
    float *ln1_g, *ln1_b;                        /* d_model：注意力之前的层规范化 */
    float *w_q, *b_q, *w_k, *b_k, *w_v, *b_v;    /* d_model × hd，hd */
    float *w_o, *b_o;                            /* hd × d_model，d_model */
    float *ln2_g, *ln2_b;                        /* d_model：前馈网络之前的层规范化 */
    float *w_up, *b_up;                          /* d_model × d_ff，d_ff */
    float *w_down, *b_down;                      /* d_ff × d_model，d_model */
} attn_gpt_layer;

/* 一个只有解码器的小 GPT。cfg 必须 biases、layer_norms、learned_positions、tied
   都非零，且 n_heads·d_head = d_model。参数块 params 里的顺序就是参数表的顺序
   （attn_gpt_tensor_info：wte、wpe，每层 16 个张量，最后 lnf_g lnf_b）。 */
typedef struct attn_gpt {
    attn_gpt_config cfg;
    size_t n_params;             /* 等于 attn_count_params 的 total */
    float *params;               /* 全部参数，一整块 */
    float *wte;                  /* vocab × d_model；反嵌入就是 wteᵀ（共用） */
    float *wpe;                  /* n_ctx × d_model，学到的位置向量 */
    attn_gpt_layer *layers;      /* n_layers 个 */
    float *lnf_g, *lnf_b;        /* d_model：最后的层规范化 */
} attn_gpt;

/* 把 *m 的各个字段指向调用者的 params[n]（n 必须等于参数个数），
   只为 m->layers 分配内存。训练时用它把同样的结构套在梯度上。失败时 *m 被清零。 */
int attn_gpt_bind(attn_gpt *m, const attn_gpt_config *cfg, float *params, size_t n);
/* 分配参数并 bind；按 GPT-2 的办法赋初值：
   权重矩阵（wte、wpe、w_q、w_k、w_v、w_o、w_up、w_down，按参数块里的顺序）
   依次取 attn_rng（种子 seed）的正态随机数乘 0.02，偏置和层规范化的偏移为 0，增益为 1。
   失败时 *m 被清零。 */
int attn_gpt_init(attn_gpt *m, const attn_gpt_config *cfg, unsigned long long seed);
/* 释放 init 或 bind 分配的内存（bind 时调用者的 params 不动），把 *m 清零；
   m 为 NULL 时什么也不做。 */
void attn_gpt_free(attn_gpt *m);

/* 参数表的一行：参数块里的一个张量 */
typedef struct attn_gpt_tensor {
    char name[48];         /* GPT-2 检查点里的名字，如 "h.3.ln_1.weight" */
    size_t rows, cols;     /* 形状；cols 为 0 表示一维，rows 个数 */
    size_t offset;         /* 从参数块的第几个 float 起 */
    int part;              /* 拼成 c_attn 的三块（W_Q、W_K、W_V 和它们的偏置）：
                              第几份，0、1、2；其余 −1 */
} attn_gpt_tensor;
/* 参数块由几个张量组成：4 + 16·n_layers；cfg 建不成这个模型时为 0。 */
size_t attn_gpt_tensor_count(const attn_gpt_config *cfg);
/* 参数块里的第 k 个张量（按参数块里的顺序，k < attn_gpt_tensor_count）。
   cfg 建不成这个模型、k 越界、t 为 NULL：ATTN_EINVAL。 */
int attn_gpt_tensor_info(const attn_gpt_config *cfg, size_t k, attn_gpt_tensor *t);
#line 505 "book/11-block.nw"
/* 嵌入：x[n×d_model]，x[i] = wte[tokens[i]] + wpe[pos0 + i]。
   每个词 < vocab，pos0 + n ≤ n_ctx；x 与 tokens 或参数重叠：ATTN_EINVAL。 */
int attn_gpt_embed(const attn_gpt *m, const int *tokens, size_t n, size_t pos0,
                   float *x);
/* 第 layer 层的块，就地更新残差流 x[n×d_model]（n ≤ n_ctx，因果）：
   x ← x + MHA(LN1(x))；x ← x + W_down·GELU(W_up·LN2(x))。x 在最后一步才写：
   失败时（参数不合法、内存不够、残差流里有无穷大）x 不变。 */
int attn_gpt_block(const attn_gpt *m, size_t layer, float *x, size_t n);
/* 与 attn_gpt_block 相同，另把这一层每个头的注意力模式写进 weights[n_heads][n][n]
   （每行之和为 1，看不见的键为 0）；weights 为 NULL 时就是 attn_gpt_block。
   weights 与 x 或参数重叠：ATTN_EINVAL。 */
int attn_gpt_block_weights(const attn_gpt *m, size_t layer, float *x, size_t n,
                           float *weights);
/* 最后的层规范化和反嵌入：logits[n×vocab] = LN_f(x[n×d_model])·wteᵀ。x 不变。 */
int attn_gpt_logits(const attn_gpt *m, const float *x, size_t n, float *logits);
/* 整个模型：tokens[n]（每个 < vocab，n ≤ n_ctx）经嵌入、全部块、反嵌入，
   得到 logits[n×vocab]。第 i 行是读了 tokens[0..i] 之后对下一个词的分数。
   logits 与参数重叠：ATTN_EINVAL。 */
int attn_gpt_forward(const attn_gpt *m, const int *tokens, size_t n, float *logits);
#line 797 "book/11-block.nw"
/* 逐词生成（第 11 章）：每层每个头一个第 5 章的 KV 缓存，每个能存 n_ctx 个位置。 */
typedef struct attn_gpt_decoder {
    const attn_gpt *m;
    size_t len;                /* 已经读过的词数，也就是下一个词的位置 */
    size_t n_caches;           /* n_layers × n_heads */
    attn_kv_cache *caches;     /* 第 l 层第 h 个头：caches[l·n_heads + h] */
    float *work;               /* 一个位置的中间结果 */
    int broken;                /* 一步在中途失败过：缓存不再一致，只能释放 */
} attn_gpt_decoder;

/* 为模型 m 建一个空的解码器（m 在解码器用完之前不得释放）。失败时 *dec 被清零。 */
int attn_gpt_decoder_init(attn_gpt_decoder *dec, const attn_gpt *m);
/* 读入下一个词 token（位置 dec->len），logits[vocab] 得到对再下一个词的分数，
   与 attn_gpt_forward 在这个位置的那一行相同。
   已经读满 n_ctx 个词：ATTN_EFULL，什么也不变。 */
int attn_gpt_step(attn_gpt_decoder *dec, int token, float *logits);
/* 释放；dec 为 NULL 时什么也不做。 */
void attn_gpt_decoder_free(attn_gpt_decoder *dec);
#line 1475 "book/12-learning.nw"
/* AdamW 的一步（第 12 章），与 PyTorch 的 torch.optim.AdamW 相同：
   p ← p − lr·wd·p；m ← β1·m + (1−β1)·g；v ← β2·v + (1−β2)·g²；
   p ← p − lr·(m/(1−β1^t)) / (sqrt(v/(1−β2^t)) + eps)。t 从 1 数起。
   m、v 是调用者的 n 个 float（开始时全 0）。p、g、m、v 两两重叠：ATTN_EINVAL。 */
int attn_adamw_step(float *p, const float *g, float *m, float *v, size_t n, unsigned long t,
                    float lr, float beta1, float beta2, float eps, float weight_decay);
#line 1485 "book/12-learning.nw"
/* 线性层的反向传播（第 12 章）：前向是 y[n×d_out] = x[n×d_in]·w[d_in×d_out] + b。
   dy[n×d_out] 是损失对 y 的梯度。写入 dx[n×d_in] = dy·wᵀ；
   加上 dw[d_in×d_out] += xᵀ·dy，db[d_out] += dy 各行之和。
   dx、dw、db 任一可以为 NULL（不需要），不能全为 NULL。输出与输入重叠：ATTN_EINVAL。 */
int attn_linear_backward(const float *x, const float *w, const float *dy,
                         size_t n, size_t d_in, size_t d_out,
                         float *dx, float *dw, float *db);
#line 1496 "book/12-learning.nw"
/* softmax 的反向传播（第 12 章）：p[n] 是 softmax 的输出，dp[n] 是损失对 p 的梯度，
   写入 ds[n] = p ⊙ (dp − dp·p)。ds 可以就是 dp；ds 与 p 重叠：ATTN_EINVAL。 */
int attn_softmax_backward(const float *p, const float *dp, float *ds, size_t n);
#line 1503 "book/12-learning.nw"
/* 层规范化的反向传播（第 12 章）。x[n×d]、gamma（NULL 表示全 1）、eps 与前向调用相同，
   dy[n×d] 是损失对 y 的梯度。写入 dx[n×d]；加上 dgamma[d] += Σ dy⊙x̂，dbeta[d] += Σ dy。
   dx、dgamma、dbeta 任一可以为 NULL，不能全为 NULL。eps 必须是有限正数；
   输出与输入重叠（dx 可以就是 dy）：ATTN_EINVAL。 */
int attn_layernorm_backward(const float *x, const float *gamma, const float *dy,
                            size_t n, size_t d, float eps,
                            float *dx, float *dgamma, float *dbeta);
#line 1514 "book/12-learning.nw"
/* GELU（tanh 形式）的反向传播（第 12 章）：x[n] 是 GELU 的输入（不是输出），
   写入 dx[n] = dy ⊙ gelu'(x)。dx 可以就是 dy；dx 与 x 重叠：ATTN_EINVAL。 */
int attn_gelu_backward(const float *x, const float *dy, float *dx, size_t n);
#line 1521 "book/12-learning.nw"
/* 交叉熵（第 12 章）：logits[n×vocab] 的每一行经 softmax 后，正确的词是 targets[i]（0 ≤ targets[i] < vocab）。
   *loss = 各行 −ln p[targets[i]] 的平均，用 log-sum-exp 计算。
   dlogits 为 NULL 或 n×vocab 的缓冲区，写入 (softmax − one-hot)/n；它可以就是 logits（就地）。
   logits 里有 NaN 或无穷大、targets 越界、dlogits 与 logits 部分重叠、输出与 targets 重叠：ATTN_EINVAL。 */
int attn_cross_entropy(const float *logits, const int *targets, size_t n, size_t vocab,
                       float *loss, float *dlogits);
#line 1589 "book/12-learning.nw"
/* 对整个小 GPT 走一步 AdamW（第 12 章）：g 是用 attn_gpt_bind 套在梯度上的同形模型，
   m1、m2 是 AdamW 的两个矩，各 n_params 个 float（开始时全 0），与参数一一对齐。
   矩阵（wte、wpe、每层的 w_q w_k w_v w_o w_up w_down）按 weight_decay 衰减，
   向量（偏置、层规范化的增益和偏移）不衰减。其余参数与 attn_adamw_step 相同。 */
int attn_gpt_adamw_step(attn_gpt *m, const attn_gpt *g, float *m1, float *m2, unsigned long t,
                        float lr, float beta1, float beta2, float eps, float weight_decay);
#line 1725 "book/12-learning.nw"
/* 训练用的前向与反向（第 12 章）：tokens[n] 读进模型，targets[n] 是每个位置要猜的下一个词，
   *loss 得到 n 个位置交叉熵的平均。grad 是用 attn_gpt_bind 套在梯度缓冲区上的同形模型，
   梯度加到它上面（调用者每一步先清零）；grad 为 NULL 时只算损失。
   m 与 grad 形状不同或参数重叠、词越界、n 为 0 或大于 n_ctx：ATTN_EINVAL。 */
int attn_gpt_loss_grad(const attn_gpt *m, const int *tokens, const int *targets, size_t n,
                       float *loss, attn_gpt *grad);
/* 一批 n_seq 句话，每句 n 个词（各自从位置 0 开始）：tokens、targets 各 n_seq·n 个。
   *loss 是全部 n_seq·n 个位置的平均，grad 加上它的梯度；其余同 attn_gpt_loss_grad。
   work 为 NULL 时自己分配工作区、用完释放；否则是调用者的 work_bytes 个字节
   （至少 attn_gpt_train_bytes 个，按 float 对齐），每一步可以反复用。 */
int attn_gpt_loss_grad_batch(const attn_gpt *m, const int *tokens, const int *targets,
                             size_t n_seq, size_t n, float *loss, attn_gpt *grad,
                             void *work, size_t work_bytes);
/* attn_gpt_loss_grad_batch 要的工作区字节数；形状不合法或溢出时为 0 */
size_t attn_gpt_train_bytes(const attn_gpt_config *cfg, size_t n_seq, size_t n);
#line 2113 "book/12-learning.nw"
/* attn_sdpa 的梯度（第 12 章）。q、k、v、尺寸、scale、mask、causal 与前向调用相同；
   dout[n_q×d_v] 是损失对 out 的梯度。写入 dq[n_q×d_k]、dk[n_k×d_k]、dv[n_k×d_v]；
   三者任一可以为 NULL（不需要），不能全为 NULL。一个键都看不见的查询行没有贡献。
   注意力模式不整块存下，而是按每行的最大值和指数和一块一块重算，额外内存与 n_q 成正比。
   输出与输入或彼此重叠：ATTN_EINVAL。 */
int attn_sdpa_backward(const float *q, const float *k, const float *v,
                       size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                       float scale, const unsigned char *mask, int causal,
                       const float *dout, float *dq, float *dk, float *dv);

#line 257 "book/00-preface.nw"
/* 附录 C：导出的声明到此为止 */
#line 22 "book/C-programs.nw"
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#line 245 "book/00-preface.nw"
#ifdef __cplusplus
}
#endif

#endif /* ATTN_H */
