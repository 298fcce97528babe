#line 728 "book/C-programs.nw"
/* attn-params — 数一个只有解码器的 Transformer 的参数，印出明细。 */
#include "attn.h"
#include "cli.h"

#include <stdint.h>
#include <stdio.h>

#define UNSET SIZE_MAX   /* 选项没有给出；cli_parse 不接受这么大的值 */

#line 807 "book/C-programs.nw"
static int usage_error(const char *prog, const char *why)
{
    fprintf(stderr, "%s: %s\n用法: %s [--preset 名字] [--d-model 值] ... [--json]（详见 --help）\n",
            prog, why, prog);
    return 2;
}

static void row(const char *name, uint64_t v)
{
    printf("  %-16s %18llu\n", name, (unsigned long long)v);
}

static void share(const char *name, uint64_t v, uint64_t total)
{
    printf("  %-16s %18llu %8.2f%%\n", name, (unsigned long long)v, 100.0 * (double)v / (double)total);
}

static void print_table(const char *preset, const attn_gpt_config *c, const attn_param_breakdown *b,
                        uint64_t flops, uint64_t kv_token, uint64_t kv_ctx, size_t bytes)
{
    printf("预设 %s：d_model=%llu n_heads=%llu d_head=%llu n_layers=%llu d_ff=%llu vocab=%llu "
           "n_ctx=%llu biases=%d layer_norms=%d positions=%d tied=%d\n", preset,
           (unsigned long long)c->d_model, (unsigned long long)c->n_heads,
           (unsigned long long)c->d_head, (unsigned long long)c->n_layers,
           (unsigned long long)c->d_ff, (unsigned long long)c->vocab, (unsigned long long)c->n_ctx,
           c->biases != 0, c->layer_norms != 0, c->learned_positions != 0, c->tied != 0);
    printf("每层：\n");
    row("W_Q", b->q);
    row("W_K", b->k);
    row("W_V", b->v);
    row("W_O", b->o);
    row("attention", b->attention);
    row("mlp", b->mlp);
    row("norms", b->norms);
    row("layer", b->layer);
    printf("全模型：\n");
    row("embedding", b->embedding);
    row("positions", b->positions);
    row("layers", b->layers);
    row("final_norm", b->final_norm);
    row("unembedding", b->unembedding);
    row("total", b->total);
    printf("按类别：\n");
    share("attention_all", b->attention_all, b->total);
    share("mlp_all", b->mlp_all, b->total);
    share("norms_all", b->norms_all, b->total);
    share("embeddings_all", b->embeddings_all, b->total);
    printf("读满 %llu 个词：\n", (unsigned long long)c->n_ctx);
    row("attention_flops", flops);
    printf("  %-16s %18llu  （每个数 %zu 字节）\n", "kv_bytes_token", (unsigned long long)kv_token, bytes);
    row("kv_bytes_ctx", kv_ctx);
}
#line 864 "book/C-programs.nw"
static void print_json(const char *preset, const attn_gpt_config *c, const attn_param_breakdown *b,
                       uint64_t flops, uint64_t kv_token, uint64_t kv_ctx, size_t bytes)
{
    printf("{\n  \"preset\": \"%s\",\n", preset);
    printf("  \"config\": {\"d_model\": %llu, \"n_heads\": %llu, \"d_head\": %llu, "
           "\"n_layers\": %llu, \"d_ff\": %llu, \"vocab\": %llu, \"n_ctx\": %llu, "
           "\"biases\": %s, \"layer_norms\": %s, \"positions\": %s, \"tied\": %s},\n",
           (unsigned long long)c->d_model, (unsigned long long)c->n_heads,
           (unsigned long long)c->d_head, (unsigned long long)c->n_layers,
           (unsigned long long)c->d_ff, (unsigned long long)c->vocab, (unsigned long long)c->n_ctx,
           c->biases ? "true" : "false", c->layer_norms ? "true" : "false",
           c->learned_positions ? "true" : "false", c->tied ? "true" : "false");
    printf("  \"per_layer\": {\"q\": %llu, \"k\": %llu, \"v\": %llu, \"o\": %llu, "
           "\"attention\": %llu, \"mlp\": %llu, \"norms\": %llu, \"layer\": %llu},\n",
           (unsigned long long)b->q, (unsigned long long)b->k, (unsigned long long)b->v,
           (unsigned long long)b->o, (unsigned long long)b->attention, (unsigned long long)b->mlp,
           (unsigned long long)b->norms, (unsigned long long)b->layer);
    printf("  \"embedding\": %llu,\n  \"positions\": %llu,\n  \"layers\": %llu,\n"
           "  \"final_norm\": %llu,\n  \"unembedding\": %llu,\n",
           (unsigned long long)b->embedding, (unsigned long long)b->positions,
           (unsigned long long)b->layers, (unsigned long long)b->final_norm,
           (unsigned long long)b->unembedding);
    printf("  \"attention_all\": %llu,\n  \"mlp_all\": %llu,\n  \"norms_all\": %llu,\n"
           "  \"embeddings_all\": %llu,\n  \"total\": %llu,\n",
           (unsigned long long)b->attention_all, (unsigned long long)b->mlp_all,
           (unsigned long long)b->norms_all, (unsigned long long)b->embeddings_all,
           (unsigned long long)b->total);
    printf("  \"attention_flops\": %llu,\n  \"kv_bytes_per_number\": %zu,\n"
           "  \"kv_bytes_token\": %llu,\n  \"kv_bytes_ctx\": %llu\n}\n",
           (unsigned long long)flops, bytes, (unsigned long long)kv_token,
           (unsigned long long)kv_ctx);
}

