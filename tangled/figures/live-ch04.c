#line 338 "book/04-scaling.nw"
/* 图 4.2 的活图：一个查询、8 个键，d_k 可以改；不缩放与缩放后的权重。 */
#include "attn.h"

#include <stdlib.h>

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

#line 345 "book/04-scaling.nw"
enum { LIVE_NK = 8 };

/* 和网页的顺序一样：种子 seed，先取 q[d_k]，再取 k[8×d_k]；写出点积和两列权重以及各列的最大值 */
static int live_scaling(size_t d_k, unsigned long long seed)
{
    int status = ATTN_ENOMEM;
    float *q = malloc(d_k * sizeof *q), *k = malloc(LIVE_NK * d_k * sizeof *k);
    float v[LIVE_NK] = {0}, out, col[3][LIVE_NK];
    attn_rng r;
    if (q == NULL || k == NULL)
        goto done;
    attn_rng_seed(&r, seed);
    attn_rng_normal(&r, q, d_k);
    attn_rng_normal(&r, k, LIVE_NK * d_k);
    if ((status = attn_dot_all(q, k, 1, LIVE_NK, d_k, col[0])) != ATTN_OK ||
        (status = attn_sdpa(q, k, v, 1, LIVE_NK, d_k, 1, 1.0f, NULL, 0, &out, col[1])) != ATTN_OK ||
        (status = attn_sdpa(q, k, v, 1, LIVE_NK, d_k, 1, 0.0f, NULL, 0, &out, col[2])) != ATTN_OK)
        goto done;
    static const char *const names[3] = {"score", "raw", "scaled"};
    for (int c = 0; c < 3; c++) {
        char key[32];
        float max = col[c][0];
        for (int j = 0; j < LIVE_NK; j++) {
            snprintf(key, sizeof key, "%s-%d", names[c], j);
            live_number(key, col[c][j]);
            if (col[c][j] > max)
                max = col[c][j];
        }
        snprintf(key, sizeof key, "max-%s", names[c]);
        live_number(key, max);
    }
done:
    free(q);
    free(k);
    return status;
}

int main(void)
{
    live_open(NULL, '{');
    live_open("data", '{');
    live_open("ch04-scaling", '{');
    live_number("n_k", LIVE_NK);
    live_number("logd", 6);             /* 一开始 d_k = 2⁶ = 64 */
    live_number("seed", 1);
    live_close('}');
    live_close('}');
    live_open("checks", '[');
    live_check_begin("ch04-scaling", "fill logd 8; fill seed 3");
    if (live_scaling(256, 3) != ATTN_OK)
        return 1;
    live_check_end();
    live_check_begin("ch04-scaling", "fill logd 0; fill seed 7");
    if (live_scaling(1, 7) != ATTN_OK)
        return 1;
    live_check_end();
    live_close(']');
    live_close('}');
    putchar('\n');
    return 0;
}
