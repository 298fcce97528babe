#line 1414 "book/05-mask.nw"
/* 图 5.1 的活图：因果掩码、填充掩码和 KV 缓存。 */
#include "attn.h"
#include "live_json.h"

#include <stdio.h>

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
