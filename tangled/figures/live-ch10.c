#line 749 "book/10-position.nw"
/* 第 10 章的活图：RoPE 转动一个查询和一个键。 */
#include "attn.h"

#include <string.h>

#line 255 "book/02-similarity.nw"
/* 活图的数据程序向标准输出打印一个 JSON 对象：
   {"data": {图名: 网页要用的输入}, "checks": [{"figure": 图名, "do": 操作, "expect": {键: 数}}]}。
   “操作”是用分号隔开的 "fill 控件名 值"、"select 控件名 值"、"check 控件名 0|1"、"click 控件名 次数"；
   expect 的键是图上显示那个数的位置（网页里的 data-v 属性）。 */
#include <stdio.h>

/* 每个程序只用到其中一部分：没用到的不要警告 */
#if defined(__GNUC__)
#define LIVE_HELPER static inline __attribute__((unused))
#else
#define LIVE_HELPER static inline
#endif

static int live_items;      /* 当前这一层已经写了几项：第二项起先写逗号 */

LIVE_HELPER void live_key(const char *key)
{
    if (live_items++)
        putchar(',');
    if (key != NULL)
        printf("\"%s\":", key);
}

/* 开始一个对象 '{' 或数组 '['；key 为 NULL 表示数组里的一项 */
LIVE_HELPER void live_open(const char *key, char bracket)
{
    live_key(key);
    putchar(bracket);
    live_items = 0;
}

LIVE_HELPER void live_close(char bracket)
{
    putchar(bracket);
    live_items = 1;
}

LIVE_HELPER void live_number(const char *key, double x)
{
    live_key(key);
    printf("%.9g", x);
}

LIVE_HELPER void live_string(const char *key, const char *s)
{
    live_key(key);
    printf("\"%s\"", s);
}

LIVE_HELPER void live_floats(const char *key, const float *x, size_t n)
{
    live_open(key, '[');
    for (size_t i = 0; i < n; i++)
        live_number(NULL, x[i]);
    live_close(']');
}

/* 一次检查：对图 figure 做操作 ops，接下来用 live_number 写出期望的数，最后 live_check_end */
LIVE_HELPER void live_check_begin(const char *figure, const char *ops)
{
    live_open(NULL, '{');
    live_string("figure", figure);
    live_string("do", ops);
    live_open("expect", '{');
}

LIVE_HELPER void live_check_end(void)
{
    live_close('}');
    live_close('}');
}

#line 756 "book/10-position.nw"
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
