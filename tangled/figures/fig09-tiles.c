#line 2327 "book/09-fast.nw"
/* 分块的图 的数据：n = 768 的因果注意力里，快速路径处理了哪些块（块的大小 FQ、FK 就是库用的那两个数）。
   三块（以两个空行分开）：0 每个块 “键中心 查询中心 半宽 半高 类别”；
   1 每个查询块里被掩码的三角（多边形，顶点 “键 查询”）；2 每个查询块里在线 softmax 扫过的范围
   （箭头 “x y dx dy”）。 */
#include "attn.h"
#include "attn_core.h"

#include <stdio.h>

#include "../examples/ch09.h"

static void print_tile(size_t i0, size_t rows, size_t j0, size_t cols, int kind, void *arg)
{
    (void)arg;
    printf("%g %g %g %g %d\n", (double)j0 + cols / 2.0, (double)i0 + rows / 2.0,
           cols / 2.0, rows / 2.0, kind);
}

int main(void)
{
    enum { N = 768 };
    size_t scores = flash_tiles(N, print_tile, NULL);
    if (scores != attn_flash_scores(N, N, 1))       /* 和库自己的计数对得上 */
        return 1;
    printf("\n\n");
    for (size_t i0 = 0; i0 < N; i0 += FQ) {         /* 对角块里 j > i 的三角 */
        size_t i1 = i0 + FQ < N ? i0 + FQ : N;
        printf("%zu %zu\n%zu %zu\n%zu %zu\n%zu %zu\n\n", i0, i0, i1, i0, i1, i1, i0, i0);
    }
    printf("\n");
    for (size_t i0 = 0; i0 < N; i0 += FQ) {         /* 在线 softmax 扫过的键：从 0 到 j_end */
        size_t rows = N - i0 < FQ ? N - i0 : FQ;
        size_t j_end = flash_key_end(N, N, 1, i0, rows);
        printf("%g %g %g 0\n", 12.0, (double)i0 + rows / 2.0, (double)j_end - 24.0);
    }
    return 0;
}
