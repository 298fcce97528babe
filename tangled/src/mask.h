#line 490 "book/05-mask.nw"
/* src/mask.h — 查询 i 能不能看见键 j：显式掩码和因果规则同时生效。 */
#ifndef ATTN_MASK_H
#define ATTN_MASK_H

#include <stddef.h>

#line 190 "book/05-mask.nw"
static inline int attn_key_visible(const unsigned char *mask, int causal,
                                   size_t n_q, size_t n_k, size_t i, size_t j)
{
#line 202 "book/05-mask.nw"
    if (mask && mask[i * n_k + j] == 0)
        return 0;
#line 214 "book/05-mask.nw"
    if (causal && j + n_q > i + n_k)
        return 0;
#line 195 "book/05-mask.nw"
    return 1;
}

#line 498 "book/05-mask.nw"
#endif
