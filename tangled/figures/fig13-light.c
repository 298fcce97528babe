#line 7398 "book/13-poems.nw"
/* 图 13.4 的数据：输入和每一层各一块（以两个空行分开），每行 "第一主成分 第二主成分 组"；
   最后一块每行 "块 按最近的组中心归对的比例 随机分组的平均 随机分组的最大"（块 0 是输入，块 l 是第 l−1 层之后） */
#include "../programs/poet/poet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#line 7174 "book/13-poems.nw"
/* 月光 日光 灯光 烛光 星光 | 春光 风光 山光 湖光 | 恩光 荣光：前一个字和它的组 */
static const uint32_t light_before[] = {0x6708, 0x65E5, 0x706F, 0x70DB, 0x661F,
                                        0x6625, 0x98CE, 0x5C71, 0x6E56,
                                        0x6069, 0x8363};
static const size_t light_group[] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2};
enum { LIGHT_BEFORE = 11, LIGHT_GROUPS = 3, LIGHT_PER_GROUP = 60, LIGHT = 0x5149 /* 光 */ };
/* 每组随机取 60 处的种子；对照：把 11 个前一个字随机重分成 5、4、2 个一组，200 次 */
enum { LIGHT_SEED = 1, LIGHT_NULL_SEED = 2, LIGHT_NULL_TRIALS = 200 };

#line 7409 "book/13-poems.nw"
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
    attn_gpt m;
    poet_vocab v;
    poet_err e;
    char *text, path[4096];
    size_t len, found;
    snprintf(path, sizeof path, "%s/train.txt", POET_DEFAULT_DATA);
    if (poet_load(POET_DEFAULT_CHECKPOINT, &m, &v, &e) != ATTN_OK ||
        poet_read_file(path, &text, &len, (size_t)1 << 30, &e) != ATTN_OK) {
        fprintf(stderr, "fig13-light：%s\n", e.msg);
        return 1;
    }
    size_t d = (size_t)m.cfg.d_model, L = (size_t)m.cfg.n_layers, cap = LIGHT_GROUPS * LIGHT_PER_GROUP;
    float *vec = malloc(cap * (L + 1) * d * sizeof *vec), *layer = malloc(cap * d * sizeof *layer);
    size_t group[LIGHT_GROUPS * LIGHT_PER_GROUP], word[LIGHT_GROUPS * LIGHT_PER_GROUP];
    size_t scratch[LIGHT_GROUPS * LIGHT_PER_GROUP];
    double *x = malloc(cap * d * sizeof *x), *u1 = malloc(d * sizeof *u1), *u2 = malloc(d * sizeof *u2);
    attn_rng rng, null_rng;
    attn_rng_seed(&rng, LIGHT_SEED);                    /* 和测试取同样的随机的几处 */
    attn_rng_seed(&null_rng, LIGHT_NULL_SEED);
    if (vec == NULL || layer == NULL || x == NULL || u1 == NULL || u2 == NULL ||
        poet_context_vectors(&m, &v, text, len, LIGHT, light_before, light_group, LIGHT_BEFORE,
                             LIGHT_GROUPS, LIGHT_PER_GROUP, &rng, vec, group, word, NULL, &found) != ATTN_OK) {
        fprintf(stderr, "fig13-light：算不出向量\n");
        return 1;
    }
    double accuracy[65], null_mean[65], null_max[65];
    for (size_t l = 0; l <= L; l++) {
        double mean[4096] = {0};
        for (size_t i = 0; i < found; i++)
            for (size_t j = 0; j < d; j++) {
                layer[i * d + j] = vec[(i * (L + 1) + l) * d + j];
                mean[j] += layer[i * d + j] / (double)found;
            }
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
        null_mean[l] = poet_split_null(layer, word, found, d, light_group, LIGHT_BEFORE, LIGHT_GROUPS,
                                       LIGHT_NULL_TRIALS, &null_rng, scratch, &null_max[l]);
    }
    for (size_t l = 0; l <= L; l++)
        printf("%zu %.4f %.4f %.4f\n", l, accuracy[l], null_mean[l], null_max[l]);
    free(vec); free(layer); free(x); free(u1); free(u2); free(text);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    return 0;
}
