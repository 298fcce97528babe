#line 21 "book/B-errors.nw"
#include "attn.h"
#include "check.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* 2 的 40 次方：两个相乘就超出 64 位的 size_t */
#define BIG ((size_t)1 << 40)
_Static_assert(SIZE_MAX / BIG < BIG, "附录 B 的测试假定 size_t 是 64 位");

#line 166 "book/B-errors.nw"
/* attn_sdpa 和 attn_sdpa_reference 的签名；attn_sdpa_fast 借一个两线程的包装 */
typedef int sdpa_fn(const float *q, const float *k, const float *v,
                    size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                    float scale, const unsigned char *mask, int causal,
                    float *out, float *weights);

static int sdpa_fast_2(const float *q, const float *k, const float *v,
                       size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                       float scale, const unsigned char *mask, int causal,
                       float *out, float *weights)
{
    return attn_sdpa_fast(q, k, v, n_q, n_k, d_k, d_v, scale, mask, causal, out, weights, 2);
}

static sdpa_fn *const sdpa_impls[] = {attn_sdpa, attn_sdpa_reference, sdpa_fast_2};
static const char *const sdpa_names[] = {
    "attn_sdpa 的错误输入", "attn_sdpa_reference 的错误输入", "attn_sdpa_fast 的错误输入"};
static const char *const sdpa_edge_names[] = {
    "attn_sdpa：边上的数", "attn_sdpa_reference：边上的数", "attn_sdpa_fast：边上的数"};
static const char *const sdpa_nan_names[] = {
    "attn_sdpa：输入里的 NaN", "attn_sdpa_reference：输入里的 NaN", "attn_sdpa_fast：输入里的 NaN"};
#line 297 "book/B-errors.nw"
/* *c 的每个字段都是 0 */
static int kv_cache_is_zero(const attn_kv_cache *c)
{
    return c->capacity == 0 && c->len == 0 && c->d_k == 0 && c->d_v == 0 &&
           c->k == NULL && c->v == NULL;
}
#line 476 "book/B-errors.nw"
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

#line 35 "book/B-errors.nw"
int main(void)
{
    
#line 53 "book/B-errors.nw"
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
#line 69 "book/B-errors.nw"
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
#line 121 "book/B-errors.nw"
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
#line 190 "book/B-errors.nw"
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
#line 229 "book/B-errors.nw"
check_section("第 9 章：threads、heads 和两个返回 size_t 的函数");
{
    const float q[8] = {1, 0, 0, 1, 1, 0, 0, 1};
    float out[8], w[8];
    CHECK_OK(attn_sdpa_fast(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, 0));
    CHECK_STATUS(attn_sdpa_fast(q, q, q, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, -1), ATTN_EINVAL);
    /* attn_sdpa_heads：两个头，每个头 q、k、v、out 都是 2×2 */
    CHECK_OK(attn_sdpa_heads(q, q, q, 2, 2, 2, 2, 2, 0.0f, NULL, 1, out, w, 2));
    CHECK_STATUS(attn_sdpa_heads(NULL, q, q, 2, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, NULL, q, 2, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, q, NULL, 2, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, q, q, 2, 2, 2, 2, 2, 0.0f, NULL, 0, NULL, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, q, q, 0, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, q, q, 2, 0, 2, 2, 2, 0.0f, NULL, 0, out, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, q, q, 2, 2, 0, 2, 2, 0.0f, NULL, 0, out, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, q, q, 2, 2, 2, 0, 2, 0.0f, NULL, 0, out, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, q, q, 2, 2, 2, 2, 0, 0.0f, NULL, 0, out, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, q, q, BIG, 1, 1, BIG, 1, 0.0f, NULL, 0, out, w, 1),
                 ATTN_EINVAL);                                   /* heads·n_q·d_k */
    CHECK_STATUS(attn_sdpa_heads(q, q, q, BIG, 1, BIG, 1, 1, 0.0f, NULL, 0, out, w, 1),
                 ATTN_EINVAL);                                   /* heads·n_k·d_k */
    CHECK_STATUS(attn_sdpa_heads(q, q, q, 2, 2, 2, 2, 2, -1.0f, NULL, 0, out, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, q, q, 2, 2, 2, 2, 2, NAN, NULL, 0, out, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, q, q, 2, 2, 2, 2, 2, INFINITY, NULL, 0, out, w, 1), ATTN_EINVAL);
    CHECK_STATUS(attn_sdpa_heads(q, q, q, 2, 2, 2, 2, 2, 0.0f, NULL, 0, out, w, -1), ATTN_EINVAL);
    /* 返回 size_t 的两个函数 */
    CHECK(attn_sdpa_fast_bytes(64, 64, 1) > 0);
    CHECK_INT(attn_sdpa_fast_bytes(0, 64, 1), 0);
    CHECK_INT(attn_sdpa_fast_bytes(64, 0, 1), 0);
    CHECK_INT(attn_sdpa_fast_bytes(64, 64, -1), 0);
    CHECK_INT(attn_sdpa_fast_bytes(SIZE_MAX, 64, 1), 0);
    CHECK_INT(attn_sdpa_fast_bytes(64, SIZE_MAX / 2, 1), 0);
    CHECK_INT(attn_sdpa_fast_bytes(1, SIZE_MAX, 1), 0);   /* 补到 16 的倍数时不能绕回 0 */
    CHECK_INT(attn_sdpa_fast_scores(4, 4, 0), 16);
    CHECK_INT(attn_sdpa_fast_scores(BIG, BIG, 0), 0);
    CHECK_INT(attn_sdpa_fast_scores(BIG, BIG, 1), 0);
    CHECK_INT(attn_sdpa_fast_scores(0, 4, 0), 0);          /* 没有查询，就没有分数 */
    CHECK_INT(attn_sdpa_fast_scores(4, 0, 1), 0);
}
#line 273 "book/B-errors.nw"
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
#line 306 "book/B-errors.nw"
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
#line 352 "book/B-errors.nw"
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
#line 410 "book/B-errors.nw"
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
#line 490 "book/B-errors.nw"
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
#line 514 "book/B-errors.nw"
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
#line 535 "book/B-errors.nw"
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
    
#line 560 "book/B-errors.nw"
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
#line 552 "book/B-errors.nw"
}
#line 599 "book/B-errors.nw"
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
#line 633 "book/B-errors.nw"
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
#line 38 "book/B-errors.nw"
    return check_summary("chB");
}
