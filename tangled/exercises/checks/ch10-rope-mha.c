#line 1538 "book/10-position.nw"
/* ch10-rope-mha：多头注意力里的 RoPE（第 10 章练习 5） */
#include "ex.h"

#include <stdio.h>

int ch10_rope_attention(const float *q, const float *k, const float *v, size_t n,
                        size_t n_heads, size_t d_head, float *out);

enum { RN = 7, RDC = 32 };

/* 头 h 里，位置 p 上的向量 x[d_head] 转过之后的第 c 个分量（double） */
static double rotated(const float *x, size_t d_head, size_t p, size_t c)
{
    size_t j = c / 2;
    double t = (double)p * pow(10000.0, -2.0 * (double)j / (double)d_head);
    double a = x[2 * j], b = x[2 * j + 1];
    return c % 2 == 0 ? a * cos(t) - b * sin(t) : a * sin(t) + b * cos(t);
}

/* 从公式算：want[n][n_heads·d_head] */
static void rope_mha_reference(const float *q, const float *k, const float *v, size_t n,
                               size_t n_heads, size_t d_head, float *want)
{
    size_t dc = n_heads * d_head;
    for (size_t h = 0; h < n_heads; h++)
        for (size_t i = 0; i < n; i++) {
            double s[RN], m = -INFINITY, z = 0.0;
            for (size_t j = 0; j <= i; j++) {
                double dot = 0.0;
                for (size_t c = 0; c < d_head; c++)
                    dot += rotated(q + i * dc + h * d_head, d_head, i, c) *
                           rotated(k + j * dc + h * d_head, d_head, j, c);
                s[j] = dot / sqrt((double)d_head);
                if (s[j] > m)
                    m = s[j];
            }
            for (size_t j = 0; j <= i; j++)
                z += (s[j] = exp(s[j] - m));
            for (size_t c = 0; c < d_head; c++) {
                double o = 0.0;
                for (size_t j = 0; j <= i; j++)
                    o += s[j] / z * v[j * dc + h * d_head + c];
                want[i * dc + h * d_head + c] = (float)o;
            }
        }
}

int ex_check_ch10_rope_mha(void)
{
    static const struct { size_t h, dh; } cases[] = {{2, 8}, {4, 4}, {3, 2}};
    const float tol = 1e-4f;
    float q[RN * RDC], k[RN * RDC], v[RN * RDC], got[RN * RDC], want[RN * RDC], wide[RN * RDC];
    int result = EX_PASS;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t h = cases[c].h, dh = cases[c].dh, dc = h * dh;
        ex_fill_normal(q, RN * dc, 700 + c);
        ex_fill_normal(k, RN * dc, 800 + c);
        ex_fill_normal(v, RN * dc, 900 + c);
        for (size_t i = 0; i < RN * dc; i++)
            got[i] = NAN;
        int st = ch10_rope_attention(q, k, v, RN, h, dh, got);
        if (st == EX_TODO)
            return EX_TODO;
        rope_mha_reference(q, k, v, RN, h, dh, want);
        float diff = st == ATTN_OK ? ex_max_diff(got, want, RN * dc) : INFINITY;
        int ok = st == ATTN_OK && diff <= tol;
        printf("n = %d，%zu 个头，每头 %zu 维：返回 %d，与 double 的公式最大差 %.2g（容差 %.0e）%s\n",
               RN, h, dh, st, diff, tol, ok ? "" : "  ← 不对");
        if (!ok)
            result = EX_FAIL;
        if (c == 0) {   /* 错误的做法：所有头拼起来当成一个 dc 维的向量去转 */
            rope_mha_reference(q, k, v, RN, 1, dc, wide);
            printf("  （对照：把 %zu 个头拼成一个 %zu 维的向量去转，与正确结果差 %.2g）\n",
                   h, dc, ex_max_diff(wide, want, RN * dc));
        }
    }
    return result;
}
