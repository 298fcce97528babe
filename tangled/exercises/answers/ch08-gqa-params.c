#line 1386 "book/08-params.nw"
/* exercises/answers/ch08-gqa-params.c — 练习 8.6 的参考答案 */
#include "attn.h"
#include "ex.h"

#include <stdint.h>

int ch08_count_params_gqa(const attn_gpt_config *c, uint64_t n_kv_heads, uint64_t *total)
{
    attn_param_breakdown b;
    if (c == NULL || total == NULL || n_kv_heads == 0 || n_kv_heads > c->n_heads ||
        c->n_heads % n_kv_heads != 0)
        return ATTN_EINVAL;
    int status = attn_count_params(c, &b);   /* 多头的总数，也替我们查了溢出 */
    if (status != ATTN_OK)
        return status;
    /* W_K、W_V 各少 (h - g) 个头：每个头 d·d_h 个权重，有偏置时再加 d_h 个 */
    uint64_t per_head = c->d_model * c->d_head + (c->biases ? c->d_head : 0);
    *total = b.total - c->n_layers * 2 * (c->n_heads - n_kv_heads) * per_head;
    return ATTN_OK;
}
