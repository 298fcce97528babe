#line 1292 "book/01-mlp.nw"
/* ch01-torch-linear：按 PyTorch 的排法存放权重的全连接层（第 1 章练习 6） */
#include "ex.h"

#include <stdio.h>

int ch01_torch_linear(const float *x, const float *weight, const float *bias, float *y,
                      size_t n, size_t d_in, size_t d_out);

int ex_check_ch01_torch_linear(void)
{
    enum { MAX = 64 };
    static const struct { size_t n, d_in, d_out; int bias; } cases[] = {
        {1, 3, 2, 0}, {4, 5, 3, 1}, {2, 7, 4, 0}, {3, 8, 8, 1},
    };
    const float tol = 1e-5f;
    float x[MAX], weight[MAX], w[MAX], bias[MAX], got[MAX], want[MAX];
    int result = EX_PASS;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = cases[c].n, d_in = cases[c].d_in, d_out = cases[c].d_out;
        if (c == 0) {                           /* 练习 5：weight = (1 2 3; 4 5 6)，x = (1, 1, 1) */
            for (size_t i = 0; i < 6; i++)
                weight[i] = (float)(i + 1);
            x[0] = x[1] = x[2] = 1.0f;
        } else {
            ex_fill_normal(x, n * d_in, 10 + c);
            ex_fill_normal(weight, d_out * d_in, 20 + c);
            ex_fill_normal(bias, d_out, 30 + c);
        }
        for (size_t o = 0; o < d_out; o++)      /* 本书的 W[d_in][d_out] = weightᵀ */
            for (size_t t = 0; t < d_in; t++)
                w[t * d_out + o] = weight[o * d_in + t];
        const float *b = cases[c].bias ? bias : NULL;
        for (size_t i = 0; i < n * d_out; i++)
            got[i] = NAN;
        int st = ch01_torch_linear(x, weight, b, got, n, d_in, d_out);
        if (st == EX_TODO)
            return EX_TODO;
        attn_linear(x, w, b, want, n, d_in, d_out);
        float diff = st == ATTN_OK ? ex_max_diff(got, want, n * d_out) : INFINITY;
        int ok = st == ATTN_OK && diff <= tol;
        printf("n = %zu，d_in = %zu，d_out = %zu，%s：返回 %d，最大差 %.2g（容差 %.0e）%s\n",
               n, d_in, d_out, cases[c].bias ? "有偏置" : "没有偏置", st, diff, tol,
               ok ? "" : "  ← 不对");
        if (c == 0 && ok)
            printf("    y = (%g, %g)，应当是 (6, 15)\n", got[0], got[1]);
        if (!ok)
            result = EX_FAIL;
    }
    return result;
}
