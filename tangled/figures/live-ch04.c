#line 1002 "book/04-scaling.nw"
/* 图 4.2 的活图：一个查询、8 个键，d_k 可以改；不缩放与缩放后的权重。 */
#include "attn.h"
#include "live_json.h"

#include <stdio.h>
#include <stdlib.h>

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
