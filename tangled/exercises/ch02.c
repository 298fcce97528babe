#line 223 "book/C-programs.nw"
/* attn-ch02：第 2 章的练习。 */
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../examples/ch02.h"

#line 958 "book/02-similarity.nw"
static int ex_pair(int argc, char **argv)
{
    const char *a_word = "猫", *b_word = "狗";
    float bx = NAN, by = NAN;
    const struct cli_option opts[] = {
        {"a", CLI_STRING, &a_word, "第一个字（词地图上的字）"},
        {"b", CLI_STRING, &b_word, "第二个字"},
        {"bx", CLI_FLOAT, &bx, "直接给出第二个向量的 x（与 --by 同用）"},
        {"by", CLI_FLOAT, &by, "直接给出第二个向量的 y"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r == 0 ? 2 : 0;
    const float *a = word_xy(a_word), *b = word_xy(b_word);
    float own[2] = {bx, by};
    if (!isnan(bx) || !isnan(by)) {
        if (isnan(bx) || isnan(by)) {
            fprintf(stderr, "pair: --bx 和 --by 要一起给出\n用法: pair [--a 字] [--b 字 | --bx x --by y]\n");
            return 2;
        }
        b = own;
    }
    if (a == NULL || b == NULL) {
        fprintf(stderr, "pair: 词地图上没有这个字\n用法: pair [--a 字] [--b 字 | --bx x --by y]\n");
        return 2;
    }
    float dot, cosine, d2;
    int status = attn_dot(a, b, 2, &dot);
    if (status == ATTN_OK)
        status = attn_sqdist(a, b, 2, &d2);
    if (status != ATTN_OK) {
        fprintf(stderr, "pair: %s\n", attn_strerror(status));
        return 1;
    }
    printf("a = (%g, %g)  b = (%g, %g)\n", a[0], a[1], b[0], b[1]);
    printf("点积 %.4f\n", dot);
    /* 零向量没有方向：余弦的 ATTN_EINVAL 在这里是一个答案，不是错误 */
    if (attn_cosine(a, b, 2, &cosine) == ATTN_OK)
        printf("余弦 %.4f\n", cosine);
    else
        printf("余弦 无定义（零向量）\n");
    printf("距离 %.4f\n", sqrt(d2));
    return 0;
}
#line 1005 "book/02-similarity.nw"
static int ex_nearest(int argc, char **argv)
{
    const char *a_word = "豹", *by = "dot";
    const struct cli_option opts[] = {
        {"a", CLI_STRING, &a_word, "要找的字"},
        {"by", CLI_STRING, &by, "dot、cosine 或 distance"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r == 0 ? 2 : 0;
    const float *a = word_xy(a_word);
    int mode = strcmp(by, "dot") == 0 ? 0 : strcmp(by, "cosine") == 0 ? 1
             : strcmp(by, "distance") == 0 ? 2 : -1;
    if (a == NULL || mode < 0) {
        fprintf(stderr, "nearest: 不认识的字或尺子\n用法: nearest [--a 字] [--by dot|cosine|distance]\n");
        return 2;
    }
    /* 分数越大越相关；距离取负号，这样三种尺子都找最大值 */
    size_t best = 0;
    float best_score = -INFINITY;
    for (size_t j = 0; j < N_WORDS; j++) {
        if (word_map[j].xy == a)
            continue;
        float s;
        int status = mode == 0 ? attn_dot(a, word_map[j].xy, 2, &s)
                   : mode == 1 ? attn_cosine(a, word_map[j].xy, 2, &s)
                               : attn_sqdist(a, word_map[j].xy, 2, &s);
        if (status != ATTN_OK) {
            fprintf(stderr, "nearest: %s\n", attn_strerror(status));
            return 1;
        }
        if (mode == 2)
            s = -sqrtf(s);
        if (s > best_score) {
            best_score = s;
            best = j;
        }
    }
    printf("按 %s 最相关的字：%s（%.4f）\n", by, word_map[best].word,
           mode == 2 ? -best_score : best_score);
    return 0;
}
#line 1050 "book/02-similarity.nw"
static int ex_ops(int argc, char **argv)
{
    size_t d = 1024;
    float sqrt_cost = 20.0f;
    const struct cli_option opts[] = {
        {"d", CLI_SIZE, &d, "向量的维数"},
        {"sqrt-cost", CLI_FLOAT, &sqrt_cost, "假设一次开方抵得上几次乘法（默认 20）"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r == 0 ? 2 : 0;
    if (d == 0 || !(sqrt_cost >= 0.0f) || isinf(sqrt_cost)) {
        fprintf(stderr, "ops: d 至少是 1，sqrt-cost 是不小于 0 的有限数\n用法: ops [--d 维数] [--sqrt-cost 倍数]\n");
        return 2;
    }
    /* 距离平方：d 次减、d 次乘、d-1 次加；点积：d 次乘、d-1 次加 */
    printf("d = %zu\n距离的平方 %zu 次运算（另加开方 1 次）\n点积 %zu 次运算\n",
           d, 3 * d - 1, 2 * d - 1);
    /* 开方按 sqrt_cost 次乘法算：它占一次距离的 c / (3d - 1 + c) */
    printf("开方按 %g 次乘法算，开方占一次距离的 %.2f%%\n", sqrt_cost,
           100.0 * sqrt_cost / ((double)(3 * d - 1) + sqrt_cost));
    return 0;
}
#line 1076 "book/02-similarity.nw"
static int ex_lookup(int argc, char **argv)
{
    float w[3] = {0.6f, 0.4f, 0.0f};
    const float value[3] = {10, 5, 2};
    const struct cli_option opts[] = {
        {"apple", CLI_FLOAT, &w[0], "apple（值 10）的权重"},
        {"banana", CLI_FLOAT, &w[1], "banana（值 5）的权重"},
        {"chair", CLI_FLOAT, &w[2], "chair（值 2）的权重"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r == 0 ? 2 : 0;
    float got;
    int status = attn_weighted_sum(w, value, 3, 1, &got);
    if (status != ATTN_OK) {
        fprintf(stderr, "lookup: %s\n", attn_strerror(status));
        return 1;
    }
    printf("权重之和：%.4g。查到的值：%.4g。\n", w[0] + w[1] + w[2], got);
    return 0;
}
#line 1100 "book/02-similarity.nw"
static int ex_naive(int argc, char **argv)
{
    float temp = 1.0f;
    const struct cli_option opts[] = {
        {"temp", CLI_FLOAT, &temp, "归一之前余弦乘以的倍数"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r == 0 ? 2 : 0;
    const char *names[3] = {"猫", "狗", "桌"};
    float x[6], w[9], out[6];
    for (size_t i = 0; i < 3; i++)
        memcpy(x + 2 * i, word_xy(names[i]), 2 * sizeof(float));
    int status = naive_attention(x, 3, 2, 1, temp, w, out);
    if (status != ATTN_OK) {
        fprintf(stderr, "naive: %s（有一行的权重全是 0，没法除以行和）\n", attn_strerror(status));
        return 1;
    }
    for (size_t i = 0; i < 3; i++) {
        printf("%s:", names[i]);
        for (size_t j = 0; j < 3; j++)
            printf(" %s %.4f", names[j], w[i * 3 + j]);
        printf("  → (%.4f, %.4f)\n", out[2 * i], out[2 * i + 1]);
    }
    return 0;
}

#line 239 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"pair", "一对字的点积、余弦和距离", ex_pair},
        {"nearest", "按点积、余弦或距离找最相关的字", ex_nearest},
        {"ops", "d 维的距离平方与点积各要几次运算", ex_ops},
        {"lookup", "apple/banana/chair 的软查找", ex_lookup},
        {"naive", "猫、狗、桌的朴素注意力：余弦乘以 temp，负数置零，除以行和", ex_naive},
    };
    return cli_dispatch(argc, argv, "attn-ch02", ex, sizeof ex / sizeof ex[0]);
}
