#line 1386 "book/01-mlp.nw"
/* 打印五列：x、sin(x)、2 段、4 段、8 段折线网络的输出 */
#include "attn.h"

#include <math.h>
#include <stdio.h>

#include "../examples/ch01.h"

int main(void)
{
    enum { N = 241 };
    static float x[N], y[3][N];
    for (int i = 0; i < N; i++)
        x[i] = -0.5f + 5.0f * (float)i / (N - 1);          /* [-0.5, 4.5] */
    for (int t = 0; t < 3; t++) {
        size_t n = (size_t)2 << t;                      /* 2、4、8 段 */
        float w1[8], b1[8], w2[8], b2[1];
        relu_sine_net(n, w1, b1, w2, b2);
        int status = attn_ffn(x, N, 1, w1, b1, n, w2, b2, 1, y[t]);
        if (status != ATTN_OK) {
            fprintf(stderr, "fig01-relu-fit: %s\n", attn_strerror(status));
            return 1;
        }
    }
    for (int i = 0; i < N; i++)
        printf("%.4f %.5f %.5f %.5f %.5f\n", x[i], sin(x[i]), y[0][i], y[1][i], y[2][i]);
    return 0;
}
