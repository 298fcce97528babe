#line 3886 "book/12-learning.nw"
/* ch12-gelu-backward：GELU 的反向传播（第 12 章练习 6） */
#include "ex.h"

#include <stdio.h>

int ch12_gelu_backward(const float *x, const float *dy, float *dx, size_t n);

int ex_check_ch12_gelu_backward(void)
{
    enum { N = 1000, M = 10 };
    const float tol = 1e-5f;
    static float x[N], dy[N], got[N], want[N];
    int result = EX_PASS;
    /* 一：随机的 x（标准差 2）和 dy */
    ex_fill_normal(x, N, 1200);
    ex_fill_normal(dy, N, 1201);
    for (size_t i = 0; i < N; i++) {
        x[i] *= 2.0f;
        got[i] = NAN;
    }
    int st = ch12_gelu_backward(x, dy, got, N);
    if (st == EX_TODO)
        return EX_TODO;
    attn_gelu_backward(x, dy, want, N);
    float diff = st == ATTN_OK ? ex_max_diff(got, want, N) : INFINITY;
    int ok = st == ATTN_OK && diff <= tol;
    printf("随机的 %d 个 x：返回 %d，与 attn_gelu_backward 最大差 %.2g（容差 %.0e）%s\n",
           N, st, diff, tol, ok ? "" : "  ← 不对");
    result = ok ? result : EX_FAIL;
    /* 二：大的 |x|，dy = 1 */
    const float big[M] = {-1000, -100, -30, -10, -5, 5, 10, 30, 100, 1000};
    float one[M];
    for (size_t i = 0; i < M; i++) {
        one[i] = 1.0f;
        got[i] = NAN;
    }
    st = ch12_gelu_backward(big, one, got, M);
    attn_gelu_backward(big, one, want, M);
    diff = st == ATTN_OK ? ex_max_diff(got, want, M) : INFINITY;
    ok = st == ATTN_OK && diff <= tol;
    printf("x = ±5 … ±1000：返回 %d，与 attn_gelu_backward 最大差 %.2g（容差 %.0e）%s\n",
           st, diff, tol, ok ? "" : "  ← 不对");
    result = ok ? result : EX_FAIL;
    /* 三：错误的参数 */
    st = ch12_gelu_backward(x, dy, got, 0);
    printf("n = 0：返回 %d，应当是 ATTN_EINVAL (%d)%s\n", st, ATTN_EINVAL,
           st == ATTN_EINVAL ? "" : "  ← 不对");
    if (st != ATTN_EINVAL)
        result = EX_FAIL;
    return result;
}
