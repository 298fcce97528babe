#line 1118 "book/04-scaling.nw"
/* ch04-softmax-backward：梯度穿过 softmax，不造雅可比矩阵（第 4 章练习 6） */
#include "ex.h"

#include <stdio.h>
#include <stdlib.h>

int ch04_softmax_backward(const float *p, const float *g, size_t n, float *ds);

int ex_check_ch04_softmax_backward(void)
{
    static const size_t sizes[] = {1, 2, 5, 64};
    enum { BIG = 20000 };
    const float tol = 1e-6f;
    static float p[BIG], g[BIG], got[BIG], jac[64 * 64], want[64];
    int result = EX_PASS;
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        size_t n = sizes[c];
        ex_fill_normal(p, n, 110 + c);
        ex_fill_normal(g, n, 120 + c);
        for (size_t i = 0; i < n; i++)
            p[i] *= 4.0f;
        attn_softmax(p, n);
        for (size_t i = 0; i < n; i++)
            got[i] = NAN;
        int st = ch04_softmax_backward(p, g, n, got);
        if (st == EX_TODO)
            return EX_TODO;
        attn_softmax_jacobian(p, n, jac);
        for (size_t i = 0; i < n; i++) {         /* want = J·g */
            double acc = 0.0;
            for (size_t j = 0; j < n; j++)
                acc += (double)jac[i * n + j] * g[j];
            want[i] = (float)acc;
        }
        float diff = st == ATTN_OK ? ex_max_diff(got, want, n) : INFINITY;
        int ok = st == ATTN_OK && diff <= tol;
        printf("n = %2zu：与 attn_softmax_jacobian 乘 g 比较，返回 %d，最大差 %.2g（容差 %.0e）%s\n",
               n, st, diff, tol, ok ? "" : "  ← 不对");
        if (!ok)
            result = EX_FAIL;
    }
    ex_fill_normal(p, BIG, 130);
    ex_fill_normal(g, BIG, 140);
    attn_softmax(p, BIG);
    int st = ch04_softmax_backward(p, g, BIG, got);
    if (st == EX_TODO)
        return EX_TODO;
    double sum = 0.0;
    int finite = st == ATTN_OK;
    for (size_t i = 0; st == ATTN_OK && i < BIG; i++) {
        sum += got[i];
        finite = finite && isfinite(got[i]);
    }
    int ok = st == ATTN_OK && finite && fabs(sum) < 1e-6;
    printf("n = %d：不造 1.6 GB 的 J，返回 %d，Σ ds = %.2g（应当是 0）%s\n", BIG, st, sum,
           ok ? "" : "  ← 不对");
    if (!ok)
        result = EX_FAIL;
    return result;
}
