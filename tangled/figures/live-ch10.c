#line 1124 "book/10-position.nw"
/* 第 10 章的活图：RoPE 转动一个查询和一个键。 */
#include "attn.h"
#include "live_json.h"

#include <stdio.h>
#include <string.h>

enum { LIVE_D = 8 };
static float live_q[LIVE_D], live_k[LIVE_D];

/* 查询在 m、键在 n：转过之后的 q-i、k-i 和分数 dot */
static int live_rope(size_t m, size_t n, float base)
{
    float q[LIVE_D], k[LIVE_D], dot;
    char key[32];
    memcpy(q, live_q, sizeof q);
    memcpy(k, live_k, sizeof k);
    if (attn_rope(q, 1, LIVE_D, m, base) != ATTN_OK || attn_rope(k, 1, LIVE_D, n, base) != ATTN_OK ||
        attn_dot(q, k, LIVE_D, &dot) != ATTN_OK)
        return 1;
    for (int i = 0; i < LIVE_D; i++) {
        snprintf(key, sizeof key, "q-%d", i);
        live_number(key, q[i]);
        snprintf(key, sizeof key, "k-%d", i);
        live_number(key, k[i]);
    }
    live_number("dot", dot);
    return 0;
}

int main(void)
{
    attn_rng r;
    attn_rng_seed(&r, 12);
    attn_rng_normal(&r, live_q, LIVE_D);
    attn_rng_normal(&r, live_k, LIVE_D);
    live_open(NULL, '{');
    live_open("data", '{');
    live_open("ch10-rope", '{');
    live_number("d", LIVE_D);
    live_number("m", 3);
    live_number("n", 1);
    live_number("base", 10000);
    live_floats("q", live_q, LIVE_D);
    live_floats("k", live_k, LIVE_D);
    live_close('}');
    live_close('}');
    live_open("checks", '[');
    live_check_begin("ch10-rope", "fill m 10; fill n 8");
    if (live_rope(10, 8, 10000.0f))
        return 1;
    live_check_end();
    /* 再把两个位置都加 3：分数与 (10, 8) 的相同（在显示的三位小数上） */
    live_check_begin("ch10-rope", "fill m 10; fill n 8; click both 3");
    if (live_rope(13, 11, 10000.0f))
        return 1;
    live_check_end();
    live_check_begin("ch10-rope", "fill base 100; fill m 5; fill n 9");
    if (live_rope(5, 9, 100.0f))
        return 1;
    live_check_end();
    live_close(']');
    live_close('}');
    putchar('\n');
    return 0;
}
