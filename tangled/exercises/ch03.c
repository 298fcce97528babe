#line 255 "book/C-programs.nw"
/* attn-ch03：第 3 章的练习。 */
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>

#include "../examples/ch03.h"

/* 库函数失败时：说明是哪个练习、什么状态，退出状态 1。 */
static int exercise_failed(const char *exercise, int status)
{
    fprintf(stderr, "%s: %s\n", exercise, attn_strerror(status));
    return 1;
}

#line 2165 "book/03-attention.nw"
static int ex_softmax(int argc, char **argv)
{
    float a = 1000, b = 1001;
    int naive = 0;
    const struct cli_option opts[] = {
        {"a", CLI_FLOAT, &a, "第一个数"},
        {"b", CLI_FLOAT, &b, "第二个数"},
        {"naive", CLI_FLAG, &naive, "照公式直接算，不减最大值"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r == 0 ? 2 : 0;
    float x[2] = {a, b};
    if (naive)
        softmax_naive(x, 2);
    else if ((r = attn_softmax(x, 2)) != ATTN_OK)
        return exercise_failed(argv[0], r);
    printf("softmax(%g, %g) = (%.4f, %.4f)\n", a, b, x[0], x[1]);
    return 0;
}
#line 2188 "book/03-attention.nw"
static int ex_thinking(int argc, char **argv)
{
    float s1 = 112, s2 = 96;
    size_t dk = 64;
    const struct cli_option opts[] = {
        {"s1", CLI_FLOAT, &s1, "Thinking 对 Thinking 的分数"},
        {"s2", CLI_FLOAT, &s2, "Thinking 对 Machines 的分数"},
        {"dk", CLI_SIZE, &dk, "查询和键的维数 d_k"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r == 0 ? 2 : 0;
    if (dk == 0) {
        fprintf(stderr, "thinking: d_k 至少是 1\n用法: thinking [--s1 值] [--s2 值] [--dk 维数]\n");
        return 2;
    }
    float scale = sqrtf((float)dk);
    float w[2] = {s1 / scale, s2 / scale};
    if ((r = attn_softmax(w, 2)) != ATTN_OK)
        return exercise_failed(argv[0], r);
    printf("除以 √%zu = %g：分数 %g 和 %g\n权重 %.8g 和 %.3g\n",
           dk, scale, s1 / scale, s2 / scale, w[0], w[1]);
    return 0;
}
#line 2215 "book/03-attention.nw"
static int ex_fluffy(int argc, char **argv)
{
    float s = 3, c = 2;
    const struct cli_option opts[] = {
        {"s", CLI_FLOAT, &s, "名词找形容词的强度"},
        {"c", CLI_FLOAT, &c, "同一短语彼此匹配的强度"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r == 0 ? 2 : 0;
    float w[FL_N * FL_N], out[FL_N * FL_D];
    if ((r = fluffy_attention(s, c, w, out)) != ATTN_OK)
        return exercise_failed(argv[0], r);
    const float *creature = w + 3 * FL_N, *forest = w + 7 * FL_N;
    printf("creature → fluffy + blue: %.3f\n", creature[1] + creature[2]);
    printf("creature → verdant: %.3f\n", creature[6]);
    printf("forest → verdant: %.3f\n", forest[6]);
    /* 整张注意力模式：每行一个查询 */
    for (int i = 0; i < FL_N; i++) {
        printf("%-9s", fluffy_words[i]);
        for (int j = 0; j < FL_N; j++)
            printf(" %.3f", w[i * FL_N + j]);
        printf("\n");
    }
    return 0;
}
#line 2244 "book/03-attention.nw"
static int ex_parens(int argc, char **argv)
{
    float vscale = 10;
    const struct cli_option opts[] = {
        {"vscale", CLI_FLOAT, &vscale, "V = vscale · I"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r == 0 ? 2 : 0;
    const float q[4] = {1, 0, 0, 1}, k[4] = {1, 0, 0, 1};
    const float v[4] = {vscale, 0, 0, vscale};
    float right[4];
    if ((r = attn_sdpa(q, k, v, 2, 2, 2, 2, 0.0f, NULL, 0, right, NULL)) != ATTN_OK)
        return exercise_failed(argv[0], r);
    /* 错误的括号：第一行 (QKᵀ/√2)·V = (vscale/√2, 0)，再做 softmax */
    float wrong[2] = {vscale / sqrtf(2), 0};
    if ((r = attn_softmax(wrong, 2)) != ATTN_OK)
        return exercise_failed(argv[0], r);
    printf("正确 softmax(QKᵀ/√d)·V 第一行 (%.4g, %.4g)，行和 %.4g。\n",
           right[0], right[1], right[0] + right[1]);
    printf("错误 softmax(QKᵀ/√d·V) 第一行 (%.4g, %.4g)，行和 %.4g。\n",
           wrong[0], wrong[1], wrong[0] + wrong[1]);
    return 0;
}

#line 276 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"softmax", "两个数的 softmax，稳定的或照公式直接算的", ex_softmax},
        {"thinking", "Thinking Machines：分数除以 √d_k 再 softmax", ex_thinking},
        {"fluffy", "毛茸茸的蓝色生物：名词给形容词的权重", ex_fluffy},
        {"parens", "softmax(QKᵀ/√d)·V 与放错括号的 softmax(QKᵀ/√d·V)", ex_parens},
    };
    return cli_dispatch(argc, argv, "attn-ch03", ex, sizeof ex / sizeof ex[0]);
}
