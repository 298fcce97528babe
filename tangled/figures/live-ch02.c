#line 1490 "book/02-similarity.nw"
/* 图 2.1 的活图：词地图，以及查询对每个字的点积和余弦。 */
#include "attn.h"
#include "live_json.h"
#include "../examples/ch02.h"

#include <stdio.h>
#include <string.h>

/* 查询 (x, y) 对每个字的点积和余弦，写成期望的数 dot-字、cos-字 */
static int live_similarities(float x, float y)
{
    const float q[2] = {x, y};
    for (size_t i = 0; i < N_WORDS; i++) {
        float dot, cos;
        char key[32];
        if (attn_dot(q, word_map[i].xy, 2, &dot) != ATTN_OK ||
            attn_cosine(q, word_map[i].xy, 2, &cos) != ATTN_OK)
            return 1;
        snprintf(key, sizeof key, "dot-%s", word_map[i].word);
        live_number(key, dot);
        snprintf(key, sizeof key, "cos-%s", word_map[i].word);
        live_number(key, cos);
    }
    return 0;
}

int main(void)
{
    live_open(NULL, '{');
    live_open("data", '{');
    live_open("ch02-similarity", '{');
    live_number("qx", 2);                    /* 一开始查询就是“猫” */
    live_number("qy", -1);
    live_open("words", '[');
    for (size_t i = 0; i < N_WORDS; i++) {
        live_open(NULL, '{');
        live_string("w", word_map[i].word);
        live_number("x", word_map[i].xy[0]);
        live_number("y", word_map[i].xy[1]);
        live_number("g", word_map[i].group);
        live_close('}');
    }
    live_close(']');
    live_close('}');
    live_close('}');
    live_open("checks", '[');
    live_check_begin("ch02-similarity", "fill qx 1.5; fill qy -0.5");
    if (live_similarities(1.5f, -0.5f))
        return 1;
    live_check_end();
    live_check_begin("ch02-similarity", "fill qx 0; select word 猫");
    const float *cat = word_xy("猫");
    if (live_similarities(cat[0], cat[1]))
        return 1;
    live_check_end();
    live_close(']');
    live_close('}');
    putchar('\n');
    return 0;
}
