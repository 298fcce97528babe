#line 2172 "book/09-fast.nw"
/* ch09-merge：合并两段键的在线 softmax 状态（第 9 章练习 5） */
#include "ex.h"

#include <stdio.h>

int ch09_merge(float m1, float l1, const float *acc1, float m2, float l2,
               const float *acc2, size_t d, float *m, float *l, float *acc);

enum { MQ = 3, MK = 12, MDK = 8, MDV = 5 };

/* 查询 q[MDK] 对键 from..to−1 的状态（缩放为 1），在 double 里算，存成 float。
   一个键也没有时是空的状态：m = −∞，l = 0，acc = 0。 */
static void block_state(const float *q, const float *k, const float *v, size_t from,
                        size_t to, float *m, float *l, float *acc)
{
    double s[MK], mx = -INFINITY, sum = 0.0, o[MDV] = {0};
    for (size_t j = from; j < to; j++) {
        s[j] = 0.0;
        for (size_t c = 0; c < MDK; c++)
            s[j] += (double)q[c] * k[j * MDK + c];
        if (s[j] > mx)
            mx = s[j];
    }
    for (size_t j = from; j < to; j++) {
        double e = exp(s[j] - mx);
        sum += e;
        for (size_t c = 0; c < MDV; c++)
            o[c] += e * v[j * MDV + c];
    }
    *m = (float)mx;
    *l = (float)sum;
    for (size_t c = 0; c < MDV; c++)
        acc[c] = (float)o[c];
}

/* 一种情形：前 split 个键是第一段，其余是第二段。far 不为 0 时，查询的第 0 个分量是 10，
   第一段键的第 0 个分量是 far/20，第二段的是 −far/20：两段的分数相差约 far。 */
static int merge_case(const char *what, size_t split, float far, unsigned long long seed)
{
    const float tol = 1e-5f;
    float q[MQ * MDK], k[MK * MDK], v[MK * MDV], out[MQ * MDV];
    ex_fill_normal(q, MQ * MDK, seed);
    ex_fill_normal(k, MK * MDK, seed + 1);
    ex_fill_normal(v, MK * MDV, seed + 2);
    if (far != 0.0f) {
        for (size_t i = 0; i < MQ; i++)
            q[i * MDK] = 10.0f;
        for (size_t j = 0; j < MK; j++)
            k[j * MDK] = (j < split ? far : -far) / 20.0f;
    }
    if (attn_sdpa(q, k, v, MQ, MK, MDK, MDV, 1.0f, NULL, 0, out, NULL) != ATTN_OK)
        return EX_FAIL;
    int st = ATTN_OK, m_ok = 1;
    float worst_l = 0.0f, worst_o = 0.0f, gap_lo = INFINITY, gap_hi = -INFINITY;
    for (size_t i = 0; i < MQ && st == ATTN_OK; i++) {
        float m1, l1, a1[MDV], m2, l2, a2[MDV], mw, lw, aw[MDV];
        float m = NAN, l = NAN, a[MDV], o[MDV];
        block_state(q + i * MDK, k, v, 0, split, &m1, &l1, a1);
        block_state(q + i * MDK, k, v, split, MK, &m2, &l2, a2);
        block_state(q + i * MDK, k, v, 0, MK, &mw, &lw, aw);
        for (size_t c = 0; c < MDV; c++)
            a[c] = NAN;
        st = ch09_merge(m1, l1, a1, m2, l2, a2, MDV, &m, &l, a);
        if (st == EX_TODO)
            return EX_TODO;
        m_ok = m_ok && m == mw;
        float dl = fabsf(l - lw) / lw;
        if (!(dl <= worst_l) && !isnan(worst_l))
            worst_l = dl;                           /* NaN 一旦出现就留下 */
        for (size_t c = 0; c < MDV; c++)
            o[c] = a[c] / l;
        float d = ex_max_diff(o, out + i * MDV, MDV);
        worst_o = fmaxf(worst_o, d);                /* 有 NaN 时 d 是无穷大 */
        gap_lo = fminf(gap_lo, m1 - m2);
        gap_hi = fmaxf(gap_hi, m1 - m2);
    }
    int ok = st == ATTN_OK && m_ok && worst_l <= tol && worst_o <= tol;
    printf("%s：返回 %d，m %s，l 的相对差 %.2g，acc/l 与 attn_sdpa 最大差 %.2g（容差 %.0e）",
           what, st, m_ok ? "对" : "不对", worst_l, worst_o, tol);
    if (far != 0.0f)
        printf("，m₁ − m₂ 在 %.0f 到 %.0f 之间", gap_lo, gap_hi);
    printf("%s\n", ok ? "" : "  ← 不对");
    return ok ? EX_PASS : EX_FAIL;
}

int ex_check_ch09_merge(void)
{
    static const struct { const char *what; size_t split; float far; } cases[] = {
        {"从第 5 个键处分开", 5, 0.0f},
        {"从第 1 个键处分开", 1, 0.0f},
        {"第一段空", 0, 0.0f},
        {"第二段空", MK, 0.0f},
        {"第一段的分数大得多", 6, 120.0f},
        {"第二段的分数大得多", 6, -120.0f},
    };
    int result = EX_PASS;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int r = merge_case(cases[c].what, cases[c].split, cases[c].far, 900 + 3 * c);
        if (r == EX_TODO)
            return EX_TODO;
        if (r != EX_PASS)
            result = EX_FAIL;
    }
    /* 两段都空，和 d = 0 */
    const float zero[MDV] = {0};
    float m = NAN, l = NAN, a[MDV];
    for (size_t c = 0; c < MDV; c++)
        a[c] = NAN;
    int st = ch09_merge(-INFINITY, 0.0f, zero, -INFINITY, 0.0f, zero, MDV, &m, &l, a);
    int ok = st == ATTN_OK && m == -INFINITY && l == 0.0f;
    for (size_t c = 0; c < MDV; c++)
        ok = ok && a[c] == 0.0f;
    printf("两段都空：返回 %d，m = %g，l = %g，acc[0] = %g，应当是 -inf、0、0%s\n", st,
           m, l, a[0], ok ? "" : "  ← 不对");
    if (!ok)
        result = EX_FAIL;
    st = ch09_merge(0.0f, 1.0f, zero, 0.0f, 1.0f, zero, 0, &m, &l, a);
    printf("d = 0：返回 %d，应当是 ATTN_EINVAL (%d)%s\n", st, ATTN_EINVAL,
           st == ATTN_EINVAL ? "" : "  ← 不对");
    if (st != ATTN_EINVAL)
        result = EX_FAIL;
    return result;
}
