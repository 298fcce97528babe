#line 1249 "book/01-mlp.nw"
/* exercises/ch01-torch-linear.c — 第 1 章练习 6：按 PyTorch 的排法存放权重的全连接层。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch01-torch-linear */
#include "attn.h"
#include "ex.h"

/* y[n×d_out] = x[n×d_in] · weightᵀ + bias。weight 按 PyTorch 的 nn.Linear 存成 [d_out][d_in]：
   第 o 行是第 o 个输出神经元的 d_in 个权重。bias 是 d_out 个数，可以为 NULL。成功返回 ATTN_OK。 */
int ch01_torch_linear(const float *x, const float *weight, const float *bias, float *y,
                      size_t n, size_t d_in, size_t d_out)
{
    (void)x; (void)weight; (void)bias; (void)y; (void)n; (void)d_in; (void)d_out;
    /* 在这里写你的代码 */
    return EX_TODO;
}
