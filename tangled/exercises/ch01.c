#line 194 "book/C-programs.nw"
/* attn-ch01：第 1 章的练习 */
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>

#include "../examples/ch01.h"

#line 615 "book/01-mlp.nw"
static int ex_xor(int argc, char **argv)
{
    float x1 = 0, x2 = 0;
    int table = 0, linear = 0;
    const struct cli_option opts[] = {
        {"x1", CLI_FLOAT, &x1, "第一个输入"},
        {"x2", CLI_FLOAT, &x2, "第二个输入"},
        {"table", CLI_FLAG, &table, "打印四个角上的真值表"},
        {"linear", CLI_FLAG, &linear, "去掉 ReLU"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    float x[8] = {x1, x2, 0, 1, 0, 1, 1, 1}, h[8], y[4];
    float w1[4] = {1, 1, 1, 1}, b1[2] = {0, -1}, w2[2] = {1, -2};
    if (table) {
        float corners[8] = {0, 0, 1, 0, 0, 1, 1, 1};
        for (int i = 0; i < 8; i++)
            x[i] = corners[i];
    }
    size_t n = table ? 4 : 1;
    /* h[n][2] = x[n][2]·w1 + b1；y[n] = h·w2 */
    attn_linear(x, w1, b1, h, n, 2, 2);
    if (!linear)
        attn_relu(h, n * 2);
    attn_linear(h, w2, NULL, y, n, 2, 1);
    for (size_t i = 0; i < n; i++)
        if (table)
            printf("x = (%g, %g)  h = (%g, %g)  y = %g\n",
                   x[2 * i], x[2 * i + 1], h[2 * i], h[2 * i + 1], y[i]);
        else
            printf("h = (%g, %g)\ny = %g\n", h[0], h[1], y[0]);
    return 0;
}

#line 652 "book/01-mlp.nw"
static int ex_relu_fit(int argc, char **argv)
{
    size_t pieces = 8;
    float at = NAN;
    const struct cli_option opts[] = {
        {"pieces", CLI_SIZE, &pieces, "折线的段数（1 到 64）"},
        {"at", CLI_FLOAT, &at, "另外报告网络在这个 x 处的输出"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    if (pieces < 1 || pieces > 64) {
        fprintf(stderr, "relu-fit: --pieces 要在 1 到 64 之间\n用法: relu-fit [--pieces n] [--at x]\n");
        return 2;
    }
    float w1[64], b1[64], w2[64], b2[1], x[4001], y[4001];
    relu_sine_net(pieces, w1, b1, w2, b2);
    for (int i = 0; i <= 4000; i++)
        x[i] = (float)(3.14159265358979323846 * i / 4000.0);
    attn_ffn(x, 4001, 1, w1, b1, pieces, w2, b2, 1, y);
    double err = 0.0;
    for (int i = 0; i <= 4000; i++)
        err = fmax(err, fabs(y[i] - sin(x[i])));
    printf("段数 %zu：[0, π] 上的最大误差 %.4f\n", pieces, err);
    if (!isnan(at)) {
        attn_ffn(&at, 1, 1, w1, b1, pieces, w2, b2, 1, y);
        printf("x = %.4f：网络 %.4f，sin x = %.4f，误差 %.4f\n", at, y[0], sin(at), y[0] - sin(at));
    }
    return 0;
}

#line 207 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"xor", "两层 ReLU 网络算异或（--linear 去掉 ReLU）", ex_xor},
        {"relu-fit", "用 n 段 ReLU 折线逼近 [0, π] 上的 sin x", ex_relu_fit},
    };
    return cli_dispatch(argc, argv, "attn-ch01", ex, sizeof ex / sizeof ex[0]);
}
