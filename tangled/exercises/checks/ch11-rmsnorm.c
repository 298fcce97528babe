#line 2743 "book/11-block.nw"
/* ch11-rmsnorm：RMSNorm（第 11 章练习 7） */
#include "ex.h"

#include <stdio.h>

int ch11_rmsnorm(const float *x, const float *gain, float *y, size_t n, size_t d, float eps);

int ex_check_ch11_rmsnorm(void)
{
    enum { N = 5, D = 16 };
    const float tol = 1e-5f, eps = 1e-5f;
    float x[N * D], g[D], got[N * D], want[N * D];
    int result = EX_PASS;
    ex_fill_normal(x, N * D, 1100);
    ex_fill_normal(g, D, 1101);
    /* 一：每行减去均值，再和层规范化比较 */
    for (size_t i = 0; i < N; i++) {
        double m = 0.0;
        for (size_t j = 0; j < D; j++)
            m += x[i * D + j];
        for (size_t j = 0; j < D; j++)
            x[i * D + j] -= (float)(m / D);
    }
    for (size_t i = 0; i < N * D; i++)
        got[i] = NAN;
    int st = ch11_rmsnorm(x, g, got, N, D, eps);
    if (st == EX_TODO)
        return EX_TODO;
    attn_layernorm(x, g, NULL, want, N, D, eps);
    float diff = st == ATTN_OK ? ex_max_diff(got, want, N * D) : INFINITY;
    int ok = st == ATTN_OK && diff <= tol;
    printf("均值为 0 的 %d 行：返回 %d，与 attn_layernorm 最大差 %.2g（容差 %.0e）%s\n",
           N, st, diff, tol, ok ? "" : "  ← 不对");
    result = ok ? result : EX_FAIL;
    /* 二：一般的行（均值不为 0），和 double 的公式比较 */
    ex_fill_normal(x, N * D, 1102);
    for (size_t i = 0; i < N * D; i++)
        x[i] += 1.5f;
    for (size_t i = 0; i < N * D; i++)
        got[i] = NAN;
    st = ch11_rmsnorm(x, g, got, N, D, eps);
    for (size_t i = 0; i < N; i++) {
        double ss = 0.0;
        for (size_t j = 0; j < D; j++)
            ss += (double)x[i * D + j] * x[i * D + j];
        for (size_t j = 0; j < D; j++)
            want[i * D + j] = (float)(x[i * D + j] / sqrt(ss / D + eps) * g[j]);
    }
    diff = st == ATTN_OK ? ex_max_diff(got, want, N * D) : INFINITY;
    ok = st == ATTN_OK && diff <= tol;
    printf("均值不为 0 的 %d 行：返回 %d，与 double 的公式最大差 %.2g（容差 %.0e）%s\n",
           N, st, diff, tol, ok ? "" : "  ← 不对");
    result = ok ? result : EX_FAIL;
    /* 三：错误的参数 */
    st = ch11_rmsnorm(x, g, got, N, D, 0.0f);
    printf("eps = 0：返回 %d，应当是 ATTN_EINVAL (%d)%s\n", st, ATTN_EINVAL,
           st == ATTN_EINVAL ? "" : "  ← 不对");
    if (st != ATTN_EINVAL)
        result = EX_FAIL;
    return result;
}
