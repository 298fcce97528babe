#line 1233 "book/02-similarity.nw"
/* exercises/ch02-cosine-all.c — 第 2 章练习 6：所有配对的余弦相似度。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch02-cosine-all */
#include "attn.h"
#include "ex.h"

/* out[n_a×n_b]：第 i 行第 j 列是 a 的第 i 行与 b 的第 j 行的余弦相似度；a[n_a×d]，b[n_b×d]。
   a 或 b 有一行是零向量时返回 ATTN_EINVAL（零向量没有方向）。成功返回 ATTN_OK。 */
int ch02_cosine_all(const float *a, const float *b, size_t n_a, size_t n_b, size_t d, float *out)
{
    (void)a; (void)b; (void)n_a; (void)n_b; (void)d; (void)out;
    /* 在这里写你的代码 */
    return EX_TODO;
}
