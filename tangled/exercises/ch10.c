#line 471 "book/C-programs.nw"
/* attn-ch10：第 10 章的练习。 */
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../examples/ch10.h"

static int bad_value(const char *exercise, const char *why)
{
    fprintf(stderr, "%s: %s\n用法: attn-ch10 %s --help\n", exercise, why, exercise);
    return 2;
}

#line 1234 "book/10-position.nw"
static int ex_permute(int argc, char **argv)
{
    int causal = 0, positions = 0;
    size_t seed = 11;
    const struct cli_option opts[] = {
        {"causal", CLI_FLAG, &causal, "使用因果掩码"},
        {"positions", CLI_FLAG, &positions, "先给每个位置加上正弦位置编码"},
        {"seed", CLI_SIZE, &seed, "随机数种子（默认 11）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    struct random_mha m;
    float e[PM_N * PM_D];
    attn_rng r;
    double gap = 0.0;
    int status = attn_rng_seed(&r, seed);
    if (status == ATTN_OK)
        status = random_mha_init(&m, &r);
    if (status == ATTN_OK)
        status = attn_rng_normal(&r, e, PM_N * PM_D);
    if (status == ATTN_OK)
        status = permutation_gap(&m, e, causal, positions, &gap);
    if (status != ATTN_OK) {
        fprintf(stderr, "permute: %s\n", attn_strerror(status));
        return 1;
    }
    printf("次序 3 0 4 1 2，因果掩码: %s，位置编码: %s\n",
           causal ? "有" : "无", positions ? "有" : "无");
    printf("最大差值: %.2g\n", gap);
    printf("输出跟着换位置: %s\n", gap < 1e-5 ? "是" : "否");
    return 0;
}
#line 1270 "book/10-position.nw"
static int ex_sinusoid(int argc, char **argv)
{
    size_t d = 4, p = 2;
    const struct cli_option opts[] = {
        {"d", CLI_SIZE, &d, "维数 d，2 到 1024 之间的偶数（默认 4）"},
        {"p", CLI_SIZE, &p, "位置 p（默认 2）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    if (d == 0 || d % 2 != 0 || d > 1024)
        return bad_value(argv[0], "--d 必须是 2 到 1024 之间的偶数");
    /* 只算第 p 行：从位置 p 起的一行 */
    float pe[1024];
    int status = attn_positions_sinusoidal_from(pe, 1, d, p);
    if (status != ATTN_OK) {
        fprintf(stderr, "sinusoid: %s\n", attn_strerror(status));
        return 1;
    }
    printf("PE(%zu) =", p);
    for (size_t i = 0; i < d; i++)
        printf(" %.4f", pe[i]);
    printf("\n");
    for (size_t j = 0; j < d / 2; j++) {
        double w = pow(10000.0, -2.0 * (double)j / (double)d);
        printf("第 %zu 对: 频率 %.6f, 波长 %.4f\n", j, w, 2 * acos(-1.0) / w);
    }
    return 0;
}
#line 1302 "book/10-position.nw"
static int ex_rope(int argc, char **argv)
{
    size_t i = 2, j = 1;
    float k0 = 1.0f, k1 = 0.0f;
    const struct cli_option opts[] = {
        {"i", CLI_SIZE, &i, "查询 q = (1, 0) 的位置（默认 2）"},
        {"j", CLI_SIZE, &j, "键的位置（默认 1）"},
        {"k0", CLI_FLOAT, &k0, "键的第一个分量（默认 1）"},
        {"k1", CLI_FLOAT, &k1, "键的第二个分量（默认 0）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    float q[2] = {1.0f, 0.0f}, k[2] = {k0, k1};
    int status = attn_rope(q, 1, 2, i, 0.0f);
    if (status == ATTN_OK)
        status = attn_rope(k, 1, 2, j, 0.0f);
    if (status != ATTN_OK) {
        fprintf(stderr, "rope: %s\n", attn_strerror(status));
        return 1;
    }
    printf("q' = (%.4f, %.4f)  位置 %zu\n", q[0], q[1], i);
    printf("k' = (%.4f, %.4f)  位置 %zu\n", k[0], k[1], j);
    printf("分数: %.4f\n", (double)q[0] * k[0] + (double)q[1] * k[1]);
    return 0;
}
#line 1333 "book/10-position.nw"
static int ex_cache(int argc, char **argv)
{
    size_t tokens = 6, seed = 14;
    int wrong = 0;
    const struct cli_option opts[] = {
        {"tokens", CLI_SIZE, &tokens, "生成的位置数，1 到 64（默认 6）"},
        {"wrong", CLI_FLAG, &wrong, "错误的做法：存没转的键，每一步按当前位置重转"},
        {"seed", CLI_SIZE, &seed, "随机数种子（默认 14）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    if (tokens == 0 || tokens > 64)
        return bad_value(argv[0], "需要 1 <= tokens <= 64");
    enum { DK = 8, DV = 4, NMAX = 64 };
    float q[NMAX * DK], k[NMAX * DK], v[NMAX * DV], qr[NMAX * DK], kr[NMAX * DK];
    float full[NMAX * DV], step[NMAX * DV], again[NMAX * DK];
    attn_rng r;
    int status = attn_rng_seed(&r, seed);
    if (status == ATTN_OK)
        status = attn_rng_normal(&r, q, tokens * DK);
    if (status == ATTN_OK)
        status = attn_rng_normal(&r, k, tokens * DK);
    if (status == ATTN_OK)
        status = attn_rng_normal(&r, v, tokens * DV);
    /* 一次算完：整块旋转，再做因果注意力 */
    memcpy(qr, q, tokens * DK * sizeof *q);
    memcpy(kr, k, tokens * DK * sizeof *k);
    if (status == ATTN_OK)
        status = attn_rope(qr, tokens, DK, 0, 0.0f);
    if (status == ATTN_OK)
        status = attn_rope(kr, tokens, DK, 0, 0.0f);
    if (status == ATTN_OK)
        status = attn_sdpa(qr, kr, v, tokens, tokens, DK, DV, 0.0f, NULL, 1, full, NULL);
    /* 逐词：init 失败时 c 被清零，后面的 attn_kv_cache_free 无害 */
    attn_kv_cache c = {0};
    if (status == ATTN_OK)
        status = attn_kv_cache_init(&c, tokens, DK, DV);
    for (size_t t = 0; t < tokens && status == ATTN_OK; t++) {
        float kt[DK], qt[DK];
        memcpy(kt, k + t * DK, sizeof kt);
        memcpy(qt, q + t * DK, sizeof qt);
        if (!wrong)
            status = attn_rope(kt, 1, DK, t, 0.0f);
        if (status == ATTN_OK)
            status = attn_rope(qt, 1, DK, t, 0.0f);
        if (status == ATTN_OK)
            status = attn_kv_cache_append(&c, kt, v + t * DV, 1);
        if (status == ATTN_OK && !wrong)
            status = attn_kv_cache_attend(&c, qt, 1, 0.0f, step + t * DV, NULL);
        if (status == ATTN_OK && wrong) {
            /* 把缓存里 t + 1 个没转的键全部转到位置 t */
            memcpy(again, c.k, (t + 1) * DK * sizeof *again);
            for (size_t s = 0; s <= t && status == ATTN_OK; s++)
                status = attn_rope(again + s * DK, 1, DK, t, 0.0f);
            if (status == ATTN_OK)
                status = attn_sdpa(qt, again, c.v, 1, t + 1, DK, DV, 0.0f, NULL, 1,
                                   step + t * DV, NULL);
        }
    }
    attn_kv_cache_free(&c);
    if (status != ATTN_OK) {
        fprintf(stderr, "cache: %s\n", attn_strerror(status));
        return 1;
    }
    float worst = 0.0f;
    for (size_t i = 0; i < tokens * DV; i++)
        worst = fmaxf(worst, fabsf(step[i] - full[i]));
    printf("%zu 个位置，%s，与一次算完的最大差值: %g\n", tokens,
           wrong ? "每一步重转全部键" : "每个键在追加时转一次", worst);
    printf("最大差值: %g\n", worst);
    return 0;
}

#line 493 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"permute", "换个次序，注意力的输出是否只跟着换位置", ex_permute},
        {"sinusoid", "正弦位置编码的一行，各对的频率和波长", ex_sinusoid},
        {"rope", "二维 RoPE：两个位置上的分数", ex_rope},
        {"cache", "RoPE 与 KV 缓存：逐词生成对比一次算完", ex_cache},
    };
    return cli_dispatch(argc, argv, "attn-ch10", ex, sizeof ex / sizeof ex[0]);
}
