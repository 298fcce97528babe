#line 897 "book/06-cross.nw"
/* exercises/ch06-cross.c — 第 6 章练习 6：带填充的交叉注意力。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch06-cross */
#include "attn.h"
#include "ex.h"

/* x_tgt[n_q×d_model] 是译文，x_src[n_k×d_model] 是源句，只有前 n_valid 行是真的词。
   Q = x_tgt·w_q，K = x_src·w_k，V = x_src·w_v（w_q、w_k 是 d_model×d_k，w_v 是 d_model×d_v），
   out[n_q×d_v] = softmax(Q·Kᵀ/sqrt(d_k)，遮住第 n_valid 列起的 pad)·V。
   n_valid 为 0 或大于 n_k：返回 ATTN_EINVAL。成功返回 ATTN_OK。 */
int ch06_cross_attention(const float *x_tgt, size_t n_q, const float *x_src, size_t n_k,
                         size_t n_valid, const float *w_q, const float *w_k, const float *w_v,
                         size_t d_model, size_t d_k, size_t d_v, float *out)
{
    (void)x_tgt; (void)n_q; (void)x_src; (void)n_k; (void)n_valid;
    (void)w_q; (void)w_k; (void)w_v; (void)d_model; (void)d_k; (void)d_v; (void)out;
    /* 在这里写你的代码 */
    return EX_TODO;
}
