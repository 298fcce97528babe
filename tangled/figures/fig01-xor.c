#line 1353 "book/01-mlp.nw"
/* 图：异或网络沿 s = x1 + x2。第一块每行 “s h1 -2·h2 y”，第二块每行 “s y 名字”：四个角落 */
#include "attn.h"

#include <stdio.h>

static const float xor_w1[4] = {1, 1, 1, 1}, xor_b1[2] = {0, -1};
static const float xor_w2[2] = {1, -2};

int main(void)
{
    enum { N = 61 };
    static float x[N][2], h[N][2], y[N];
    for (int i = 0; i < N; i++)
        x[i][0] = x[i][1] = (-0.5f + 3.0f * (float)i / (N - 1)) / 2.0f;   /* s 从 -0.5 到 2.5 */
    if (attn_linear(&x[0][0], xor_w1, xor_b1, &h[0][0], N, 2, 2) != ATTN_OK ||
        attn_relu(&h[0][0], 2 * N) != ATTN_OK ||
        attn_ffn(&x[0][0], N, 2, xor_w1, xor_b1, 2, xor_w2, NULL, 1, y) != ATTN_OK)
        return 1;
    for (int i = 0; i < N; i++)
        printf("%.4f %.4f %.4f %.4f\n", x[i][0] + x[i][1], h[i][0], -2.0f * h[i][1], y[i]);
    static const float corner[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    static const char *name[4] = {"(0,0)", "(1,0)", "(0,1)", "(1,1)"};
    float yc[4];
    if (attn_ffn(&corner[0][0], 4, 2, xor_w1, xor_b1, 2, xor_w2, NULL, 1, yc) != ATTN_OK)
        return 1;
    printf("\n\n");
    for (int c = 0; c < 4; c++)
        printf("%.1f %.4f \"%s\"\n", corner[c][0] + corner[c][1], yc[c], name[c]);
    return 0;
}
