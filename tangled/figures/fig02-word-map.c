#line 56 "book/02-similarity.nw"
/* 图 2.1 的数据：第 0 块是十四个字（x y 类别 字），第 1 块是几支箭头（0 0 x y 字）。 */
#include <stdio.h>
#include <string.h>

#line 29 "book/02-similarity.nw"
/* 一张手画的二维词地图：每个字一个行向量 (x, y)，group 是它所属的类别。 */
static const struct word_point {
    const char *word;
    float xy[2];
    int group;          /* 0 颜色，1 速度，2 家具，3 动物 */
} word_map[] = {
    {"红", { 1,  1}, 0}, {"蓝", { 1,  2}, 0}, {"绿", { 2,  1}, 0}, {"黄", { 2,  2}, 0},
    {"快", {-1, -1}, 1}, {"慢", {-2, -1}, 1}, {"香", {-2, -2}, 1},
    {"桌", {-2,  1}, 2}, {"椅", {-1,  1}, 2},
    {"狗", { 1, -1}, 3}, {"猫", { 2, -1}, 3}, {"豹", { 3, -1}, 3}, {"鹿", { 2, -2}, 3},
    {"马", { 1, -2}, 3},
};
enum { N_WORDS = sizeof word_map / sizeof word_map[0] };

/* 按字查坐标；找不到时返回 NULL。 */
static const float *word_xy(const char *w)
{
    for (size_t i = 0; i < N_WORDS; i++)
        if (strcmp(word_map[i].word, w) == 0)
            return word_map[i].xy;
    return NULL;
}

#line 62 "book/02-similarity.nw"
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
