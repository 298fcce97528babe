#line 7691 "book/13-poems.nw"
/* 图 13.1 的数据：训练集里各个汉字出现的次数，从多到少；每行 "名次 次数" */
#include "../programs/poet/poet.h"

#include <stdio.h>
#include <stdlib.h>

static int by_count_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x < y) - (x > y);
}

int main(void)
{
    char *text, path[4096];
    size_t len, at = 0, n = 0;
    poet_err e;
    snprintf(path, sizeof path, "%s/train.txt", POET_DEFAULT_DATA);
    uint32_t *counts = calloc(POET_CODE_POINTS, sizeof *counts);
    if (counts == NULL || poet_read_file(path, &text, &len, (size_t)1 << 30, &e) != ATTN_OK) {
        fprintf(stderr, "fig13-zipf：%s\n", counts == NULL ? "内存不足" : e.msg);
        return 1;
    }
    while (at < len) {
        long c = poet_utf8_next(text, len, &at);
        if (c < 0) {
            fprintf(stderr, "fig13-zipf：%s 不是合法的 UTF-8\n", path);
            return 1;
        }
        if (poet_is_han((uint32_t)c))
            counts[c]++;
    }
    for (size_t c = 0; c < POET_CODE_POINTS; c++)
        if (counts[c] > 0)
            counts[n++] = counts[c];
    qsort(counts, n, sizeof *counts, by_count_desc);
    for (size_t r = 0; r < n; r++)
        printf("%zu %u\n", r + 1, counts[r]);
    free(counts);
    free(text);
    return 0;
}
