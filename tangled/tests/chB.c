#line 128 "book/B-errors.nw"
#define _DEFAULT_SOURCE                 /* mmap 的 MAP_ANONYMOUS */
#include "attn.h"
#include "attn_core.h"
#include "check.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* 2 的 40 次方：两个相乘就超出 64 位的 size_t */
#define BIG ((size_t)1 << 40)
_Static_assert(SIZE_MAX / BIG < BIG, "附录 B 的测试假定 size_t 是 64 位");

#line 312 "book/B-errors.nw"
/* attn_sdpa 和 attn_sdpa_reference 的签名；attn_sdpa_ex 借一个两线程的包装 */
typedef int sdpa_fn(const float *q, const float *k, const float *v,
                    size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                    float scale, const unsigned char *mask, int causal,
                    float *out, float *weights);

static int sdpa_fast_2(const float *q, const float *k, const float *v,
                       size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                       float scale, const unsigned char *mask, int causal,
                       float *out, float *weights)
{
    const attn_sdpa_options two_threads = {.heads = 1, .threads = 2};
    return attn_sdpa_ex(q, k, v, n_q, n_k, d_k, d_v, scale, mask, causal, out, weights, &two_threads);
}

static sdpa_fn *const sdpa_impls[] = {attn_sdpa, attn_sdpa_reference, sdpa_fast_2};
static const char *const sdpa_names[] = {
    "attn_sdpa 的错误输入", "attn_sdpa_reference 的错误输入", "attn_sdpa_ex 的错误输入"};
static const char *const sdpa_edge_names[] = {
    "attn_sdpa：边上的数", "attn_sdpa_reference：边上的数", "attn_sdpa_ex：边上的数"};
static const char *const sdpa_nan_names[] = {
    "attn_sdpa：输入里的 NaN", "attn_sdpa_reference：输入里的 NaN", "attn_sdpa_ex：输入里的 NaN"};
static const char *const sdpa_finite_names[] = {
    "attn_sdpa：有限的输入", "attn_sdpa_reference：有限的输入", "attn_sdpa_ex：有限的输入"};
static const char *const sdpa_order_names[] = {
    "attn_sdpa：超出单精度的分数", "attn_sdpa_reference：超出单精度的分数", "attn_sdpa_ex：超出单精度的分数"};
static const char *const sdpa_overlap_names[] = {
    "attn_sdpa：输出与输入重叠", "attn_sdpa_reference：输出与输入重叠", "attn_sdpa_ex：输出与输入重叠"};
#line 454 "book/B-errors.nw"
/* *c 的每个字段都是 0 */
static int kv_cache_is_zero(const attn_kv_cache *c)
{
    return c->capacity == 0 && c->len == 0 && c->d_k == 0 && c->d_v == 0 &&
           c->k == NULL && c->v == NULL;
}
#line 635 "book/B-errors.nw"
/* x[0..n) 都是不小于 0 的有限数，并且和为 1（容差 tol） */
static int is_distribution(const float *x, size_t n, double tol)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]) || x[i] < 0.0f)
            return 0;
        sum += x[i];
    }
    return fabs(sum - 1.0) <= tol;
}
#line 1052 "book/B-errors.nw"
/* 逐块去数：快速路径每个查询块算多少个分数（对照闭式） */
static size_t flash_scores_by_blocks(size_t n_q, size_t n_k, int causal)
{
    const size_t fq = 192;
    size_t total = 0;
    for (size_t i0 = 0; i0 < n_q; i0 += fq) {
        size_t rows = n_q - i0 < fq ? n_q - i0 : fq, end = n_k;
        if (causal) {
            size_t lim = i0 + rows + n_k;
            end = lim > n_q ? lim - n_q : 0;
            end = end < n_k ? end : n_k;
        }
        total += rows * end;
    }
    return total;
}
#line 1131 "book/B-errors.nw"
/* 定义本身，双精度：out[n_q][d_v]、w[n_q][n_k] */
static void sdpa_double(const float *q, const float *k, const float *v,
                        size_t n_q, size_t n_k, size_t d_k, size_t d_v, double scale,
                        const unsigned char *mask, int causal, double *out, double *w)
{
    for (size_t i = 0; i < n_q; i++) {
        double top = -INFINITY, sum = 0.0;
        for (size_t j = 0; j < n_k; j++) {
            int seen = (mask == NULL || mask[i * n_k + j]) && (!causal || j + n_q <= i + n_k);
            double s = 0.0;
            for (size_t t = 0; t < d_k; t++)
                s += (double)q[i * d_k + t] * k[j * d_k + t];
            w[i * n_k + j] = seen ? s * scale : -INFINITY;
            top = fmax(top, w[i * n_k + j]);
        }
        for (size_t j = 0; j < n_k; j++) {
            w[i * n_k + j] = top == -INFINITY ? 0.0 : exp(w[i * n_k + j] - top);
            sum += w[i * n_k + j];
        }
        for (size_t c = 0; c < d_v; c++)
            out[i * d_v + c] = 0.0;
        for (size_t j = 0; j < n_k; j++) {
            if (sum > 0.0)
                w[i * n_k + j] /= sum;
            for (size_t c = 0; c < d_v; c++)
                out[i * d_v + c] += w[i * n_k + j] * v[j * d_v + c];
        }
    }
}

/* 0 .. n-1 之间的一个随机整数 */
static size_t rand_below(attn_rng *r, size_t n)
{
    return (size_t)(attn_rng_next(r) % n);
}
#line 1330 "book/B-errors.nw"
/* 第 11 章的小模型：词表 16，上下文 16，d = 32，4 个头，2 层，d_ff = 128 */
static attn_gpt_config chB_gpt_config(void)
{
    attn_gpt_config c = {.d_model = 32, .n_heads = 4, .d_head = 8, .n_layers = 2, .d_ff = 128,
                         .vocab = 16, .n_ctx = 16, .biases = 1, .layer_norms = 1,
                         .learned_positions = 1, .tied = 1};
    return c;
}
#line 36 "book/B-errors.nw"
/* 一页 PROT_NONE 的内存：地址是合法的，读或写它都会段错误。失败时返回 NULL。 */
static float *no_access_page(size_t *bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return NULL;
    void *p = mmap(NULL, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    *bytes = (size_t)page;
    return p;
}

/* a[0..n) 是否都还是记号 */
static int still_marked(const float *a, size_t n, float mark)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &mark, sizeof mark) != 0)
            return 0;
    return 1;
}

