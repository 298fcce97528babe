#line 886 "book/02-similarity.nw"
#include "attn.h"
#include "check.h"

#include <math.h>
#include <string.h>

#include "../examples/ch02.h"

#line 675 "book/02-similarity.nw"
/* 按 attn_sqdist 的循环数：每个分量一次减、一次乘，除第一个分量外再一次加。 */
static long count_sqdist_ops(size_t d)
{
    long ops = 0;
    for (size_t t = 0; t < d; t++) {
        ops += 2;                 /* a[t] - b[t]，diff * diff */
        if (t > 0)
            ops += 1;             /* s += ... */
    }
    return ops;
}

/* 点积：每个分量一次乘，除第一个分量外再一次加。 */
static long count_dot_ops(size_t d)
{
    long ops = 0;
    for (size_t t = 0; t < d; t++)
        ops += t > 0 ? 2 : 1;
    return ops;
}

#line 896 "book/02-similarity.nw"
int main(void)
{
#line 527 "book/02-similarity.nw"
    check_section("词地图上的点积：猫·狗 = 3，猫·桌 = -5，狗·红 = 猫·蓝 = 0，91 对里 16 对互相垂直");
    {
        float d;
        CHECK_OK(attn_dot(word_xy("猫"), word_xy("狗"), 2, &d));
        CHECK_NEAR(d, 3, 0);
        CHECK_OK(attn_dot(word_xy("猫"), word_xy("桌"), 2, &d));
        CHECK_NEAR(d, -5, 0);
        CHECK_OK(attn_dot(word_xy("狗"), word_xy("红"), 2, &d));
        CHECK_NEAR(d, 0, 0);                      /* 互相垂直 */
        CHECK_OK(attn_dot(word_xy("猫"), word_xy("蓝"), 2, &d));
        CHECK_NEAR(d, 0, 0);
        int pairs = 0, perpendicular = 0;
        for (size_t i = 0; i < N_WORDS; i++)
            for (size_t j = i + 1; j < N_WORDS; j++) {
                CHECK_OK(attn_dot(word_map[i].xy, word_map[j].xy, 2, &d));
                pairs++;
                perpendicular += d == 0.0f;
            }
        CHECK_INT(pairs, 91);
        CHECK_INT(perpendicular, 16);
        CHECK_STATUS(attn_dot(NULL, word_xy("狗"), 2, &d), ATTN_EINVAL);
        CHECK_STATUS(attn_dot(word_xy("猫"), word_xy("狗"), 0, &d), ATTN_EINVAL);
    }
#line 553 "book/02-similarity.nw"
    check_section("词地图上的余弦：猫与狗 0.9487，猫与桌 -1，猫与红 0.3162；零向量没有余弦");
    {
        float c;
        CHECK_OK(attn_cosine(word_xy("猫"), word_xy("狗"), 2, &c));
        CHECK_NEAR(c, 3 / sqrt(10), 1e-6);
        CHECK_NEAR(c, 0.9487, 1e-4);
        CHECK_OK(attn_cosine(word_xy("猫"), word_xy("桌"), 2, &c));
        CHECK_NEAR(c, -1, 1e-6);
        CHECK_OK(attn_cosine(word_xy("猫"), word_xy("红"), 2, &c));
        CHECK_NEAR(c, 0.3162, 1e-4);
        CHECK_OK(attn_cosine(word_xy("狗"), word_xy("红"), 2, &c));
        CHECK_NEAR(c, 0, 1e-7);
        float zero[2] = {0, 0};
        CHECK_STATUS(attn_cosine(zero, word_xy("猫"), 2, &c), ATTN_EINVAL);
        float huge[2] = {3e38f, 3e38f};           /* 平方会溢出单精度，double 累加不会 */
        CHECK_OK(attn_cosine(huge, huge, 2, &c));
        CHECK_NEAR(c, 1, 1e-6);
    }
#line 574 "book/02-similarity.nw"
    check_section("点积保留长度，余弦只看方向：猫·豹 = 7 > 猫·猫 = 5，余弦 0.9899 < 1");
    {
        float cat_cat, cat_leopard, cos_leopard;
        CHECK_OK(attn_dot(word_xy("猫"), word_xy("猫"), 2, &cat_cat));
        CHECK_OK(attn_dot(word_xy("猫"), word_xy("豹"), 2, &cat_leopard));
        CHECK_OK(attn_cosine(word_xy("猫"), word_xy("豹"), 2, &cos_leopard));
        CHECK_NEAR(cat_cat, 5, 0);
        CHECK_NEAR(cat_leopard, 7, 0);
        CHECK(cat_leopard > cat_cat);             /* 按点积，豹比猫自己还“像”猫 */
        CHECK_NEAR(cos_leopard, 0.9899, 1e-4);
        CHECK(cos_leopard < 1.0f);                /* 按余弦，猫自己最像 */
        size_t best_dot = 0, best_cos = 0;        /* 整张地图上：点积的冠军是豹，余弦的冠军是猫自己，亚军是豹 */
        float top_dot = -INFINITY, top_cos = -INFINITY, second_cos = -INFINITY;
        size_t second = 0;
        for (size_t j = 0; j < N_WORDS; j++) {
            float d, c;
            CHECK_OK(attn_dot(word_xy("猫"), word_map[j].xy, 2, &d));
            CHECK_OK(attn_cosine(word_xy("猫"), word_map[j].xy, 2, &c));
            if (d > top_dot) { top_dot = d; best_dot = j; }
            if (c > top_cos) { second_cos = top_cos; second = best_cos; top_cos = c; best_cos = j; }
            else if (c > second_cos) { second_cos = c; second = j; }
        }
        CHECK_STR(word_map[best_dot].word, "豹");
        CHECK_STR(word_map[best_cos].word, "猫");
        CHECK_STR(word_map[second].word, "豹");
    }
#line 603 "book/02-similarity.nw"
    check_section("距离的平方 = |a|² + |b|² - 2a·b：猫与狗 1，猫与豹 1，猫与桌 20，全部 196 对");
    {
        float d2;
        CHECK_OK(attn_sqdist(word_xy("猫"), word_xy("狗"), 2, &d2));
        CHECK_NEAR(d2, 1, 0);
        CHECK_OK(attn_sqdist(word_xy("猫"), word_xy("豹"), 2, &d2));
        CHECK_NEAR(d2, 1, 0);
        CHECK_OK(attn_sqdist(word_xy("猫"), word_xy("桌"), 2, &d2));
        CHECK_NEAR(d2, 20, 0);
        CHECK_STATUS(attn_sqdist(word_xy("猫"), NULL, 2, &d2), ATTN_EINVAL);
        int pairs = 0;
        for (size_t i = 0; i < N_WORDS; i++)
            for (size_t j = 0; j < N_WORDS; j++) {
                const float *a = word_map[i].xy, *b = word_map[j].xy;
                float aa, bb, ab;
                CHECK_OK(attn_dot(a, a, 2, &aa));
                CHECK_OK(attn_dot(b, b, 2, &bb));
                CHECK_OK(attn_dot(a, b, 2, &ab));
                CHECK_OK(attn_sqdist(a, b, 2, &d2));
                CHECK_NEAR(d2, aa + bb - 2 * ab, 1e-5);
                pairs++;
            }
        CHECK_INT(pairs, 196);
    }
#line 630 "book/02-similarity.nw"
    check_section("独热向量：不同的字点积 0、余弦 0、距离 √2；独热向量乘嵌入矩阵就是查表");
    {
        float onehot[N_WORDS][N_WORDS] = {{0}}, embed[N_WORDS * 2];
        for (size_t i = 0; i < N_WORDS; i++) {
            onehot[i][i] = 1.0f;
            memcpy(embed + 2 * i, word_map[i].xy, sizeof word_map[i].xy);
        }
        int distinct = 0;
        for (size_t i = 0; i < N_WORDS; i++)
            for (size_t j = 0; j < N_WORDS; j++) {
                float dot, cos, d2;
                CHECK_OK(attn_dot(onehot[i], onehot[j], N_WORDS, &dot));
                CHECK_OK(attn_cosine(onehot[i], onehot[j], N_WORDS, &cos));
                CHECK_OK(attn_sqdist(onehot[i], onehot[j], N_WORDS, &d2));
                if (i == j) {
                    CHECK_NEAR(dot, 1, 0);
                    CHECK_NEAR(d2, 0, 0);
                    continue;
                }
                CHECK_NEAR(dot, 0, 0);
                CHECK_NEAR(cos, 0, 0);
                CHECK_NEAR(sqrt(d2), sqrt(2.0), 1e-7);
                distinct++;
            }
        CHECK_INT(distinct, 14 * 13);
        /* 猫和狗、猫和桌：独热向量一样远；稠密向量一近一远 */
        float d_dog, d_desk;
        CHECK_OK(attn_sqdist(word_xy("猫"), word_xy("狗"), 2, &d_dog));
        CHECK_OK(attn_sqdist(word_xy("猫"), word_xy("桌"), 2, &d_desk));
        CHECK(d_dog < d_desk);
        for (size_t i = 0; i < N_WORDS; i++) {                 /* onehot[i][1×14] · E[14×2] = E 的第 i 行 */
            float row[2];
            CHECK_OK(attn_matmul(onehot[i], embed, row, 1, N_WORDS, 2));
            CHECK_ARRAY_NEAR(row, word_map[i].xy, 2, 0.0);
        }
        size_t zeros = 0;                                      /* 稠密：地图上没有一个分量是 0 */
        for (size_t i = 0; i < N_WORDS; i++)
            zeros += (word_map[i].xy[0] == 0) + (word_map[i].xy[1] == 0);
        CHECK_INT(zeros, 0);
    }
#line 698 "book/02-similarity.nw"
    check_section("开方的代价：d = 1024 时距离的平方 3071 次运算，点积 2047 次；比远近不用开方");
    {
        CHECK_INT(count_sqdist_ops(1024), 3071);
        CHECK_INT(count_dot_ops(1024), 2047);
        CHECK_INT(count_sqdist_ops(4096), 3 * 4096 - 1);
        CHECK_INT(count_dot_ops(4096), 2 * 4096 - 1);
        /* 比远近不用开方：按距离和按距离的平方排出的最近邻是同一个字 */
        const float *cat = word_xy("猫");
        size_t best_d = 0, best_d2 = 0;
        float min_d = INFINITY, min_d2 = INFINITY;
        for (size_t j = 0; j < N_WORDS; j++) {
            if (strcmp(word_map[j].word, "猫") == 0)
                continue;
            float d2;
            CHECK_OK(attn_sqdist(cat, word_map[j].xy, 2, &d2));
            if (sqrtf(d2) < min_d) { min_d = sqrtf(d2); best_d = j; }
            if (d2 < min_d2)       { min_d2 = d2;       best_d2 = j; }
        }
        CHECK_INT(best_d, best_d2);
        CHECK_STR(word_map[best_d].word, "狗");   /* 狗、豹、鹿都相距 1，表里狗排在最前 */
    }
#line 722 "book/02-similarity.nw"
    check_section("所有配对的点积是一次矩阵乘法");
    {
        float a[N_WORDS * 2], all[N_WORDS * N_WORDS];
        for (size_t i = 0; i < N_WORDS; i++)
            memcpy(a + 2 * i, word_map[i].xy, sizeof word_map[i].xy);
        CHECK_OK(attn_dot_all(a, a, N_WORDS, N_WORDS, 2, all));
        int same = 1;
        for (size_t i = 0; i < N_WORDS; i++)
            for (size_t j = 0; j < N_WORDS; j++) {
                float d;
                CHECK_OK(attn_dot(a + 2 * i, a + 2 * j, 2, &d));
                same = same && all[i * N_WORDS + j] == d;
            }
        CHECK(same);
        float at[2 * N_WORDS], by_matmul[N_WORDS * N_WORDS];   /* 和第 1 章的 A·Aᵀ 一样 */
        for (size_t i = 0; i < N_WORDS; i++) {
            at[i] = a[2 * i];
            at[N_WORDS + i] = a[2 * i + 1];
        }
        CHECK_OK(attn_matmul(a, at, by_matmul, N_WORDS, 2, N_WORDS));
        CHECK_ARRAY_NEAR(all, by_matmul, N_WORDS * N_WORDS, 0.0);
        CHECK_STATUS(attn_dot_all(a, a, N_WORDS, 0, 2, all), ATTN_EINVAL);
        CHECK_STATUS(attn_dot_all(a, a, (size_t)-1, 2, 2, all), ATTN_EINVAL);
    }
#line 749 "book/02-similarity.nw"
    check_section("-|q-k|² 与 2q·k - |k|² 只差一个公共项 -|q|²：按两者排名次一样；两者的偏好可以相反");
    {
        const float *q = word_xy("猫");
        float qq;
        CHECK_OK(attn_dot(q, q, 2, &qq));
        CHECK_NEAR(qq, 5, 0);
        for (size_t j = 0; j < N_WORDS; j++) {
            const float *k = word_map[j].xy;
            float d2, qk, kk;
            CHECK_OK(attn_sqdist(q, k, 2, &d2));
            CHECK_OK(attn_dot(q, k, 2, &qk));
            CHECK_OK(attn_dot(k, k, 2, &kk));
            CHECK_NEAR(-d2 - (2 * qk - kk), -qq, 1e-5);      /* 对每个键都是同一个数 */
        }
        const float one[2] = {1, 0}, k_short[2] = {1, 0}, k_long[2] = {3, 0};
        float dot_short, dot_long, d2_short, d2_long;
        CHECK_OK(attn_dot(one, k_short, 2, &dot_short));
        CHECK_OK(attn_dot(one, k_long, 2, &dot_long));
        CHECK_OK(attn_sqdist(one, k_short, 2, &d2_short));
        CHECK_OK(attn_sqdist(one, k_long, 2, &d2_long));
        CHECK_NEAR(dot_long, 3, 0);
        CHECK_NEAR(dot_short, 1, 0);
        CHECK(dot_long > dot_short);                          /* 点积更喜欢 (3, 0) */
        CHECK_NEAR(sqrt(d2_short), 0, 0);
        CHECK_NEAR(sqrt(d2_long), 2, 0);
        CHECK(d2_short < d2_long);                            /* 距离更喜欢 (1, 0) */
    }
#line 779 "book/02-similarity.nw"
    check_section("软查找：apple 10，banana 5，chair 2，权重 0.6、0.4、0 得 8");
    {
        const float value[3] = {10, 5, 2};        /* apple, banana, chair */
        const float fruit[3] = {0.6f, 0.4f, 0.0f};
        float got;
        CHECK_OK(attn_weighted_sum(fruit, value, 3, 1, &got));
        CHECK_NEAR(got, 8, 1e-6);
        CHECK_NEAR(fruit[0] + fruit[1] + fruit[2], 1, 1e-7);
        CHECK(got >= 2 && got <= 10);             /* 加权平均落在最小值和最大值之间 */
        const float hard[3] = {1, 0, 0};          /* 硬查找 apple */
        CHECK_OK(attn_weighted_sum(hard, value, 3, 1, &got));
        CHECK_NEAR(got, 10, 0);
        CHECK_STATUS(attn_weighted_sum(hard, NULL, 3, 1, &got), ATTN_EINVAL);
        CHECK_STATUS(attn_weighted_sum(hard, value, 3, 0, &got), ATTN_EINVAL);
    }
#line 797 "book/02-similarity.nw"
    check_section("固定权重矩阵：255×255 = 65025，300×300 = 90000；点积的权重表没有参数");
    {
        CHECK_INT(255 * 255, 65025);
        CHECK_INT(300 * 300, 90000);
        /* 点积的权重表没有参数：同一段代码对 3 个字和 14 个字都给出 n×n 的表 */
        float a[N_WORDS * 2], all[N_WORDS * N_WORDS];
        for (size_t i = 0; i < N_WORDS; i++)
            memcpy(a + 2 * i, word_map[i].xy, sizeof word_map[i].xy);
        CHECK_OK(attn_dot_all(a, a, 3, 3, 2, all));
        CHECK_NEAR(all[0 * 3 + 1], 3, 0);         /* 红·蓝 */
        CHECK_OK(attn_dot_all(a, a, N_WORDS, N_WORDS, 2, all));
        CHECK_NEAR(all[0 * N_WORDS + 1], 3, 0);   /* 还是红·蓝 */
    }
#line 813 "book/02-similarity.nw"
    check_section("朴素注意力：余弦直接当权重，猫得到 (4.9487, -2.9487)，比地图上任何一个字都远");
    {
        float x[6], w[9], out[6];
        memcpy(x + 0, word_xy("猫"), 2 * sizeof(float));
        memcpy(x + 2, word_xy("狗"), 2 * sizeof(float));
        memcpy(x + 4, word_xy("桌"), 2 * sizeof(float));
        CHECK_OK(naive_attention(x, 3, 2, 0, 1.0f, w, out));
        CHECK_NEAR(w[1], 0.9487, 1e-4);
        CHECK_NEAR(w[2], -1, 1e-6);
        CHECK_NEAR(w[5], -0.9487, 1e-4);
        CHECK_NEAR(w[0] + w[1] + w[2], 0.9487, 1e-4);          /* 猫那一行 */
        CHECK_NEAR(w[6] + w[7] + w[8], -0.9487, 1e-4);         /* 桌那一行 */
        CHECK_NEAR(out[0], 4.9487, 1e-4);
        CHECK_NEAR(out[1], -2.9487, 1e-4);
        float far, farthest = 0;                               /* 比地图上任何一个字都远 */
        CHECK_OK(attn_dot(out, out, 2, &far));
        for (size_t i = 0; i < N_WORDS; i++) {
            float len2;
            CHECK_OK(attn_dot(word_map[i].xy, word_map[i].xy, 2, &len2));
            if (len2 > farthest)
                farthest = len2;
        }
        CHECK(far > farthest);
        for (size_t i = 0; i < 3; i++)                         /* 每行最大的是自己 */
            for (size_t j = 0; j < 3; j++)
                CHECK(w[i * 3 + i] >= w[i * 3 + j]);
    }
    check_section("自己可以被追平，不会被超过：红与黄的余弦也是 1");
    {
        float c;
        CHECK_OK(attn_cosine(word_xy("红"), word_xy("黄"), 2, &c));
        CHECK_NEAR(c, 1, 1e-6);
        for (size_t i = 0; i < N_WORDS; i++)                   /* 整张地图：没有哪对字的余弦超过 1 */
            for (size_t j = 0; j < N_WORDS; j++) {
                CHECK_OK(attn_cosine(word_map[i].xy, word_map[j].xy, 2, &c));
                CHECK(c <= 1.0f + 1e-6f);
            }
    }
#line 854 "book/02-similarity.nw"
    check_section("负的权重换成 0 再除以行和：猫那一行 (0.5132, 0.4868, 0)，猫变成 (1.5132, -1)");
    {
        float x[6], w[9], out[6];
        memcpy(x + 0, word_xy("猫"), 2 * sizeof(float));
        memcpy(x + 2, word_xy("狗"), 2 * sizeof(float));
        memcpy(x + 4, word_xy("桌"), 2 * sizeof(float));
        CHECK_OK(naive_attention(x, 3, 2, 1, 1.0f, w, out));
        CHECK_NEAR(1 + 3 / sqrt(10), 1.9487, 1e-4);            /* 猫那一行置零后的和 */
        CHECK_NEAR(w[0], 0.5132, 1e-4);
        CHECK_NEAR(w[1], 0.4868, 1e-4);
        CHECK_NEAR(w[2], 0.0, 0.0);
        for (size_t i = 0; i < 3; i++) {
            CHECK_NEAR(w[i * 3] + w[i * 3 + 1] + w[i * 3 + 2], 1, 1e-6);
            for (size_t j = 0; j < 3; j++)
                CHECK(w[i * 3 + j] >= 0);
        }
        CHECK_NEAR(out[0], 1.5132, 1e-4);
        CHECK_NEAR(out[1], -1.0, 1e-6);
        /* 落在猫 (2,-1) 和狗 (1,-1) 之间的线段上 */
        CHECK(out[0] >= 1 && out[0] <= 2);
        CHECK_NEAR(w[8], 1.0, 0.0);                            /* 桌那一行只剩自己 */
        /* 练习 5：分数乘以 5，除过之后一模一样；乘以 0，行和为 0，没法除 */
        float w5[9], out5[6];
        CHECK_OK(naive_attention(x, 3, 2, 1, 5.0f, w5, out5));
        CHECK_ARRAY_NEAR(w5, w, 9, 1e-6);
        CHECK_STATUS(naive_attention(x, 3, 2, 1, 0.0f, w5, out5), ATTN_EINVAL);
    }
#line 910 "book/02-similarity.nw"
    return check_summary("ch02");
}
