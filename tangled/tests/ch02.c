#line 1110 "book/02-similarity.nw"
#include "attn.h"
#include "check.h"

#include <math.h>
#include <string.h>

#include "../examples/ch02.h"

#line 490 "book/02-similarity.nw"
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


#line 1121 "book/02-similarity.nw"
int main(void)
{
#line 147 "book/02-similarity.nw"
    check_section("词地图上的点积");
    {
        float d;
        CHECK_OK(attn_dot(word_xy("猫"), word_xy("狗"), 2, &d));
        CHECK_NEAR(d, 3, 0);
        CHECK_OK(attn_dot(word_xy("猫"), word_xy("桌"), 2, &d));
        CHECK_NEAR(d, -5, 0);
        CHECK_OK(attn_dot(word_xy("狗"), word_xy("红"), 2, &d));
        CHECK_NEAR(d, 0, 0);                      /* 互相垂直 */
        CHECK_STATUS(attn_dot(NULL, word_xy("狗"), 2, &d), ATTN_EINVAL);
        CHECK_STATUS(attn_dot(word_xy("猫"), word_xy("狗"), 0, &d), ATTN_EINVAL);
    }
#line 202 "book/02-similarity.nw"
    check_section("词地图上的余弦相似度");
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
#line 229 "book/02-similarity.nw"
    check_section("点积保留长度，余弦只看方向");
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
    }
#line 449 "book/02-similarity.nw"
    check_section("距离的平方 = |a|² + |b|² - 2a·b");
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
#line 513 "book/02-similarity.nw"
    check_section("开方的代价：d = 1024");
    {
        CHECK_INT(count_sqdist_ops(1024), 3071);
        CHECK_INT(count_dot_ops(1024), 2047);
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
#line 549 "book/02-similarity.nw"
    check_section("softmax 里距离只比点积多罚键的长度；两者的偏好可以相反");
    {
        const float q[2] = {1.0f, 2.0f};
        const float k[3][2] = {{2.0f, 0.0f}, {0.0f, 1.0f}, {1.0f, 1.5f}};
        float by_dist[3], by_dot[3];
        for (int j = 0; j < 3; j++) {
            float dx = q[0] - k[j][0], dy = q[1] - k[j][1];
            float qk = q[0] * k[j][0] + q[1] * k[j][1];
            float kk = k[j][0] * k[j][0] + k[j][1] * k[j][1];
            float qq = q[0] * q[0] + q[1] * q[1];
            CHECK_NEAR(dx * dx + dy * dy, qq + kk - 2.0f * qk, 1e-5);
            by_dist[j] = -(dx * dx + dy * dy);
            by_dot[j] = 2.0f * qk - kk;
        }
        naive_softmax(by_dist, 3);
        naive_softmax(by_dot, 3);
        CHECK_ARRAY_NEAR(by_dist, by_dot, 3, 1e-6);
        const float a[2] = {1.0f, 0.0f}, b[2] = {3.0f, 0.0f};
        float dot_a = a[0] * 1.0f, dot_b = b[0] * 1.0f;
        float dist_a = fabsf(a[0] - 1.0f), dist_b = fabsf(b[0] - 1.0f);
        CHECK(dot_b > dot_a);
        CHECK(dist_a < dist_b);
        CHECK_NEAR(dist_b, 2.0, 0.0);
    }
#line 608 "book/02-similarity.nw"
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
        CHECK_STATUS(attn_dot_all(a, a, N_WORDS, 0, 2, all), ATTN_EINVAL);
        CHECK_STATUS(attn_dot_all(a, a, (size_t)-1, 2, 2, all), ATTN_EINVAL);
    }
#line 678 "book/02-similarity.nw"
    check_section("软查找：apple 10，banana 5，chair 2");
    {
        const float value[3] = {10, 5, 2};        /* apple, banana, chair */
        const float fruit[3] = {0.6f, 0.4f, 0.0f};
        float got;
        CHECK_OK(attn_weighted_sum(fruit, value, 3, 1, &got));
        CHECK_NEAR(got, 8, 1e-6);
        CHECK_NEAR(fruit[0] + fruit[1] + fruit[2], 1, 1e-7);
        const float hard[3] = {1, 0, 0};          /* 硬查找 apple */
        CHECK_OK(attn_weighted_sum(hard, value, 3, 1, &got));
        CHECK_NEAR(got, 10, 0);
        CHECK_STATUS(attn_weighted_sum(hard, NULL, 3, 1, &got), ATTN_EINVAL);
        CHECK_STATUS(attn_weighted_sum(hard, value, 3, 0, &got), ATTN_EINVAL);
    }
#line 714 "book/02-similarity.nw"
    check_section("固定权重矩阵的大小随长度增长");
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
#line 804 "book/02-similarity.nw"
    check_section("朴素注意力：余弦当权重");
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
        size_t zeros = 0;                                      /* 稠密：地图上没有一个分量是 0 */
        for (size_t i = 0; i < N_WORDS; i++)
            zeros += (word_map[i].xy[0] == 0) + (word_map[i].xy[1] == 0);
        CHECK_INT(zeros, 0);
    }
    check_section("朴素注意力：softmax 之后");
    {
        float x[6], w[9], out[6];
        memcpy(x + 0, word_xy("猫"), 2 * sizeof(float));
        memcpy(x + 2, word_xy("狗"), 2 * sizeof(float));
        memcpy(x + 4, word_xy("桌"), 2 * sizeof(float));
        CHECK_OK(naive_attention(x, 3, 2, 1, 1.0f, w, out));
        CHECK_NEAR(w[0], 0.4795, 1e-4);
        CHECK_NEAR(w[1], 0.4556, 1e-4);
        CHECK_NEAR(w[2], 0.0649, 1e-4);
        for (size_t i = 0; i < 3; i++) {
            CHECK_NEAR(w[i * 3] + w[i * 3 + 1] + w[i * 3 + 2], 1, 1e-6);
            for (size_t j = 0; j < 3; j++)
                CHECK(w[i * 3 + j] > 0);
        }
        CHECK_NEAR(out[0], 1.2848, 1e-4);
        CHECK_NEAR(out[1], -0.8702, 1e-4);
        /* 猫的新位置在猫、狗、桌围成的三角形里：三个重心坐标就是三个正权重 */
        CHECK(out[0] > -2 && out[0] < 2 && out[1] > -1 && out[1] < 1);
        /* 练习 5 的参考答案：余弦乘以 5 再 softmax */
        CHECK_OK(naive_attention(x, 3, 2, 1, 5.0f, w, out));
        CHECK_NEAR(w[0], 0.5638, 1e-4);
        CHECK_NEAR(w[1], 0.4362, 1e-4);
        CHECK_NEAR(w[2], 0.0000256, 1e-7);
    }
#line 1133 "book/02-similarity.nw"
    return check_summary("ch02");
}
