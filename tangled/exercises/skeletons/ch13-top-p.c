#line 3274 "book/13-poems.nw"
/* exercises/ch13-top-p.c — 第 13 章练习 6：top-p（核）。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch13-top-p */
#include "attn.h"
#include "ex.h"

/* p[V] 是概率，加起来是 1。留下概率最大、加起来刚到 top_p（>= top_p）的最少几个，
   其余置 0，留下的除以它们的和。概率相同时下标小的在前；top_p 为 1 时全部留下。
   返回留下的个数；V 为 0 或 top_p 不在 (0, 1] 里时什么也不改，返回 0。 */
int ch13_top_p(float *p, size_t V, float top_p)
{
    (void)p; (void)V; (void)top_p;
    /* 在这里写你的代码 */
    return EX_TODO;
}
