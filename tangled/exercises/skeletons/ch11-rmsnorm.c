#line 2697 "book/11-block.nw"
/* exercises/ch11-rmsnorm.c — 第 11 章练习 7：RMSNorm。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch11-rmsnorm */
#include "attn.h"
#include "ex.h"

/* 对 x[n×d] 的每一行：y = x / sqrt(mean(x²) + eps) · gain，gain 有 d 个数。
   不减均值，没有偏移。n 或 d 为 0、eps 不是正数时返回 ATTN_EINVAL。 */
int ch11_rmsnorm(const float *x, const float *gain, float *y, size_t n, size_t d, float eps)
{
    (void)x; (void)gain; (void)y; (void)n; (void)d; (void)eps;
    /* 在这里写你的代码 */
    return EX_TODO;
}
