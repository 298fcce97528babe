#line 405 "book/C-programs.nw"
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>

#include "../examples/ch07.h"
#line 1364 "book/07-multihead.nw"
static int ex_params(int argc, char **argv)
{
    size_t d = 512, h = 8;
    const struct cli_option opts[] = {
        {"d-model", CLI_SIZE, &d, "嵌入宽度 d_model（默认 512）"},
        {"heads", CLI_SIZE, &h, "头数 h，须整除 d_model（默认 8）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    if (d == 0 || h == 0 || d % h != 0) {
        fprintf(stderr, "params: --heads 必须整除 --d-model，且都大于 0\n"
                        "用法: params --d-model 值 --heads 值\n");
        return 2;
    }
    size_t dh = d / h;
    printf("d_head = %zu\n", dh);
    printf("多头注意力的参数: %zu\n", 3 * d * (h * dh) + (h * dh) * d);
    printf("切开 X 的模型的参数: %zu\n", 3 * h * dh * dh + d * d);
    return 0;
}
#line 1388 "book/07-multihead.nw"
static int ex_factor(int argc, char **argv)
{
    size_t d = 12288, dh = 128;
    const struct cli_option opts[] = {
        {"d-model", CLI_SIZE, &d, "嵌入宽度 d_model（默认 12288）"},
        {"d-head", CLI_SIZE, &dh, "每个头的宽度 d_head（默认 128）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    if (d == 0 || dh == 0) {
        fprintf(stderr, "factor: 宽度必须大于 0\n用法: factor --d-model 值 --d-head 值\n");
        return 2;
    }
    unsigned long long full = (unsigned long long)d * d, split = 2ULL * d * dh;
    printf("完整的值矩阵: %llu\n", full);
    printf("value-down 加 value-up: %llu\n", split);
    printf("比值: %.2f\n", (double)full / (double)split);
    return 0;
}
#line 1411 "book/07-multihead.nw"
static int ex_rank(int argc, char **argv)
{
    size_t dh = 3;
    unsigned seed = 1;
    const struct cli_option opts[] = {
        {"d-head", CLI_SIZE, &dh, "每个头的宽度 d_head，1 到 16（默认 3）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    if (dh == 0 || dh > 16) {
        fprintf(stderr, "rank: --d-head 必须在 1 到 16 之间\n用法: rank --d-head 值\n");
        return 2;
    }
    float m[8 * 8];
    random_value_map(8, dh, &seed, m);
    size_t rank = matrix_rank(m, 8, 8, 1e-4f);
    printf("d_model = 8, d_head = %zu, 值矩阵的秩 = %zu\n", dh, rank);
    return 0;
}
#line 1434 "book/07-multihead.nw"
static int ex_pattern(int argc, char **argv)
{
    size_t head = 1, token = 7;
    float s = 6.0f;
    const struct cli_option opts[] = {
        {"head", CLI_SIZE, &head, "头的编号 0..2（默认 1）"},
        {"token", CLI_SIZE, &token, "查询词的位置 0..7（默认 7，forest）"},
        {"strength", CLI_FLOAT, &s, "对得上的一对缩放后的分数（默认 6）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    if (head >= SENT_H || token >= SENT_N || fabsf(s) > 50.0f) {
        fprintf(stderr, "pattern: 超出范围\n"
                        "用法: pattern --head 0..2 --token 0..7 --strength -50..50\n");
        return 2;
    }
    float x[SENT_N * SENT_D], wq[SENT_D * SENT_DC], wk[SENT_D * SENT_DC];
    float wv[SENT_D * SENT_DC], wo[SENT_DC * SENT_D], bq[SENT_DC], p[SENT_N * SENT_N];
    sent_embed(x);
    sent_heads(s, wq, wk, wv, wo, bq);
    attn_mha_weights w = {SENT_D, SENT_H, SENT_DH, wq, wk, wv, wo, bq, NULL, NULL, NULL};
    int status = attn_mha_pattern(&w, x, SENT_N, x, SENT_N, NULL, 1, head, p);
    if (status != ATTN_OK) {
        fprintf(stderr, "pattern: %s\n", attn_strerror(status));
        return 1;
    }
    printf("头 %zu，查询 %s：\n", head, sent_words[token]);
    for (size_t j = 0; j < SENT_N; j++)
        printf("  %-9s %.4f\n", sent_words[j], p[token * SENT_N + j]);
    return 0;
}

#line 417 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"params", "切开 X 与切开投影：参数个数", ex_params},
        {"factor", "值矩阵拆成 value-down 和 value-up", ex_factor},
        {"rank", "一个头的值矩阵的秩", ex_rank},
        {"pattern", "手工头的一行注意力权重", ex_pattern},
    };
    return cli_dispatch(argc, argv, "attn-ch07", ex, sizeof ex / sizeof ex[0]);
}
