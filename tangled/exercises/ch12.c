#line 565 "book/C-programs.nw"
/* attn-ch12：第 12 章的练习 */
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#line 2903 "book/12-learning.nw"
static int ex_ce(int argc, char **argv)
{
    const char *logits = "1000,0";
    size_t target = 1;
    const struct cli_option opts[] = {
        {"logits", CLI_STRING, &logits, "一行 logits，用逗号分开（最多 16 个）"},
        {"target", CLI_SIZE, &target, "正确的词的编号"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    float z[16], g[16], loss;
    size_t n = cli_parse_list(logits, z, 16);
    if (n == 0 || target >= n) {
        fprintf(stderr, "ce: logits 要是 1 到 16 个有限的数，target 小于它们的个数\n"
                        "用法: ce [--logits 1000,0] [--target 1]\n");
        return 2;
    }
    int t = (int)target;
    if (attn_cross_entropy(z, &t, 1, n, &loss, g) != ATTN_OK)
        return 1;
    printf("损失 %.4f\n梯度", loss);
    for (size_t i = 0; i < n; i++) printf(" %.4f", g[i]);
    printf("\n");
    return 0;
}

#line 2932 "book/12-learning.nw"
static int ex_softmax_grad(int argc, char **argv)
{
    const char *scores = "2,1,3", *dps = "1,0,0";
    const struct cli_option opts[] = {
        {"scores", CLI_STRING, &scores, "一行分数（最多 16 个）"},
        {"dp", CLI_STRING, &dps, "对 softmax 输出的梯度，个数与分数相同"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    float p[16], dp[16], ds[16];
    size_t n = cli_parse_list(scores, p, 16), m = cli_parse_list(dps, dp, 16);
    if (n == 0 || m != n) {
        fprintf(stderr, "softmax-grad: 分数和梯度要是个数相同的 1 到 16 个有限的数\n"
                        "用法: softmax-grad [--scores 2,1,3] [--dp 1,0,0]\n");
        return 2;
    }
    if (attn_softmax(p, n) != ATTN_OK || attn_softmax_backward(p, dp, ds, n) != ATTN_OK)
        return 1;
    double dot = 0, sum = 0;
    for (size_t i = 0; i < n; i++) { dot += (double)dp[i] * p[i]; sum += ds[i]; }
    printf("p =");
    for (size_t i = 0; i < n; i++) printf(" %.4f", p[i]);
    printf("\ndp·p = %.4f\nds =", dot);
    for (size_t i = 0; i < n; i++) printf(" %.4f", ds[i]);
    printf("\nds 之和 %.4f\n", fabs(sum) < 5e-5 ? 0.0 : sum);
    return 0;
}

#line 2963 "book/12-learning.nw"
static int ex_gelu_grad(int argc, char **argv)
{
    float x = 0.0f;
    const struct cli_option opts[] = {
        {"x", CLI_FLOAT, &x, "GELU 的输入"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    float one = 1.0f, g;
    if (attn_gelu_backward(&x, &one, &g, 1) != ATTN_OK)
        return 1;
    double h = 1e-6, L[2];
    for (int t = 0; t < 2; t++) {
        double z = x + (t ? -h : h);
        L[t] = 0.5 * z * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (z + 0.044715 * z * z * z)));
    }
    printf("x = %g：gelu'(x) = %.4f，中心差分 %.4f\n", x, g, (L[0] - L[1]) / (2 * h));
    return 0;
}

#line 579 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"ce", "一行 logits 的交叉熵和它的梯度", ex_ce},
        {"softmax-grad", "softmax 的反向传播", ex_softmax_grad},
        {"gelu-grad", "GELU 的导数与中心差分", ex_gelu_grad},
    };
    return cli_dispatch(argc, argv, "attn-ch12", ex, sizeof ex / sizeof ex[0]);
}
