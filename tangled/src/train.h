#line 1746 "book/12-learning.nw"
/* src/train.h — 第 12 章训练的内部接口，不对外公开（测试和本书的程序可以用）。 */
#ifndef ATTN_TRAIN_H
#define ATTN_TRAIN_H

#include "attn.h"

#include <stddef.h>

/* 和 attn_gpt_loss_grad_batch 相同，另有两个参数：注意力的缩放 scale（0 表示 1/sqrt(d_head)，
   与 attn_sdpa 相同），和 logits（不为 NULL 时另外写入 [n_seq·n × vocab] 的 logits）。 */
int attn_gpt_train_scaled(const attn_gpt *m, const int *tokens, const int *targets,
                          size_t n_seq, size_t n, float scale, float *loss, float *logits,
                          attn_gpt *grad, void *work, size_t work_bytes);

#endif
