#line 179 "book/06-cross.nw"
#include "attn.h"
#include "internal.h"

int attn_padding_mask(size_t n_q, size_t n_k, size_t n_valid, unsigned char *mask)
{
#line 347 "book/06-cross.nw"
    size_t size;
    if (mask == NULL || n_q == 0 || n_k == 0 || n_valid == 0 || n_valid > n_k)
        return ATTN_EINVAL;
    if (__builtin_mul_overflow(n_q, n_k, &size))   /* mask 的字节数 */
        return ATTN_EINVAL;
#line 185 "book/06-cross.nw"
    /* mask[i][j] = (j < n_valid)，对每个查询 i 都一样 */
    for (size_t i = 0; i < n_q; i++)
        for (size_t j = 0; j < n_k; j++)
            mask[i * n_k + j] = (unsigned char)(j < n_valid);
    return ATTN_OK;
}
