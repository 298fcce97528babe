#line 375 "book/C-programs.nw"
/* attn-ch06：第 6 章的练习 */
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>

#include "../examples/ch06.h"
#line 715 "book/06-cross.nw"
static int ex_align(int argc, char **argv)
{
    float s = 6.0f;
    const struct cli_option opts[] = {
        {"strength", CLI_FLOAT, &s, "查询向量的长度（默认 6，取值 -50 到 50）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    if (fabsf(s) > 50.0f) {
        fprintf(stderr, "align: --strength 超出范围\n用法: align --strength 值\n");
        return 2;
    }
    float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV];
    float out[TR_NQ * TR_DV], w[TR_NQ * TR_NK];
    translation_example(s, q, k, v);
    int status = attn_sdpa(q, k, v, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, 0, out, w);
    if (status != ATTN_OK) {
        fprintf(stderr, "align: %s\n", attn_strerror(status));
        return 1;
    }
    printf("%-10s", "");
    for (size_t j = 0; j < TR_NK; j++)
        printf(" %s", tr_src[j]);
    printf("\n");
    for (size_t i = 0; i < TR_NQ; i++) {
        printf("%-10s", tr_tgt[i]);
        for (size_t j = 0; j < TR_NK; j++)
            printf(" %.4f", w[i * TR_NK + j]);
        printf("\n");
    }
    return 0;
}
#line 751 "book/06-cross.nw"
static int ex_pad(int argc, char **argv)
{
    size_t n_pad = 2;
    int no_mask = 0;
    const struct cli_option opts[] = {
        {"pad", CLI_SIZE, &n_pad, "补在源句末尾的 pad 个数，0 到 100（默认 2）"},
        {"no-mask", CLI_FLAG, &no_mask, "不用填充掩码"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    if (n_pad > 100) {
        fprintf(stderr, "pad: --pad 超出范围\n用法: pad --pad 0..100 [--no-mask]\n");
        return 2;
    }
    enum { MAXK = TR_NK + 100 };
    float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV];
    float kp[MAXK * TR_DK], vp[MAXK * TR_DV], out[TR_NQ * TR_DV], w[TR_NQ * MAXK];
    unsigned char mask[TR_NQ * MAXK];
    size_t nk = TR_NK + n_pad;
    translation_example(6.0f, q, k, v);
    pad_source(k, v, n_pad, kp, vp);
    int status = attn_padding_mask(TR_NQ, nk, TR_NK, mask);
    if (status == ATTN_OK)
        status = attn_sdpa(q, kp, vp, TR_NQ, nk, TR_DK, TR_DV, 0.0f,
                           no_mask ? NULL : mask, 0, out, w);
    if (status != ATTN_OK) {
        fprintf(stderr, "pad: %s\n", attn_strerror(status));
        return 1;
    }
    double pads = 0;
    for (size_t j = TR_NK; j < nk; j++)
        pads += w[j];
    printf("%zu 个 pad，%s\n", n_pad, no_mask ? "不用掩码" : "用填充掩码");
    printf("I 对 我 的权重: %.4f\n", w[0]);
    printf("pad 的权重之和: %.4f\n", pads);
    return 0;
}
#line 792 "book/06-cross.nw"
static int ex_causal(int argc, char **argv)
{
    int causal = 0;
    const struct cli_option opts[] = {
        {"causal", CLI_FLAG, &causal, "在交叉注意力上加因果掩码（这是错的）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV];
    float out[TR_NQ * TR_DV], w[TR_NQ * TR_NK];
    translation_example(6.0f, q, k, v);
    int status = attn_sdpa(q, k, v, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, causal, out, w);
    if (status != ATTN_OK) {
        fprintf(stderr, "causal: %s\n", attn_strerror(status));
        return 1;
    }
    printf("her 一行%s：\n", causal ? "（加了因果掩码）" : "");
    for (size_t j = 0; j < TR_NK; j++)
        printf("  %s %.4f\n", tr_src[j], w[2 * TR_NK + j]);
    return 0;
}
#line 817 "book/06-cross.nw"
static int ex_order(int argc, char **argv)
{
    int swap = 0;
    const struct cli_option opts[] = {
        {"swap", CLI_FLAG, &swap, "把源句的前两个词对调：昨天 我 看见 了 她"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV];
    float kp[TR_NK * TR_DK], vp[TR_NK * TR_DV], out[TR_NQ * TR_DV], w[TR_NQ * TR_NK];
    size_t perm[TR_NK] = {0, 1, 2, 3, 4};   /* 第 j 列放原来的第 perm[j] 个词 */
    if (swap) {
        perm[0] = 1;
        perm[1] = 0;
    }
    translation_example(6.0f, q, k, v);
    for (size_t j = 0; j < TR_NK; j++) {
        for (size_t c = 0; c < TR_DK; c++)
            kp[j * TR_DK + c] = k[perm[j] * TR_DK + c];
        for (size_t c = 0; c < TR_DV; c++)
            vp[j * TR_DV + c] = v[perm[j] * TR_DV + c];
    }
    int status = attn_sdpa(q, kp, vp, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, 0, out, w);
    if (status != ATTN_OK) {
        fprintf(stderr, "order: %s\n", attn_strerror(status));
        return 1;
    }
    for (size_t i = 0; i < TR_NQ; i++) {
        size_t best = 0;
        for (size_t j = 1; j < TR_NK; j++)
            if (w[i * TR_NK + j] > w[i * TR_NK + best])
                best = j;
        const float *o = out + i * TR_DV;
        printf("%s -> %s（第 %zu 列，权重 %.4f），输出 (%.4f, %.4f, %.4f, %.4f, %.4f)\n",
               tr_tgt[i], tr_src[perm[best]], best, w[i * TR_NK + best],
               o[0], o[1], o[2], o[3], o[4]);
    }
    return 0;
}
#line 862 "book/06-cross.nw"
static int ex_reuse(int argc, char **argv)
{
    size_t n_src = 30, n_tgt = 30, d = 512, layers = 6;
    const struct cli_option opts[] = {
        {"src", CLI_SIZE, &n_src, "源句的词数（默认 30）"},
        {"tgt", CLI_SIZE, &n_tgt, "译文的词数，也就是解码的步数（默认 30）"},
        {"d-model", CLI_SIZE, &d, "d_model，W_K、W_V 都是 d_model × d_model（默认 512）"},
        {"layers", CLI_SIZE, &layers, "解码器的层数（默认 6）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    if (n_src == 0 || n_tgt == 0 || d == 0 || layers == 0) {
        fprintf(stderr, "reuse: 每个数都必须大于 0\n"
                        "用法: reuse --src 词数 --tgt 词数 [--d-model 值] [--layers 值]\n");
        return 2;
    }
    unsigned long long once = kv_projection_macs(n_src, d, d, d, layers), every;
    if (once == 0 || __builtin_mul_overflow(once, (unsigned long long)n_tgt, &every)) {
        fprintf(stderr, "reuse: 乘加次数超出 64 位整数\n"
                        "用法: reuse --src 词数 --tgt 词数 [--d-model 值] [--layers 值]\n");
        return 2;
    }
    printf("源句 %zu 个词，译文 %zu 个词，d_model = %zu，%zu 层\n", n_src, n_tgt, d, layers);
    printf("只算一次: %llu 次乘加\n", once);
    printf("每步重算: %llu 次乘加\n", every);
    return 0;
}

#line 389 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"align", "玩具翻译的注意力模式", ex_align},
        {"pad", "补 pad 与填充掩码", ex_pad},
        {"causal", "在交叉注意力上加因果掩码会怎样", ex_causal},
        {"order", "调换源句的词序", ex_order},
        {"reuse", "源句的键和值：只算一次与每步重算", ex_reuse},
    };
    return cli_dispatch(argc, argv, "attn-ch06", ex, sizeof ex / sizeof ex[0]);
}
