#line 291 "book/C-programs.nw"
/* attn-ch04：第 4 章的练习。 */
#include "attn.h"
#include "cli.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../examples/ch04.h"

/* 选项取值不合理时：说明原因，打印用法提示，退出状态 2。 */
static int bad_value(const char *exercise, const char *why)
{
    fprintf(stderr, "%s: %s\n用法: attn-ch04 %s --help\n", exercise, why, exercise);
    return 2;
}

#line 1249 "book/04-scaling.nw"
static int ex_variance(int argc, char **argv)
{
    size_t dk = 64, n = 10000, seed = 1;
    float sigma = 1.0f;
    const struct cli_option opts[] = {
        {"dk", CLI_SIZE, &dk, "查询和键的维度 d_k（默认 64）"},
        {"sigma", CLI_FLOAT, &sigma, "分量的标准差（默认 1）"},
        {"samples", CLI_SIZE, &n, "随机向量的对数（默认 10000）"},
        {"seed", CLI_SIZE, &seed, "随机数种子（默认 1）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    if (dk == 0 || n < 2 || !(sigma > 0.0f))
        return bad_value(argv[0], "需要 dk >= 1、samples >= 2、sigma > 0");
    attn_rng r;
    attn_rng_seed(&r, seed);
    double raw = dot_variance(&r, dk, n, sigma, 1.0f);
    attn_rng_seed(&r, seed);
    double scaled = dot_variance(&r, dk, n, sigma, 1.0f / sqrtf((float)dk));
    if (raw < 0.0 || scaled < 0.0) {            /* dot_variance 只在分配失败时返回 -1 */
        fprintf(stderr, "%s: %s\n", argv[0], attn_strerror(ATTN_ENOMEM));
        return 1;
    }
    double s4 = (double)sigma * sigma * sigma * sigma;
    printf("d_k = %zu，sigma = %g，%zu 对随机向量\n", dk, sigma, n);
    printf("不缩放  : %.4f   （理论值 %g ）\n", raw, (double)dk * s4);
    printf("缩放后  : %.4f   （理论值 %g ）\n", scaled, s4);
    return 0;
}
#line 1282 "book/04-scaling.nw"
static int ex_sharpness(int argc, char **argv)
{
    size_t dk = 64, nk = 64, trials = 200, seed = 0;
    float scale = 0.0f;
    const struct cli_option opts[] = {
        {"dk", CLI_SIZE, &dk, "查询和键的维度 d_k（默认 64）"},
        {"nk", CLI_SIZE, &nk, "键的个数（默认 64）"},
        {"scale", CLI_FLOAT, &scale, "传给 attn_sdpa 的 scale：0 表示 1/√d_k，1 表示不缩放"},
        {"trials", CLI_SIZE, &trials, "重复次数（默认 200）"},
        {"seed", CLI_SIZE, &seed, "随机数种子（默认 0：取 d_k，和正文、图 4.2 一样）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    if (seed == 0)
        seed = dk;
    if (dk == 0 || nk == 0 || trials == 0 || scale < 0.0f)
        return bad_value(argv[0], "需要 dk、nk、trials >= 1，scale >= 0");
    attn_rng r;
    double m, h;
    attn_rng_seed(&r, seed);
    int status = pattern_sharpness(&r, dk, nk, trials, scale, &m, &h);
    if (status != ATTN_OK) {
        fprintf(stderr, "%s: %s\n", argv[0], attn_strerror(status));
        return 1;
    }
    printf("d_k = %zu，%zu 个键，scale = %g，%zu 次平均\n", dk, nk, scale, trials);
    printf("最大权重: %.4f   （均匀时 %.4f）\n", m, 1.0 / (double)nk);
    printf("熵      : %.4f   （上限 ln %zu = %.4f）\n", h, nk, log((double)nk));
    return 0;
}
#line 1319 "book/04-scaling.nw"
static int ex_overflow(int argc, char **argv)
{
    float s = 88.0f;
    const struct cli_option opts[] = {
        {"score", CLI_FLOAT, &s, "第一个分数 s；第二个是 s - 1（默认 88）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    float a[2] = {s, s - 1.0f}, b[2] = {s, s - 1.0f};
    softmax_naive(a, 2);
    int status = attn_softmax(b, 2);
    if (status != ATTN_OK) {
        fprintf(stderr, "%s: %s\n", argv[0], attn_strerror(status));
        return 1;
    }
    printf("expf(%g) = %g   （FLT_MAX = %g）\n", s, expf(s), FLT_MAX);
    printf("朴素        : %.4f %.4f\n", fabsf(a[0]), fabsf(a[1]));
    printf("attn_softmax: %.4f %.4f\n", b[0], b[1]);
    return 0;
}
#line 1343 "book/04-scaling.nw"
static int ex_dmodel(int argc, char **argv)
{
    size_t d_model = 512, heads = 8, seed = 1;
    const struct cli_option opts[] = {
        {"dmodel", CLI_SIZE, &d_model, "模型宽度 d_model（默认 512）"},
        {"heads", CLI_SIZE, &heads, "头数 h（默认 8），必须整除 d_model"},
        {"seed", CLI_SIZE, &seed, "随机数种子（默认 1）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    if (d_model == 0 || heads == 0 || d_model % heads != 0)
        return bad_value(argv[0], "heads 必须整除 dmodel");
    size_t d_head = d_model / heads;
    attn_rng r;
    attn_rng_seed(&r, seed);
    double ok = dot_variance(&r, d_head, 10000, 1.0f, 1.0f / sqrtf((float)d_head));
    attn_rng_seed(&r, seed);
    double bad = dot_variance(&r, d_head, 10000, 1.0f, 1.0f / sqrtf((float)d_model));
    if (ok < 0.0 || bad < 0.0) {                /* dot_variance 只在分配失败时返回 -1 */
        fprintf(stderr, "%s: %s\n", argv[0], attn_strerror(ATTN_ENOMEM));
        return 1;
    }
    printf("d_model = %zu，h = %zu，d_head = %zu\n", d_model, heads, d_head);
    printf("除以 √d_head : 方差 %.4f   （理论值 1）\n", ok);
    printf("除以 √d_model: 方差 %.4f   （理论值 1/%zu = %.3f）\n", bad, heads, 1.0 / (double)heads);
    return 0;
}
#line 1374 "book/04-scaling.nw"
static int ex_jacobian(int argc, char **argv)
{
    float times = 10.0f;
    const struct cli_option opts[] = {
        {"times", CLI_FLOAT, &times, "分数 (1, 0.5, 0) 乘以的倍数（默认 10）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    float p[3] = {1.0f * times, 0.5f * times, 0.0f}, jac[9];
    int status = attn_softmax(p, 3);
    if (status == ATTN_OK)
        status = attn_softmax_jacobian(p, 3, jac);
    if (status != ATTN_OK) {
        fprintf(stderr, "%s: %s\n", argv[0], attn_strerror(status));
        return 1;
    }
    float m = 0.0f;
    printf("p = (%.6f, %.6f, %.6f)\nJ =\n", p[0], p[1], p[2]);
    for (size_t i = 0; i < 3; i++) {
        for (size_t j = 0; j < 3; j++) {
            printf(" %10.6f", jac[i * 3 + j]);
            if (fabsf(jac[i * 3 + j]) > m)
                m = fabsf(jac[i * 3 + j]);
        }
        printf("\n");
    }
    printf("最大 |J| : %.4f   （= %.3e）\n", m, m);
    return 0;
}

#line 315 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"variance", "点积的方差：不缩放与缩放", ex_variance},
        {"sharpness", "64 个键的注意力：最大权重与熵", ex_sharpness},
        {"overflow", "朴素 softmax 何时溢出", ex_overflow},
        {"dmodel", "除以 √d_head 还是 √d_model", ex_dmodel},
        {"jacobian", "放大分数后 softmax 的雅可比矩阵", ex_jacobian},
    };
    return cli_dispatch(argc, argv, "attn-ch04", ex, sizeof ex / sizeof ex[0]);
}
