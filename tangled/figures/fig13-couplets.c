#line 7571 "book/13-poems.nw"
/* 图的数据：两个头在对照的字对上的平均权重和同距离的基线，每行 "名字 权重 基线"
   （头 pick[1]：四联之内和跨联的同一位置；头 pick[2]：韵脚和不押韵的句末） */
#include "../programs/poet/poet.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    const char *prog = "fig13-couplets";
#line 7336 "book/13-poems.nw"
    attn_gpt m;
    poet_vocab v;
    poet_err e;
    char *text, path[4096];
    size_t len, poems, pick[3];
    snprintf(path, sizeof path, "%s/valid.txt", POET_DEFAULT_DATA);
    if (poet_load(POET_DEFAULT_CHECKPOINT, &m, &v, &e) != ATTN_OK ||
        poet_read_file(path, &text, &len, (size_t)1 << 30, &e) != ATTN_OK) {
        fprintf(stderr, "%s：%s\n", prog, e.msg);
        return 1;
    }
    size_t H = (size_t)m.cfg.n_heads, heads = (size_t)m.cfg.n_layers * H;
    poet_head_stats *s = calloc(heads, sizeof *s);
    if (s == NULL || poet_head_survey(&m, &v, text, len, POET_SURVEY_POEMS, 2, s, &poems, &e) != ATTN_OK) {
        fprintf(stderr, "%s：%s\n", prog, s == NULL ? "内存不足" : e.msg);
        return 1;
    }
    poet_pick_heads(s, heads, pick);
#line 7582 "book/13-poems.nw"
    const poet_head_stats *b = &s[pick[1]], *c = &s[pick[2]];
    static const char *const couplet[4] = {"首联", "颔联", "颈联", "尾联"};
    for (int k = 0; k < 4; k++)
        printf("%s %.4f %.4f\n", couplet[k], b->couplet[k], b->couplet_base[k]);
    printf("跨联 %.4f %.4f\n", b->across, b->across_base);
    printf("韵脚 %.4f %.4f\n", c->rhyme, c->rhyme_base);
    printf("非韵句末 %.4f %.4f\n", c->other_end, c->other_end_base);
    free(s); free(text);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    return 0;
}
