#line 4203 "book/12-learning.nw"
/* 图 12.2 的活图：在页面里训练，看损失和注意力模式。 */
#include "attn.h"
#include "live_json.h"
#include "../examples/fluffy_task.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LIVE_STEPS = 100 };

/* 页面里的一步（tools/live.js）：返回这一批的平均损失，失败时是 NaN */
static float live_step(fluffy_trainer *T)
{
    int tok[FL_BATCH * FL_LEN];
    float total = 0.0f, l;
    size_t n = T->m.n_params;
    fluffy_batch(T, tok);
    memset(T->grad, 0, n * sizeof *T->grad);
    for (int b = 0; b < FL_BATCH; b++) {
        if (attn_gpt_loss_grad(&T->m, tok + b * FL_LEN, tok + b * FL_LEN + 1, FL_LEN - 1, &l,
                               &T->g) != ATTN_OK)
            return NAN;
        total += l;
    }
    for (size_t i = 0; i < n; i++)
        T->grad[i] /= FL_BATCH;
    if (attn_adamw_step(T->m.params, T->grad, T->m1, T->m2, n, ++T->t, 3e-3f, 0.9f, 0.999f,
                        1e-8f, 0.01f) != ATTN_OK)
        return NAN;
    return total / FL_BATCH;
}

int main(void)
{
    fluffy_trainer T;
    attn_gpt_config c = fluffy_config(2);
    if (fluffy_init(&T, 1) != ATTN_OK)               /* 两个头，同图 12.2 */
        return 1;
    live_open(NULL, '{');
    live_open("data", '{');
    live_open("ch12-train", '{');
    live_open("config", '[');             /* attn_gpt_config 的字段，按顺序 */
    const uint64_t shape[7] = {c.d_model, c.n_heads, c.d_head, c.n_layers, c.d_ff, c.vocab, c.n_ctx};
    for (int i = 0; i < 7; i++)
        live_number(NULL, (double)shape[i]);
    live_number(NULL, c.biases);
    live_number(NULL, c.layer_norms);
    live_number(NULL, c.learned_positions);
    live_number(NULL, c.tied);
    live_close(']');
    live_number("seed", 1);
    live_number("batch", FL_BATCH);
    live_number("len", FL_LEN);
    live_number("steps", LIVE_STEPS);
    /* 图 12.2 的两句话（第 0 号和第 64 号）的前四个词 */
    static const char *const labels[2][4] = {{"BOS", "fluffy", "blue", "creature"},
                                             {"BOS", "blue", "fluffy", "creature"}};
    live_open("labels", '[');
    for (int e = 0; e < 2; e++) {
        live_open(NULL, '[');
        for (int i = 0; i < 4; i++)
            live_string(NULL, labels[e][i]);
        live_close(']');
    }
    live_close(']');
    live_open("sentences", '[');
    for (int s = 0; s < 128; s++) {
        int tok[FL_LEN];
        fluffy_sentence(s, tok);
        live_open(NULL, '[');
        for (int i = 0; i < FL_LEN; i++)
            live_number(NULL, tok[i]);
        live_close(']');
    }
    live_close(']');
    live_open("held_out", '[');
    for (int s = 0; s < 128; s++)
        live_number(NULL, fluffy_held_out(s));
    live_close(']');
    live_close('}');
    live_close('}');
    live_open("checks", '[');
    live_check_begin("ch12-train", "click train 1");
    float loss = 0, sum = 0, eval_loss, acc;
    for (int s = 1; s <= LIVE_STEPS; s++) {
        loss = live_step(&T);
        if (s > LIVE_STEPS - 20)
            sum += loss;
    }
    live_number("step", LIVE_STEPS);
    live_number("loss", loss);
    live_number("mean", sum / 20);
    fluffy_eval(&T.m, &eval_loss, &acc);
    live_number("eval-loss", eval_loss);
    live_number("eval-acc", acc);
    size_t head = fluffy_colour_head(&T.m, 0);
    live_number("head", (double)head);
    const int sent[2] = {0, 64};          /* 同图 12.2 */
    for (int e = 0; e < 2; e++) {
        int tok[FL_LEN];
        float w[2 * 2 * 16];
        fluffy_sentence(sent[e], tok);
        if (fluffy_patterns(&T.m, tok, 4, w) != ATTN_OK)
            return 1;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j <= i; j++) {
                char key[32];
                snprintf(key, sizeof key, "p-%d-%d-%d", e, i, j);
                live_number(key, w[head * 16 + i * 4 + j]);
            }
    }
    live_check_end();
    live_close(']');
    live_close('}');
    putchar('\n');
    fluffy_free(&T);
    return 0;
}
