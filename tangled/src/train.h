#line 1629 "book/12-learning.nw"
/* src/train.h — 第 12 章训练用的内部接口，不对外公开。 */
#ifndef ATTN_TRAIN_H
#define ATTN_TRAIN_H

#include "attn.h"

#include <stddef.h>

/* 训练的工作区：按需变大的一块内存，一步一步反复用。全 0 是一个空的工作区。 */
typedef struct train_work {
    float *mem;
    size_t cap;                 /* mem 里 float 的个数 */
    void *scratch;              /* 注意力前向的工作区（64 字节对齐） */
    size_t scratch_bytes;
} train_work;
void train_work_free(train_work *w);

/* n_seq 句话，每句 n 个词：tokens、targets 各 n_seq·n 个，每句从位置 0 开始，因果。
   scale 是注意力的缩放，0 表示 1/sqrt(d_head)（与 attn_sdpa 相同）。
   *loss_sum = 全部 n_seq·n 个位置的 −log p 之和。logits 不为 NULL 时写入 [n_seq·n × vocab]。
   grad 不为 NULL 时加上 gscale·∂loss_sum/∂参数。work 为 NULL 时自己分配、用完释放。 */
int train_loss_grad(const attn_gpt *m, const int *tokens, const int *targets,
                    size_t n_seq, size_t n, float scale, double *loss_sum, float *logits,
                    attn_gpt *grad, float gscale, train_work *work);

/* c[m×n] = (acc ? c : 0) + a·b。a 的 (i, t) 元素在 a[i·ars + t·acs]（所以 aᵀ 也能直接传），
   b 的 (t, j) 元素在 b[t·ldb + j]，c 的行距是 ldc。每个 c 的元素都按 t 从小到大依次累加。 */
void train_mm(const float *a, size_t ars, size_t acs, const float *b, size_t ldb,
              float *c, size_t ldc, size_t m, size_t k, size_t n, int acc);

#endif
