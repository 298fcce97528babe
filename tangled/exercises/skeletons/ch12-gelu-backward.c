#line 3838 "book/12-learning.nw"
/* exercises/ch12-gelu-backward.c — 第 12 章练习 6：GELU 的反向传播。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch12-gelu-backward */
#include "attn.h"
#include "ex.h"

/* GELU（tanh 形式，第 11 章的 attn_gelu）：g(x) = x/2 · (1 + tanh u)，
   u = sqrt(2/π)·(x + 0.044715·x³)。写入 dx[i] = dy[i]·g'(x[i])。
   n 为 0 时返回 ATTN_EINVAL。 */
int ch12_gelu_backward(const float *x, const float *dy, float *dx, size_t n)
{
    (void)x; (void)dy; (void)dx; (void)n;
    /* 在这里写你的代码 */
    return EX_TODO;
}
