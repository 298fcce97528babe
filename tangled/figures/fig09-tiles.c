#line 1189 "book/09-fast.nw"
/* 图 9.1 的数据：n = 768 的因果注意力里，快速路径处理了哪些块（块的大小 FQ、FK 就是库用的那两个数）。
   三块（以两个空行分开）：0 每个块 “键中心 查询中心 半宽 半高 类别”；
   1 每个查询块里被掩码的三角（多边形，顶点 “键 查询”）；2 每个查询块里在线 softmax 扫过的范围
   （箭头 “x y dx dy”）。 */
#include "attn.h"
#include "attn_core.h"

#include <stdio.h>

#line 362 "book/09-fast.nw"
/* 查询块 FQ 行，键块 FK 个键；值的列数补到 FD 的倍数。FQ 是每种宽度的 FP 的倍数，FK 是每种 FR 的倍数。 */
enum { FQ = 192, FK = 96, FD = 32 };

#line 1083 "book/09-fast.nw"
/* 查询 i0 .. i0+rows-1 要看的键是 [0, 返回值)；不用减法，免得无符号数变成负数 */
static size_t flash_key_end(size_t n_q, size_t n_k, int causal, size_t i0, size_t rows)
{
    if (!causal)
        return n_k;
    size_t lim = i0 + rows + n_k;
    size_t end = lim > n_q ? lim - n_q : 0;
    return end < n_k ? end : n_k;
}

#line 1165 "book/09-fast.nw"
/* 图 9.1 与测试共用：n 个查询、n 个键、因果时，按 flash_block 的循环把每个 (查询块, 键块)
   分成三类：0 整块跳过，1 整块看得见，2 在对角线上（处理了，块里有被掩码的分数）。
   visit(i0, rows, j0, cols, 类别, arg) 对每一块调用一次；返回按块数出的分数个数。 */
static size_t flash_tiles(size_t n, void (*visit)(size_t, size_t, size_t, size_t, int, void *),
                          void *arg)
{
    size_t scores = 0;
    for (size_t i0 = 0; i0 < n; i0 += FQ) {
        size_t rows = n - i0 < FQ ? n - i0 : FQ;
        size_t j_end = flash_key_end(n, n, 1, i0, rows);
        for (size_t j0 = 0; j0 < n; j0 += FK) {
            size_t cols = n - j0 < FK ? n - j0 : FK;
            int kind = j0 >= j_end ? 0 : j0 + cols - 1 <= i0 ? 1 : 2;   /* 第一行 i0 看到键 i0 为止 */
            if (kind != 0)
                scores += rows * cols;
            if (visit != NULL)
                visit(i0, rows, j0, cols, kind, arg);
        }
    }
    return scores;
}

#line 1204 "book/09-fast.nw"
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
