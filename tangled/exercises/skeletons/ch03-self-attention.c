#line 2030 "book/03-attention.nw"
/* exercises/ch03-self-attention.c — 第 3 章练习 6：从词向量到自注意力的输出。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch03-self-attention */
#include "attn.h"
#include "ex.h"

/* x[n×d_model] 是 n 个词的向量；w_q、w_k 是 d_model×d_k，w_v 是 d_model×d_v。
   Q = X·W_Q，K = X·W_K，V = X·W_V，out[n×d_v] = softmax(Q·Kᵀ/√d_k)·V。成功返回 ATTN_OK。 */
int ch03_self_attention(const float *x, const float *w_q, const float *w_k, const float *w_v,
                        size_t n, size_t d_model, size_t d_k, size_t d_v, float *out)
{
    (void)x; (void)w_q; (void)w_k; (void)w_v; (void)n; (void)d_model; (void)d_k; (void)d_v;
    (void)out;
    /* 在这里写你的代码 */
    return EX_TODO;
}
