#line 2113 "book/09-fast.nw"
/* exercises/ch09-merge.c — 第 9 章练习 5：合并两段键的在线 softmax 状态。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch09-merge */
#include "attn.h"
#include "ex.h"

/* 同一个查询对两段不相交的键的状态 (m1, l1, acc1[d]) 和 (m2, l2, acc2[d])：
   m 是最大的分数，l = Σ exp(s − m)，acc = Σ exp(s − m)·v。
   写出两段合起来的 (*m, *l, acc[d])。空的一段是 m = −∞、l = 0、acc = 0；
   两段都空时结果也是空的。d 为 0 时返回 ATTN_EINVAL。 */
int ch09_merge(float m1, float l1, const float *acc1, float m2, float l2,
               const float *acc2, size_t d, float *m, float *l, float *acc)
{
    (void)m1; (void)l1; (void)acc1; (void)m2; (void)l2; (void)acc2;
    (void)d; (void)m; (void)l; (void)acc;
    /* 在这里写你的代码 */
    return EX_TODO;
}
