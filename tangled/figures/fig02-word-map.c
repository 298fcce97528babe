#line 1374 "book/02-similarity.nw"
/* 图 2.1 的数据：第 0 块是十四个字（x y 类别 字），第 1 块是几支箭头（0 0 x y 字）。 */
#include <stdio.h>
#include <string.h>

#include "../examples/ch02.h"

int main(void)
{
    for (size_t i = 0; i < N_WORDS; i++)
        printf("%g %g %d %s\n", word_map[i].xy[0], word_map[i].xy[1],
               word_map[i].group, word_map[i].word);
    printf("\n\n");
    const char *arrows[] = {"猫", "狗", "豹", "红", "桌"};
    for (size_t i = 0; i < sizeof arrows / sizeof arrows[0]; i++) {
        const float *p = word_xy(arrows[i]);
        printf("0 0 %g %g %s\n", p[0], p[1], arrows[i]);
    }
    return 0;
}
