#line 1946 "book/03-attention.nw"
/* @fig:fluffy 的活图：毛茸茸的蓝色生物，s、c 和 W_Q 都可以改。 */
#include "attn.h"
#include "live_json.h"
#include "../examples/ch03.h"

#include <stdio.h>

/* 用调用者的 w_q 和由 s、c 造出的 W_K（同 fluffy_qk）算注意力 */
static int live_fluffy(const float *w_q, float s, float c, float *w, float *out)
{
    float w_k[FL_D * FL_DK] = {0};
    w_k[1 * FL_DK + 0] = s;
    w_k[2 * FL_DK + 1] = c;
    w_k[3 * FL_DK + 2] = c;
    float q[FL_N * FL_DK], k[FL_N * FL_DK];
    if (attn_linear(fluffy_x, w_q, NULL, q, FL_N, FL_D, FL_DK) != ATTN_OK ||
        attn_linear(fluffy_x, w_k, NULL, k, FL_N, FL_D, FL_DK) != ATTN_OK)
        return ATTN_EINVAL;
    return attn_sdpa(q, k, fluffy_x, FL_N, FL_N, FL_DK, FL_D, 0.0f, NULL, 0, out, w);
}

/* 期望的数：权重 w-i-j 和第 word 个词的输出 out-j */
static void live_expect(const float *w, const float *out, int word)
{
    char key[32];
    for (int i = 0; i < FL_N; i++)
        for (int j = 0; j < FL_N; j++) {
            snprintf(key, sizeof key, "w-%d-%d", i, j);
            live_number(key, w[i * FL_N + j]);
        }
    for (int j = 0; j < FL_D; j++) {
        snprintf(key, sizeof key, "out-%d", j);
        live_number(key, out[word * FL_D + j]);
    }
}

int main(void)
{
    static const char *const parts[FL_D] = {"名词", "形容词", "第一个短语", "第二个短语", "动词"};
    float w[FL_N * FL_N], out[FL_N * FL_D];
    live_open(NULL, '{');
    live_open("data", '{');
    live_open("ch03-fluffy", '{');
    live_open("words", '[');
    for (int i = 0; i < FL_N; i++)
        live_string(NULL, fluffy_words[i]);
    live_close(']');
    live_open("parts", '[');
    for (int i = 0; i < FL_D; i++)
        live_string(NULL, parts[i]);
    live_close(']');
    live_floats("x", fluffy_x, FL_N * FL_D);
    live_number("d", FL_D);
    live_number("dk", FL_DK);
    live_number("s", 3);
    live_number("c", 2);
    live_close('}');
    live_close('}');
    live_open("checks", '[');
    /* s = 1、c = 0.5：就是 fluffy_attention(1, 0.5)，看 creature（第 3 个词）的输出 */
    live_check_begin("ch03-fluffy", "fill s 1; fill c 0.5");
    if (fluffy_attention(1.0f, 0.5f, w, out) != ATTN_OK)
        return 1;
    live_expect(w, out, 3);
    live_check_end();
    /* s = 3、c = 2，再把 W_Q 左上角（名词 → 查询的第 1 个分量）改成 0，看 forest 的输出 */
    live_check_begin("ch03-fluffy", "fill s 3; fill c 2; fill wq-0-0 0; select word forest");
    const float w_q[FL_D * FL_DK] = {0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0};
    if (live_fluffy(w_q, 3.0f, 2.0f, w, out) != ATTN_OK)
        return 1;
    live_expect(w, out, 7);
    live_check_end();
    live_close(']');
    live_close('}');
    putchar('\n');
    return 0;
}
