#line 333 "book/C-programs.nw"
#include "attn.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>

#line 396 "book/07-multihead.nw"
/* 可重复的伪随机数，落在 [-1, 1) */
static float rnd(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 8388608.0f - 1.0f;
}

static void rnd_fill(float *a, size_t n, unsigned *state)
{
    for (size_t i = 0; i < n; i++)
        a[i] = rnd(state);
}
#line 646 "book/07-multihead.nw"
/* a[m][n] 的秩：带部分主元的高斯消元，绝对值小于 tol 的主元当作 0。a 会被改写。 */
static size_t matrix_rank(float *a, size_t m, size_t n, float tol)
{
    size_t rank = 0;
    for (size_t col = 0; col < n && rank < m; col++) {
        size_t best = rank;
        for (size_t r = rank + 1; r < m; r++)
            if (fabsf(a[r * n + col]) > fabsf(a[best * n + col]))
                best = r;
        if (fabsf(a[best * n + col]) < tol)
            continue;
        for (size_t c = 0; c < n; c++) {
            float t = a[rank * n + c];
            a[rank * n + c] = a[best * n + c];
            a[best * n + c] = t;
        }
        for (size_t r = rank + 1; r < m; r++) {
            float f = a[r * n + col] / a[rank * n + col];
            for (size_t c = col; c < n; c++)
                a[r * n + c] -= f * a[rank * n + c];
        }
        rank++;
    }
    return rank;
}

/* 头的值矩阵 m[d][d] = down[d][dh] · up[dh][d]，down 和 up 随机 */
static void random_value_map(size_t d, size_t dh, unsigned *seed, float *m)
{
    float down[16 * 16], up[16 * 16];   /* d·dh 不超过 256 */
    rnd_fill(down, d * dh, seed);
    rnd_fill(up, dh * d, seed);
    for (size_t r = 0; r < d; r++)
        for (size_t c = 0; c < d; c++) {
            float s = 0.0f;
            for (size_t t = 0; t < dh; t++)
                s += down[r * dh + t] * up[t * d + c];
            m[r * d + c] = s;
        }
}
#line 810 "book/07-multihead.nw"
enum { SENT_N = 8, SENT_D = 10, SENT_H = 3, SENT_DH = 8, SENT_DC = SENT_H * SENT_DH };

static const char *const sent_words[SENT_N] = {
    "a", "fluffy", "blue", "creature", "roamed", "the", "verdant", "forest"};
static const int sent_adj[SENT_N] = {0, 1, 1, 0, 0, 0, 1, 0};
static const int sent_noun[SENT_N] = {0, 0, 0, 1, 0, 0, 0, 1};

/* x[8][10]：位置的独热编码、形容词标记、名词标记 */
static void sent_embed(float *x)
{
    for (size_t i = 0; i < SENT_N * SENT_D; i++)
        x[i] = 0.0f;
    for (size_t i = 0; i < SENT_N; i++) {
        x[i * SENT_D + i] = 1.0f;
        x[i * SENT_D + 8] = (float)sent_adj[i];
        x[i * SENT_D + 9] = (float)sent_noun[i];
    }
}

/* w_q、w_k、w_v、w_o、b_q 由调用者提供存储；s 是对得上的一对缩放后的分数 */
static void sent_heads(float s, float *wq, float *wk, float *wv, float *wo, float *bq)
{
    float c = s * sqrtf((float)SENT_DH);   /* 点积乘以 1/sqrt(8) 之后正好是 s */
    for (size_t i = 0; i < SENT_D * SENT_DC; i++)
        wq[i] = wk[i] = wv[i] = wo[i] = 0.0f;
    for (size_t i = 0; i < SENT_DC; i++)
        bq[i] = 0.0f;
    /* 头 0，列 0..7：查询 i 指向位置 i-1，键 j 就是位置 j */
    for (size_t p = 1; p < SENT_N; p++)
        wq[p * SENT_DC + 0 * SENT_DH + (p - 1)] = c;
    for (size_t p = 0; p < SENT_N; p++)
        wk[p * SENT_DC + 0 * SENT_DH + p] = 1.0f;
    /* 头 1，列 8..15：名词标记进入查询，形容词标记进入键 */
    wq[9 * SENT_DC + 1 * SENT_DH] = c;
    wk[8 * SENT_DC + 1 * SENT_DH] = 1.0f;
    /* 头 2，列 16..23：查询只有偏置，指向位置 0 */
    bq[2 * SENT_DH + 0] = c;
    for (size_t p = 0; p < SENT_N; p++)
        wk[p * SENT_DC + 2 * SENT_DH + p] = 1.0f;
    /* 值和输出：把位置编码原样搬运（本节只看注意力模式） */
    for (size_t p = 0; p < SENT_N; p++)
        for (size_t h = 0; h < SENT_H; h++) {
            wv[p * SENT_DC + h * SENT_DH + p] = 1.0f;
            wo[(h * SENT_DH + p) * SENT_D + p] = 1.0f / SENT_H;
        }
}
#line 1085 "book/07-multihead.nw"
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
#line 1109 "book/07-multihead.nw"
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
#line 1132 "book/07-multihead.nw"
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
#line 1155 "book/07-multihead.nw"
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

#line 347 "book/C-programs.nw"
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
