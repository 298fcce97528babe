#line 7357 "book/13-poems.nw"
/* 图 13.3 的数据：三块（以两个空行分开），每行 "查询 键 权重"，依次是看前一个字、
   看上一句同一位置、看上一联韵脚的头读《登鹳雀楼》；最后一块是三个头的名字 "层 头" */
#include "../programs/poet/poet.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    const char *prog = "fig13-heads";
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
#line 7368 "book/13-poems.nw"
    static const char poem[] = "\n白日依山尽，黄河入海流。欲穷千里目，更上一层楼。";
    int ids[64];
    size_t n;
    float *patterns = malloc(heads * 64 * 64 * sizeof *patterns);
    if (patterns == NULL || poet_encode(&v, poem, sizeof poem - 1, ids, &n, &e) != ATTN_OK ||
        poet_attention(&m, ids, n, patterns, NULL) != ATTN_OK) {
        fprintf(stderr, "fig13-heads：算不出注意力\n");
        return 1;
    }
    for (int k = 0; k < 3; k++) {
        const float *p = patterns + pick[k] * n * n;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                printf("%zu %zu %.4f\n", i, j, j <= i ? p[i * n + j] : 0.0);
        printf("\n\n");
    }
    printf("%zu %zu %zu %zu %zu %zu\n", pick[0] / H, pick[0] % H, pick[1] / H, pick[1] % H,
           pick[2] / H, pick[2] % H);
    free(patterns); free(s); free(text);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    return 0;
}
