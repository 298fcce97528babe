#line 1013 "book/11-block.nw"
/* examples/ch11.h：第 11 章的例子，练习程序和测试共用。 */
#ifndef ATTN_EXAMPLES_CH11_H
#define ATTN_EXAMPLES_CH11_H

#include "attn.h"

#include <stdlib.h>

#line 460 "book/11-block.nw"
/* 词表 16，上下文 16，d = 32，4 个头，2 层，d_ff = 128 */
static inline attn_gpt_config tiny_config(void)
{
    attn_gpt_config c = {.d_model = 32, .n_heads = 4, .d_head = 8, .n_layers = 2,
                         .d_ff = 128, .vocab = 16, .n_ctx = 16, .biases = 1,
                         .layer_norms = 1, .learned_positions = 1, .tied = 1};
    return c;
}

#line 892 "book/11-block.nw"
/* 分数最大的词；并列时取编号小的 */
static inline int most_likely(const float *logits, size_t vocab)
{
    size_t best = 0;
    for (size_t t = 1; t < vocab; t++)
        if (logits[t] > logits[best])
            best = t;
    return (int)best;
}

/* 模型先逐词读 prompt[n_prompt]（n_prompt ≥ 1），再写出 out[n_out]：
   每一步取分数最大的词，把它当作下一个输入。返回库的状态：
   提示和续写合起来超出上下文时是 attn_gpt_step 的 ATTN_EFULL。 */
static inline int generate_greedy(const attn_gpt *m, const int *prompt, size_t n_prompt,
                                  int *out, size_t n_out)
{
#line 2273 "book/11-block.nw"
    if (prompt == NULL || n_prompt == 0 || (out == NULL && n_out > 0))
        return ATTN_EINVAL;
#line 909 "book/11-block.nw"
    attn_gpt_decoder dec;
    int status = attn_gpt_decoder_init(&dec, m);
    if (status != ATTN_OK)
        return status;
    float *logits = malloc((size_t)m->cfg.vocab * sizeof *logits);
    if (logits == NULL)
        status = ATTN_ENOMEM;
    for (size_t i = 0; i < n_prompt && status == ATTN_OK; i++)
        status = attn_gpt_step(&dec, prompt[i], logits);
    for (size_t i = 0; i < n_out && status == ATTN_OK; i++) {
        out[i] = most_likely(logits, (size_t)m->cfg.vocab);
        if (i + 1 < n_out)
            status = attn_gpt_step(&dec, out[i], logits);   /* 写出的词成了下一个输入 */
    }
    free(logits);
    attn_gpt_decoder_free(&dec);
    return status;
}

#line 1025 "book/11-block.nw"
#endif
