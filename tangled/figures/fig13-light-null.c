#line 7597 "book/13-poems.nw"
/* 图的数据：“光”按意思分组时归对的比例，和随机重分 200 次的平均、最大；
   每行 "块 归对 平均 最大"（块 0 是输入，块 l 是第 l−1 层之后），和测试取同样的随机的几处 */
#include "../programs/poet/poet.h"

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

#line 7607 "book/13-poems.nw"
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
        fprintf(stderr, "fig13-light-null：%s\n", e.msg);
        return 1;
    }
    size_t d = (size_t)m.cfg.d_model, L = (size_t)m.cfg.n_layers, cap = LIGHT_GROUPS * LIGHT_PER_GROUP;
    float *vec = malloc(cap * (L + 1) * d * sizeof *vec), *layer = malloc(cap * d * sizeof *layer);
    size_t group[LIGHT_GROUPS * LIGHT_PER_GROUP], word[LIGHT_GROUPS * LIGHT_PER_GROUP];
    size_t scratch[LIGHT_GROUPS * LIGHT_PER_GROUP];
    attn_rng rng, null_rng;
    attn_rng_seed(&rng, LIGHT_SEED);
    attn_rng_seed(&null_rng, LIGHT_NULL_SEED);
    if (vec == NULL || layer == NULL ||
        poet_context_vectors(&m, &v, text, len, LIGHT, light_before, light_group, LIGHT_BEFORE,
                             LIGHT_GROUPS, LIGHT_PER_GROUP, &rng, vec, group, word, NULL, &found) != ATTN_OK) {
        fprintf(stderr, "fig13-light-null：算不出向量\n");
        return 1;
    }
    for (size_t l = 0; l <= L; l++) {
        for (size_t i = 0; i < found; i++)
            memcpy(layer + i * d, vec + (i * (L + 1) + l) * d, d * sizeof *layer);
        double max, acc = poet_centroid_accuracy(layer, group, found, d, LIGHT_GROUPS);
        double mean = poet_split_null(layer, word, found, d, light_group, LIGHT_BEFORE, LIGHT_GROUPS,
                                      LIGHT_NULL_TRIALS, &null_rng, scratch, &max);
        printf("%zu %.4f %.4f %.4f\n", l, acc, mean, max);
    }
    free(vec); free(layer); free(text);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    return 0;
}
