#line 432 "book/C-programs.nw"
/* attn-ch08 — 第 8 章的练习：头数、上下文长度、完整的值矩阵。 */
#include "attn.h"
#include "cli.h"

#include <stdio.h>

static int refuse(const char *exercise, const char *why)
{
    fprintf(stderr, "%s: %s\n用法: attn-ch08 %s --help\n", exercise, why, exercise);
    return 2;
}

/* 库返回了错误：印出它的说明，退出状态 1。 */
static int failed(const char *exercise, int status)
{
    fprintf(stderr, "%s: %s\n", exercise, attn_strerror(status));
    return 1;
}

#line 1286 "book/08-params.nw"
static int ex_heads(int argc, char **argv)
{
    size_t d_model = 512, heads = 8;
    const struct cli_option opts[] = {
        {"d-model", CLI_SIZE, &d_model, "嵌入维数 E（默认 512）"},
        {"heads", CLI_SIZE, &heads, "头数 h，每个头 E/h 维（默认 8）"},
    };
    int r = cli_parse(argc, argv, opts, 2);
    if (r != 1)
        return r == 0 ? 2 : 0;
    if (heads == 0 || d_model == 0 || d_model % heads != 0)
        return refuse(argv[0], "头数必须整除 E");
    attn_gpt_config c = {.d_model = d_model, .n_heads = heads, .d_head = d_model / heads,
                         .n_layers = 1, .d_ff = 1, .vocab = 1, .n_ctx = 1, .biases = 1};
    attn_param_breakdown b;
    int status = attn_count_params(&c, &b);
    if (status != ATTN_OK)
        return failed(argv[0], status);
    printf("E = %zu，%zu 个头，每个头 %zu 维：注意力参数 %llu\n", d_model, heads, d_model / heads,
           (unsigned long long)b.attention);
    return 0;
}
#line 1311 "book/08-params.nw"
static int ex_context(int argc, char **argv)
{
    size_t n_ctx = 1024;
    const struct cli_option opts[] = {
        {"n-ctx", CLI_SIZE, &n_ctx, "GPT-2 small 的上下文长度（默认 1024）"},
    };
    int r = cli_parse(argc, argv, opts, 1);
    if (r != 1)
        return r == 0 ? 2 : 0;
    if (n_ctx == 0)
        return refuse(argv[0], "上下文长度必须是正数");
    attn_gpt_config c;
    attn_param_breakdown b;
    uint64_t flops, kv;
    int status = attn_gpt_preset("gpt2-small", &c);
    if (status == ATTN_OK) {
        c.n_ctx = n_ctx;
        status = attn_count_params(&c, &b);
    }
    if (status == ATTN_OK)
        status = attn_attention_flops(&c, n_ctx, &flops);
    if (status == ATTN_OK)
        status = attn_kv_cache_bytes(&c, n_ctx, 2, &kv);
    if (status != ATTN_OK)
        return failed(argv[0], status);
    printf("n_ctx = %zu：参数 %llu，注意力 FLOP %llu，键值缓存 %llu 字节（float16）\n", n_ctx,
           (unsigned long long)b.total, (unsigned long long)flops, (unsigned long long)kv);
    return 0;
}
#line 1343 "book/08-params.nw"
static int ex_value(int argc, char **argv)
{
    size_t d = 12288, d_head = 128;
    const struct cli_option opts[] = {
        {"d-model", CLI_SIZE, &d, "嵌入维数 d（默认 12288）"},
        {"d-head", CLI_SIZE, &d_head, "值降维后的维数 d_h（默认 128）"},
    };
    int r = cli_parse(argc, argv, opts, 2);
    if (r != 1)
        return r == 0 ? 2 : 0;
    if (d == 0 || d_head == 0)
        return refuse(argv[0], "维数必须是正数");
    unsigned long long full = (unsigned long long)d * d;              /* d ≤ 10⁶，不会溢出 */
    unsigned long long factored = 2ULL * d * d_head;
    printf("完整 %llu，分解 %llu，倍数 %.2f\n", full, factored, (double)full / (double)factored);
    return 0;
}

#line 455 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"heads", "多头注意力模块的参数量与头数", ex_heads},
        {"context", "GPT-2 small 改变上下文长度", ex_context},
        {"value", "完整的值矩阵是分解的几倍", ex_value},
    };
    return cli_dispatch(argc, argv, "attn-ch08", ex, sizeof ex / sizeof ex[0]);
}
