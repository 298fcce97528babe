#line 7569 "book/13-poems.nw"
/* examples/ch13.h — 第 13 章的图、活图和测试共用：挑出三种头；“光”的向量 */
#ifndef EXAMPLES_CH13_H
#define EXAMPLES_CH13_H

#include "../programs/poet/poet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#line 7554 "book/13-poems.nw"
/* 月光 日光 灯光 烛光 星光 | 春光 风光 山光 湖光 | 恩光 荣光：前一个字和它的组 */
static const uint32_t light_before[] = {0x6708, 0x65E5, 0x706F, 0x70DB, 0x661F,
                                        0x6625, 0x98CE, 0x5C71, 0x6E56,
                                        0x6069, 0x8363};
static const size_t light_group[] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2};
enum { LIGHT_BEFORE = 11, LIGHT_GROUPS = 3, LIGHT_PER_GROUP = 60, LIGHT = 0x5149 /* 光 */ };
/* 每组随机取 60 处的种子；对照：把 11 个前一个字随机重分成 5、4、2 个一组，200 次 */
enum { LIGHT_SEED = 1, LIGHT_NULL_SEED = 2, LIGHT_NULL_TRIALS = 200 };

#line 7581 "book/13-poems.nw"
/* 本书的检查点，检验集的前 POET_SURVEY_POEMS 首诗上每个头的统计，和挑出的三种头 */
typedef struct {
    attn_gpt m;
    poet_vocab v;
    poet_head_stats *s;           /* heads 个，层·H + 头 */
    size_t H, heads, poems, pick[3];
} ch13_heads;

/* 出错时在标准错误上印 "prog：说明"，返回非零 */
static inline int ch13_pick_heads(const char *prog, ch13_heads *c)
{
    poet_err e;
    char *text, path[4096];
    size_t len;
    memset(c, 0, sizeof *c);
    snprintf(path, sizeof path, "%s/valid.txt", POET_DEFAULT_DATA);
    if (poet_load(POET_DEFAULT_CHECKPOINT, &c->m, &c->v, &e) != ATTN_OK ||
        poet_read_file(path, &text, &len, (size_t)1 << 30, &e) != ATTN_OK) {
        fprintf(stderr, "%s：%s\n", prog, e.msg);
        return 1;
    }
    c->H = (size_t)c->m.cfg.n_heads;
    c->heads = (size_t)c->m.cfg.n_layers * c->H;
    c->s = calloc(c->heads, sizeof *c->s);
    int st = c->s == NULL ? ATTN_ENOMEM
                          : poet_head_survey(&c->m, &c->v, text, len, POET_SURVEY_POEMS, 2, c->s, &c->poems, &e);
    free(text);
    if (st != ATTN_OK) {
        fprintf(stderr, "%s：%s\n", prog, c->s == NULL ? "内存不足" : e.msg);
        return 1;
    }
    poet_pick_heads(c->s, c->heads, c->pick);
    return 0;
}

static inline void ch13_heads_free(ch13_heads *c)
{
    free(c->s);
    attn_gpt_free(&c->m);
    poet_vocab_free(&c->v);
}

/* “光”：本书的检查点读训练集，三组各取 LIGHT_PER_GROUP 处（rng 为 NULL 时取文件里最前面的，
   否则随机地取），vec[found][L + 1][d] 是“光”在输入和每一层之后的残差流 */
typedef struct {
    attn_gpt m;
    poet_vocab v;
    char *text;
    size_t len, d, L, found;
    float *vec, *layer;           /* layer[found][d]：ch13_light_layer 取出的一层 */
    size_t group[LIGHT_GROUPS * LIGHT_PER_GROUP], word[LIGHT_GROUPS * LIGHT_PER_GROUP];
    size_t occurs[LIGHT_BEFORE];  /* 每个词在训练集里的处数 */
} ch13_light;

static inline int ch13_light_open(const char *prog, ch13_light *c)
{
    poet_err e;
    char path[4096];
    memset(c, 0, sizeof *c);
    snprintf(path, sizeof path, "%s/train.txt", POET_DEFAULT_DATA);
    if (poet_load(POET_DEFAULT_CHECKPOINT, &c->m, &c->v, &e) != ATTN_OK ||
        poet_read_file(path, &c->text, &c->len, (size_t)1 << 30, &e) != ATTN_OK) {
        fprintf(stderr, "%s：%s\n", prog, e.msg);
        return 1;
    }
    c->d = (size_t)c->m.cfg.d_model;
    c->L = (size_t)c->m.cfg.n_layers;
    c->vec = malloc(LIGHT_GROUPS * LIGHT_PER_GROUP * (c->L + 1) * c->d * sizeof *c->vec);
    c->layer = malloc(LIGHT_GROUPS * LIGHT_PER_GROUP * c->d * sizeof *c->layer);
    if (c->vec == NULL || c->layer == NULL) {
        fprintf(stderr, "%s：内存不足\n", prog);
        return 1;
    }
    return 0;
}

static inline int ch13_light_vectors(ch13_light *c, attn_rng *rng)
{
    return poet_context_vectors(&c->m, &c->v, c->text, c->len, LIGHT, light_before, light_group,
                                LIGHT_BEFORE, LIGHT_GROUPS, LIGHT_PER_GROUP, rng, c->vec, c->group,
                                c->word, c->occurs, &c->found);
}

/* 块 l（0 是输入，l 是第 l−1 层之后）的 found 个向量，连续地放进 c->layer */
static inline const float *ch13_light_layer(ch13_light *c, size_t l)
{
    for (size_t i = 0; i < c->found; i++)
        memcpy(c->layer + i * c->d, c->vec + (i * (c->L + 1) + l) * c->d, c->d * sizeof *c->layer);
    return c->layer;
}

static inline void ch13_light_close(ch13_light *c)
{
    free(c->vec);
    free(c->layer);
    free(c->text);
    attn_gpt_free(&c->m);
    poet_vocab_free(&c->v);
}

#endif
