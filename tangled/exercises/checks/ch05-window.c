#line 1539 "book/05-mask.nw"
/* ch05-window：滑动窗口的因果注意力（第 5 章练习 5） */
#include "ex.h"

#include <stdio.h>

int ch05_window_attention(const float *q, const float *k, const float *v,
                          size_t n, size_t d, size_t w, float *out);

int ex_check_ch05_window(void)
{
    enum { N = 12, D = 4 };
    static const struct { size_t n, w; const char *what; } cases[] = {
        {6, 1, "w = 1：只看自己，输出等于 v"},
        {8, 3, "w = 3：与 attn_sdpa 加窗口掩码比较"},
        {12, 5, "w = 5：与 attn_sdpa 加窗口掩码比较"},
        {7, 7, "w = n：与 attn_sdpa 的因果注意力比较"},
        {5, 100, "w > n：与 attn_sdpa 的因果注意力比较"},
    };
    const float tol = 1e-5f;
    float q[N * D], k[N * D], v[N * D], got[N * D], want[N * D];
    unsigned char mask[N * N];
    int result = EX_PASS;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = cases[c].n, w = cases[c].w;
        ex_fill_normal(q, n * D, 100 + c);
        ex_fill_normal(k, n * D, 200 + c);
        ex_fill_normal(v, n * D, 300 + c);
        for (size_t i = 0; i < n * D; i++)
            got[i] = NAN;
        int st = ch05_window_attention(q, k, v, n, D, w, got);
        if (st == EX_TODO)
            return EX_TODO;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                mask[i * n + j] = j <= i && j + w > i;
        if (w == 1)
            for (size_t i = 0; i < n * D; i++)
                want[i] = v[i];
        else if (w >= n)
            attn_sdpa(q, k, v, n, n, D, D, 0.0f, NULL, 1, want, NULL);
        else
            attn_sdpa(q, k, v, n, n, D, D, 0.0f, mask, 0, want, NULL);
        float diff = st == ATTN_OK ? ex_max_diff(got, want, n * D) : INFINITY;
        int ok = st == ATTN_OK && diff <= tol;
        printf("n = %2zu, d = %d, %s：返回 %d，最大差 %.2g（容差 %.0e）%s\n",
               n, D, cases[c].what, st, diff, tol, ok ? "" : "  ← 不对");
        if (!ok)
            result = EX_FAIL;
    }
    int st = ch05_window_attention(q, k, v, 4, D, 0, got);
    if (st == EX_TODO)
        return EX_TODO;
    printf("w = 0：返回 %d，应当是 ATTN_EINVAL (%d)%s\n", st, ATTN_EINVAL,
           st == ATTN_EINVAL ? "" : "  ← 不对");
    if (st != ATTN_EINVAL)
        result = EX_FAIL;
    return result;
}
