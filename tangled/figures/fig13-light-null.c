#line 8054 "book/13-poems.nw"
/* 图的数据：“光”按意思分组时归对的比例，和随机重分 200 次的平均、最大；
   每行 "块 归对 平均 最大"（块 0 是输入，块 l 是第 l−1 层之后），和测试取同样的随机的几处 */
#include "../examples/ch13.h"

int main(void)
{
    ch13_light c;
    size_t scratch[LIGHT_GROUPS * LIGHT_PER_GROUP];
    attn_rng rng, null_rng;
    attn_rng_seed(&rng, LIGHT_SEED);
    attn_rng_seed(&null_rng, LIGHT_NULL_SEED);
    if (ch13_light_open("fig13-light-null", &c))
        return 1;
    if (ch13_light_vectors(&c, &rng) != ATTN_OK) {
        fprintf(stderr, "fig13-light-null：算不出向量\n");
        return 1;
    }
    for (size_t l = 0; l <= c.L; l++) {
        const float *layer = ch13_light_layer(&c, l);
        double max, acc = poet_centroid_accuracy(layer, c.group, c.found, c.d, LIGHT_GROUPS);
        double mean = poet_split_null(layer, c.word, c.found, c.d, light_group, LIGHT_BEFORE, LIGHT_GROUPS,
                                      LIGHT_NULL_TRIALS, &null_rng, scratch, &max);
        printf("%zu %.4f %.4f %.4f\n", l, acc, mean, max);
    }
    ch13_light_close(&c);
    return 0;
}
