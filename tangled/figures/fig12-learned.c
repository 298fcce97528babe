#line 2199 "book/12-learning.nw"
/* 图 12.2 的数据：两块（以两个空行分开），每行 "查询 键 权重"，第 0 层第 1 个头 */
#include "attn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#line 1829 "book/12-learning.nw"
enum { FL_BOS = 0, FL_TEX = 1, FL_COL = 5, FL_NOUN = 9, FL_VERB = 13, FL_VOCAB = 29, FL_LEN = 5 };

/* 第 s 句话（0 ≤ s < 128）：BOS 形容词 形容词 名词 动词 */
static void fluffy_sentence(int s, int *tok)
{
    int tex = s % 4, col = (s / 4) % 4, noun = (s / 16) % 4, order = s / 64;
    tok[0] = FL_BOS;
    tok[1 + order] = FL_TEX + tex;
    tok[2 - order] = FL_COL + col;
    tok[3] = FL_NOUN + noun;
    tok[4] = FL_VERB + col * 4 + noun;
}

static int fluffy_held_out(int s) { return (37 * s) % 128 < 24; }

/* heads 个头，每个 32/heads 维（heads 为 1、2、4、8、16 或 32） */
static attn_gpt_config fluffy_config(int heads)
{
    attn_gpt_config c = {0};
    c.vocab = FL_VOCAB; c.n_ctx = 8; c.d_model = 32; c.n_layers = 2;
    c.n_heads = (uint64_t)heads; c.d_head = 32 / (uint64_t)heads; c.d_ff = 64; c.biases = 1; c.layer_norms = 1;
    c.learned_positions = 1; c.tied = 1;
    return c;
}
#line 1859 "book/12-learning.nw"
enum { FL_BATCH = 16, FL_MAX_THREADS = 16 };

typedef struct {
    attn_gpt m;
    int threads;                      /* 每个线程一块梯度缓冲区 */
    attn_gpt g[FL_MAX_THREADS];
    float *grad, *adam_m, *adam_v;    /* grad：threads × n_params */
    unsigned long t;
    attn_rng rng;
} fluffy_trainer;

static int fluffy_init_heads(fluffy_trainer *T, unsigned long long seed, int threads, int heads)
{
    attn_gpt_config c = fluffy_config(heads);
    memset(T, 0, sizeof *T);
    if (threads < 1 || threads > FL_MAX_THREADS || attn_gpt_init(&T->m, &c, seed) != ATTN_OK)
        return ATTN_EINVAL;
    size_t n = T->m.n_params;
    T->threads = threads;
    T->grad = calloc(n * (size_t)threads, sizeof(float));
    T->adam_m = calloc(n, sizeof(float));
    T->adam_v = calloc(n, sizeof(float));
    if (T->grad == NULL || T->adam_m == NULL || T->adam_v == NULL)
        return ATTN_ENOMEM;
    for (int i = 0; i < threads; i++)
        if (attn_gpt_bind(&T->g[i], &c, T->grad + (size_t)i * n, n) != ATTN_OK)
            return ATTN_ENOMEM;
    attn_rng_seed(&T->rng, seed ^ 0x5eedULL);
    return ATTN_OK;
}

static inline int fluffy_init(fluffy_trainer *T, unsigned long long seed, int threads)
{
    return fluffy_init_heads(T, seed, threads, 2);
}

static void fluffy_free(fluffy_trainer *T)
{
    for (int i = 0; i < FL_MAX_THREADS; i++)
        attn_gpt_free(&T->g[i]);
    attn_gpt_free(&T->m);
    free(T->grad); free(T->adam_m); free(T->adam_v);
}

/* 这一步要用的 16 句话（只由种子决定，与线程数无关） */
static void fluffy_batch(fluffy_trainer *T, int *tok)
{
    for (int b = 0; b < FL_BATCH; b++) {
        int s;
        do s = (int)(attn_rng_next(&T->rng) % 128); while (fluffy_held_out(s));
        fluffy_sentence(s, tok + b * FL_LEN);
    }
}

