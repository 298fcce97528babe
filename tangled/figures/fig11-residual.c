#line 2339 "book/11-block.nw"
/* 8 层的随机小模型读 16 个词。每行：层号（0 = 嵌入之后）、16 个位置 ‖x‖ 的平均值、最大值、
   这一层的改变量 ‖Δx‖ 的平均值（第 0 行为 0） */
#include "attn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../examples/ch11.h"

int main(void)
{
    attn_gpt_config c = tiny_config();
    c.n_layers = 8;
    enum { N = 16, D = 32 };
    int tokens[N];
    float x[N * D], before[N * D];
    attn_gpt m;
    for (int i = 0; i < N; i++)
        tokens[i] = (5 * i + 2) % 16;
    if (attn_gpt_init(&m, &c, 5) != ATTN_OK ||
        attn_gpt_embed(&m, tokens, N, 0, x) != ATTN_OK)
        return 1;
    for (int l = 0; l <= 8; l++) {
        memcpy(before, x, sizeof x);
        if (l > 0 && attn_gpt_block(&m, (size_t)(l - 1), x, N) != ATTN_OK)
            return 1;
        double mean = 0.0, most = 0.0, delta = 0.0;
        for (int i = 0; i < N; i++) {
            double s = 0.0, t = 0.0;
            for (int j = 0; j < D; j++) {
                double now = x[i * D + j], change = now - before[i * D + j];
                s += now * now;
                t += change * change;
            }
            mean += sqrt(s) / N;
            most = fmax(most, sqrt(s));
            delta += sqrt(t) / N;
        }
        printf("%d %.5f %.5f %.5f\n", l, mean, most, delta);
    }
    attn_gpt_free(&m);
    return 0;
}
