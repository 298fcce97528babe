#line 1289 "book/02-similarity.nw"
/* ch02-cosine-all：所有配对的余弦相似度（第 2 章练习 6） */
#include "ex.h"

#include <stdio.h>

int ch02_cosine_all(const float *a, const float *b, size_t n_a, size_t n_b, size_t d, float *out);

int ex_check_ch02_cosine_all(void)
{
    enum { MAX = 128 };
    static const struct { size_t n_a, n_b, d; const char *what; } cases[] = {
        {2, 2, 2, "猫、狗对桌、蓝"}, {3, 5, 4, "随机"}, {6, 2, 16, "随机"},
    };
    const float tol = 1e-5f;
    float a[MAX], b[MAX], got[MAX], want[MAX];
    int result = EX_PASS;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n_a = cases[c].n_a, n_b = cases[c].n_b, d = cases[c].d;
        if (c == 0) {
            const float cat_dog[4] = {2, -1, 1, -1}, desk_blue[4] = {-2, 1, 1, 2};
            for (size_t i = 0; i < 4; i++) {
                a[i] = cat_dog[i];
                b[i] = desk_blue[i];
            }
        } else {
            ex_fill_normal(a, n_a * d, 40 + c);
            ex_fill_normal(b, n_b * d, 50 + c);
        }
        for (size_t i = 0; i < n_a * n_b; i++)
            got[i] = NAN;
        int st = ch02_cosine_all(a, b, n_a, n_b, d, got);
        if (st == EX_TODO)
            return EX_TODO;
        for (size_t i = 0; i < n_a; i++)
            for (size_t j = 0; j < n_b; j++)
                attn_cosine(a + i * d, b + j * d, d, &want[i * n_b + j]);
        float diff = st == ATTN_OK ? ex_max_diff(got, want, n_a * n_b) : INFINITY;
        int ok = st == ATTN_OK && diff <= tol;
        printf("%s：n_a = %zu，n_b = %zu，d = %zu：返回 %d，最大差 %.2g（容差 %.0e）%s\n",
               cases[c].what, n_a, n_b, d, st, diff, tol, ok ? "" : "  ← 不对");
        if (c == 0 && ok)
            printf("    猫·桌 %.4f，猫·蓝 %.4f，狗·桌 %.4f，狗·蓝 %.4f\n", got[0], got[1], got[2], got[3]);
        if (!ok)
            result = EX_FAIL;
    }
    for (size_t i = 0; i < 4; i++)              /* b 的第 1 行是零向量 */
        b[4 + i] = 0.0f;
    int st = ch02_cosine_all(a, b, 2, 2, 4, got);
    if (st == EX_TODO)
        return EX_TODO;
    printf("b 里有零向量：返回 %d，应当是 ATTN_EINVAL (%d)%s\n", st, ATTN_EINVAL,
           st == ATTN_EINVAL ? "" : "  ← 不对");
    if (st != ATTN_EINVAL)
        result = EX_FAIL;
    return result;
}
