#line 1424 "book/02-similarity.nw"
/* figures/live_json.c — 活图数据程序的 JSON 输出（接口见 live_json.h） */
#include "live_json.h"

#include <stdio.h>

static int live_items;      /* 当前这一层已经写了几项：第二项起先写逗号 */

static void live_key(const char *key)
{
    if (live_items++)
        putchar(',');
    if (key != NULL)
        printf("\"%s\":", key);
}

void live_open(const char *key, char bracket)
{
    live_key(key);
    putchar(bracket);
    live_items = 0;
}

void live_close(char bracket)
{
    putchar(bracket);
    live_items = 1;
}

void live_number(const char *key, double x)
{
    live_key(key);
    printf("%.9g", x);
}

void live_string(const char *key, const char *s)
{
    live_key(key);
    printf("\"%s\"", s);
}

void live_floats(const char *key, const float *x, size_t n)
{
    live_open(key, '[');
    for (size_t i = 0; i < n; i++)
        live_number(NULL, x[i]);
    live_close(']');
}

void live_check_begin(const char *figure, const char *ops)
{
    live_open(NULL, '{');
    live_string("figure", figure);
    live_string("do", ops);
    live_open("expect", '{');
}

void live_check_end(void)
{
    live_close('}');
    live_close('}');
}
