#line 7970 "book/13-poems.nw"
/* 图 13.x 的数据：读了换行和“白日依山”以后，下一个字（只算汉字）的概率；分数最大的十个字，
   每行 "名次 字 温度0.5 温度0.8 温度1 温度1.5" */
#include "../programs/poet/poet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    static const float temps[4] = {0.5f, 0.8f, 1.0f, 1.5f};
    static const uint32_t start[5] = {'\n', 0x767D, 0x65E5, 0x4F9D, 0x5C71};   /* ↵白日依山 */
    attn_gpt m;
    poet_vocab v;
    poet_err e;
    if (poet_load(POET_DEFAULT_CHECKPOINT, &m, &v, &e) != ATTN_OK) {
        fprintf(stderr, "fig13-temperature：%s\n", e.msg);
        return 1;
    }
    size_t V = v.n;
    int ids[5];
    for (int i = 0; i < 5; i++)
        ids[i] = poet_vocab_id(&v, start[i]);
    float *logits = malloc(5 * V * sizeof *logits);
    double *p = malloc(4 * V * sizeof *p);
    if (logits == NULL || p == NULL || attn_gpt_forward(&m, ids, 5, logits) != ATTN_OK) {
        fprintf(stderr, "fig13-temperature：算不出分数\n");
        return 1;
    }
    const float *s = logits + 4 * V;                 /* 读了“山”以后的分数 */
    float top = -INFINITY;
    for (size_t i = 1; i < V; i++)
        if (poet_is_han(v.cp[i]) && s[i] > top)
            top = s[i];
    for (int t = 0; t < 4; t++) {                    /* softmax(s / T)，只在汉字上 */
        double sum = 0.0;
        for (size_t i = 0; i < V; i++) {
            p[t * V + i] = i > 0 && poet_is_han(v.cp[i]) ? exp(((double)s[i] - top) / temps[t]) : 0.0;
            sum += p[t * V + i];
        }
        for (size_t i = 0; i < V; i++)
            p[t * V + i] /= sum;
    }
    /* 分数最大的十个字：每次挑一个剩下的最大者（只挑十次，不必排序） */
    for (int r = 0; r < 10; r++) {
        size_t best = 0;
        for (size_t i = 1; i < V; i++)
            if (p[2 * V + i] > p[2 * V + best])
                best = i;
        char ch[5];
        ch[poet_utf8_put(v.cp[best], ch)] = '\0';
        printf("%d %s %.6f %.6f %.6f %.6f\n", r + 1, ch, p[best], p[V + best], p[2 * V + best], p[3 * V + best]);
        p[2 * V + best] = -1.0;                      /* 挑过了 */
    }
    free(logits); free(p);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    return 0;
}
