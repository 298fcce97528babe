#line 1490 "book/05-mask.nw"
/* exercises/ch05-window.c — 第 5 章练习 5：滑动窗口的因果注意力。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch05-window */
#include "attn.h"
#include "ex.h"

/* q、k、v 都是 n×d，out 是 n×d。查询 i 只看键 j，i - w < j <= i（最近的 w 个位置，含自己），
   缩放系数 1/sqrt(d)。w = 0 时什么也看不见：返回 ATTN_EINVAL。成功返回 ATTN_OK。 */
int ch05_window_attention(const float *q, const float *k, const float *v,
                          size_t n, size_t d, size_t w, float *out)
{
    (void)q; (void)k; (void)v; (void)n; (void)d; (void)w; (void)out;
    /* 在这里写你的代码 */
    return EX_TODO;
}
