#line 943 "book/07-multihead.nw"
/* 图 7.1 的活图：三个手工头，分数 s 和因果掩码可以改。 */
#include "attn.h"

#include <math.h>

#include "live_json.h"
#include <stdio.h>
#line 810 "book/07-multihead.nw"
enum { SENT_N = 8, SENT_D = 10, SENT_H = 3, SENT_DH = 8, SENT_DC = SENT_H * SENT_DH };

static const char *const sent_words[SENT_N] = {
    "a", "fluffy", "blue", "creature", "roamed", "the", "verdant", "forest"};
static const int sent_adj[SENT_N] = {0, 1, 1, 0, 0, 0, 1, 0};
static const int sent_noun[SENT_N] = {0, 0, 0, 1, 0, 0, 0, 1};

/* x[8][10]：位置的独热编码、形容词标记、名词标记 */
static void sent_embed(float *x)
{
    for (size_t i = 0; i < SENT_N * SENT_D; i++)
        x[i] = 0.0f;
    for (size_t i = 0; i < SENT_N; i++) {
        x[i * SENT_D + i] = 1.0f;
        x[i * SENT_D + 8] = (float)sent_adj[i];
        x[i * SENT_D + 9] = (float)sent_noun[i];
    }
}

/* w_q、w_k、w_v、w_o、b_q 由调用者提供存储；s 是对得上的一对缩放后的分数 */
static void sent_heads(float s, float *wq, float *wk, float *wv, float *wo, float *bq)
{
    float c = s * sqrtf((float)SENT_DH);   /* 点积乘以 1/sqrt(8) 之后正好是 s */
    for (size_t i = 0; i < SENT_D * SENT_DC; i++)
        wq[i] = wk[i] = wv[i] = wo[i] = 0.0f;
    for (size_t i = 0; i < SENT_DC; i++)
        bq[i] = 0.0f;
    /* 头 0，列 0..7：查询 i 指向位置 i-1，键 j 就是位置 j */
    for (size_t p = 1; p < SENT_N; p++)
        wq[p * SENT_DC + 0 * SENT_DH + (p - 1)] = c;
    for (size_t p = 0; p < SENT_N; p++)
        wk[p * SENT_DC + 0 * SENT_DH + p] = 1.0f;
    /* 头 1，列 8..15：名词标记进入查询，形容词标记进入键 */
    wq[9 * SENT_DC + 1 * SENT_DH] = c;
    wk[8 * SENT_DC + 1 * SENT_DH] = 1.0f;
    /* 头 2，列 16..23：查询只有偏置，指向位置 0 */
    bq[2 * SENT_DH + 0] = c;
    for (size_t p = 0; p < SENT_N; p++)
        wk[p * SENT_DC + 2 * SENT_DH + p] = 1.0f;
    /* 值和输出：把位置编码原样搬运（本节只看注意力模式） */
    for (size_t p = 0; p < SENT_N; p++)
        for (size_t h = 0; h < SENT_H; h++) {
            wv[p * SENT_DC + h * SENT_DH + p] = 1.0f;
            wo[(h * SENT_DH + p) * SENT_D + p] = 1.0f / SENT_H;
        }
}

#line 952 "book/07-multihead.nw"
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
