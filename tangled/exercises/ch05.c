#line 331 "book/C-programs.nw"
/* attn-ch05：第 5 章的练习。 */
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../examples/ch05.h"

static int bad_value(const char *exercise, const char *why)
{
    fprintf(stderr, "%s: %s\n用法: attn-ch05 %s --help\n", exercise, why, exercise);
    return 2;
}

/* 库函数失败时：说明是哪个练习、什么状态，退出状态 1。 */
static int exercise_failed(const char *exercise, int status)
{
    fprintf(stderr, "%s: %s\n", exercise, attn_strerror(status));
    return 1;
}

#line 1621 "book/05-mask.nw"
static int ex_mask(int argc, char **argv)
{
    const char *method = "neg-inf";
    int all = 0;
    const struct cli_option opts[] = {
        {"method", CLI_STRING, &method, "neg-inf、zero-scores、zero-weights、big-negative 或 naive-inf"},
        {"all", CLI_FLAG, &all, "三个键全部遮住（默认只遮第三个）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    static const struct {
        const char *name;
        void (*apply)(const float *, const unsigned char *, size_t, float *);
    } methods[] = {
        {"neg-inf", mask_neg_inf}, {"zero-scores", mask_zero_scores},
        {"zero-weights", mask_zero_weights}, {"big-negative", mask_big_negative},
        {"naive-inf", mask_naive_inf},
    };
    const float s[3] = {2.0f, 1.0f, 3.0f};
    const unsigned char vis[3] = {!all, !all, 0};
    float p[3];
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        if (strcmp(method, methods[m].name) != 0)
            continue;
        methods[m].apply(s, vis, 3, p);
        printf("分数 (2, 1, 3)，看得见：%d %d %d，做法 %s\n", vis[0], vis[1], vis[2], method);
        printf("权重: %.4f %.4f %.4f\n", fabsf(p[0]), fabsf(p[1]), fabsf(p[2]));
        printf("和  : %.4f\n", fabsf(p[0] + p[1] + p[2]));
        return 0;
    }
    return bad_value(argv[0], "不认识的 --method");
}
#line 1657 "book/05-mask.nw"
static int ex_align(int argc, char **argv)
{
    size_t nq = 2, nk = 5;
    const struct cli_option opts[] = {
        {"nq", CLI_SIZE, &nq, "查询的个数（默认 2）"},
        {"nk", CLI_SIZE, &nk, "键的个数（默认 5）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    if (nq == 0 || nk == 0 || nq > 64 || nk > 64)
        return bad_value(argv[0], "需要 1 <= nq, nk <= 64");
    /* 用 attn_sdpa 的权重判断：键都相同，看得见的权重 > 0，看不见的是 0 */
    float q[64], k[64], v[64], out[64], w[64 * 64];
    for (size_t i = 0; i < 64; i++)
        q[i] = k[i] = v[i] = 1.0f;
    int status = attn_sdpa(q, k, v, nq, nk, 1, 1, 0.0f, NULL, 1, out, w);
    if (status != ATTN_OK)
        return exercise_failed(argv[0], status);
    size_t count = 0;
    for (size_t i = 0; i < nq; i++)
        for (size_t j = 0; j < nk; j++) {
            int seen = w[i * nk + j] > 0.0f;
            count += (size_t)seen;
            printf(j + 1 < nk ? "%d " : "%d\n", seen);
        }
    printf("可见: %zu\n", count);
    return 0;
}
#line 1689 "book/05-mask.nw"
/* --count：用与不用缓存，生成时注意力子层的乘加次数 */
static int kv_count(const char *exercise, size_t tokens, size_t d, size_t layers)
{
    if (tokens == 0 || d == 0 || layers == 0)
        return bad_value(exercise, "需要 tokens、d-model、layers 都 >= 1");
    unsigned long long with = kv_generation_macs(tokens, d, layers, 1);
    unsigned long long without = kv_generation_macs(tokens, d, layers, 0);
    if (with == 0 || without == 0)
        return bad_value(exercise, "乘加次数超出了 64 位整数");
    printf("生成 %zu 个词，d = %zu，%zu 层（注意力子层：四个投影和注意力）\n", tokens, d, layers);
    printf("用缓存: %llu 次乘加\n", with);
    printf("不用缓存: %llu 次乘加\n", without);
    printf("不用缓存是用缓存的 %.1f 倍\n", (double)without / (double)with);
    return 0;
}

static int ex_kvcache(int argc, char **argv)
{
    const size_t unset = (size_t)-1;          /* cli_parse 不接受这么大的值 */
    size_t tokens = unset, capacity = 6, seed = 17, d = 768, layers = 12;
    int count = 0;
    const struct cli_option opts[] = {
        {"tokens", CLI_SIZE, &tokens, "生成的位置数（默认 6，最多 256；--count 时默认 1024）"},
        {"capacity", CLI_SIZE, &capacity, "缓存的容量（默认 6）"},
        {"seed", CLI_SIZE, &seed, "随机数种子（默认 17）"},
        {"count", CLI_FLAG, &count, "不生成，只数用与不用缓存的乘加次数"},
        {"d-model", CLI_SIZE, &d, "--count 时模型的宽度 d（默认 768，GPT-2 小模型）"},
        {"layers", CLI_SIZE, &layers, "--count 时的层数（默认 12）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    if (count)
        return kv_count(argv[0], tokens == unset ? 1024 : tokens, d, layers);
    if (tokens == unset)
        tokens = 6;
    if (tokens == 0 || tokens > 256 || capacity == 0)
        return bad_value(argv[0], "需要 1 <= tokens <= 256，capacity >= 1");
    enum { DK = 4, DV = 3 };
    static float q[256 * DK], k[256 * DK], v[256 * DV], full[256 * DV], step[256 * DV];
    attn_rng r;
    int status = attn_rng_seed(&r, seed);
    if (status == ATTN_OK) status = attn_rng_normal(&r, q, tokens * DK);
    if (status == ATTN_OK) status = attn_rng_normal(&r, k, tokens * DK);
    if (status == ATTN_OK) status = attn_rng_normal(&r, v, tokens * DV);
    if (status == ATTN_OK)
        status = attn_sdpa(q, k, v, tokens, tokens, DK, DV, 0.0f, NULL, 1, full, NULL);
    if (status != ATTN_OK)
        return exercise_failed(argv[0], status);
    attn_kv_cache c;
    if ((status = attn_kv_cache_init(&c, capacity, DK, DV)) != ATTN_OK)
        return exercise_failed(argv[0], status);
    for (size_t t = 0; t < tokens && status == ATTN_OK; t++) {
        status = attn_kv_cache_append(&c, k + t * DK, v + t * DV, 1);
        if (status == ATTN_EFULL)
            fprintf(stderr, "第 %zu 个位置：缓存已满（容量 %zu）\n", t + 1, capacity);
        else if (status == ATTN_OK)
            status = attn_kv_cache_attend(&c, q + t * DK, 1, 0.0f, step + t * DV, NULL);
    }
    attn_kv_cache_free(&c);
    if (status != ATTN_OK)
        return exercise_failed(argv[0], status);
    float worst = 0.0f;
    for (size_t i = 0; i < tokens * DV; i++)
        worst = fmaxf(worst, fabsf(step[i] - full[i]));
    printf("%zu 个位置，逐词生成与一次算完的最大差值: %g\n", tokens, worst);
    return 0;
}
#line 1760 "book/05-mask.nw"
static int ex_memory(int argc, char **argv)
{
    size_t n = 8192, heads = 1;
    const struct cli_option opts[] = {
        {"n", CLI_SIZE, &n, "上下文长度 N（默认 8192）"},
        {"heads", CLI_SIZE, &heads, "头数（默认 1）"},
    };
    int st = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (st <= 0)
        return st < 0 ? 0 : 2;
    if (n == 0 || heads == 0)
        return bad_value(argv[0], "需要 n >= 1，heads >= 1");
    unsigned long long one = pattern_bytes(n, n), total = one * heads;
    if (one == 0 || total / heads != one)
        return bad_value(argv[0], "字节数超出了 64 位整数");
    printf("N = %zu，%zu 个头：%llu 字节（%.3f GiB）\n", n, heads, total,
           (double)total / (1024.0 * 1024.0 * 1024.0));
    return 0;
}

#line 360 "book/C-programs.nw"
int main(int argc, char **argv)
{
    static const struct cli_exercise ex[] = {
        {"mask", "五种掩码写法的权重", ex_mask},
        {"align", "因果规则的可见表（右下角对齐）", ex_align},
        {"kvcache", "用 KV 缓存逐词生成", ex_kvcache},
        {"memory", "注意力模式占多少字节", ex_memory},
    };
    return cli_dispatch(argc, argv, "attn-ch05", ex, sizeof ex / sizeof ex[0]);
}
