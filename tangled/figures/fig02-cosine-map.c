#line 1354 "book/02-similarity.nw"
/* 图：十四个字两两的余弦。每行 “列 行 余弦 列的字 行的字” */
#include <stdio.h>
#include <string.h>

#include "../examples/ch02.h"

int main(void)
{
    for (size_t i = 0; i < N_WORDS; i++)
        for (size_t j = 0; j < N_WORDS; j++) {
            float c;
            if (attn_cosine(word_map[i].xy, word_map[j].xy, 2, &c) != ATTN_OK)
                return 1;
            printf("%zu %zu %.4f %s %s\n", j, i, c, word_map[j].word, word_map[i].word);
        }
    return 0;
}