/* 一步；返回这一批的平均训练损失。batch 不为 NULL 时得到这一批的词（FL_BATCH × FL_LEN） */
static float fluffy_step(fluffy_trainer *T, int *batch)
{
    size_t n = T->m.n_params;
    int tok[FL_BATCH * FL_LEN], nt = T->threads;
    float losses[FL_BATCH];
    fluffy_batch(T, tok);
    if (batch != NULL)
        memcpy(batch, tok, sizeof tok);
    /* 线程 w 算第 w, w+nt, … 句，梯度加在自己的缓冲区上 */
    #pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int w = 0; w < nt; w++) {
        memset(T->grad + (size_t)w * n, 0, n * sizeof *T->grad);
        for (int b = w; b < FL_BATCH; b += nt)
            attn_gpt_loss_grad(&T->m, tok + b * FL_LEN, tok + b * FL_LEN + 1, FL_LEN - 1,
                               &losses[b], &T->g[w]);
    }
    /* 按固定的顺序合起来：结果只由种子和线程数决定 */
    float total = 0;
    for (int b = 0; b < FL_BATCH; b++) total += losses[b];
    for (int w = 1; w < nt; w++)
        for (size_t i = 0; i < n; i++) T->grad[i] += T->grad[(size_t)w * n + i];
    for (size_t i = 0; i < n; i++) T->grad[i] /= FL_BATCH;
    attn_adamw_step(T->m.params, T->grad, T->adam_m, T->adam_v, n, ++T->t,
                    3e-3f, 0.9f, 0.999f, 1e-8f, 0.01f);
    return total / FL_BATCH;
}

/* 在留出的句子上：名词位置猜动词的平均损失与准确率 */
static void fluffy_eval(const attn_gpt *m, float *loss, float *acc)
{
    float lg[(FL_LEN - 1) * FL_VOCAB], l;
    int right = 0, count = 0;
    double sum = 0;
    for (int s = 0; s < 128; s++) {
        if (!fluffy_held_out(s)) continue;
        int tok[FL_LEN];
        fluffy_sentence(s, tok);
        attn_gpt_forward(m, tok, FL_LEN - 1, lg);
        const float *row = lg + 3 * FL_VOCAB;
        attn_cross_entropy(row, tok + 4, 1, FL_VOCAB, &l, NULL);
        sum += l;
        int best = 0;
        for (int j = 1; j < FL_VOCAB; j++) if (row[j] > row[best]) best = j;
        right += best == tok[4];
        count++;
    }
    *loss = (float)(sum / count);
    *acc = (float)right / (float)count;
}

#line 2134 "book/12-learning.nw"
/* w[(layer·n_heads + head)·n·n + i·n + j]：第 layer 层第 head 个头，查询 i 对键 j 的权重。n ≤ 8 */
static void fluffy_patterns(const attn_gpt *m, const int *tok, size_t n, float *w)
{
    size_t d = (size_t)m->cfg.d_model, H = (size_t)m->cfg.n_heads;
    size_t dh = (size_t)m->cfg.d_head, hd = H * dh;
    float x[8 * 32], a[8 * 32], q[8 * 32], k[8 * 32], qh[8 * 32], kh[8 * 32], o[8 * 32];
    attn_gpt_embed(m, tok, n, 0, x);
    for (size_t l = 0; l < (size_t)m->cfg.n_layers; l++) {
        const attn_gpt_layer *L = &m->layers[l];
        attn_layernorm(x, L->ln1_g, L->ln1_b, a, n, d, 1e-5f);
        attn_linear(a, L->w_q, L->b_q, q, n, d, hd);
        attn_linear(a, L->w_k, L->b_k, k, n, d, hd);
        for (size_t h = 0; h < H; h++) {
            for (size_t i = 0; i < n; i++) {
                memcpy(qh + i * dh, q + i * hd + h * dh, dh * sizeof *q);
                memcpy(kh + i * dh, k + i * hd + h * dh, dh * sizeof *k);
            }
            attn_sdpa(qh, kh, kh, n, n, dh, dh, 0.0f, NULL, 1, o, w + (l * H + h) * n * n);
        }
        attn_gpt_block(m, l, x, n);
    }
}

#line 2210 "book/12-learning.nw"
int main(void)
{
    fluffy_trainer T;
    if (fluffy_init(&T, 1, 1) != ATTN_OK)
        return 1;
    for (int s = 0; s < 2000; s++)
        fluffy_step(&T, NULL);
    const int sent[2] = {0, 64};       /* fluffy blue creature；blue fluffy creature */
    for (int e = 0; e < 2; e++) {
        int tok[FL_LEN];
        float w[2 * 2 * 16];
        fluffy_sentence(sent[e], tok);
        fluffy_patterns(&T.m, tok, 4, w);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                printf("%d %d %.4f\n", i, j, w[16 + i * 4 + j]);
        if (e == 0) printf("\n\n");
    }
    fluffy_free(&T);
    return 0;
}
