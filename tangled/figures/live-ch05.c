#line 817 "book/05-mask.nw"
/* 图 5.1 的活图：因果掩码、填充掩码和 KV 缓存。 */
#include "attn.h"

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

#line 822 "book/05-mask.nw"
enum { LIVE_N = 6, LIVE_D = 8, LIVE_SEED = 5 };
static float live_q[LIVE_N * LIVE_D], live_k[LIVE_N * LIVE_D], live_v[LIVE_N];

int main(void)
{
    attn_rng r;
    attn_rng_seed(&r, LIVE_SEED);                  /* 同图 5.1：先 q，再 k，再 v */
    attn_rng_normal(&r, live_q, LIVE_N * LIVE_D);
    attn_rng_normal(&r, live_k, LIVE_N * LIVE_D);
    attn_rng_normal(&r, live_v, LIVE_N);
    live_open(NULL, '{');
    live_open("data", '{');
    live_open("ch05-mask", '{');
    live_number("n", LIVE_N);
    live_number("d", LIVE_D);
    live_number("seed", LIVE_SEED);
    live_close('}');
    live_close('}');
    live_open("checks", '[');
    /* 不要因果掩码，只有前 4 个键有效 */
    {
        unsigned char mask[LIVE_N * LIVE_N];
        float out[LIVE_N], w[LIVE_N * LIVE_N];
        for (int i = 0; i < LIVE_N; i++)
            for (int j = 0; j < LIVE_N; j++)
                mask[i * LIVE_N + j] = j < 4;
        if (attn_sdpa(live_q, live_k, live_v, LIVE_N, LIVE_N, LIVE_D, 1, 0.0f, mask, 0, out, w) != ATTN_OK)
            return 1;
        live_check_begin("ch05-mask", "check causal 0; fill valid 4");
        for (int i = 0; i < LIVE_N; i++)
            for (int j = 0; j < LIVE_N; j++) {
                char key[32];
                snprintf(key, sizeof key, "w-%d-%d", i, j);
                live_number(key, w[i * LIVE_N + j]);
            }
        live_check_end();
    }
    /* KV 缓存：读入 3 个词，每一步新词的查询对缓存里的全部键 */
    {
        attn_kv_cache c;
        float out, w[LIVE_N];
        if (attn_kv_cache_init(&c, LIVE_N, LIVE_D, 1) != ATTN_OK)
            return 1;
        live_check_begin("ch05-mask", "click step 3");
        for (int t = 0; t < 3; t++) {
            if (attn_kv_cache_append(&c, live_k + t * LIVE_D, live_v + t, 1) != ATTN_OK ||
                attn_kv_cache_attend(&c, live_q + t * LIVE_D, 1, 0.0f, &out, w) != ATTN_OK)
                return 1;
            for (int j = 0; j <= t; j++) {
                char key[32];
                snprintf(key, sizeof key, "kv-%d-%d", t, j);
                live_number(key, w[j]);
            }
        }
        live_number("kv-len", (double)c.len);
        live_check_end();
        attn_kv_cache_free(&c);
    }
    live_close(']');
    live_close('}');
    putchar('\n');
    return 0;
}
