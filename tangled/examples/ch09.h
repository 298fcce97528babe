#line 1911 "book/09-fast.nw"
/* examples/ch09.h：第 9 章的例子，测试和图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH09_H
#define ATTN_EXAMPLES_CH09_H

#include "../src/flash_common.h"

#line 1180 "book/09-fast.nw"
/* 图 9.1 与测试共用：n 个查询、n 个键、因果时，按 flash_block 的循环把每个 (查询块, 键块)
   分成三类：0 整块跳过，1 整块看得见，2 在对角线上（处理了，块里有被掩码的分数）。
   visit(i0, rows, j0, cols, 类别, arg) 对每一块调用一次；返回按块数出的分数个数。 */
static inline size_t flash_tiles(size_t n, void (*visit)(size_t, size_t, size_t, size_t, int, void *),
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

#line 1919 "book/09-fast.nw"
#endif