#line 153 "book/B-errors.nw"
int main(void)
{
#line 60 "book/B-errors.nw"
    check_section("检查不过：不写输出；只看参数和地址的检查不读输入的内容");
    {
        size_t bytes = 0;
        float *g = no_access_page(&bytes);     /* 输入全指向这一页：读一下就段错误 */
        CHECK(g != NULL && bytes >= 16 * sizeof(float));
        if (g != NULL) {
            const float mark = -12345.0f;
            float out[16], w[16], loss = mark;
            for (size_t i = 0; i < 16; i++)
                out[i] = w[i] = mark;
            /* 标量不对：scale 是 NaN，eps 是负数 */
            CHECK_STATUS(attn_sdpa(g, g, g, 2, 2, 2, 2, NAN, NULL, 0, out, w), ATTN_EINVAL);
            CHECK_STATUS(attn_layernorm(g, g, g, out, 2, 2, -1.0f), ATTN_EINVAL);
            /* 尺寸不对：为 0，或乘起来超出 size_t */
            CHECK_STATUS(attn_linear(g, g, g, out, 0, 2, 2), ATTN_EINVAL);
            CHECK_STATUS(attn_matmul(g, g, out, BIG, BIG, 1), ATTN_EINVAL);
            attn_mha_weights mw = {2, 2, 1, g, g, g, g, NULL, NULL, NULL, NULL};
            CHECK_STATUS(attn_mha(&mw, g, 0, g, 2, NULL, 0, out), ATTN_EINVAL);
            /* 地址重叠：输出落在输入上，或两个输出彼此重叠；只比较地址 */
            CHECK_STATUS(attn_softmax_jacobian(g, 4, g + 2), ATTN_EINVAL);
            CHECK_STATUS(attn_sdpa(g, g, g, 2, 2, 2, 2, 0.0f, NULL, 0, g + 1, NULL), ATTN_EINVAL);
            CHECK_STATUS(attn_layernorm(g, NULL, NULL, g + 1, 2, 2, 1e-5f), ATTN_EINVAL);
            CHECK_STATUS(attn_cross_entropy(g, (const int *)g, 2, 2, &loss, g + 1), ATTN_EINVAL);
            mw.w_o = out;
            CHECK_STATUS(attn_mha(&mw, g, 2, g, 2, NULL, 0, out), ATTN_EINVAL);
            CHECK(still_marked(out, 16, mark) && still_marked(w, 16, mark));
            CHECK(memcmp(&loss, &mark, sizeof mark) == 0);
            munmap(g, bytes);

            /* 要读内容的检查：坏的数放在最后，读完才拒绝，输出仍然没动 */
            float x[8] = {1, 2, 3, 4, 5, 6, 7, INFINITY}, y[8], gamma[4] = {1, 1, 1, 1};
            for (size_t i = 0; i < 8; i++)
                y[i] = mark;
            CHECK_STATUS(attn_layernorm(x, gamma, NULL, y, 2, 4, 1e-5f), ATTN_EINVAL);
            CHECK(still_marked(y, 8, mark));
            x[7] = 8.0f;
            gamma[3] = -INFINITY;
            CHECK_STATUS(attn_layernorm(x, gamma, NULL, y, 2, 4, 1e-5f), ATTN_EINVAL);
            CHECK(still_marked(y, 8, mark));
            gamma[3] = 1.0f;
            CHECK_OK(attn_layernorm(x, gamma, NULL, y, 2, 4, 1e-5f));   /* 好的输入才写 */
            CHECK(!still_marked(y, 8, mark));
            static const float logits[6] = {0.5f, 1.0f, -1.0f, 2.0f, 0.0f, 1.0f};
            static const int targets[2] = {1, 3};                      /* 3 超出词表 0..2 */
            float dz[6];
            for (size_t i = 0; i < 6; i++)
                dz[i] = mark;
            loss = mark;
            CHECK_STATUS(attn_cross_entropy(logits, targets, 2, 3, &loss, dz), ATTN_EINVAL);
            CHECK(still_marked(dz, 6, mark) && memcmp(&loss, &mark, sizeof mark) == 0);
            float big[4] = {1.0f, 2.0f, FLT_MAX, FLT_MAX}, before[4];
            memcpy(before, big, sizeof big);
            CHECK_STATUS(attn_rope(big, 1, 4, 0, 0.0f), ATTN_EINVAL);  /* 第二对的模长超出 float */
            CHECK(memcmp(big, before, sizeof big) == 0);
            /* KV 缓存放不下：状态码是 ATTN_EFULL，缓存不变 */
            attn_kv_cache c;
            const float kv[2] = {1.0f, 2.0f};
            CHECK_OK(attn_kv_cache_init(&c, 1, 1, 1));
            CHECK_OK(attn_kv_cache_append(&c, kv, kv, 1));
            CHECK_STATUS(attn_kv_cache_append(&c, kv + 1, kv + 1, 1), ATTN_EFULL);
            CHECK_INT(c.len, 1);
            CHECK_NEAR(c.k[0], 1.0, 0);
            attn_kv_cache_free(&c);
        }
    }
#line 199 "book/B-errors.nw"
    check_section("attn_strerror：任何整数都有说明");
    {
        CHECK_STR(attn_strerror(ATTN_OK), "success");
        CHECK_STR(attn_strerror(ATTN_EINVAL), "invalid argument");
        CHECK_STR(attn_strerror(ATTN_ENOMEM), "out of memory");
        CHECK_STR(attn_strerror(ATTN_EFULL), "cache is full");
        const int odd[] = {-1, 4, 1000, INT_MIN, INT_MAX};
        for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
            CHECK_STR(attn_strerror(odd[i]), "unknown status");
    }
#line 215 "book/B-errors.nw"
    check_section("第 1 章：矩阵乘、线性层、ReLU、前馈网络");
    {
        float a[16] = {0}, b[16] = {0}, c[16];
        /* attn_matmul：c[2×2] = a[2×2]·b[2×2] */
        CHECK_OK(attn_matmul(a, b, c, 2, 2, 2));
        CHECK_STATUS(attn_matmul(NULL, b, c, 2, 2, 2), ATTN_EINVAL);
        CHECK_STATUS(attn_matmul(a, NULL, c, 2, 2, 2), ATTN_EINVAL);
        CHECK_STATUS(attn_matmul(a, b, NULL, 2, 2, 2), ATTN_EINVAL);
        CHECK_STATUS(attn_matmul(a, b, c, 0, 2, 2), ATTN_EINVAL);
        CHECK_STATUS(attn_matmul(a, b, c, 2, 0, 2), ATTN_EINVAL);
        CHECK_STATUS(attn_matmul(a, b, c, 2, 2, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_matmul(a, b, c, BIG, BIG, 1), ATTN_EINVAL);   /* m·k */
        CHECK_STATUS(attn_matmul(a, b, c, 1, BIG, BIG), ATTN_EINVAL);   /* k·n */
        CHECK_STATUS(attn_matmul(a, b, c, BIG, 1, BIG), ATTN_EINVAL);   /* m·n */
        /* attn_linear：bias 可以为 NULL */
        CHECK_OK(attn_linear(a, b, NULL, c, 2, 2, 2));
        CHECK_STATUS(attn_linear(NULL, b, NULL, c, 2, 2, 2), ATTN_EINVAL);
        CHECK_STATUS(attn_linear(a, NULL, NULL, c, 2, 2, 2), ATTN_EINVAL);
        CHECK_STATUS(attn_linear(a, b, b, NULL, 2, 2, 2), ATTN_EINVAL);
        CHECK_STATUS(attn_linear(a, b, b, c, 0, 2, 2), ATTN_EINVAL);
        CHECK_STATUS(attn_linear(a, b, b, c, 2, 0, 2), ATTN_EINVAL);
        CHECK_STATUS(attn_linear(a, b, b, c, 2, 2, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_linear(a, b, b, c, BIG, BIG, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_linear(a, b, b, c, 1, BIG, BIG), ATTN_EINVAL);
        CHECK_STATUS(attn_linear(a, b, b, c, BIG, 1, BIG), ATTN_EINVAL);
        /* attn_relu */
        CHECK_OK(attn_relu(c, 4));
        CHECK_STATUS(attn_relu(NULL, 4), ATTN_EINVAL);
        CHECK_STATUS(attn_relu(c, 0), ATTN_EINVAL);
        /* attn_ffn：x[2×2]·w1[2×2]，再·w2[2×2]；b1、b2 可以为 NULL */
        CHECK_OK(attn_ffn(a, 2, 2, b, NULL, 2, b, NULL, 2, c));
        CHECK_STATUS(attn_ffn(NULL, 2, 2, b, b, 2, b, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(a, 2, 2, NULL, b, 2, b, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(a, 2, 2, b, b, 2, NULL, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(a, 2, 2, b, b, 2, b, b, 2, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(a, 0, 2, b, b, 2, b, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(a, 2, 0, b, b, 2, b, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(a, 2, 2, b, b, 0, b, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(a, 2, 2, b, b, 2, b, b, 0, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(a, BIG, 1, b, b, BIG, b, b, 1, c), ATTN_EINVAL);   /* n·d_hidden */
        /* d_in·d_hidden、d_hidden·d_out 溢出，而 n·d_hidden 很小 */
        CHECK_STATUS(attn_ffn(a, 1, SIZE_MAX / 2, b, b, 4, b, b, 1, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(a, 1, 1, b, b, 4, b, b, SIZE_MAX / 2, c), ATTN_EINVAL);
        /* d_in·d_hidden 溢出：必须在分配中间结果之前就拒绝，而不是去分配 4 TiB */
        CHECK_STATUS(attn_ffn(a, 1, BIG, b, b, BIG, b, b, 1, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn(a, BIG, BIG, b, b, 1, b, b, 1, c), ATTN_EINVAL);
    }
#line 267 "book/B-errors.nw"
    check_section("第 2 章：点积、余弦、距离、加权和");
    {
        const float a[4] = {1, 2, 3, 4}, zero[4] = {0};
        float out = 0.0f, m[16];
        CHECK_STATUS(attn_dot(NULL, a, 4, &out), ATTN_EINVAL);
        CHECK_STATUS(attn_dot(a, NULL, 4, &out), ATTN_EINVAL);
        CHECK_STATUS(attn_dot(a, a, 4, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_dot(a, a, 0, &out), ATTN_EINVAL);
        CHECK_STATUS(attn_cosine(NULL, a, 4, &out), ATTN_EINVAL);
        CHECK_STATUS(attn_cosine(a, NULL, 4, &out), ATTN_EINVAL);
        CHECK_STATUS(attn_cosine(a, a, 4, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_cosine(a, a, 0, &out), ATTN_EINVAL);
        CHECK_STATUS(attn_cosine(zero, a, 4, &out), ATTN_EINVAL);
        CHECK_STATUS(attn_cosine(a, zero, 4, &out), ATTN_EINVAL);
        CHECK_STATUS(attn_sqdist(NULL, a, 4, &out), ATTN_EINVAL);
        CHECK_STATUS(attn_sqdist(a, NULL, 4, &out), ATTN_EINVAL);
        CHECK_STATUS(attn_sqdist(a, a, 4, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_sqdist(a, a, 0, &out), ATTN_EINVAL);
        /* attn_dot_all：out[2×2] = a[2×2]·a[2×2]ᵀ */
        CHECK_OK(attn_dot_all(a, a, 2, 2, 2, m));
        CHECK_STATUS(attn_dot_all(NULL, a, 2, 2, 2, m), ATTN_EINVAL);
        CHECK_STATUS(attn_dot_all(a, NULL, 2, 2, 2, m), ATTN_EINVAL);
        CHECK_STATUS(attn_dot_all(a, a, 2, 2, 2, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_dot_all(a, a, 0, 2, 2, m), ATTN_EINVAL);
        CHECK_STATUS(attn_dot_all(a, a, 2, 0, 2, m), ATTN_EINVAL);
        CHECK_STATUS(attn_dot_all(a, a, 2, 2, 0, m), ATTN_EINVAL);
        CHECK_STATUS(attn_dot_all(a, a, BIG, BIG, 1, m), ATTN_EINVAL);   /* n_a·n_b */
        CHECK_STATUS(attn_dot_all(a, a, BIG, 1, BIG, m), ATTN_EINVAL);   /* n_a·d */
        CHECK_STATUS(attn_dot_all(a, a, 1, BIG, BIG, m), ATTN_EINVAL);   /* n_b·d */
        /* attn_weighted_sum：out[2] = w[2]·v[2×2] */
        CHECK_OK(attn_weighted_sum(a, a, 2, 2, m));
        CHECK_STATUS(attn_weighted_sum(NULL, a, 2, 2, m), ATTN_EINVAL);
        CHECK_STATUS(attn_weighted_sum(a, NULL, 2, 2, m), ATTN_EINVAL);
        CHECK_STATUS(attn_weighted_sum(a, a, 2, 2, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_weighted_sum(a, a, 0, 2, m), ATTN_EINVAL);
        CHECK_STATUS(attn_weighted_sum(a, a, 2, 0, m), ATTN_EINVAL);
        CHECK_STATUS(attn_weighted_sum(a, a, BIG, BIG, m), ATTN_EINVAL);
    }
#line 343 "book/B-errors.nw"
    check_section("attn_softmax 的错误输入");
    {
        float x[4] = {0};
        CHECK_STATUS(attn_softmax(NULL, 4), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax(x, 0), ATTN_EINVAL);
    }
    for (size_t f = 0; f < 3; f++) {
        check_section(sdpa_names[f]);
        sdpa_fn *sdpa = sdpa_impls[f];
        /* q、k、v、out、weights 都是 2×2 */
        const float q[4] = {1, 0, 0, 1};
        const unsigned char mask[4] = {1, 1, 1, 1};
        float out[4], w[4];
        CHECK_OK(sdpa(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, NULL));
        CHECK_OK(sdpa(q, q, q, 2, 2, 2, 2, 0.5f, mask, 1, out, w));
        CHECK_STATUS(sdpa(NULL, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, NULL, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, q, NULL, 2, 2, 2, 2, 0.0f, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, NULL, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, q, q, 0, 2, 2, 2, 0.0f, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, q, q, 2, 0, 2, 2, 0.0f, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, q, q, 2, 2, 0, 2, 0.0f, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, q, q, 2, 2, 2, 0, 0.0f, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, q, q, BIG, BIG, 1, 1, 0.0f, NULL, 0, out, w), ATTN_EINVAL); /* n_q·n_k */
        CHECK_STATUS(sdpa(q, q, q, BIG, 1, BIG, 1, 0.0f, NULL, 0, out, w), ATTN_EINVAL); /* n_q·d_k */
        CHECK_STATUS(sdpa(q, q, q, 1, BIG, 1, BIG, 0.0f, NULL, 0, out, w), ATTN_EINVAL); /* n_k·d_v */
        CHECK_STATUS(sdpa(q, q, q, 2, 2, 2, 2, -1.0f, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, q, q, 2, 2, 2, 2, NAN, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, q, q, 2, 2, 2, 2, INFINITY, NULL, 0, out, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, q, q, 2, 2, 2, 2, -INFINITY, NULL, 0, out, w), ATTN_EINVAL);
        /* 元素个数不溢出、字节数 n·d·4 溢出：也要拒绝（快速路径补齐 d_v 时曾绕回 0 而越界） */
        CHECK_STATUS(sdpa(q, q, q, 1, 1, 1, SIZE_MAX, 0.0f, NULL, 0, out, NULL), ATTN_EINVAL);
    }
#line 383 "book/B-errors.nw"
    check_section("第 9 章：threads、heads 和两个返回 size_t 的函数");
    {
        const float q[8] = {1, 0, 0, 1, 1, 0, 0, 1};
        float out[8], w[8];
        CHECK_OK(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){1, 0}));
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){1, -1}), ATTN_EINVAL);
        CHECK_OK(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, NULL));
        CHECK_STATUS(attn_sdpa_ex(NULL, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, NULL), ATTN_EINVAL);
        /* 两个头，每个头 q、k、v、out 都是 2×2 */
        CHECK_OK(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 1, out, w, &(attn_sdpa_options){2, 2}));
        CHECK_STATUS(attn_sdpa_ex(NULL, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){2, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, NULL, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){2, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, NULL, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){2, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, NULL, w, &(attn_sdpa_options){2, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){0, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 0, 2, 2, 2, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){2, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 0, 2, 2, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){2, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 2, 0, 2, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){2, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 2, 2, 0, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){2, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 1, 1, BIG, 1, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){BIG, 1}),
                     ATTN_EINVAL);                                   /* heads·n_q·d_k */
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 1, BIG, 1, 1, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){BIG, 1}),
                     ATTN_EINVAL);                                   /* heads·n_k·d_k */
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, -1.0f, NULL, 0, out, w, &(attn_sdpa_options){2, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, NAN, NULL, 0, out, w, &(attn_sdpa_options){2, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, INFINITY, NULL, 0, out, w, &(attn_sdpa_options){2, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, &(attn_sdpa_options){2, -1}), ATTN_EINVAL);
        /* 返回 size_t 的两个函数 */
        CHECK(attn_flash_bytes(64, 64, 1) > 0);
        CHECK_INT(attn_flash_bytes(0, 64, 1), 0);
        CHECK_INT(attn_flash_bytes(64, 0, 1), 0);
        CHECK_INT(attn_flash_bytes(64, 64, -1), 0);
        CHECK_INT(attn_flash_bytes(SIZE_MAX, 64, 1), 0);
        CHECK_INT(attn_flash_bytes(64, SIZE_MAX / 2, 1), 0);
        CHECK_INT(attn_flash_bytes(1, SIZE_MAX, 1), 0);   /* 补到 16 的倍数时不能绕回 0 */
        CHECK_INT(attn_flash_scores(4, 4, 0), 16);
        CHECK_INT(attn_flash_scores(BIG, BIG, 0), 0);
        CHECK_INT(attn_flash_scores(BIG, BIG, 1), 0);
        CHECK_INT(attn_flash_scores(0, 4, 0), 0);          /* 没有查询，就没有分数 */
        CHECK_INT(attn_flash_scores(4, 0, 1), 0);
    }
#line 429 "book/B-errors.nw"
    check_section("第 4 章：随机数、雅可比矩阵");
    {
        attn_rng r;
        float x[4] = {0.25f, 0.25f, 0.25f, 0.25f}, jac[16];
        CHECK_OK(attn_rng_seed(&r, 7));
        CHECK_STATUS(attn_rng_seed(NULL, 7), ATTN_EINVAL);
        CHECK_INT(attn_rng_next(NULL), 0);
        CHECK_STATUS(attn_rng_normal(NULL, jac, 4), ATTN_EINVAL);
        CHECK_STATUS(attn_rng_normal(&r, NULL, 4), ATTN_EINVAL);
        CHECK_STATUS(attn_rng_normal(&r, jac, 0), ATTN_EINVAL);
        CHECK_OK(attn_softmax_jacobian(x, 4, jac));
        CHECK_STATUS(attn_softmax_jacobian(NULL, 4, jac), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax_jacobian(x, 4, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax_jacobian(x, 0, jac), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax_jacobian(x, BIG, jac), ATTN_EINVAL);   /* n·n */
    }
#line 463 "book/B-errors.nw"
    check_section("第 5 章：KV 缓存");
    {
        attn_kv_cache c;
        const size_t bad[][3] = {{0, 2, 2}, {2, 0, 2}, {2, 2, 0}, {BIG, BIG, 1}, {BIG, 1, BIG}};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            memset(&c, 0xAB, sizeof c);
            CHECK_STATUS(attn_kv_cache_init(&c, bad[i][0], bad[i][1], bad[i][2]), ATTN_EINVAL);
            CHECK(kv_cache_is_zero(&c));
        }
        CHECK_STATUS(attn_kv_cache_init(NULL, 2, 2, 2), ATTN_EINVAL);

        /* 能放 2 个位置，d_k = d_v = 2 */
        const float k[6] = {1, 2, 3, 4, 5, 6}, q[4] = {1, 0, 0, 1};
        float out[4];
        CHECK_OK(attn_kv_cache_init(&c, 2, 2, 2));
        CHECK_STATUS(attn_kv_cache_attend(&c, q, 1, 0.0f, out, NULL), ATTN_EINVAL);   /* 还是空的 */
        CHECK_STATUS(attn_kv_cache_append(NULL, k, k, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_append(&c, NULL, k, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_append(&c, k, NULL, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_append(&c, k, k, 0), ATTN_EINVAL);
        CHECK_OK(attn_kv_cache_append(&c, k, k, 1));
        CHECK_STATUS(attn_kv_cache_append(&c, k + 2, k + 2, 2), ATTN_EFULL);   /* 只剩 1 个空位 */
        CHECK_STATUS(attn_kv_cache_append(&c, k, c.k + 2, 1), ATTN_EINVAL);   /* v 是要写的键行 */
        CHECK_STATUS(attn_kv_cache_append(&c, c.v + 2, k, 1), ATTN_EINVAL);   /* k 是要写的值行 */
        CHECK_INT(c.len, 1);
        CHECK(c.k[0] == 1 && c.k[1] == 2 && c.v[0] == 1 && c.v[1] == 2);
        CHECK_OK(attn_kv_cache_attend(&c, q, 1, 0.0f, out, NULL));
        CHECK_STATUS(attn_kv_cache_attend(NULL, q, 1, 0.0f, out, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_attend(&c, NULL, 1, 0.0f, out, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_attend(&c, q, 0, 0.0f, out, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_attend(&c, q, 1, 0.0f, NULL, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_attend(&c, q, 1, -1.0f, out, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_attend(&c, q, 1, NAN, out, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_attend(&c, q, 1, INFINITY, out, NULL), ATTN_EINVAL);
        attn_kv_cache_free(&c);
        CHECK(kv_cache_is_zero(&c));
        CHECK_STATUS(attn_kv_cache_append(&c, k, k, 1), ATTN_EINVAL);     /* 释放过的缓存 */
        CHECK_STATUS(attn_kv_cache_attend(&c, q, 1, 0.0f, out, NULL), ATTN_EINVAL);
        attn_kv_cache_free(&c);                                            /* 第二次释放 */
        attn_kv_cache_free(NULL);
        CHECK(kv_cache_is_zero(&c));
    }
#line 511 "book/B-errors.nw"
    check_section("第 6、7 章：填充掩码、多头注意力");
    {
        unsigned char mask[4];
        CHECK_OK(attn_padding_mask(2, 2, 1, mask));
        CHECK_STATUS(attn_padding_mask(2, 2, 1, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_padding_mask(0, 2, 1, mask), ATTN_EINVAL);
        CHECK_STATUS(attn_padding_mask(2, 0, 1, mask), ATTN_EINVAL);
        CHECK_STATUS(attn_padding_mask(2, 2, 0, mask), ATTN_EINVAL);
        CHECK_STATUS(attn_padding_mask(2, 2, 3, mask), ATTN_EINVAL);      /* n_valid > n_k */
        CHECK_STATUS(attn_padding_mask(BIG, BIG, 1, mask), ATTN_EINVAL);

        /* d_model = 2，一个头，d_head = 2：四个 2×2 的单位矩阵，没有偏置 */
        const float eye[4] = {1, 0, 0, 1}, x[4] = {1, 2, 3, 4};
        const attn_mha_weights good = {2, 1, 2, eye, eye, eye, eye, NULL, NULL, NULL, NULL};
        float out[4];
        CHECK_OK(attn_mha(&good, x, 2, x, 2, NULL, 1, out));
        CHECK_OK(attn_mha_pattern(&good, x, 2, x, 2, NULL, 1, 0, out));
        attn_mha_weights bad[9];
        for (size_t i = 0; i < 9; i++)
            bad[i] = good;
        bad[0].w_q = NULL;
        bad[1].w_k = NULL;
        bad[2].w_v = NULL;
        bad[3].w_o = NULL;
        bad[4].d_model = 0;
        bad[5].n_heads = 0;
        bad[6].d_head = 0;
        bad[7].n_heads = BIG;          /* n_heads·d_head */
        bad[7].d_head = BIG;
        bad[8].d_model = BIG;          /* d_model·(n_heads·d_head) */
        bad[8].d_head = BIG;
        for (size_t i = 0; i < 9; i++) {
            CHECK_STATUS(attn_mha(&bad[i], x, 2, x, 2, NULL, 0, out), ATTN_EINVAL);
            CHECK_STATUS(attn_mha_pattern(&bad[i], x, 2, x, 2, NULL, 0, 0, out), ATTN_EINVAL);
        }
        CHECK_STATUS(attn_mha(NULL, x, 2, x, 2, NULL, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha(&good, NULL, 2, x, 2, NULL, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha(&good, x, 2, NULL, 2, NULL, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha(&good, x, 2, x, 2, NULL, 0, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_mha(&good, x, 0, x, 2, NULL, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha(&good, x, 2, x, 0, NULL, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha(&good, x, BIG, x, BIG, NULL, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha_pattern(NULL, x, 2, x, 2, NULL, 0, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha_pattern(&good, NULL, 2, x, 2, NULL, 0, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha_pattern(&good, x, 2, NULL, 2, NULL, 0, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha_pattern(&good, x, 2, x, 2, NULL, 0, 0, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_mha_pattern(&good, x, 0, x, 2, NULL, 0, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha_pattern(&good, x, 2, x, 0, NULL, 0, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha_pattern(&good, x, BIG, x, BIG, NULL, 0, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha_pattern(&good, x, 2, x, 2, NULL, 0, 1, out), ATTN_EINVAL); /* 头号越界 */
    }
#line 569 "book/B-errors.nw"
    check_section("第 8 章：参数计数和代价");
    {
        attn_gpt_config cfg;
        attn_param_breakdown out, before;
        uint64_t n = 0;
        CHECK_OK(attn_gpt_preset("gpt2-small", &cfg));
        CHECK_OK(attn_count_params(&cfg, &out));
        memset(&before, 0x5A, sizeof before);
        /* 七个维度逐个置 0，再把两个维度都放大到 2^40，让 d_model·d_ff 溢出 */
        for (int i = 0; i <= 7; i++) {
            attn_gpt_config c = cfg;
            uint64_t *dims[] = {&c.d_model, &c.n_heads, &c.d_head, &c.n_layers,
                                &c.d_ff, &c.vocab, &c.n_ctx};
            if (i < 7)
                *dims[i] = 0;
            else
                c.d_model = c.d_ff = (uint64_t)1 << 40;
            out = before;
            CHECK_STATUS(attn_count_params(&c, &out), ATTN_EINVAL);
            CHECK(memcmp(&out, &before, sizeof out) == 0);
        }
        out = before;
        CHECK_STATUS(attn_count_params(NULL, &out), ATTN_EINVAL);
        CHECK(memcmp(&out, &before, sizeof out) == 0);
        CHECK_STATUS(attn_count_params(&cfg, NULL), ATTN_EINVAL);

        CHECK_STATUS(attn_gpt_preset(NULL, &cfg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_preset("gpt2-small", NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_preset("gpt-5", &cfg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_preset("", &cfg), ATTN_EINVAL);

        CHECK_OK(attn_attention_flops(&cfg, 1024, &n));
        CHECK_STATUS(attn_attention_flops(NULL, 1024, &n), ATTN_EINVAL);
        CHECK_STATUS(attn_attention_flops(&cfg, 1024, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_attention_flops(&cfg, 0, &n), ATTN_EINVAL);
        CHECK_STATUS(attn_attention_flops(&cfg, (uint64_t)1 << 40, &n), ATTN_EINVAL);  /* n² */
        CHECK_OK(attn_kv_cache_bytes(&cfg, 1024, 2, &n));
        CHECK_STATUS(attn_kv_cache_bytes(NULL, 1024, 2, &n), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_bytes(&cfg, 1024, 2, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_bytes(&cfg, 0, 2, &n), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_bytes(&cfg, 1024, 0, &n), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_bytes(&cfg, (uint64_t)1 << 40, (uint64_t)1 << 40, &n),
                     ATTN_EINVAL);
        /* 这两个函数用到的三个维度 */
        for (int i = 0; i < 3; i++) {
            attn_gpt_config c = cfg;
            uint64_t *dims[] = {&c.n_heads, &c.d_head, &c.n_layers};
            *dims[i] = 0;
            CHECK_STATUS(attn_attention_flops(&c, 1024, &n), ATTN_EINVAL);
            CHECK_STATUS(attn_kv_cache_bytes(&c, 1024, 2, &n), ATTN_EINVAL);
        }
    }
#line 649 "book/B-errors.nw"
    check_section("attn_softmax：很大的分数");
    {
        float a[4] = {1e4f, -1e4f, 0.0f, 1e4f};
        CHECK_OK(attn_softmax(a, 4));
        CHECK(is_distribution(a, 4, 1e-6));
        CHECK_NEAR(a[0], 0.5, 1e-7);
        CHECK_NEAR(a[1], 0.0, 0.0);
        CHECK_NEAR(a[2], 0.0, 0.0);
        CHECK_NEAR(a[3], 0.5, 1e-7);
        float b[3] = {1e30f, -1e30f, 0.0f};
        CHECK_OK(attn_softmax(b, 3));
        CHECK(is_distribution(b, 3, 1e-6));
        CHECK_NEAR(b[0], 1.0, 0.0);
        float c[2] = {-1e30f, -1e30f};
        CHECK_OK(attn_softmax(c, 2));
        CHECK_NEAR(c[0], 0.5, 0.0);
        CHECK_NEAR(c[1], 0.5, 0.0);
    }
#line 673 "book/B-errors.nw"
    check_section("attn_softmax：负无穷");
    {
        float a[4] = {-INFINITY, 0.0f, -INFINITY, 0.0f};
        CHECK_OK(attn_softmax(a, 4));
        CHECK_NEAR(a[0], 0.0, 0.0);
        CHECK_NEAR(a[1], 0.5, 0.0);
        CHECK_NEAR(a[2], 0.0, 0.0);
        CHECK_NEAR(a[3], 0.5, 0.0);
        float b[3] = {-INFINITY, -INFINITY, -INFINITY};
        CHECK_OK(attn_softmax(b, 3));
        for (int i = 0; i < 3; i++)
            CHECK_NEAR(b[i], 0.0, 0.0);
    }
#line 695 "book/B-errors.nw"
    for (size_t f = 0; f < 3; f++) {
        check_section(sdpa_edge_names[f]);
        sdpa_fn *sdpa = sdpa_impls[f];
        /* 一个查询，三个键，d_k = d_v = 1，scale = 1：分数就是 q·k */
        const float one[1] = {1.0f}, v[3] = {10.0f, 20.0f, 30.0f};
        const float q_big[1] = {1e20f};
        const float k4[3] = {-1e4f, 1e4f, 0.0f}, k30[3] = {-1e30f, 1e30f, 0.0f};
        const float k40[3] = {-1e20f, 1e20f, 0.0f};           /* 与 q_big 相乘：±1e40 */
        const float *qs[3] = {one, one, q_big}, *ks[3] = {k4, k30, k40};
        for (int t = 0; t < 3; t++) {
            float out[1], w[3];
            CHECK_OK(sdpa(qs[t], ks[t], v, 1, 3, 1, 1, 1.0f, NULL, 0, out, w));
            CHECK(is_distribution(w, 3, 1e-6));
            CHECK_NEAR(w[1], 1.0, 1e-6);
            CHECK_NEAR(out[0], 20.0, 1e-4);
        }
#line 720 "book/B-errors.nw"
        {
            const float q[1] = {-3.0f}, k[1] = {1e30f}, v1[1] = {7.0f};
            float out[1], w[1];
            CHECK_OK(sdpa(q, k, v1, 1, 1, 1, 1, 1.0f, NULL, 0, out, w));
            CHECK_NEAR(w[0], 1.0, 0.0);
            CHECK_NEAR(out[0], 7.0, 1e-6);
        }
        {
            /* 两个查询、两个键、d = 1；掩码挡住第 0 行 */
            const float q[2] = {1.0f, 2.0f}, k[2] = {1.0f, -1.0f}, v2[2] = {4.0f, 8.0f};
            const unsigned char mask[4] = {0, 0, 1, 1};
            float out[2], w[4];
            CHECK_OK(sdpa(q, k, v2, 2, 2, 1, 1, 1.0f, mask, 0, out, w));
            CHECK_NEAR(out[0], 0.0, 0.0);
            CHECK_NEAR(w[0], 0.0, 0.0);
            CHECK_NEAR(w[1], 0.0, 0.0);
            CHECK(is_distribution(w + 2, 2, 1e-6));
            CHECK_NEAR(w[2], 1.0 / (1.0 + exp(-4.0)), 1e-6);     /* 分数 2 和 -2 */
        }
        {
            /* 三个查询、一个键，因果：只有最后一个查询能看见它 */
            const float q[3] = {1.0f, 2.0f, 3.0f}, k[1] = {1.0f}, v1[1] = {5.0f};
            float out[3], w[3];
            CHECK_OK(sdpa(q, k, v1, 3, 1, 1, 1, 0.0f, NULL, 1, out, w));
            CHECK_NEAR(out[0], 0.0, 0.0);
            CHECK_NEAR(out[1], 0.0, 0.0);
            CHECK_NEAR(out[2], 5.0, 1e-6);
            CHECK_NEAR(w[0], 0.0, 0.0);
            CHECK_NEAR(w[1], 0.0, 0.0);
            CHECK_NEAR(w[2], 1.0, 1e-6);
        }
#line 712 "book/B-errors.nw"
    }
#line 759 "book/B-errors.nw"
    check_section("NaN：softmax 整行变成 NaN");
    {
        float a[3] = {1.0f, NAN, 2.0f};
        CHECK_OK(attn_softmax(a, 3));
        for (int i = 0; i < 3; i++)
            CHECK(isnan(a[i]));
    }
    for (size_t f = 0; f < 3; f++) {
        check_section(sdpa_nan_names[f]);
        sdpa_fn *sdpa = sdpa_impls[f];
        /* 两个查询、三个键、d = 1 */
        const float q[2] = {1.0f, 0.5f}, k[3] = {1.0f, 2.0f, 3.0f}, v[3] = {10.0f, 20.0f, 30.0f};
        const float k_nan[3] = {1.0f, NAN, 3.0f}, v_nan[3] = {10.0f, NAN, 30.0f};
        float out[2], w[6];
        CHECK_OK(sdpa(q, k_nan, v, 2, 3, 1, 1, 1.0f, NULL, 0, out, w));
        for (int i = 0; i < 2; i++)
            CHECK(isnan(out[i]));
        for (int i = 0; i < 6; i++)
            CHECK(isnan(w[i]));
        CHECK_OK(sdpa(q, k, v_nan, 2, 3, 1, 1, 1.0f, NULL, 0, out, w));
        CHECK(isnan(out[0]) && isnan(out[1]));
        CHECK(is_distribution(w, 3, 1e-6) && is_distribution(w + 3, 3, 1e-6));
    }
#line 793 "book/B-errors.nw"
    check_section("NaN 与无穷：参考实现跳过被挡住的值");
    {
        /* 两个查询、三个键、d = 1；掩码挡住键 1，它的值是 +inf */
        const float q[2] = {1.0f, 0.5f}, k[3] = {1.0f, 2.0f, 3.0f};
        const float v_inf[3] = {10.0f, INFINITY, 30.0f};
        const unsigned char mask[6] = {1, 0, 1, 1, 0, 1};
        float out[2], w[6];
        CHECK_OK(attn_sdpa_reference(q, k, v_inf, 2, 3, 1, 1, 1.0f, mask, 0, out, w));
        CHECK(isfinite(out[0]) && isfinite(out[1]));
        /* 快速路径：被挡住的值里有 inf，也不能漏进输出 */
        CHECK_OK(attn_sdpa(q, k, v_inf, 2, 3, 1, 1, 1.0f, mask, 0, out, w));
        CHECK(isfinite(out[0]) && isfinite(out[1]));
        const float v_future[3] = {10.0f, 20.0f, INFINITY};   /* 因果：查询 0 看不见键 2 */
        CHECK_OK(attn_sdpa(q, k, v_future, 2, 3, 1, 1, 1.0f, NULL, 1, out, w));
        CHECK(isfinite(out[0]));
        /* softmax 遇到 +inf：权重全归 +inf 那一项，不出 NaN */
        float a[3] = {INFINITY, 0.0f, 1.0f};
        CHECK_OK(attn_softmax(a, 3));
        CHECK_NEAR(a[0], 1.0, 0.0);
        CHECK_NEAR(a[1], 0.0, 0.0);
        CHECK_NEAR(a[2], 0.0, 0.0);
        /* NaN 不能被当成“全被挡住”：输出 NaN，而不是 0 */
        float b[3] = {NAN, -INFINITY, -INFINITY};
        CHECK_OK(attn_softmax(b, 3));
        CHECK(isnan(b[0]));
        const float q_nan[2] = {NAN, 0.5f};
        CHECK_OK(attn_sdpa_reference(q_nan, k, k, 2, 3, 1, 1, 1.0f, NULL, 0, out, w));
        CHECK(isnan(out[0]));
    }
#line 837 "book/B-errors.nw"
    for (size_t f = 0; f < 3; f++) {
        check_section(sdpa_finite_names[f]);
        sdpa_fn *sdpa = sdpa_impls[f];
        {
            /* 一个查询、两个键，d = 1：分数 1e20 和 2e20，键 1 拿走全部权重 */
            const float q[1] = {1e20f}, k[2] = {1e-20f, 2e-20f}, v[2] = {1.0f, 2.0f};
            float out[1], w[2];
            CHECK_OK(sdpa(q, k, v, 1, 2, 1, 1, 1e20f, NULL, 0, out, w));
            CHECK_NEAR(out[0], 2.0, 1e-6);
            CHECK_NEAR(w[1], 1.0, 1e-6);
        }
        {
            /* 三个分数相同的键，值都是 3e38：平均就是 3e38 */
            const float q[1] = {0.0f}, k[3] = {1.0f, 2.0f, 3.0f}, v[3] = {3e38f, 3e38f, 3e38f};
            float out[1];
            CHECK_OK(sdpa(q, k, v, 1, 3, 1, 1, 1.0f, NULL, 0, out, NULL));
            CHECK_REL(out[0], 3e38, 1e-6);
            /* 值都是 FLT_MAX：三个 1/3 舍入后的和比 1 大一点，float 里的和会溢出 */
            const float vm[3] = {FLT_MAX, FLT_MAX, FLT_MAX};
            CHECK_OK(sdpa(q, k, vm, 1, 3, 1, 1, 1.0f, NULL, 0, out, NULL));
            CHECK_REL(out[0], FLT_MAX, 1e-6);
            CHECK(isfinite(out[0]));
        }
        {
            /* 65 个键：前 64 个分数 0、值 3e38，第 65 个分数 200、值 1 */
            float k[65], v[65], out[1];
            const float q[1] = {1.0f};
            for (int j = 0; j < 64; j++) {
                k[j] = 0.0f;
                v[j] = 3e38f;
            }
            k[64] = 200.0f;
            v[64] = 1.0f;
            CHECK_OK(sdpa(q, k, v, 1, 65, 1, 1, 1.0f, NULL, 0, out, NULL));
            CHECK_NEAR(out[0], 1.0, 1e-6);
        }
    }
#line 884 "book/B-errors.nw"
    for (size_t f = 0; f < 3; f++) {
        check_section(sdpa_order_names[f]);
        sdpa_fn *sdpa = sdpa_impls[f];
        /* 一个查询、三个键，d = 1，scale = 1：分数 1e40、2e40、-1e40 */
        const float q[1] = {1e20f}, k[3] = {1e20f, 2e20f, -1e20f}, v[3] = {10.0f, 20.0f, 30.0f};
        float out[1], w[3];
        CHECK_OK(sdpa(q, k, v, 1, 3, 1, 1, 1.0f, NULL, 0, out, w));
        CHECK_NEAR(w[1], 1.0, 0.0);
        CHECK_NEAR(out[0], 20.0, 1e-5);
        /* 都是负的：-1e40 比 -2e40 大 */
        const float k_neg[2] = {-2e20f, -1e20f};
        CHECK_OK(sdpa(q, k_neg, v, 1, 2, 1, 1, 1.0f, NULL, 0, out, w));
        CHECK_NEAR(w[1], 1.0, 0.0);
        /* 最大的量级：q、k 都是 FLT_MAX，d_k = 4，scale = FLT_MAX，分数约 1e115 */
        float qm[4], km[8];
        for (int t = 0; t < 4; t++) {
            qm[t] = FLT_MAX;
            km[t] = FLT_MAX / 2;
            km[4 + t] = FLT_MAX;
        }
        CHECK_OK(sdpa(qm, km, v, 1, 2, 4, 1, FLT_MAX, NULL, 0, out, w));
        CHECK_NEAR(w[1], 1.0, 0.0);
        CHECK_NEAR(out[0], 20.0, 1e-5);
    }
#line 922 "book/B-errors.nw"
    for (size_t f = 0; f < 3; f++) {
        check_section(sdpa_overlap_names[f]);
        sdpa_fn *sdpa = sdpa_impls[f];
        /* 200 个查询和键（多于快速路径的一个查询块），d_k = d_v = 4 */
        enum { N = 200, D = 4 };
        static float buf[4 * N * D + N * N], out[N * D];
        static unsigned char mask[N * N];
        float *q = buf, *k = buf + N * D, *v = buf + 2 * N * D, *w = buf + 3 * N * D;
        for (size_t i = 0; i < 3 * N * D; i++)
            buf[i] = (float)((i * 37) % 17) / 8.0f - 1.0f;
        memset(mask, 1, sizeof mask);
        CHECK_OK(sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 0, out, NULL));
        CHECK_STATUS(sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 0, q, NULL), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 0, k, NULL), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 0, v, NULL), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 0, q + N * D - 1, NULL), ATTN_EINVAL); /* 一个数 */
        CHECK_STATUS(sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 0, out, q), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 0, w, w), ATTN_EINVAL);
        CHECK_STATUS(sdpa(q, k, v, N, N, D, D, 0.0f, mask, 0, (float *)(void *)mask, NULL), ATTN_EINVAL);
        /* 紧挨着、不重叠：照常计算 */
        CHECK_OK(sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 0, w, w + N * D));
    }
    check_section("attn_sdpa_ex、KV 缓存、多头注意力：输出与输入重叠");
    {
        enum { N = 8, D = 2 };
        float buf[2 * 2 * N * D], out[2 * N * D];
        for (size_t i = 0; i < sizeof buf / sizeof buf[0]; i++)
            buf[i] = (float)i / 16.0f;
        const attn_sdpa_options two_heads = {.heads = 2, .threads = 1};
        /* 两个头：q 是 2×N×D，out 落在第二个头的 q 上 */
        CHECK_OK(attn_sdpa_ex(buf, buf, buf, N, N, D, D, 0.0f, NULL, 0, out, NULL, &two_heads));
        CHECK_STATUS(attn_sdpa_ex(buf, buf, buf, N, N, D, D, 0.0f, NULL, 0, buf + N * D, NULL, &two_heads),
                     ATTN_EINVAL);
        attn_kv_cache c;
        CHECK_OK(attn_kv_cache_init(&c, N, D, D));
        CHECK_OK(attn_kv_cache_append(&c, buf, buf, N));
        CHECK_OK(attn_kv_cache_attend(&c, buf, N, 0.0f, out, NULL));
        CHECK_STATUS(attn_kv_cache_attend(&c, buf, N, 0.0f, buf, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_kv_cache_attend(&c, buf, N, 0.0f, c.k, NULL), ATTN_EINVAL);
        attn_kv_cache_free(&c);
        CHECK_OK(attn_kv_cache_init(&c, 2 * N, D, D));
        CHECK_OK(attn_kv_cache_append(&c, buf, buf, N));
        CHECK_STATUS(attn_kv_cache_append(&c, c.k, c.v, N), ATTN_OK);           /* 读前 N 个，写后 N 个 */
        attn_kv_cache_free(&c);
        CHECK_OK(attn_kv_cache_init(&c, 2 * N, D, D));
        CHECK_OK(attn_kv_cache_append(&c, buf, buf, 2));
        CHECK_STATUS(attn_kv_cache_append(&c, c.k + D, c.v + D, 2), ATTN_EINVAL); /* 读的和写的重叠 */
        attn_kv_cache_free(&c);
        /* 多头：d_model = 2，两个头各宽 1。out 与 x_q、x_kv 重叠是允许的，结果不变；与 w_o 重叠不行 */
        float wm[4] = {1, 0.5f, -0.5f, 1}, same[N * D];
        attn_mha_weights mw = {2, 2, 1, wm, wm, wm, wm, NULL, NULL, NULL, NULL};
        CHECK_OK(attn_mha(&mw, buf, N, buf, N, NULL, 1, out));
        memcpy(same, buf, sizeof same);
        CHECK_OK(attn_mha(&mw, same, N, same, N, NULL, 1, same));
        CHECK_ARRAY_NEAR(same, out, N * D, 0.0);
        CHECK_STATUS(attn_mha(&mw, buf, 1, buf, N, NULL, 0, wm), ATTN_EINVAL);
    }
#line 988 "book/B-errors.nw"
    check_section("其余函数：输出与输入重叠");
    {
        float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 0, 0, 1, 1, 1}, c[9], keep[6];
        memcpy(keep, a, sizeof a);
        CHECK_STATUS(attn_matmul(a, b, a, 2, 2, 2), ATTN_EINVAL);            /* c 就是 a */
        CHECK_STATUS(attn_matmul(a, b, b + 2, 2, 2, 2), ATTN_EINVAL);        /* c 盖住 b 的后半 */
        CHECK_ARRAY_NEAR(a, keep, 6, 0.0);                                     /* 什么也没写 */
        CHECK_STATUS(attn_linear(a, b, c, c, 2, 2, 2), ATTN_EINVAL);          /* y 盖住 bias */
        CHECK_STATUS(attn_dot_all(a, b, 2, 2, 2, b), ATTN_EINVAL);
        CHECK_STATUS(attn_weighted_sum(b, a, 2, 3, a + 3), ATTN_EINVAL);
        CHECK_STATUS(attn_weighted_sum(a, b, 2, 2, a + 1), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax_jacobian(a, 2, a + 1), ATTN_EINVAL);
        CHECK_OK(attn_softmax_jacobian(a, 2, a + 2));                          /* 紧挨着 */
        memcpy(a, keep, sizeof a);
        /* 允许的重叠：结果和分开的缓冲区一样 */
        float d;
        CHECK_OK(attn_dot(a, b, 3, &d));
        CHECK_OK(attn_dot(a, b, 3, a));
        CHECK_NEAR(a[0], d, 0.0);
        memcpy(a, keep, sizeof a);
        /* attn_ffn：n = 1，d_in = d_hidden = d_out = 2；y 写在 x 上 */
        const float w1[4] = {1, -1, 2, 1}, w2[4] = {1, 0, 3, 1};
        float y[2];
        CHECK_OK(attn_ffn(a, 1, 2, w1, NULL, 2, w2, NULL, 2, y));
        CHECK_OK(attn_ffn(a, 1, 2, w1, NULL, 2, w2, NULL, 2, a));
        CHECK_ARRAY_NEAR(a, y, 2, 0.0);
        float w2c[4] = {1, 0, 3, 1};
        CHECK_STATUS(attn_ffn(keep, 1, 2, w1, NULL, 2, w2c, NULL, 2, w2c + 2), ATTN_EINVAL);
    }
#line 1025 "book/B-errors.nw"
    check_section("字节数溢出：n·sizeof(float) 装不进 size_t");
    {
        const size_t huge = SIZE_MAX / sizeof(float) + 1;    /* 2^62 */
        float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4}, out[4];
        attn_rng r;
        CHECK_OK(attn_rng_seed(&r, 1));
        CHECK_STATUS(attn_dot(a, b, huge, out), ATTN_EINVAL);
        CHECK_STATUS(attn_cosine(a, b, huge, out), ATTN_EINVAL);
        CHECK_STATUS(attn_sqdist(a, b, huge, out), ATTN_EINVAL);
        CHECK_STATUS(attn_dot_all(a, b, 1, 1, huge, out), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax(a, huge), ATTN_EINVAL);
        CHECK_STATUS(attn_relu(a, huge), ATTN_EINVAL);
        CHECK_STATUS(attn_weighted_sum(a, b, 1, huge, out), ATTN_EINVAL);
        CHECK_STATUS(attn_weighted_sum(a, b, huge, 1, out), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax_jacobian(a, (size_t)1 << 31, out), ATTN_EINVAL);   /* n·n·4 = 2^64 */
        CHECK_STATUS(attn_rng_normal(&r, a, huge), ATTN_EINVAL);
    }
#line 1071 "book/B-errors.nw"
    check_section("attn_flash_scores：闭式");
    {
        int same = 1;
        for (size_t n_q = 1; n_q < 900; n_q += 7)
            for (size_t n_k = 1; n_k < 900; n_k += 13)
                for (int causal = 0; causal < 2; causal++)
                    same &= attn_flash_scores(n_q, n_k, causal) == flash_scores_by_blocks(n_q, n_k, causal);
        CHECK(same);
        CHECK_INT(attn_flash_scores((size_t)1 << 60, 4, 0), (size_t)1 << 62);
        CHECK_INT(attn_flash_scores((size_t)1 << 60, 4, 1), 256);
        CHECK_INT(attn_flash_scores(4, (size_t)1 << 60, 1), (size_t)1 << 62);
    }
#line 1091 "book/B-errors.nw"
    check_section("attn_sdpa_ex：太多的线程");
    {
        const float q[4] = {1, 0, 0, 1};
        float out[4];
        CHECK_OK(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, NULL, &(attn_sdpa_options){1, 3}));
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, NULL, &(attn_sdpa_options){1, 1025}),
                     ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, NULL, &(attn_sdpa_options){1, INT_MAX}),
                     ATTN_EINVAL);
        CHECK_INT(attn_flash_bytes(64, 64, INT_MAX), 0);
    }
#line 1111 "book/B-errors.nw"
    check_section("KV 缓存：查询比缓存里的位置多");
    {
        attn_kv_cache c;
        const float k[4] = {1, 2, 3, 4}, q[6] = {1, 0, 0, 1, 1, 1};
        float out[6];
        CHECK_OK(attn_kv_cache_init(&c, 4, 2, 2));
        CHECK_OK(attn_kv_cache_append(&c, k, k, 2));
        CHECK_OK(attn_kv_cache_attend(&c, q, 2, 0.0f, out, NULL));
        CHECK_STATUS(attn_kv_cache_attend(&c, q, 3, 0.0f, out, NULL), ATTN_EINVAL);
        attn_kv_cache_free(&c);
    }
#line 1169 "book/B-errors.nw"
    check_section("三方对照：快速路径、参考实现、双精度的定义");
    {
        enum { MAXN = 260, MAXD = 40 };
        static float q[MAXN * MAXD], k[MAXN * MAXD], v[MAXN * MAXD];
        static float out[3][MAXN * MAXD], w[3][MAXN * MAXN];
        static double rout[MAXN * MAXD], rw[MAXN * MAXN];
        static unsigned char mask[MAXN * MAXN];
        attn_rng r;
        CHECK_OK(attn_rng_seed(&r, 2024));
        double worst_out = 0.0, worst_w = 0.0;
        int statuses = 1, masked_rows = 0;
        for (int trial = 0; trial < 200; trial++) {
            size_t n_q = 1 + rand_below(&r, MAXN), n_k = 1 + rand_below(&r, MAXN);
            size_t d_k = 1 + rand_below(&r, MAXD), d_v = 1 + rand_below(&r, MAXD);
            if (trial % 10 == 0)
                d_k = d_v = 1;
            int causal = (int)rand_below(&r, 2), use_mask = (int)rand_below(&r, 2);
            CHECK_OK(attn_rng_normal(&r, q, n_q * d_k));
            CHECK_OK(attn_rng_normal(&r, k, n_k * d_k));
            CHECK_OK(attn_rng_normal(&r, v, n_k * d_v));
            for (size_t i = 0; i < n_q; i++) {
                int hide_row = rand_below(&r, 8) == 0;   /* 大约八分之一的行整行被挡住 */
                masked_rows += use_mask && hide_row;
                for (size_t j = 0; j < n_k; j++)
                    mask[i * n_k + j] = !hide_row && rand_below(&r, 4) != 0;
            }
            const unsigned char *m = use_mask ? mask : NULL;
            float scale = trial % 3 == 0 ? 0.0f : 0.5f;
            statuses &= attn_sdpa(q, k, v, n_q, n_k, d_k, d_v, scale, m, causal, out[0], w[0]) == ATTN_OK;
            statuses &= attn_sdpa_reference(q, k, v, n_q, n_k, d_k, d_v, scale, m, causal, out[1], w[1]) == ATTN_OK;
            statuses &= sdpa_fast_2(q, k, v, n_q, n_k, d_k, d_v, scale, m, causal, out[2], w[2]) == ATTN_OK;
            double s = scale == 0.0f ? (double)(1.0f / sqrtf((float)d_k)) : scale;
            sdpa_double(q, k, v, n_q, n_k, d_k, d_v, s, m, causal, rout, rw);
            for (int f = 0; f < 3; f++) {
                for (size_t i = 0; i < n_q * d_v; i++)
                    worst_out = fmax(worst_out, isnan(out[f][i]) ? INFINITY : fabs(out[f][i] - rout[i]));
                for (size_t i = 0; i < n_q * n_k; i++)
                    worst_w = fmax(worst_w, isnan(w[f][i]) ? INFINITY : fabs(w[f][i] - rw[i]));
            }
        }
        CHECK(statuses);
        CHECK(masked_rows > 100);
        CHECK_NEAR(worst_out, 0.0, 1e-5);
        CHECK_NEAR(worst_w, 0.0, 1e-5);
    }
#line 1226 "book/B-errors.nw"
    check_section("第 10 章：正弦位置编码与 RoPE 的错误输入");
    {
        float buf[8], mark[8];
        for (size_t i = 0; i < 8; i++)
            mark[i] = buf[i] = (float)i + 0.5f;
        /* attn_positions_sinusoidal */
        CHECK_OK(attn_positions_sinusoidal(buf, 2, 4));
        memcpy(buf, mark, sizeof buf);
        CHECK_STATUS(attn_positions_sinusoidal(NULL, 2, 4), ATTN_EINVAL);
        CHECK_STATUS(attn_positions_sinusoidal(buf, 0, 4), ATTN_EINVAL);
        CHECK_STATUS(attn_positions_sinusoidal(buf, 2, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_positions_sinusoidal(buf, 2, 3), ATTN_EINVAL);   /* 奇数 d */
        CHECK_STATUS(attn_positions_sinusoidal(buf, 1, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_positions_sinusoidal(buf, BIG, BIG), ATTN_EINVAL);
        CHECK_STATUS(attn_positions_sinusoidal(buf, (size_t)1 << 62, 2), ATTN_EINVAL);   /* 字节数溢出 */
        CHECK_ARRAY_NEAR(buf, mark, 8, 0);
        /* attn_positions_sinusoidal_from：同样的规则，另加最后一行的位置 */
        CHECK_STATUS(attn_positions_sinusoidal_from(NULL, 2, 4, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_positions_sinusoidal_from(buf, 0, 4, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_positions_sinusoidal_from(buf, 2, 3, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_positions_sinusoidal_from(buf, BIG, BIG, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_positions_sinusoidal_from(buf, 2, 4, SIZE_MAX), ATTN_EINVAL);      /* 位置绕回 0 */
        CHECK_STATUS(attn_positions_sinusoidal_from(buf, 3, 2, SIZE_MAX - 1), ATTN_EINVAL);
        CHECK_ARRAY_NEAR(buf, mark, 8, 0);
        CHECK_OK(attn_positions_sinusoidal_from(buf, 1, 4, SIZE_MAX));                       /* 最后一个位置可以 */
        for (size_t i = 0; i < 4; i++)
            CHECK(isfinite(buf[i]));
        memcpy(buf, mark, sizeof buf);
        /* attn_rope：尺寸和指针 */
        CHECK_STATUS(attn_rope(NULL, 2, 4, 0, 0.0f), ATTN_EINVAL);
        CHECK_STATUS(attn_rope(buf, 0, 4, 0, 0.0f), ATTN_EINVAL);
        CHECK_STATUS(attn_rope(buf, 2, 0, 0, 0.0f), ATTN_EINVAL);
        CHECK_STATUS(attn_rope(buf, 2, 3, 0, 0.0f), ATTN_EINVAL);
        CHECK_STATUS(attn_rope(buf, 1, 7, 0, 0.0f), ATTN_EINVAL);
        CHECK_STATUS(attn_rope(buf, BIG, BIG, 0, 0.0f), ATTN_EINVAL);
        CHECK_STATUS(attn_rope(buf, (size_t)1 << 62, 2, 0, 0.0f), ATTN_EINVAL);
        /* base：负数、NaN、无穷大 */
        const float bad_base[] = {-1.0f, -FLT_MIN, NAN, INFINITY, -INFINITY};
        for (size_t i = 0; i < sizeof bad_base / sizeof bad_base[0]; i++)
            CHECK_STATUS(attn_rope(buf, 2, 4, 0, bad_base[i]), ATTN_EINVAL);
        /* 最后一行的位置超出 size_t */
        CHECK_STATUS(attn_rope(buf, 2, 4, SIZE_MAX, 0.0f), ATTN_EINVAL);
        CHECK_STATUS(attn_rope(buf, 3, 2, SIZE_MAX - 1, 0.0f), ATTN_EINVAL);
        CHECK_ARRAY_NEAR(buf, mark, 8, 0);
        /* 某一对转完会溢出：整块拒绝，前面的对也不改 */
        float big_pair[4] = {1.0f, 2.0f, FLT_MAX, FLT_MAX};
        CHECK_STATUS(attn_rope(big_pair, 1, 4, 3, 0.0f), ATTN_EINVAL);
        CHECK_NEAR(big_pair[0], 1.0, 0);
        CHECK_NEAR(big_pair[1], 2.0, 0);
        float inf_pair[4] = {1.0f, 2.0f, INFINITY, 0.0f};
        CHECK_STATUS(attn_rope(inf_pair, 1, 4, 3, 0.0f), ATTN_EINVAL);
        CHECK_NEAR(inf_pair[0], 1.0, 0);
    }
#line 1286 "book/B-errors.nw"
    check_section("第 10 章：RoPE 的边界值和 NaN");
    {
        float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4};
        CHECK_OK(attn_rope(a, 1, 4, 7, 0.0f));
        CHECK_OK(attn_rope(b, 1, 4, 7, 10000.0f));
        CHECK_ARRAY_NEAR(a, b, 4, 0);
        float tiny[4] = {1, 2, 3, 4};
        CHECK_OK(attn_rope(tiny, 1, 4, 7, FLT_TRUE_MIN));
        for (size_t i = 0; i < 4; i++)
            CHECK(isfinite(tiny[i]));
        float last[2] = {1, 0};
        CHECK_OK(attn_rope(last, 1, 2, SIZE_MAX, 0.0f));
        CHECK(isfinite(last[0]) && isfinite(last[1]));
        CHECK_NEAR((double)last[0] * last[0] + (double)last[1] * last[1], 1.0, 1e-6);
        float edge[4] = {FLT_MAX, 0.0f, -FLT_MAX, 0.0f};
        CHECK_OK(attn_rope(edge, 1, 4, 12345, 0.0f));
        for (size_t i = 0; i < 4; i++)
            CHECK(isfinite(edge[i]));
        float with_nan[4] = {NAN, 1.0f, 1.0f, 0.0f};
        CHECK_OK(attn_rope(with_nan, 1, 4, 1, 0.0f));
        CHECK(isnan(with_nan[0]) && isnan(with_nan[1]));
        CHECK(isfinite(with_nan[2]) && isfinite(with_nan[3]));
        float pe[4 * 2];
        CHECK_OK(attn_positions_sinusoidal(pe, 4, 2));
        for (size_t i = 0; i < 8; i++)
            CHECK(isfinite(pe[i]));
    }
#line 1341 "book/B-errors.nw"
    check_section("第 11 章：attn_layernorm");
    {
        float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8], g[4] = {1, 1, 1, 1}, b[4] = {0};
        CHECK_OK(attn_layernorm(x, g, b, y, 2, 4, 1e-5f));
        CHECK_OK(attn_layernorm(x, NULL, NULL, y, 2, 4, 1e-5f));   /* gamma、beta 可以为 NULL */
        CHECK_STATUS(attn_layernorm(NULL, g, b, y, 2, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, g, b, NULL, 2, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, g, b, y, 0, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, g, b, y, 2, 0, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, g, b, y, BIG, BIG, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, g, b, y, SIZE_MAX / 2, 4, 1e-5f), ATTN_EINVAL);   /* 字节数 */
        const float bad_eps[] = {0.0f, -0.0f, -1e-5f, NAN, INFINITY, -INFINITY};
        for (size_t i = 0; i < sizeof bad_eps / sizeof bad_eps[0]; i++)
            CHECK_STATUS(attn_layernorm(x, g, b, y, 2, 4, bad_eps[i]), ATTN_EINVAL);
        CHECK_OK(attn_layernorm(x, g, b, y, 2, 4, 1e-30f));        /* 很小的正数可以 */
        /* 重叠：y 就是 x 可以；部分重叠、与 gamma 或 beta 重叠不行 */
        float buf[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        CHECK_OK(attn_layernorm(buf, NULL, NULL, buf, 2, 4, 1e-5f));
        CHECK_STATUS(attn_layernorm(buf, NULL, NULL, buf + 4, 2, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(buf + 4, NULL, NULL, buf, 2, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, buf, NULL, buf, 2, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, NULL, buf + 7, buf, 2, 4, 1e-5f), ATTN_EINVAL);
        /* 无穷大：拒绝，而且一个数也不写 */
        float inf_x[8] = {1, 2, 3, 4, 5, -INFINITY, 7, 8}, inf_g[4] = {1, INFINITY, 1, 1};
        for (int i = 0; i < 8; i++)
            y[i] = 42.0f;
        CHECK_STATUS(attn_layernorm(inf_x, NULL, NULL, y, 2, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, inf_g, NULL, y, 2, 4, 1e-5f), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm(x, NULL, inf_g, y, 2, 4, 1e-5f), ATTN_EINVAL);
        for (int i = 0; i < 8; i++)
            CHECK_NEAR(y[i], 42.0, 0.0);
        /* NaN 只污染它那一行 */
        float nan_x[8] = {1, NAN, 3, 4, 5, 6, 7, 8};
        CHECK_OK(attn_layernorm(nan_x, NULL, NULL, y, 2, 4, 1e-5f));
        for (int i = 0; i < 4; i++)
            CHECK(isnan(y[i]) && isfinite(y[4 + i]));
        /* 单精度里最大的数：平方在 double 里累加，不溢出 */
        float huge[4] = {3e38f, -3e38f, 3e38f, -3e38f}, want[4] = {1, -1, 1, -1};
        CHECK_OK(attn_layernorm(huge, NULL, NULL, y, 1, 4, 1e-5f));
        CHECK_ARRAY_NEAR(y, want, 4, 1e-6);
    }
    check_section("第 11 章：attn_gelu、attn_ffn_gelu");
    {
        float e[4] = {-INFINITY, INFINITY, NAN, -3.4e38f};
        CHECK_OK(attn_gelu(e, 4));
        CHECK(e[0] == 0.0f && isinf(e[1]) && e[1] > 0 && isnan(e[2]) && e[3] == 0.0f);
        CHECK_STATUS(attn_gelu(NULL, 4), ATTN_EINVAL);
        CHECK_STATUS(attn_gelu(e, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_gelu(e, SIZE_MAX), ATTN_EINVAL);                  /* 字节数溢出 */
        float a[16] = {0}, b[16] = {0}, c[16];
        CHECK_OK(attn_ffn_gelu(a, 2, 2, b, NULL, 2, b, NULL, 2, c));
        CHECK_STATUS(attn_ffn_gelu(NULL, 2, 2, b, b, 2, b, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(a, 2, 2, NULL, b, 2, b, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(a, 2, 2, b, b, 2, NULL, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(a, 2, 2, b, b, 2, b, b, 2, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(a, 0, 2, b, b, 2, b, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(a, 2, 0, b, b, 2, b, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(a, 2, 2, b, b, 0, b, b, 2, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(a, 2, 2, b, b, 2, b, b, 0, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(a, BIG, 1, b, b, BIG, b, b, 1, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(a, 1, BIG, b, b, BIG, b, b, 1, c), ATTN_EINVAL);
        CHECK_STATUS(attn_ffn_gelu(a, 1, 1, b, b, 4, b, b, SIZE_MAX / 2, c), ATTN_EINVAL);
    }
    check_section("第 11 章：模型的配置、bind、init、free");
    {
        attn_gpt_config ok = chB_gpt_config(), c;
        attn_gpt m;
        static float params[26496];
        CHECK_OK(attn_gpt_bind(&m, &ok, params, 26496));
        attn_gpt_free(&m);
        CHECK_STATUS(attn_gpt_bind(NULL, &ok, params, 26496), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_bind(&m, NULL, params, 26496), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_bind(&m, &ok, NULL, 26496), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_bind(&m, &ok, params, 26497), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_bind(&m, &ok, params, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_init(NULL, &ok, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_init(&m, NULL, 1), ATTN_EINVAL);
        /* 每个维度各为 0 一次，每个开关各关掉一次 */
        for (int f = 0; f < 11; f++) {
            c = ok;
            switch (f) {
            case 0: c.d_model = 0; break;
            case 1: c.n_heads = 0; break;
            case 2: c.d_head = 0; break;
            case 3: c.n_layers = 0; break;
            case 4: c.d_ff = 0; break;
            case 5: c.vocab = 0; break;
            case 6: c.n_ctx = 0; break;
            case 7: c.biases = 0; break;
            case 8: c.layer_norms = 0; break;
            case 9: c.learned_positions = 0; break;
            default: c.tied = 0; break;
            }
            CHECK_STATUS(attn_gpt_init(&m, &c, 1), ATTN_EINVAL);
            CHECK(m.params == NULL && m.layers == NULL && m.n_params == 0);
            attn_gpt_free(&m);                                   /* 清零之后释放无害 */
        }
        c = ok;
        c.d_head = 16;                                           /* 4·16 ≠ 32 */
        CHECK_STATUS(attn_gpt_init(&m, &c, 1), ATTN_EINVAL);
        c = ok;
        c.vocab = (uint64_t)INT_MAX + 1;                         /* 词号装不进 int */
        CHECK_STATUS(attn_gpt_init(&m, &c, 1), ATTN_EINVAL);
        c = ok;
        c.n_ctx = (uint64_t)1 << 58;                             /* 参数个数装得下，字节数装不下 */
        CHECK_STATUS(attn_gpt_init(&m, &c, 1), ATTN_EINVAL);
        c = ok;
        c.d_ff = UINT64_MAX / 4;                                 /* 参数个数超出 64 位 */
        CHECK_STATUS(attn_gpt_init(&m, &c, 1), ATTN_EINVAL);
        attn_gpt_free(NULL);
    }
    check_section("第 11 章：前向计算的四个函数");
    {
        attn_gpt_config c = chB_gpt_config();
        attn_gpt m;
        int t[17] = {0};
        float x[17 * 32], lg[17 * 16];
        CHECK_OK(attn_gpt_init(&m, &c, 1));
        CHECK_OK(attn_gpt_forward(&m, t, 16, lg));
        CHECK_STATUS(attn_gpt_forward(NULL, t, 1, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_forward(&m, NULL, 1, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_forward(&m, t, 1, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_forward(&m, t, 0, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_forward(&m, t, 17, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_forward(&m, t, SIZE_MAX, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_forward(&m, t, 2, m.lnf_b), ATTN_EINVAL);     /* 写进参数 */
        const int bad_tok[] = {-1, 16, INT_MIN, INT_MAX};
        for (size_t i = 0; i < sizeof bad_tok / sizeof bad_tok[0]; i++) {
            t[5] = bad_tok[i];
            CHECK_STATUS(attn_gpt_forward(&m, t, 6, lg), ATTN_EINVAL);
            CHECK_STATUS(attn_gpt_embed(&m, t, 6, 0, x), ATTN_EINVAL);
        }
        t[5] = 0;
        CHECK_OK(attn_gpt_embed(&m, t, 16, 0, x));
        CHECK_STATUS(attn_gpt_embed(NULL, t, 1, 0, x), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_embed(&m, NULL, 1, 0, x), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_embed(&m, t, 1, 0, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_embed(&m, t, 0, 0, x), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_embed(&m, t, 1, 16, x), ATTN_EINVAL);         /* 位置 16 不存在 */
        CHECK_STATUS(attn_gpt_embed(&m, t, 2, SIZE_MAX, x), ATTN_EINVAL);   /* pos0 + n 绕回 */
        CHECK_STATUS(attn_gpt_embed(&m, t, SIZE_MAX, 1, x), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_embed(&m, t, 1, 0, m.wte), ATTN_EINVAL);
        CHECK_OK(attn_gpt_block(&m, 1, x, 16));
        CHECK_STATUS(attn_gpt_block(NULL, 0, x, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_block(&m, 0, NULL, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_block(&m, 0, x, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_block(&m, 0, x, 17), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_block(&m, 2, x, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_block(&m, SIZE_MAX, x, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_block(&m, 0, m.layers[1].w_up, 1), ATTN_EINVAL);
        x[3] = INFINITY;                                         /* 层规范化拒绝无穷大 */
        CHECK_STATUS(attn_gpt_block(&m, 0, x, 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_logits(&m, x, 1, lg), ATTN_EINVAL);
        x[3] = 0.0f;
        CHECK_OK(attn_gpt_logits(&m, x, 16, lg));
        CHECK_STATUS(attn_gpt_logits(NULL, x, 1, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_logits(&m, NULL, 1, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_logits(&m, x, 1, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_logits(&m, x, 0, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_logits(&m, x, 17, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_logits(&m, x, 1, m.wpe + 100), ATTN_EINVAL);
        /* 被改坏的模型：参数个数对不上，或者没有参数 */
        attn_gpt broken = m;
        broken.n_params -= 1;
        CHECK_STATUS(attn_gpt_forward(&broken, t, 1, lg), ATTN_EINVAL);
        broken = m;
        broken.params = NULL;
        CHECK_STATUS(attn_gpt_block(&broken, 0, x, 1), ATTN_EINVAL);
        attn_gpt zeroed;
        memset(&zeroed, 0, sizeof zeroed);
        CHECK_STATUS(attn_gpt_forward(&zeroed, t, 1, lg), ATTN_EINVAL);
        attn_gpt_free(&m);
    }
    check_section("第 11 章：逐词解码器");
    {
        attn_gpt_config c = chB_gpt_config();
        attn_gpt m, zeroed;
        attn_gpt_decoder dec;
        float lg[16];
        memset(&zeroed, 0, sizeof zeroed);
        CHECK_OK(attn_gpt_init(&m, &c, 1));
        CHECK_STATUS(attn_gpt_decoder_init(NULL, &m), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_decoder_init(&dec, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_decoder_init(&dec, &zeroed), ATTN_EINVAL);
        CHECK(dec.caches == NULL && dec.work == NULL);
        CHECK_STATUS(attn_gpt_step(&dec, 0, lg), ATTN_EINVAL);            /* 清零的解码器 */
        attn_gpt_decoder_free(&dec);
        CHECK_OK(attn_gpt_decoder_init(&dec, &m));
        CHECK_STATUS(attn_gpt_step(NULL, 0, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_step(&dec, 0, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_step(&dec, -1, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_step(&dec, 16, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_step(&dec, INT_MAX, lg), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_step(&dec, 0, m.lnf_g), ATTN_EINVAL);       /* 写进参数 */
        CHECK_INT(dec.len, 0);
        for (int i = 0; i < 16; i++)
            CHECK_OK(attn_gpt_step(&dec, i, lg));
        CHECK_STATUS(attn_gpt_step(&dec, 0, lg), ATTN_EFULL);
        CHECK_INT(dec.len, 16);
        dec.broken = 1;                                                   /* 假装一步在中途失败过 */
        CHECK_STATUS(attn_gpt_step(&dec, 0, lg), ATTN_EINVAL);
        attn_gpt_decoder_free(&dec);
        attn_gpt_decoder_free(&dec);
        attn_gpt_decoder_free(NULL);
        attn_gpt_free(&m);
    }
#line 1557 "book/B-errors.nw"
    check_section("第 12 章：反向传播函数的错误输入");
    {
        float x[6] = {1, 2, 3, 4, 5, 6}, w[6] = {1, 0, 0, 1, 1, 1}, dy[6] = {1, 1, 1, 1, 1, 1};
        float dx[6], dw[6], db[3], big[64];
        /* 线性层：x[2×3]·w[3×2] */
        CHECK_STATUS(attn_linear_backward(x, w, NULL, 2, 3, 2, dx, dw, db), ATTN_EINVAL);
        CHECK_STATUS(attn_linear_backward(x, w, dy, 2, 3, 2, NULL, NULL, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_linear_backward(x, NULL, dy, 2, 3, 2, dx, NULL, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_linear_backward(NULL, w, dy, 2, 3, 2, NULL, dw, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_linear_backward(x, w, dy, 0, 3, 2, dx, dw, db), ATTN_EINVAL);
        CHECK_STATUS(attn_linear_backward(x, w, dy, SIZE_MAX, 3, 2, dx, dw, db), ATTN_EINVAL);
        CHECK_STATUS(attn_linear_backward(x, w, dy, 2, 3, 2, x, NULL, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_linear_backward(x, w, dy, 2, 3, 2, dx, dy, NULL), ATTN_EINVAL);
        CHECK_OK(attn_linear_backward(NULL, NULL, dy, 2, 3, 2, NULL, NULL, db));
        /* softmax */
        float p[3] = {0.2f, 0.3f, 0.5f}, dp[3] = {1, 2, 3}, ds[3];
        CHECK_STATUS(attn_softmax_backward(NULL, dp, ds, 3), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax_backward(p, dp, ds, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax_backward(p, dp, p, 3), ATTN_EINVAL);
        CHECK_STATUS(attn_softmax_backward(p, dp, dp + 1, 2), ATTN_EINVAL);
        /* 注意力：q[1×2]，k、v[2×2] */
        float q[2] = {1, 0}, k[4] = {1, 0, 0, 1}, v[4] = {1, 2, 3, 4}, dout[2] = {1, 1};
        float dq[2], dk[4], dv[4];
        CHECK_STATUS(attn_sdpa_backward(q, k, v, 1, 2, 2, 2, 0, NULL, 0, dout, NULL, NULL, NULL),
                     ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_backward(q, k, v, 1, 2, 2, 2, 0, NULL, 0, NULL, dq, dk, dv), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_backward(q, NULL, v, 1, 2, 2, 2, 0, NULL, 0, dout, dq, dk, dv),
                     ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_backward(q, k, v, 0, 2, 2, 2, 0, NULL, 0, dout, dq, dk, dv), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_backward(q, k, v, 1, 2, 2, 2, -1, NULL, 0, dout, dq, dk, dv), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_backward(q, k, v, 1, 2, 2, 2, NAN, NULL, 0, dout, dq, dk, dv), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_backward(q, k, v, 1, 2, 2, 2, INFINITY, NULL, 0, dout, dq, dk, dv),
                     ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_backward(q, k, v, 1, SIZE_MAX, 2, 2, 0, NULL, 0, dout, dq, dk, dv),
                     ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_backward(q, k, v, 1, 2, 2, 2, 0, NULL, 0, dout, dq, k, dv), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_backward(q, k, v, 1, 2, 2, 2, 0, NULL, 0, dout, big, big + 1, NULL),
                     ATTN_EINVAL);
        CHECK_OK(attn_sdpa_backward(q, k, v, 1, 2, 2, 2, 0, NULL, 1, dout, dq, NULL, NULL));
        /* 层规范化 */
        float g[3];
        CHECK_STATUS(attn_layernorm_backward(x, NULL, dy, 2, 3, 0.0f, dx, NULL, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm_backward(x, NULL, dy, 2, 3, NAN, dx, NULL, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm_backward(x, NULL, dy, 2, 3, INFINITY, dx, NULL, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm_backward(x, NULL, dy, 2, 3, 1e-5f, NULL, NULL, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm_backward(x, NULL, dy, 2, 0, 1e-5f, dx, NULL, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm_backward(x, NULL, dy, 2, 3, 1e-5f, x, NULL, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_layernorm_backward(x, NULL, dy, 2, 3, 1e-5f, NULL, dy, NULL), ATTN_EINVAL);
        CHECK_OK(attn_layernorm_backward(x, NULL, dy, 2, 3, 1e-5f, dy, NULL, NULL));
        memset(g, 0, sizeof g);
        CHECK_OK(attn_layernorm_backward(x, NULL, dw, 2, 3, 1e-5f, NULL, g, NULL));
        /* GELU */
        CHECK_STATUS(attn_gelu_backward(NULL, dy, dx, 3), ATTN_EINVAL);
        CHECK_STATUS(attn_gelu_backward(x, dy, dx, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_gelu_backward(x, dy, x, 3), ATTN_EINVAL);
        CHECK_STATUS(attn_gelu_backward(x, dy, dx, SIZE_MAX), ATTN_EINVAL);
        /* 交叉熵 */
        float lg[4] = {0, 1, 2, 3}, loss = 42, dl[4];
        int t[2] = {0, 1}, bad[2] = {0, 2}, neg[2] = {-1, 0};
        CHECK_STATUS(attn_cross_entropy(lg, t, 2, 2, NULL, dl), ATTN_EINVAL);
        CHECK_STATUS(attn_cross_entropy(lg, bad, 2, 2, &loss, dl), ATTN_EINVAL);
        CHECK_STATUS(attn_cross_entropy(lg, neg, 2, 2, &loss, dl), ATTN_EINVAL);
        CHECK_STATUS(attn_cross_entropy(lg, t, 0, 2, &loss, dl), ATTN_EINVAL);
        CHECK_STATUS(attn_cross_entropy(lg, t, 2, SIZE_MAX, &loss, dl), ATTN_EINVAL);
        CHECK_STATUS(attn_cross_entropy(lg, t, 2, 2, &loss, lg + 1), ATTN_EINVAL);   /* 就地可以，错开一个不行 */
        CHECK(loss == 42);
        lg[1] = INFINITY;
        CHECK_STATUS(attn_cross_entropy(lg, t, 2, 2, &loss, dl), ATTN_EINVAL);
        lg[1] = NAN;
        CHECK_STATUS(attn_cross_entropy(lg, t, 2, 2, &loss, dl), ATTN_EINVAL);
        CHECK(loss == 42);
    }
#line 1637 "book/B-errors.nw"
    check_section("第 12 章：整个模型的梯度与 AdamW 的错误输入");
    {
        attn_gpt_config c = chB_gpt_config();
        attn_gpt m, g, other, zeroed;
        float loss = 42;
        int tok[2] = {0, 1}, bad[2] = {0, 16}, neg[2] = {-1, 0};
        memset(&zeroed, 0, sizeof zeroed);
        CHECK_OK(attn_gpt_init(&m, &c, 1));
        CHECK_OK(attn_gpt_init(&g, &c, 2));
        c.d_ff += 1;
        CHECK_OK(attn_gpt_init(&other, &c, 3));
        CHECK_STATUS(attn_gpt_loss_grad(NULL, tok, tok, 2, &loss, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad(&zeroed, tok, tok, 2, &loss, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad(&m, NULL, tok, 2, &loss, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad(&m, tok, NULL, 2, &loss, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad(&m, tok, tok, 2, NULL, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad(&m, tok, tok, 0, &loss, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad(&m, tok, tok, SIZE_MAX, &loss, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad(&m, bad, tok, 2, &loss, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad(&m, tok, neg, 2, &loss, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad(&m, tok, tok, 2, &loss, &other), ATTN_EINVAL);  /* 形状不同 */
        CHECK_STATUS(attn_gpt_loss_grad(&m, tok, tok, 2, &loss, &m), ATTN_EINVAL);      /* 梯度写进参数 */
        CHECK_STATUS(attn_gpt_loss_grad(&m, tok, tok, 2, &loss, &zeroed), ATTN_EINVAL);
        CHECK(loss == 42);
        CHECK_OK(attn_gpt_loss_grad(&m, tok, tok, 2, &loss, &g));
        CHECK(isfinite(loss));
        float p[2] = {1, 1}, gr[2] = {1, 1}, mm[2] = {0}, vv[2] = {0};
        CHECK_STATUS(attn_adamw_step(NULL, gr, mm, vv, 2, 1, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_adamw_step(p, gr, mm, vv, 0, 1, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_adamw_step(p, gr, mm, vv, 2, 0, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_adamw_step(p, gr, mm, vv, 2, 1, NAN, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_adamw_step(p, gr, mm, vv, 2, 1, 0.1f, 1.0f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_adamw_step(p, gr, mm, vv, 2, 1, 0.1f, 0.9f, 1.0f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_adamw_step(p, gr, mm, vv, 2, 1, 0.1f, 0.9f, 0.999f, 0, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_adamw_step(p, gr, mm, vv, 2, 1, 0.1f, 0.9f, 0.999f, 1e-8f, -1), ATTN_EINVAL);
        CHECK_STATUS(attn_adamw_step(p, gr, p, vv, 2, 1, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_adamw_step(p, p, mm, vv, 2, 1, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK(p[0] == 1 && p[1] == 1);
        /* 一批：工作区太小、没有对齐、和参数重叠；形状不合法时工作区的字节数是 0 */
        static float workf[1 << 16], m1[1 << 16], m2[1 << 16];   /* 这个小模型用不了这么多 */
        char *work = (char *)workf;
        size_t wb = attn_gpt_train_bytes(&m.cfg, 2, 2);
        CHECK(wb > 0 && wb + sizeof(float) <= sizeof workf && m.n_params <= 1 << 16);
        CHECK_INT(attn_gpt_train_bytes(&m.cfg, 0, 2), 0);
        CHECK_INT(attn_gpt_train_bytes(&m.cfg, 1, m.cfg.n_ctx + 1), 0);
        CHECK_INT(attn_gpt_train_bytes(&m.cfg, SIZE_MAX, 2), 0);
        CHECK_INT(attn_gpt_train_bytes(NULL, 1, 1), 0);
        int tok4[4] = {0, 1, 1, 0};
        CHECK_OK(attn_gpt_loss_grad_batch(&m, tok4, tok4, 2, 2, &loss, &g, work, wb));
        CHECK_STATUS(attn_gpt_loss_grad_batch(&m, tok4, tok4, 2, 2, &loss, &g, work, wb - 1), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad_batch(&m, tok4, tok4, 2, 2, &loss, &g, work + 1, wb), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad_batch(&m, tok4, tok4, 2, 2, &loss, &g, m.params, wb), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_loss_grad_batch(&m, tok4, tok4, 0, 2, &loss, &g, NULL, 0), ATTN_EINVAL);
        /* 整个小 GPT 的 AdamW：形状不同、梯度就是参数、矩和参数重叠、坏的超参数（一块也不动） */
        float before = m.wte[0];
        CHECK_STATUS(attn_gpt_adamw_step(&m, &other, m1, m2, 1, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_adamw_step(&m, &m, m1, m2, 1, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_adamw_step(&m, &g, m.params, m2, 1, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_adamw_step(&m, &g, m1, NULL, 1, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_adamw_step(&m, &g, m1, m2, 0, 0.1f, 0.9f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK_STATUS(attn_gpt_adamw_step(&m, &g, m1, m2, 1, 0.1f, 1.5f, 0.999f, 1e-8f, 0), ATTN_EINVAL);
        CHECK(m.wte[0] == before);
        CHECK_OK(attn_gpt_adamw_step(&m, &g, m1, m2, 1, 0.1f, 0.9f, 0.999f, 1e-8f, 0.01f));
        attn_gpt_free(&other);
        attn_gpt_free(&g);
        attn_gpt_free(&m);
    }
#line 184 "book/B-errors.nw"
    return check_summary("chB");
}
