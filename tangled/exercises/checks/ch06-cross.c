#line 959 "book/06-cross.nw"
/* ch06-cross：带填充的交叉注意力（第 6 章练习 6） */
#include "ex.h"

#include <stdio.h>

int ch06_cross_attention(const float *x_tgt, size_t n_q, const float *x_src, size_t n_k,
                         size_t n_valid, const float *w_q, const float *w_k, const float *w_v,
                         size_t d_model, size_t d_k, size_t d_v, float *out);

int ex_check_ch06_cross(void)
{
    enum { N = 9, D = 8 };
    static const struct { size_t n_q, n_k, n_valid, d_model, d_k, d_v; const char *what; } cases[] = {
        {4, 5, 5, 6, 4, 5, "玩具翻译的形状，没有 pad"},
        {3, 7, 4, 8, 4, 6, "源句后 3 个位置是 pad"},
        {6, 2, 2, 5, 3, 3, "查询比键多"},
        {2, 9, 1, 4, 2, 7, "只有一个真的词：输出等于它的值"},
    };
    const float tol = 1e-5f;
    float xt[N * D], xs[N * D], wq[D * D], wk[D * D], wv[D * D];
    float q[N * D], k[N * D], v[N * D], got[N * D], want[N * D], before[N * D];
    unsigned char mask[N * N];
    int result = EX_PASS;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t nq = cases[c].n_q, nk = cases[c].n_k, nv = cases[c].n_valid;
        size_t dm = cases[c].d_model, dk = cases[c].d_k, dv = cases[c].d_v;
        ex_fill_normal(xt, nq * dm, 100 + c);
        ex_fill_normal(xs, nk * dm, 200 + c);
        ex_fill_normal(wq, dm * dk, 300 + c);
        ex_fill_normal(wk, dm * dk, 400 + c);
        ex_fill_normal(wv, dm * dv, 500 + c);
        for (size_t i = 0; i < nq * dv; i++)
            got[i] = NAN;
        int st = ch06_cross_attention(xt, nq, xs, nk, nv, wq, wk, wv, dm, dk, dv, got);
        if (st == EX_TODO)
            return EX_TODO;
        attn_linear(xt, wq, NULL, q, nq, dm, dk);
        attn_linear(xs, wk, NULL, k, nk, dm, dk);
        attn_linear(xs, wv, NULL, v, nk, dm, dv);
        attn_padding_mask(nq, nk, nv, mask);
        attn_sdpa(q, k, v, nq, nk, dk, dv, 0.0f, mask, 0, want, NULL);
        if (nv == 1)   /* 一个真词：每一行都是 v 的第 0 行 */
            for (size_t i = 0; i < nq; i++)
                for (size_t j = 0; j < dv; j++)
                    want[i * dv + j] = v[j];
        float diff = st == ATTN_OK ? ex_max_diff(got, want, nq * dv) : INFINITY;
        int ok = st == ATTN_OK && diff <= tol;
        printf("n_q = %zu，n_k = %zu，n_valid = %zu，d_k = %zu，d_v = %zu，%s：返回 %d，最大差 %.2g（容差 %.0e）%s\n",
               nq, nk, nv, dk, dv, cases[c].what, st, diff, tol, ok ? "" : "  ← 不对");
        if (!ok)
            result = EX_FAIL;
        if (c == 1) {   /* pad 行换成 1000：被遮住的位置不该影响输出 */
            for (size_t i = 0; i < nq * dv; i++)
                before[i] = got[i];
            for (size_t i = nv * dm; i < nk * dm; i++)
                xs[i] = 1000.0f;
            st = ch06_cross_attention(xt, nq, xs, nk, nv, wq, wk, wv, dm, dk, dv, got);
            diff = st == ATTN_OK ? ex_max_diff(got, before, nq * dv) : INFINITY;
            ok = st == ATTN_OK && diff <= tol;
            printf("同一组，pad 行换成 1000：返回 %d，与换之前的最大差 %.2g（容差 %.0e）%s\n",
                   st, diff, tol, ok ? "" : "  ← 不对");
            if (!ok)
                result = EX_FAIL;
        }
    }
    static const size_t bad[2] = {0, 6};
    for (int b = 0; b < 2; b++) {
        int st = ch06_cross_attention(xt, 2, xs, 5, bad[b], wq, wk, wv, 4, 4, 4, got);
        if (st == EX_TODO)
            return EX_TODO;
        printf("n_k = 5，n_valid = %zu：返回 %d，应当是 ATTN_EINVAL (%d)%s\n", bad[b], st, ATTN_EINVAL,
               st == ATTN_EINVAL ? "" : "  ← 不对");
        if (st != ATTN_EINVAL)
            result = EX_FAIL;
    }
    return result;
}
