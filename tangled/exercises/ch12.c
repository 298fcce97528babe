#line 565 "book/C-programs.nw"
/* attn-ch12：第 12 章的练习 */
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../examples/ch12.h"

#line 3654 "book/12-learning.nw"
static int ex_descent(int argc, char **argv)
{
    float a = 25.0f, lr = 0.07f, beta = 0.0f;
    size_t steps = 30;
    int adam = 0;
    const struct cli_option opts[] = {
        {"a", CLI_FLOAT, &a, "y 方向的曲率：L = (x² + a·y²)/2（默认 25）"},
        {"lr", CLI_FLOAT, &lr, "学习率（默认 0.07）"},
        {"beta", CLI_FLOAT, &beta, "动量 β（默认 0：不用动量）"},
        {"adam", CLI_FLAG, &adam, "改用 Adam（β1 = 0.9，β2 = 0.999）"},
        {"steps", CLI_SIZE, &steps, "步数（默认 30，至多 10000）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    if (!(a > 0) || !(lr > 0) || !(beta >= 0 && beta < 1) || steps == 0 || steps > 10000) {
        fprintf(stderr, "descent: a、lr 要大于 0，beta 在 [0, 1) 里，steps 在 1 到 10000 之间\n"
                        "用法: descent [--a 25] [--lr 0.07] [--beta 0] [--adam] [--steps 30]\n");
        return 2;
    }
    double w[2] = {1, 1}, v[2] = {0, 0};
    float wf[2] = {1, 1}, m1[2] = {0, 0}, m2[2] = {0, 0};
    printf("步 x y 损失\n0 %.4f %.4f %.6g\n", w[0], w[1], quad_loss(w, a));
    for (size_t t = 1; t <= steps; t++) {
        if (adam) {
            int st = quad_adam_step(wf, m1, m2, a, lr, (unsigned long)t);
            if (st != ATTN_OK) {
                fprintf(stderr, "descent: %s\n", attn_strerror(st));
                return 1;
            }
            w[0] = wf[0];
            w[1] = wf[1];
        } else {
            quad_momentum_step(w, v, a, lr, beta);
        }
        printf("%zu %.4f %.4f %.6g\n", t, w[0], w[1], quad_loss(w, a));
    }
    return 0;
}

#line 3696 "book/12-learning.nw"
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
    int st = attn_cross_entropy(z, &t, 1, n, &loss, g);
    if (st != ATTN_OK) {
        fprintf(stderr, "ce: %s\n", attn_strerror(st));
        return 1;
    }
    printf("损失 %.4f\n梯度", loss);
    for (size_t i = 0; i < n; i++) printf(" %.4f", g[i]);
    printf("\n");
    return 0;
}

#line 3728 "book/12-learning.nw"
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
    int st = attn_softmax(p, n);
    if (st == ATTN_OK)
        st = attn_softmax_backward(p, dp, ds, n);
    if (st != ATTN_OK) {
        fprintf(stderr, "softmax-grad: %s\n", attn_strerror(st));
        return 1;
    }
    double dot = 0, sum = 0;
    for (size_t i = 0; i < n; i++) { dot += (double)dp[i] * p[i]; sum += ds[i]; }
    printf("p =");
    for (size_t i = 0; i < n; i++) printf(" %.4f", p[i]);
    printf("\ndp·p = %.4f\nds =", dot);
    for (size_t i = 0; i < n; i++) printf(" %.4f", ds[i]);
    printf("\nds 之和 %.4f\n", fabs(sum) < 5e-5 ? 0.0 : sum);
    return 0;
}

#line 3764 "book/12-learning.nw"
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
    int st = attn_gelu_backward(&x, &one, &g, 1);
    if (st != ATTN_OK) {
        fprintf(stderr, "gelu-grad: %s\n", attn_strerror(st));
        return 1;
    }
    double h = 1e-6, L[2];
    for (int t = 0; t < 2; t++) {
        double z = x + (t ? -h : h);
        L[t] = 0.5 * z * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (z + 0.044715 * z * z * z)));
    }
    printf("x = %g：gelu'(x) = %.4f，中心差分 %.4f\n", x, g, (L[0] - L[1]) / (2 * h));
    return 0;
}

#line 583 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"descent", "二次函数上的梯度下降、动量和 Adam", ex_descent},
        {"ce", "一行 logits 的交叉熵和它的梯度", ex_ce},
        {"softmax-grad", "softmax 的反向传播", ex_softmax_grad},
        {"gelu-grad", "GELU 的导数与中心差分", ex_gelu_grad},
    };
    return cli_dispatch(argc, argv, "attn-ch12", ex, sizeof ex / sizeof ex[0]);
}
