#line 7877 "book/13-poems.nw"
/* 图 13.4 的数据：输入和每一层各一块（以两个空行分开），每行 "第一主成分 第二主成分 组"；
   最后一块每行 "块 按最近的组中心归对的比例 随机分组的平均 随机分组的最大"（块 0 是输入，块 l 是第 l−1 层之后） */
#include "../examples/ch13.h"

#include <math.h>

/* x[n][d] 中心化以后的协方差的最大特征向量，与 orth（可以为 NULL）正交；写进 u[d] */
static void top_direction(const double *x, size_t n, size_t d, const double *orth, double *u)
{
    double *w = malloc(d * sizeof *w);
    for (size_t j = 0; j < d; j++)
        u[j] = 1.0 / sqrt((double)d) * (j % 2 ? 1 : -1);
    for (int it = 0; it < 300; it++) {
        memset(w, 0, d * sizeof *w);
        for (size_t i = 0; i < n; i++) {                /* w = Xᵀ·(X·u) */
            double s = 0.0;
            for (size_t j = 0; j < d; j++)
                s += x[i * d + j] * u[j];
            for (size_t j = 0; j < d; j++)
                w[j] += s * x[i * d + j];
        }
        if (orth != NULL) {
            double s = 0.0;
            for (size_t j = 0; j < d; j++)
                s += w[j] * orth[j];
            for (size_t j = 0; j < d; j++)
                w[j] -= s * orth[j];
        }
        double norm = 0.0;
        for (size_t j = 0; j < d; j++)
            norm += w[j] * w[j];
        norm = sqrt(norm);
        for (size_t j = 0; j < d; j++)
            u[j] = norm > 0 ? w[j] / norm : 0.0;
    }
    free(w);
}

int main(void)
{
    ch13_light c;
    if (ch13_light_open("fig13-light", &c))
        return 1;
    size_t d = c.d, L = c.L, found, *group = c.group, scratch[LIGHT_GROUPS * LIGHT_PER_GROUP];
    double *x = malloc(LIGHT_GROUPS * LIGHT_PER_GROUP * d * sizeof *x), *u1 = malloc(d * sizeof *u1),
           *u2 = malloc(d * sizeof *u2);
    attn_rng rng, null_rng;
    attn_rng_seed(&rng, LIGHT_SEED);                    /* 和测试取同样的随机的几处 */
    attn_rng_seed(&null_rng, LIGHT_NULL_SEED);
    if (x == NULL || u1 == NULL || u2 == NULL || ch13_light_vectors(&c, &rng) != ATTN_OK) {
        fprintf(stderr, "fig13-light：算不出向量\n");
        return 1;
    }
    found = c.found;
    double accuracy[65], null_mean[65], null_max[65];
    for (size_t l = 0; l <= L; l++) {
        double mean[4096] = {0};
        const float *layer = ch13_light_layer(&c, l);
        for (size_t i = 0; i < found; i++)
            for (size_t j = 0; j < d; j++)
                mean[j] += layer[i * d + j] / (double)found;
        for (size_t i = 0; i < found; i++)
            for (size_t j = 0; j < d; j++)
                x[i * d + j] = layer[i * d + j] - mean[j];
        top_direction(x, found, d, NULL, u1);
        top_direction(x, found, d, u1, u2);
        for (size_t i = 0; i < found; i++) {
            double a = 0.0, b = 0.0;
            for (size_t j = 0; j < d; j++) {
                a += x[i * d + j] * u1[j];
                b += x[i * d + j] * u2[j];
            }
            printf("%.5f %.5f %zu\n", a, b, group[i]);
        }
        printf("\n\n");
        accuracy[l] = poet_centroid_accuracy(layer, group, found, d, LIGHT_GROUPS);
        null_mean[l] = poet_split_null(layer, c.word, found, d, light_group, LIGHT_BEFORE, LIGHT_GROUPS,
                                       LIGHT_NULL_TRIALS, &null_rng, scratch, &null_max[l]);
    }
    for (size_t l = 0; l <= L; l++)
        printf("%zu %.4f %.4f %.4f\n", l, accuracy[l], null_mean[l], null_max[l]);
    free(x); free(u1); free(u2);
    ch13_light_close(&c);
    return 0;
}
