#line 508 "book/C-programs.nw"
/* attn-ch11：第 11 章的练习 */
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../examples/ch11.h"

#line 2408 "book/11-block.nw"
static int ex_layernorm(int argc, char **argv)
{
    const char *values = "1,2,3,4";
    float eps = 1e-5f;
    const struct cli_option opts[] = {
        {"values", CLI_STRING, &values, "一行数，用逗号分开（最多 16 个）"},
        {"eps", CLI_FLOAT, &eps, "分母里的小正数"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    float x[16], y[16];
    size_t d = cli_parse_list(values, x, 16);
    if (d == 0 || !(eps > 0.0f) || isinf(eps)) {
        fprintf(stderr, "layernorm: --values 要是逗号分开的有限数，--eps 要是有限的正数\n"
                        "用法: layernorm [--values 1,2,3,4] [--eps 1e-5]\n");
        return 2;
    }
    int status = attn_layernorm(x, NULL, NULL, y, 1, d, eps);
    if (status != ATTN_OK) {
        fprintf(stderr, "layernorm: %s\n", attn_strerror(status));
        return 1;
    }
    double mean = 0.0, var = 0.0;
    for (size_t j = 0; j < d; j++)
        mean += x[j] / (double)d;
    for (size_t j = 0; j < d; j++)
        var += (x[j] - mean) * (x[j] - mean) / (double)d;
    printf("均值 %.4f，方差 %.4f\n", mean, var);
    printf("y =");
    for (size_t j = 0; j < d; j++)
        printf(" %.4f", y[j]);
    printf("\n");
    return 0;
}

#line 2446 "book/11-block.nw"
static int ex_gelu(int argc, char **argv)
{
    float x = 1.0f;
    const struct cli_option opts[] = {
        {"x", CLI_FLOAT, &x, "输入"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    float g = x, relu = x;
    int status = attn_gelu(&g, 1);
    if (status == ATTN_OK)
        status = attn_relu(&relu, 1);
    if (status != ATTN_OK) {
        fprintf(stderr, "gelu: %s\n", attn_strerror(status));
        return 1;
    }
    double exact = 0.5 * x * (1.0 + erf(x / sqrt(2.0)));
    printf("x = %g：GELU %.4f，ReLU %.4f，erf 形式 %.4f\n", x, g, relu, exact);
    return 0;
}

#line 2470 "book/11-block.nw"
static int ex_params(int argc, char **argv)
{
    size_t layers = 2, d_ff = 128;
    const struct cli_option opts[] = {
        {"layers", CLI_SIZE, &layers, "层数（1 到 64）"},
        {"d-ff", CLI_SIZE, &d_ff, "前馈网络隐藏层的宽度（1 到 4096）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    if (layers < 1 || layers > 64 || d_ff < 1 || d_ff > 4096) {
        fprintf(stderr, "params: 层数要在 1 到 64 之间，d_ff 在 1 到 4096 之间\n"
                        "用法: params [--layers 2] [--d-ff 128]\n");
        return 2;
    }
    attn_gpt_config c = tiny_config();
    c.n_layers = layers;
    c.d_ff = d_ff;
    attn_gpt m;   /* init 失败时被清零，attn_gpt_free 无害 */
    attn_param_breakdown b;
    int status = attn_count_params(&c, &b);
    if (status == ATTN_OK)
        status = attn_gpt_init(&m, &c, 1);
    if (status != ATTN_OK) {
        fprintf(stderr, "params: %s\n", attn_strerror(status));
        return 1;
    }
    printf("每层 %llu（注意力 %llu，前馈 %llu，层规范化 %llu）\n",
           (unsigned long long)b.layer, (unsigned long long)b.attention,
           (unsigned long long)b.mlp, (unsigned long long)b.norms);
    printf("参数块 %zu 个 float\n", m.n_params);
    attn_gpt_free(&m);
    return 0;
}

#line 2507 "book/11-block.nw"
/* 把 --tokens 的逗号列表读成词号：每个都是 0 到 15 的整数，至少 1 个、最多 16 个；不合格时返回 0 */
static size_t read_tokens(const char *list, int *tokens)
{
    float v[16];
    size_t n = cli_parse_list(list, v, 16);
    for (size_t i = 0; i < n; i++) {
        if (!(v[i] >= 0.0f && v[i] <= 15.0f) || v[i] != (float)(int)v[i])
            return 0;
        tokens[i] = (int)v[i];
    }
    return n;
}

static int ex_next(int argc, char **argv)
{
    const char *list = "3,1,4,1,5";
    size_t seed = 2024, ctx = 16;
    const struct cli_option opts[] = {
        {"tokens", CLI_STRING, &list, "读进去的词号，0 到 15，逗号分开（最多 16 个）"},
        {"seed", CLI_SIZE, &seed, "随机初始化的种子"},
        {"ctx", CLI_SIZE, &ctx, "上下文的长度 n_ctx，1 到 16（默认 16）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    int tokens[16];
    size_t n = read_tokens(list, tokens);
    if (n == 0 || ctx < 1 || ctx > 16) {
        fprintf(stderr, "next: --tokens 要是 0 到 15 的整数，逗号分开，最多 16 个；--ctx 在 1 到 16 之间\n"
                        "用法: next [--tokens 3,1,4,1,5] [--seed 2024] [--ctx 16]\n");
        return 2;
    }
    attn_gpt_config c = tiny_config();
    c.n_ctx = ctx;
    attn_gpt m;               /* init 失败时被清零 */
    attn_gpt_decoder dec = {0};
    float all[16 * 16], one[16];
    double worst = 0.0;
    int status = attn_gpt_init(&m, &c, seed);
    if (status == ATTN_OK)
        status = attn_gpt_forward(&m, tokens, n, all);   /* n > ctx：ATTN_EINVAL */
    if (status == ATTN_OK)
        status = attn_gpt_decoder_init(&dec, &m);
    for (size_t i = 0; i < n && status == ATTN_OK; i++) {
        status = attn_gpt_step(&dec, tokens[i], one);
        for (int t = 0; t < 16 && status == ATTN_OK; t++)
            worst = fmax(worst, fabs(one[t] - all[i * 16 + t]));
    }
    float *p = all + (n - 1) * 16;
    if (status == ATTN_OK)
        status = attn_softmax(p, 16);
    attn_gpt_decoder_free(&dec);   /* 每条路都释放：清零的解码器和模型释放起来无害 */
    attn_gpt_free(&m);
    if (status != ATTN_OK) {
        fprintf(stderr, "next: %s\n", attn_strerror(status));
        return 1;
    }
    int best = 0;
    for (int t = 1; t < 16; t++)
        if (p[t] > p[best])
            best = t;
    printf("下一个词最可能是 %d，概率 %.4f（1/16 = 0.0625）\n", best, p[best]);
    printf("一次算完与逐词经过 KV 缓存，分数最多相差 %.1e\n", worst);
    return 0;
}

#line 2577 "book/11-block.nw"
static int ex_generate(int argc, char **argv)
{
    const char *list = "3,1,4,1,5";
    size_t seed = 2024, count = 11;
    const struct cli_option opts[] = {
        {"tokens", CLI_STRING, &list, "提示的词号，0 到 15，逗号分开（最多 16 个）"},
        {"n", CLI_SIZE, &count, "续写几个词，1 到 16（默认 11）"},
        {"seed", CLI_SIZE, &seed, "随机初始化的种子"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    int prompt[16], out[16];
    size_t n = read_tokens(list, prompt);
    if (n == 0 || count < 1 || count > 16) {
        fprintf(stderr, "generate: --tokens 要是 0 到 15 的整数，逗号分开，最多 16 个；--n 在 1 到 16 之间\n"
                        "用法: generate [--tokens 3,1,4,1,5] [--n 11] [--seed 2024]\n");
        return 2;
    }
    attn_gpt_config c = tiny_config();
    attn_gpt m;
    int status = attn_gpt_init(&m, &c, seed);
    if (status == ATTN_OK)
        status = generate_greedy(&m, prompt, n, out, count);
    attn_gpt_free(&m);
    if (status != ATTN_OK) {
        fprintf(stderr, "generate: %s\n", attn_strerror(status));
        return 1;
    }
    printf("提示:");
    for (size_t i = 0; i < n; i++)
        printf(" %d", prompt[i]);
    printf("\n续写:");
    for (size_t i = 0; i < count; i++)
        printf(" %d", out[i]);
    printf("\n");
    return 0;
}

#line 528 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"layernorm", "对一行数做层规范化", ex_layernorm},
        {"gelu", "比较 GELU、ReLU 与 erf 形式的 GELU", ex_gelu},
        {"params", "本章小模型的参数个数", ex_params},
        {"next", "随机小模型对下一个词的概率；一次算完与逐词比较", ex_next},
        {"generate", "让随机小模型贪心地往下写", ex_generate},
    };
    return cli_dispatch(argc, argv, "attn-ch11", ex, sizeof ex / sizeof ex[0]);
}
