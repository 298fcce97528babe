#line 1473 "book/07-multihead.nw"
/* exercises/ch07-gqa.c — 第 7 章练习 5：分组查询注意力。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch07-gqa */
#include "attn.h"
#include "ex.h"

/* q[n][n_heads·d_head]：查询头并排；k、v[n][n_kv_heads·d_head]：键值头并排；
   out[n][n_heads·d_head]。查询头 h 用第 h / (n_heads / n_kv_heads) 个键值头，
   做因果的缩放点积注意力（缩放 1/sqrt(d_head)）。n_heads 不是 n_kv_heads 的倍数时返回 ATTN_EINVAL。 */
int ch07_gqa(const float *q, const float *k, const float *v, size_t n, size_t n_heads,
             size_t n_kv_heads, size_t d_head, float *out)
{
    (void)q; (void)k; (void)v; (void)n; (void)n_heads; (void)n_kv_heads; (void)d_head; (void)out;
    /* 在这里写你的代码 */
    return EX_TODO;
}
