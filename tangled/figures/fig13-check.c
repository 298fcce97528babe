#line 8084 "book/13-poems.nw"
/* 图的数据：检查器的两个比例，每行 "体裁（简称） 真诗 温度0.8和top-k40 缺省不管押韵"，先是“一个字用了三次以上”
   的三行，两个空行，再是“双数句押韵”的三行（百分数；和测试一样，种子 1 到 200） */
#include "../programs/poet/poet.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    attn_gpt m;
    poet_vocab v;
    poet_rhyme r;
    poet_err e;
    char *text, path[4096];
    size_t len;
    snprintf(path, sizeof path, "%s/valid.txt", POET_DEFAULT_DATA);
    if (poet_load(POET_DEFAULT_CHECKPOINT, &m, &v, &e) != ATTN_OK ||
        poet_rhyme_load(POET_DEFAULT_DATA "/rhyme.tsv", &v, &r, &e) != ATTN_OK ||
        poet_read_file(path, &text, &len, (size_t)1 << 30, &e) != ATTN_OK) {
        fprintf(stderr, "fig13-check：%s\n", e.msg);
        return 1;
    }
    static const int forms[3] = {POET_WUJUE, POET_QIJUE, POET_WULV};
    double repeat[3][3], rhyme[3][3];
    for (int f = 0; f < 3; f++) {
        poet_check got[3] = {{0}};
        poet_check_text(&r, &v, forms[f], text, len, &got[0]);
        poet_write_options way[2] = {poet_write_defaults(forms[f]), poet_write_defaults(forms[f])};
        way[0].top_p = 1.0f;                         /* 只用温度和 top-k */
        way[0].repetition_penalty = 1.0f;
        for (int w = 0; w < 2; w++)
            for (unsigned long long seed = 1; seed <= 200; seed++) {
                uint32_t out[64];
                size_t n;
                attn_rng rng;
                attn_rng_seed(&rng, seed);
                if (poet_write(&m, &v, &way[w], NULL, 0, &rng, out, 64, &n, &e) != ATTN_OK) {
                    fprintf(stderr, "fig13-check：%s\n", e.msg);
                    return 1;
                }
                poet_check_poem(&r, &v, forms[f], out, n, &got[w + 1]);
            }
        for (int w = 0; w < 3; w++) {
            repeat[f][w] = 100.0 * (double)got[w].repeats / (double)got[w].poems;
            rhyme[f][w] = 100.0 * (double)got[w].rhymes / (double)got[w].poems;
        }
    }
    for (int table = 0; table < 2; table++) {
        for (int f = 0; f < 3; f++) {
            const double *x = table == 0 ? repeat[f] : rhyme[f];
            static const char *const short_name[3] = {"五绝", "七绝", "五律"};
            printf("%s %.1f %.1f %.1f\n", short_name[f], x[0], x[1], x[2]);
        }
        printf("\n\n");
    }
    poet_rhyme_free(&r);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    free(text);
    return 0;
}
