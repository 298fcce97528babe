#line 973 "book/04-scaling.nw"
/* 图 4.2 的数据：d_k，不缩放的平均最大权重与熵，缩放后的平均最大权重与熵。 */
#include "attn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../examples/ch04.h"

int main(void)
{
    for (size_t d = 1; d <= 1024; d *= 2) {
        double m_raw, h_raw, m_s, h_s;
        attn_rng r;
        attn_rng_seed(&r, d);
        if (pattern_sharpness(&r, d, 64, 200, 1.0f, &m_raw, &h_raw) != ATTN_OK)
            return 1;
        attn_rng_seed(&r, d);
        if (pattern_sharpness(&r, d, 64, 200, 0.0f, &m_s, &h_s) != ATTN_OK)
            return 1;
        printf("%zu %.6f %.6f %.6f %.6f\n", d, m_raw, h_raw, m_s, h_s);
    }
    return 0;
}
