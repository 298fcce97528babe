#line 361 "book/08-params.nw"
#include "attn.h"
#include "checked.h"

int attn_attention_flops(const attn_gpt_config *c, uint64_t n_tokens, uint64_t *flops)
{
#line 661 "book/08-params.nw"
    if (c == NULL || flops == NULL || n_tokens == 0 || c->n_heads == 0 || c->d_head == 0 ||
        c->n_layers == 0)
        return ATTN_EINVAL;
#line 367 "book/08-params.nw"
    int ok = 1;
    /* 一个头：scores[N][N] = q[N][d_head]·kᵀ，out[N][d_head] = a[N][N]·v，
       各 N²·d_head 次乘加 */
    uint64_t nn = attn_u64_mul(n_tokens, n_tokens, &ok);
    uint64_t per_head = attn_u64_mul(4, attn_u64_mul(nn, c->d_head, &ok), &ok);
    uint64_t f = attn_u64_mul(attn_u64_mul(per_head, c->n_heads, &ok),
                              c->n_layers, &ok);
#line 654 "book/08-params.nw"
    if (!ok)
        return ATTN_EINVAL;
#line 375 "book/08-params.nw"
    *flops = f;
    return ATTN_OK;
}

int attn_kv_cache_bytes(const attn_gpt_config *c, uint64_t n_tokens,
                        uint64_t bytes_per_number, uint64_t *bytes)
{
#line 667 "book/08-params.nw"
    if (c == NULL || bytes == NULL || n_tokens == 0 || bytes_per_number == 0 || c->n_heads == 0 ||
        c->d_head == 0 || c->n_layers == 0)
        return ATTN_EINVAL;
#line 383 "book/08-params.nw"
    int ok = 1;
    /* 每层每个词：k[n_heads·d_head] 和 v[n_heads·d_head] */
    uint64_t per_layer = attn_u64_mul(2, attn_u64_mul(c->n_heads, c->d_head, &ok), &ok);
    uint64_t numbers = attn_u64_mul(attn_u64_mul(per_layer, c->n_layers, &ok),
                                    n_tokens, &ok);
    uint64_t b = attn_u64_mul(numbers, bytes_per_number, &ok);
#line 654 "book/08-params.nw"
    if (!ok)
        return ATTN_EINVAL;
#line 390 "book/08-params.nw"
    *bytes = b;
    return ATTN_OK;
}
