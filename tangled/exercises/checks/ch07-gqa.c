#line 1535 "book/07-multihead.nw"
/* ch07-gqa：分组查询注意力（第 7 章练习 5） */
#include "ex.h"

#include <stdio.h>

int ch07_gqa(const float *q, const float *k, const float *v, size_t n, size_t n_heads,
             size_t n_kv_heads, size_t d_head, float *out);

int ex_check_ch07_gqa(void)
{
    enum { N = 6, DH = 4, HMAX = 8 };
    static const struct { size_t h, g; const char *what; } cases[] = {
        {4, 4, "g = h：普通的多头注意力"},
        {4, 1, "g = 1：多查询注意力"},
        {8, 2, "h = 8，g = 2：每组 4 个查询头"},
        {6, 3, "h = 6，g = 3：每组 2 个查询头"},
    };
    const float tol = 1e-5f;
    enum { DMAX = 64 };
    static float q[N * HMAX * DH], k[N * HMAX * DH], v[N * HMAX * DH], got[N * HMAX * DH];
    static float xq[N * DMAX], xkv[N * DMAX], out[N * DMAX];
    static float wq[DMAX * DMAX], wk[DMAX * DMAX], wv[DMAX * DMAX], wo[DMAX * DMAX];
    int result = EX_PASS;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t h = cases[c].h, g = cases[c].g, dq = h * DH, dkv = g * DH, D = dq + 2 * dkv;
        ex_fill_normal(q, N * dq, 400 + c);
        ex_fill_normal(k, N * dkv, 500 + c);
        ex_fill_normal(v, N * dkv, 600 + c);
        for (size_t i = 0; i < N * dq; i++)
            got[i] = NAN;
        int st = ch07_gqa(q, k, v, N, h, g, DH, got);
        if (st == EX_TODO)
            return EX_TODO;
        /* 输入：x_q = [q 0 0]，x_kv = [0 k v]，每行 D 个数 */
        for (size_t i = 0; i < N * D; i++)
            xq[i] = xkv[i] = 0.0f;
        for (size_t i = 0; i < N; i++) {
            for (size_t e = 0; e < dq; e++)
                xq[i * D + e] = q[i * dq + e];
            for (size_t e = 0; e < dkv; e++) {
                xkv[i * D + dq + e] = k[i * dkv + e];
                xkv[i * D + dq + dkv + e] = v[i * dkv + e];
            }
        }
        /* W_Q 取出 q；W_K、W_V 把键值头 hh / (h/g) 复制给查询头 hh；W_O 把拼接结果放回前 dq 列 */
        for (size_t i = 0; i < D * dq; i++)
            wq[i] = wk[i] = wv[i] = 0.0f;
        for (size_t i = 0; i < dq * D; i++)
            wo[i] = 0.0f;
        for (size_t hh = 0; hh < h; hh++)
            for (size_t e = 0; e < DH; e++) {
                size_t col = hh * DH + e, src = hh / (h / g) * DH + e;
                wq[col * dq + col] = 1.0f;
                wk[(dq + src) * dq + col] = 1.0f;
                wv[(dq + dkv + src) * dq + col] = 1.0f;
                wo[col * D + col] = 1.0f;
            }
        attn_mha_weights w = {D, h, DH, wq, wk, wv, wo, NULL, NULL, NULL, NULL};
        int ref = attn_mha(&w, xq, N, xkv, N, NULL, 1, out);
        float diff = INFINITY;
        if (st == ATTN_OK && ref == ATTN_OK) {
            diff = 0.0f;
            for (size_t i = 0; i < N; i++) {
                float di = ex_max_diff(got + i * dq, out + i * D, dq);
                if (di > diff)
                    diff = di;
            }
        }
        int ok = st == ATTN_OK && diff <= tol;
        printf("%s：返回 %d，与 attn_mha（复制键值头的 W_K、W_V）最大差 %.2g（容差 %.0e）%s\n",
               cases[c].what, st, diff, tol, ok ? "" : "  ← 不对");
        if (!ok)
            result = EX_FAIL;
    }
    int st = ch07_gqa(q, k, v, N, 6, 4, DH, got);
    if (st == EX_TODO)
        return EX_TODO;
    printf("h = 6，g = 4：返回 %d，应当是 ATTN_EINVAL (%d)%s\n", st, ATTN_EINVAL,
           st == ATTN_EINVAL ? "" : "  ← 不对");
    if (st != ATTN_EINVAL)
        result = EX_FAIL;
    return result;
}
