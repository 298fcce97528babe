#line 1659 "book/11-block.nw"
/* src/gpt_shape.h — 第 11 章的模型形状检查（库内部用）。 */
#ifndef ATTN_GPT_SHAPE_H
#define ATTN_GPT_SHAPE_H

#include "attn.h"

#include <limits.h>
#include <stdint.h>

/* 配置能建成本章的模型时返回 1，并在 *count 里给出参数个数 */
static inline int attn_gpt_shape_ok(const attn_gpt_config *cfg, size_t *count)
{
    attn_param_breakdown b;
    if (cfg == NULL || attn_count_params(cfg, &b) != ATTN_OK)
        return 0;
    if (!cfg->biases || !cfg->layer_norms || !cfg->learned_positions || !cfg->tied)
        return 0;
    if (cfg->n_heads * cfg->d_head != cfg->d_model)   /* count_params 已查过乘积不溢出 */
        return 0;
    if (b.total > SIZE_MAX / sizeof(float) || cfg->vocab > (uint64_t)INT_MAX)
        return 0;
    *count = (size_t)b.total;
    return 1;
}

/* m 是 init 或 bind 成功建好的模型时返回 1 */
static inline int attn_gpt_ready(const attn_gpt *m)
{
    size_t count;
    return m != NULL && m->params != NULL && m->layers != NULL &&
           attn_gpt_shape_ok(&m->cfg, &count) && count == m->n_params;
}

#endif
