#line 1077 "book/04-scaling.nw"
/* exercises/ch04-softmax-backward.c — 第 4 章练习 6：梯度穿过 softmax，不造雅可比矩阵。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch04-softmax-backward */
#include "attn.h"
#include "ex.h"

/* p[n] 是 softmax 的输出，g[n] 是损失对 p 的梯度。写出损失对分数 s 的梯度
   ds[n] = J·g，J 是 softmax 的雅可比矩阵（对称）。只用 O(n) 的工作量，不要造 n×n 的 J。
   成功返回 ATTN_OK。 */
int ch04_softmax_backward(const float *p, const float *g, size_t n, float *ds)
{
    (void)p; (void)g; (void)n; (void)ds;
    /* 在这里写你的代码 */
    return EX_TODO;
}
