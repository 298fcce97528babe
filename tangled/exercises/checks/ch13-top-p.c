#line 3345 "book/13-poems.nw"
/* ch13-top-p：top-p（核）过滤（第 13 章练习 6） */
#include "ex.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ch13_top_p(float *p, size_t V, float top_p);

/* 检查不排序，也不另写一份答案，只核对 top-p 的定义：留下的个数就是返回值；
   留下的每一个都不比没留下的小（相同时下标小的留下）；留下的加起来 >= top_p，
   去掉其中最小的一个就 < top_p（top_p = 1 时全部留下）；留下的值是 p 除以留下的和。
   got 是读者的函数改过的 p，k 是它的返回值；返回不满足的那一条，都满足时返回 NULL */
static const char *violated(const float *p, size_t V, float top_p, const float *got, int k,
                            double *mass_out)
{
    size_t kept = 0, smallest = V;          /* smallest：留下的里概率最小的下标 */
    double mass = 0.0;                      /* 留下的原来的概率，按下标的顺序加 */
    for (size_t i = 0; i < V; i++)
        if (got[i] != 0.0f) {
            kept++;
            mass += p[i];
            if (smallest == V || p[i] < p[smallest])
                smallest = i;
        }
    *mass_out = mass;
    if (k < 0 || (size_t)k != kept)
        return "返回值不是留下的个数";
    if (kept == 0)
        return "一个也没有留下";
    for (size_t i = 0; i < V; i++)          /* i 留下、j 没留下：两两比较 */
        for (size_t j = 0; j < V; j++)
            if (got[i] != 0.0f && got[j] == 0.0f
                && (p[i] < p[j] || (p[i] == p[j] && i > j)))
                return "没留下的字里有一个比留下的大（或一样大而下标更小）";
    if (top_p >= 1.0f && kept != V)
        return "top_p = 1 时应当全部留下";
    if (top_p < 1.0f && mass < top_p)
        return "留下的加起来不到 top_p";
    if (top_p < 1.0f && mass - p[smallest] >= top_p)
        return "去掉留下的最小的一个，剩下的仍然够 top_p：留多了";
    for (size_t i = 0; i < V; i++) {
        double want = got[i] != 0.0f ? p[i] / mass : 0.0;
        if (!(fabs(got[i] - want) <= 1e-6))
            return "留下的值不是原来的概率除以留下的和（容差 1e-6）";
    }
    return NULL;
}

/* 一组输入：读者的函数改一份副本，按定义核对，打印一行；返回 EX_PASS、EX_FAIL 或 EX_TODO */
static int one_case(const char *what, const float *p, size_t V, float top_p)
{
    float *got = malloc(V * sizeof *got);
    if (got == NULL) {
        printf("%s：内存不够\n", what);
        return EX_FAIL;
    }
    memcpy(got, p, V * sizeof *got);
    int k = ch13_top_p(got, V, top_p);
    if (k == EX_TODO) {
        free(got);
        return EX_TODO;
    }
    double mass;
    const char *bad = violated(p, V, top_p, got, k, &mass);
    printf("%s（V = %zu，top_p = %g）：留下 %d 个，原来的概率加起来 %.6f%s%s\n", what, V, top_p,
           k, mass, bad ? "  ← 不对：" : "", bad ? bad : "");
    free(got);
    return bad ? EX_FAIL : EX_PASS;
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
