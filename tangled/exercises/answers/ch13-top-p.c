#line 3293 "book/13-poems.nw"
/* exercises/answers/ch13-top-p.c — 练习 6 的参考答案 */
#include "attn.h"
#include "ex.h"

#include <stdlib.h>

typedef struct { float p; size_t id; } prob_id;

/* 概率大的在前，相同时下标小的在前 */
static int larger_first(const void *a, const void *b)
{
    const prob_id *x = a, *y = b;
    if (x->p != y->p)
        return x->p > y->p ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

int ch13_top_p(float *p, size_t V, float top_p)
{
    if (V == 0 || !(top_p > 0.0f && top_p <= 1.0f))
        return 0;
    prob_id *s = malloc(V * sizeof *s);
    unsigned char *keep = calloc(V, 1);
    if (s == NULL || keep == NULL) {
        free(s);
        free(keep);
        return 0;
    }
    for (size_t i = 0; i < V; i++)
        s[i] = (prob_id){p[i], i};
    qsort(s, V, sizeof *s, larger_first);
    size_t k = 0;
    double sum = 0.0;
    while (k < V && (top_p >= 1.0f || sum < top_p)) {
        sum += s[k].p;
        keep[s[k++].id] = 1;
    }
    for (size_t i = 0; i < V; i++)
        p[i] = keep[i] ? (float)(p[i] / sum) : 0.0f;
    free(s);
    free(keep);
    return (int)k;
}
