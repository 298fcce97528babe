#line 1104 "book/03-attention.nw"
#include "attn.h"
#include "internal.h"

#include <math.h>
#include <stdint.h>

_Static_assert(sizeof(unsigned long long) == 8, "attn_rng 需要 64 位的 unsigned long long");

int attn_rng_seed(attn_rng *r, unsigned long long seed)
{
    if (r == NULL)
        return ATTN_EINVAL;
    r->state = seed;
    return ATTN_OK;
}

unsigned long long attn_rng_next(attn_rng *r)
{
    if (r == NULL)
        return 0;
#line 1140 "book/03-attention.nw"
    /* 增量 γ = ⌊2^64/φ⌋，再用 Stafford 的 Mix13 搅乱（移位 30、27、31） */
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
#line 1125 "book/03-attention.nw"
}

#line 1151 "book/03-attention.nw"
static double rng_unit(attn_rng *r)
{
    return (double)((attn_rng_next(r) >> 11) + 1) * 0x1.0p-53;
}

#line 1129 "book/03-attention.nw"
int attn_rng_normal(attn_rng *r, float *x, size_t n)
{
    size_t bytes;
    if (r == NULL || x == NULL || n == 0 || !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
#line 1162 "book/03-attention.nw"
    /* x[n]：每次用两个均匀数生成 x[i] 与 x[i+1] */
    const double two_pi = 6.283185307179586;
    for (size_t i = 0; i < n; i += 2) {
        double radius = sqrt(-2.0 * log(rng_unit(r)));
        double angle = two_pi * rng_unit(r);
        x[i] = (float)(radius * cos(angle));
        if (i + 1 < n)
            x[i + 1] = (float)(radius * sin(angle));
    }
#line 1135 "book/03-attention.nw"
    return ATTN_OK;
}
