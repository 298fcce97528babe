#line 2317 "book/11-block.nw"
/* 打印三列：x、GELU(x)、ReLU(x) */
#include "attn.h"

#include <stdio.h>

int main(void)
{
    enum { N = 281 };
    static float x[N], g[N], r[N];
    for (int i = 0; i < N; i++)
        x[i] = g[i] = r[i] = -4.0f + 7.0f * (float)i / (N - 1);   /* [-4, 3] */
    if (attn_gelu(g, N) != ATTN_OK || attn_relu(r, N) != ATTN_OK)
        return 1;
    for (int i = 0; i < N; i++)
        printf("%.4f %.6f %.6f\n", x[i], g[i], r[i]);
    return 0;
}