#line 740 "book/C-programs.nw"
int main(int argc, char **argv)
{
#line 762 "book/C-programs.nw"
    const char *preset = "gpt2-small";
    size_t d_model = UNSET, n_heads = UNSET, d_head = UNSET, n_layers = UNSET, d_ff = UNSET;
    size_t vocab = UNSET, n_ctx = UNSET, biases = UNSET, norms = UNSET, positions = UNSET;
    size_t tied = UNSET, bytes = 2;
    int json = 0;
    const struct cli_option opts[] = {
        {"preset", CLI_STRING, &preset, "gpt2-small 或 gpt3-175b（默认 gpt2-small）"},
        {"d-model", CLI_SIZE, &d_model, "嵌入维数"},
        {"n-heads", CLI_SIZE, &n_heads, "每层的头数"},
        {"d-head", CLI_SIZE, &d_head, "每个头的维数"},
        {"n-layers", CLI_SIZE, &n_layers, "层数"},
        {"d-ff", CLI_SIZE, &d_ff, "MLP 隐藏层宽度"},
        {"vocab", CLI_SIZE, &vocab, "词表大小"},
        {"n-ctx", CLI_SIZE, &n_ctx, "上下文长度"},
        {"biases", CLI_SIZE, &biases, "线性层带偏置：1 或 0"},
        {"layer-norms", CLI_SIZE, &norms, "层规范化：1 或 0"},
        {"positions", CLI_SIZE, &positions, "学到的位置向量：1 或 0"},
        {"tied", CLI_SIZE, &tied, "反嵌入共用嵌入矩阵：1 或 0"},
        {"bytes", CLI_SIZE, &bytes, "键值缓存里每个数的字节数（默认 2）"},
        {"json", CLI_FLAG, &json, "输出 JSON"},
    };
#line 743 "book/C-programs.nw"
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r != 1)
        return r == 0 ? 2 : 0;
    attn_gpt_config c;
    if (attn_gpt_preset(preset, &c) != ATTN_OK)
        return usage_error(argv[0], "不认识的预设（只有 gpt2-small 和 gpt3-175b）");
#line 788 "book/C-programs.nw"
    const size_t given[7] = {d_model, n_heads, d_head, n_layers, d_ff, vocab, n_ctx};
    uint64_t *field[7] = {&c.d_model, &c.n_heads, &c.d_head, &c.n_layers, &c.d_ff, &c.vocab, &c.n_ctx};
    for (int i = 0; i < 7; i++)
        if (given[i] != UNSET)
            *field[i] = given[i];
    const size_t flag_given[4] = {biases, norms, positions, tied};
    int *flag[4] = {&c.biases, &c.layer_norms, &c.learned_positions, &c.tied};
    for (int i = 0; i < 4; i++) {
        if (flag_given[i] == UNSET)
            continue;
        if (flag_given[i] > 1)
            return usage_error(argv[0], "开关只能是 0 或 1");
        *flag[i] = (int)flag_given[i];
    }
#line 487 "book/08-params.nw"
    attn_param_breakdown b;
    uint64_t flops = 0, kv_token = 0, kv_ctx = 0;
    int s = attn_count_params(&c, &b);
    if (s == ATTN_OK)
        s = attn_attention_flops(&c, c.n_ctx, &flops);
    if (s == ATTN_OK)
        s = attn_kv_cache_bytes(&c, 1, bytes, &kv_token);
    if (s == ATTN_OK)
        s = attn_kv_cache_bytes(&c, c.n_ctx, bytes, &kv_ctx);
    if (s != ATTN_OK)
        return usage_error(argv[0], "无法计数：有维度为 0，或者乘积超出 64 位整数");
#line 751 "book/C-programs.nw"
    if (json)
        print_json(preset, &c, &b, flops, kv_token, kv_ctx, bytes);
    else
        print_table(preset, &c, &b, flops, kv_token, kv_ctx, bytes);
    return 0;
}
