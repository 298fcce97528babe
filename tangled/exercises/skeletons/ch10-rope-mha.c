#line 1472 "book/10-position.nw"
/* exercises/ch10-rope-mha.c — 第 10 章练习 5：多头注意力里的 RoPE。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch10-rope-mha */
#include "attn.h"
#include "ex.h"

/* q、k、v、out 都是 n×(n_heads·d_head)，头并排（第 h 个头占第 h·d_head 列起的 d_head 列），d_head 为偶数。
   每个头：第 i 行的查询和键按位置 i 做 RoPE（本章的相邻配对，base 10000，只转这个头自己的 d_head 维），
   再做因果的缩放点积注意力（缩放 1/sqrt(d_head)），结果写进 out 的同样几列。值不转。 */
int ch10_rope_attention(const float *q, const float *k, const float *v, size_t n,
                        size_t n_heads, size_t d_head, float *out)
{
    (void)q; (void)k; (void)v; (void)n; (void)n_heads; (void)d_head; (void)out;
    /* 在这里写你的代码 */
    return EX_TODO;
}
