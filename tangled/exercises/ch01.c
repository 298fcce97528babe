#line 194 "book/C-programs.nw"
/* attn-ch01：第 1 章的练习 */
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>

#include "../examples/ch01.h"

#line 1024 "book/01-mlp.nw"
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
    float x[8] = {x1, x2}, h[8], y[4];
    const float corners[8] = {0, 0, 1, 0, 0, 1, 1, 1};
    const float w1[4] = {1, 1, 1, 1}, b1[2] = {0, -1}, w2[2] = {1, -2};
    size_t n = 1;
    if (table) {
        for (int i = 0; i < 8; i++)
            x[i] = corners[i];
        n = 4;
    }
    /* h[n][2] = x[n][2]·w1 + b1，（不加 --linear 时）过 ReLU；y[n] = h·w2 */
    int status = attn_linear(x, w1, b1, h, n, 2, 2);
    if (status == ATTN_OK && !linear)
        status = attn_relu(h, n * 2);
    if (status == ATTN_OK)
        status = attn_linear(h, w2, NULL, y, n, 2, 1);
    if (status != ATTN_OK) {
        fprintf(stderr, "xor: %s\n", attn_strerror(status));
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        if (table)
            printf("x = (%g, %g)  h = (%g, %g)  y = %g\n",
                   x[2 * i], x[2 * i + 1], h[2 * i], h[2 * i + 1], y[i]);
        else
            printf("h = (%g, %g)\ny = %g\n", h[0], h[1], y[0]);
    return 0;
}

#line 1067 "book/01-mlp.nw"
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
    float w1[64], b1[64], w2[64], b2[1], x[4001], y[4001], g;
    relu_sine_net(pieces, w1, b1, w2, b2);
    for (int i = 0; i <= 4000; i++)
        x[i] = (float)(3.14159265358979323846 * i / 4000.0);
    int status = attn_ffn(x, 4001, 1, w1, b1, pieces, w2, b2, 1, y);
    if (status == ATTN_OK && !isnan(at))
        status = attn_ffn(&at, 1, 1, w1, b1, pieces, w2, b2, 1, &g);
    if (status != ATTN_OK) {
        fprintf(stderr, "relu-fit: %s\n", attn_strerror(status));
        return 1;
    }
    double err = 0.0;
    for (int i = 0; i <= 4000; i++)
        err = fmax(err, fabs(y[i] - sin(x[i])));
    printf("段数 %zu：[0, π] 上的最大误差 %.4f\n", pieces, err);
    if (!isnan(at))
        printf("x = %.4f：网络 %.4f，sin x = %.4f，误差 %.4f\n", at, g, sin(at), g - sin(at));
    return 0;
}

#line 1107 "book/01-mlp.nw"
static int ex_linear(int argc, char **argv)
{
    const char *xs = "1,2,3", *ws = "0.5,-1,2", *bs = NULL;
    const struct cli_option opts[] = {
        {"x", CLI_STRING, &xs, "输入 x（d_in 个数，用逗号分开）"},
        {"w", CLI_STRING, &ws, "按行给出的 W[d_in][d_out]"},
        {"b", CLI_STRING, &bs, "偏置（d_out 个数；不给就是 0）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    float x[64], w[64 * 64], b[64], y[64];
    size_t d_in = cli_parse_list(xs, x, 64), n_w = cli_parse_list(ws, w, 64 * 64);
    size_t d_out = d_in == 0 ? 0 : n_w / d_in;
    size_t n_b = bs == NULL ? d_out : cli_parse_list(bs, b, 64);
    if (d_in == 0 || d_out == 0 || d_out > 64 || d_out * d_in != n_w || n_b != d_out) {
        fprintf(stderr, "linear: --w 的个数要是 --x 的整数倍（至多 64 个输出），--b 的个数等于输出的个数\n"
                        "用法: linear [--x 数,数,…] [--w 数,数,…] [--b 数,数,…]\n");
        return 2;
    }
    int status = attn_linear(x, w, bs == NULL ? NULL : b, y, 1, d_in, d_out);
    if (status != ATTN_OK) {
        fprintf(stderr, "linear: %s\n", attn_strerror(status));
        return 1;
    }
    printf("d_in = %zu，d_out = %zu\ny =", d_in, d_out);
    for (size_t j = 0; j < d_out; j++)
        printf(" %.9g", y[j]);
    printf("\n");
    return 0;
}

#line 209 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"xor", "两层 ReLU 网络算异或（--linear 去掉 ReLU）", ex_xor},
        {"relu-fit", "用 n 段 ReLU 折线逼近 [0, π] 上的 sin x", ex_relu_fit},
        {"linear", "y = xW + b，x、W、b 都从命令行给出", ex_linear},
    };
    return cli_dispatch(argc, argv, "attn-ch01", ex, sizeof ex / sizeof ex[0]);
}
