#line 1097 "book/04-scaling.nw"
/* exercises/answers/ch04-softmax-backward.c — 第 4 章练习 6 的参考答案 */
#include "attn.h"
#include "ex.h"

int ch04_softmax_backward(const float *p, const float *g, size_t n, float *ds)
{
    /* c = p·g，ds[i] = p[i]·(g[i] − c) */
    double c = 0.0;
    for (size_t j = 0; j < n; j++)
        c += (double)p[j] * g[j];
    for (size_t i = 0; i < n; i++)
        ds[i] = (float)(p[i] * (g[i] - c));
    return ATTN_OK;
}
