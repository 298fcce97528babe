#line 949 "book/04-scaling.nw"
/* 图 4.1 的数据：d_k、未缩放点积的样本方差、缩放后的样本方差。 */
#include "attn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../examples/ch04.h"

int main(void)
{
    for (size_t d = 1; d <= 1024; d *= 2) {
        attn_rng r;
        attn_rng_seed(&r, 4000 + d);
        double raw = dot_variance(&r, d, 10000, 1.0f, 1.0f);
        attn_rng_seed(&r, 4000 + d);
        double scaled = dot_variance(&r, d, 10000, 1.0f, 1.0f / sqrtf((float)d));
        printf("%zu %.6f %.6f\n", d, raw, scaled);
    }
    return 0;
}
