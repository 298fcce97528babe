#line 3344 "book/13-poems.nw"
/* ch13-top-p：top-p（核）过滤（第 13 章练习 6） */
#include "ex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ch13_top_p(float *p, size_t V, float top_p);

typedef struct { float p; size_t id; } ref_prob;

static int ref_order(const void *a, const void *b)
{
    const ref_prob *x = a, *y = b;
    if (x->p != y->p)
        return x->p > y->p ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* 参考：排序一份副本，从大到小累加到 top_p；want 是过滤以后的 p，返回留下的个数 */
static size_t reference(const float *p, size_t V, float top_p, float *want)
{
    ref_prob *s = malloc(V * sizeof *s);
    if (s == NULL)
        return 0;
    for (size_t i = 0; i < V; i++)
        s[i] = (ref_prob){p[i], i};
    qsort(s, V, sizeof *s, ref_order);
    size_t k = 0;
    double sum = 0.0;
    while (k < V && (top_p >= 1.0f || sum < top_p))
        sum += s[k++].p;
    for (size_t i = 0; i < V; i++)
        want[i] = 0.0f;
    for (size_t j = 0; j < k; j++)
        want[s[j].id] = (float)(s[j].p / sum);
    free(s);
    return k;
}

/* 一组输入：读者的函数和参考比较，打印一行；返回 EX_PASS、EX_FAIL 或 EX_TODO */
static int one_case(const char *what, const float *p, size_t V, float top_p)
{
    float *got = malloc(V * sizeof *got), *want = malloc(V * sizeof *want);
    if (got == NULL || want == NULL) {
        free(got);
        free(want);
        printf("%s：内存不够\n", what);
        return EX_FAIL;
    }
    memcpy(got, p, V * sizeof *got);
    int k = ch13_top_p(got, V, top_p);
    if (k == EX_TODO) {
        free(got);
        free(want);
        return EX_TODO;
    }
    size_t kw = reference(p, V, top_p, want);
    size_t wrong_set = 0;
    for (size_t i = 0; i < V; i++)
        wrong_set += (got[i] != 0.0f) != (want[i] != 0.0f);
    float diff = ex_max_diff(got, want, V);
    int ok = k >= 0 && (size_t)k == kw && wrong_set == 0 && diff <= 1e-6f;
    printf("%s（V = %zu，top_p = %g）：留下 %d 个，应当 %zu 个；集合不同的 %zu 处，"
           "最大差 %.2g（容差 1e-6）%s\n", what, V, top_p, k, kw, wrong_set, diff,
           ok ? "" : "  ← 不对");
    free(got);
    free(want);
    return ok ? EX_PASS : EX_FAIL;
}

/* x[V] ← softmax(scale · 正态随机数) */
static void random_probs(float *x, size_t V, float scale, unsigned long long seed)
{
    ex_fill_normal(x, V, seed);
    float m = x[0];
    for (size_t i = 1; i < V; i++)
        m = x[i] > m ? x[i] : m;
    double sum = 0.0;
    for (size_t i = 0; i < V; i++)
        sum += x[i] = expf(scale * (x[i] - m));
    for (size_t i = 0; i < V; i++)
        x[i] = (float)(x[i] / sum);
}

int ex_check_ch13_top_p(void)
{
    static float x[1000];
    const size_t sizes[3] = {10, 100, 1000};
    const float scales[3] = {1.0f, 2.0f, 3.0f}, tops[3] = {0.5f, 0.9f, 0.95f};
    int result = EX_PASS, r;
    /* 一：三个随机的分布 */
    for (int c = 0; c < 3; c++) {
        random_probs(x, sizes[c], scales[c], 1300 + (unsigned long long)c);
        r = one_case("随机的分布", x, sizes[c], tops[c]);
        if (r == EX_TODO)
            return EX_TODO;
        result = r == EX_PASS ? result : EX_FAIL;
    }
    /* 二：相同的概率；前两个正好加到 0.5，下标小的先留下 */
    const float ties[4] = {0.25f, 0.25f, 0.25f, 0.25f}, ties2[4] = {0.1f, 0.3f, 0.3f, 0.3f};
    r = one_case("四个 0.25", ties, 4, 0.5f);
    result = r == EX_PASS ? result : EX_FAIL;
    r = one_case("0.1 和三个 0.3", ties2, 4, 0.4f);
    result = r == EX_PASS ? result : EX_FAIL;
    /* 三：top_p = 1 全部留下 */
    random_probs(x, 100, 2.0f, 1303);
    r = one_case("top_p = 1", x, 100, 1.0f);
    result = r == EX_PASS ? result : EX_FAIL;
    /* 四：一个独大的概率 */
    const float one[4] = {0.02f, 0.95f, 0.01f, 0.02f};
    r = one_case("一个独大的概率", one, 4, 0.9f);
    result = r == EX_PASS ? result : EX_FAIL;
    /* 五：不合法的参数返回 0，p 不变 */
    float bad[4] = {0.25f, 0.25f, 0.25f, 0.25f};
    int k0 = ch13_top_p(bad, 4, 0.0f), k1 = ch13_top_p(bad, 0, 0.5f);
    int same = memcmp(bad, ties, sizeof bad) == 0;
    printf("top_p = 0 返回 %d，V = 0 返回 %d，都应当是 0，p %s%s\n", k0, k1,
           same ? "没有变" : "变了", k0 == 0 && k1 == 0 && same ? "" : "  ← 不对");
    if (!(k0 == 0 && k1 == 0 && same))
        result = EX_FAIL;
    return result;
}
