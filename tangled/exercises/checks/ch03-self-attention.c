#line 2083 "book/03-attention.nw"
/* ch03-self-attention：从词向量到自注意力的输出（第 3 章练习 6） */
#include "ex.h"

#include <stdio.h>

int ch03_self_attention(const float *x, const float *w_q, const float *w_k, const float *w_v,
                        size_t n, size_t d_model, size_t d_k, size_t d_v, float *out);

int ex_check_ch03_self_attention(void)
{
    enum { MAX = 256 };
    static const struct { size_t n, d_model, d_k, d_v; const char *what; } cases[] = {
        {8, 5, 3, 5, "毛茸茸的蓝色生物（s = 3，c = 2，W_V = I）"},
        {1, 4, 2, 3, "随机，一个词"}, {6, 8, 4, 2, "随机"}, {10, 6, 6, 7, "随机"},
    };
    /* 正文的例子：八个词、5 维；W_Q、W_K 由 s = 3、c = 2 造出 */
    static const float fluffy[8 * 5] = {
        0, 0, 1, 0, 0,  0, 1, 1, 0, 0,  0, 1, 1, 0, 0,  1, 0, 1, 0, 0,
        0, 0, 0, 0, 1,  0, 0, 0, 1, 0,  0, 1, 0, 1, 0,  1, 0, 0, 1, 0};
    static const float fl_wq[5 * 3] = {3, 0, 0,  0, 0, 0,  0, 2, 0,  0, 0, 2,  0, 0, 0};
    static const float fl_wk[5 * 3] = {0, 0, 0,  3, 0, 0,  0, 2, 0,  0, 0, 2,  0, 0, 0};
    const float tol = 1e-5f;
    float x[MAX], wq[MAX], wk[MAX], wv[MAX], q[MAX], k[MAX], v[MAX], got[MAX], want[MAX];
    int result = EX_PASS;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = cases[c].n, dm = cases[c].d_model, dk = cases[c].d_k, dv = cases[c].d_v;
        if (c == 0) {
            for (size_t i = 0; i < 40; i++)
                x[i] = fluffy[i];
            for (size_t i = 0; i < 15; i++) {
                wq[i] = fl_wq[i];
                wk[i] = fl_wk[i];
            }
            for (size_t i = 0; i < 25; i++)
                wv[i] = i % 6 == 0;             /* 5×5 的单位矩阵 */
        } else {
            ex_fill_normal(x, n * dm, 60 + c);
            ex_fill_normal(wq, dm * dk, 70 + c);
            ex_fill_normal(wk, dm * dk, 80 + c);
            ex_fill_normal(wv, dm * dv, 90 + c);
        }
        for (size_t i = 0; i < n * dv; i++)
            got[i] = NAN;
        int st = ch03_self_attention(x, wq, wk, wv, n, dm, dk, dv, got);
        if (st == EX_TODO)
            return EX_TODO;
        attn_linear(x, wq, NULL, q, n, dm, dk);
        attn_linear(x, wk, NULL, k, n, dm, dk);
        attn_linear(x, wv, NULL, v, n, dm, dv);
        attn_sdpa(q, k, v, n, n, dk, dv, 0.0f, NULL, 0, want, NULL);
        float diff = st == ATTN_OK ? ex_max_diff(got, want, n * dv) : INFINITY;
        int ok = st == ATTN_OK && diff <= tol;
        printf("%s：n = %zu，d_model = %zu，d_k = %zu，d_v = %zu：返回 %d，最大差 %.2g（容差 %.0e）%s\n",
               cases[c].what, n, dm, dk, dv, st, diff, tol, ok ? "" : "  ← 不对");
        if (c == 0 && ok)
            printf("    creature 的输出 (%.3f, %.3f, %.3f, %.3f, %.3f)\n",
                   got[15], got[16], got[17], got[18], got[19]);
        if (!ok)
            result = EX_FAIL;
    }
    return result;
}
