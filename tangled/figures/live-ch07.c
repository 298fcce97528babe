#line 1227 "book/07-multihead.nw"
/* 图 7.1 的活图：三个手工头，分数 s 和因果掩码可以改。 */
#include "attn.h"
#include "live_json.h"
#include "../examples/ch07.h"

#include <math.h>
#include <stdio.h>

static float live_x[SENT_N * SENT_D], live_wq[SENT_D * SENT_DC], live_wk[SENT_D * SENT_DC];
static float live_wv[SENT_D * SENT_DC], live_wo[SENT_DC * SENT_D], live_bq[SENT_DC];

/* 分数 s、因果与否：三个头的模式 p-头-i-j */
static int live_heads(float s, int causal)
{
    float p[SENT_N * SENT_N];
    sent_heads(s, live_wq, live_wk, live_wv, live_wo, live_bq);
    attn_mha_weights w = {SENT_D, SENT_H, SENT_DH, live_wq, live_wk, live_wv, live_wo,
                          live_bq, NULL, NULL, NULL};
    for (int h = 0; h < SENT_H; h++) {
        if (attn_mha_pattern(&w, live_x, SENT_N, live_x, SENT_N, NULL, causal, (size_t)h, p) != ATTN_OK)
            return 1;
        for (int i = 0; i < SENT_N; i++)
            for (int j = 0; j < SENT_N; j++) {
                char key[32];
                snprintf(key, sizeof key, "p-%d-%d-%d", h, i, j);
                live_number(key, p[i * SENT_N + j]);
            }
    }
    return 0;
}

int main(void)
{
    static const char *const names[SENT_H] = {"看前一个词", "名词找形容词", "看句首"};
    sent_embed(live_x);
    sent_heads(1.0f, live_wq, live_wk, live_wv, live_wo, live_bq);
    live_open(NULL, '{');
    live_open("data", '{');
    live_open("ch07-heads", '{');
    live_open("words", '[');
    for (int i = 0; i < SENT_N; i++)
        live_string(NULL, sent_words[i]);
    live_close(']');
    live_open("head_names", '[');
    for (int h = 0; h < SENT_H; h++)
        live_string(NULL, names[h]);
    live_close(']');
    live_number("d_model", SENT_D);
    live_number("n_heads", SENT_H);
    live_number("d_head", SENT_DH);
    live_number("s", 6);
    live_floats("x", live_x, SENT_N * SENT_D);
    live_floats("wq", live_wq, SENT_D * SENT_DC);
    live_floats("wk", live_wk, SENT_D * SENT_DC);
    live_floats("wv", live_wv, SENT_D * SENT_DC);
    live_floats("wo", live_wo, SENT_DC * SENT_D);
    live_floats("bq", live_bq, SENT_DC);
    live_close('}');
    live_close('}');
    live_open("checks", '[');
    live_check_begin("ch07-heads", "fill s 2");
    if (live_heads(2.0f, 1))
        return 1;
    live_check_end();
    live_check_begin("ch07-heads", "fill s 4; check causal 0");
    if (live_heads(4.0f, 0))
        return 1;
    live_check_end();
    live_close(']');
    live_close('}');
    putchar('\n');
    return 0;
}
