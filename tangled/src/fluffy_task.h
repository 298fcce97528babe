#line 2320 "book/12-learning.nw"
/* src/fluffy_task.h — 第 12 章的训练任务：小语言的句子、模型的形状、取批、训练一步、检验，
   还有读出训练后的注意力模式（后面两节）。不属于库：attn-train、第 12 章的测试和图的数据程序
   各自包含它（函数都是 static）。 */
#ifndef FLUFFY_TASK_H
#define FLUFFY_TASK_H

#include "attn.h"

#include <stdlib.h>
#include <string.h>

#line 2116 "book/12-learning.nw"
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
#line 2148 "book/12-learning.nw"
#include "train.h"

#include <math.h>
#include <stdint.h>

enum { FL_BATCH = 16, FL_MAX_THREADS = 16 };

typedef struct {
    attn_gpt m;
    int threads;                      /* 每个线程一块梯度缓冲区、一个工作区 */
    int serial;                       /* 非零：各线程的那一份依次在一个线程上算，结果不变 */
    attn_gpt g[FL_MAX_THREADS];
    train_work work[FL_MAX_THREADS];
    float *grad, *adam_m, *adam_v;    /* grad：threads × n_params */
    float scale;                      /* 注意力的缩放：0 表示 1/sqrt(d_head) */
    unsigned long t;
    attn_rng rng;
} fluffy_trainer;

/* 模型的形状和两个实验用的选项 */
typedef struct {
    int heads;          /* 每层的头数，d_model 要能被它整除 */
    uint64_t d_model;   /* 默认 32；d_ff = 2·d_model */
    float scale;        /* 0：1/sqrt(d_head)；1：不缩放 */
    float qk_std;       /* 0：W_Q、W_K 按 GPT-2 取 N(0, 0.02²)；否则取 N(0, qk_std²) */
} fluffy_shape;

static int fluffy_init_shape(fluffy_trainer *T, unsigned long long seed, int threads,
                             const fluffy_shape *o)
{
    attn_gpt_config c = fluffy_config(o->heads);
    c.d_model = o->d_model; c.d_head = o->d_model / (uint64_t)o->heads; c.d_ff = 2 * o->d_model;
    memset(T, 0, sizeof *T);
    if (threads < 1 || threads > FL_MAX_THREADS || attn_gpt_init(&T->m, &c, seed) != ATTN_OK)
        return ATTN_EINVAL;
    size_t n = T->m.n_params, d = (size_t)c.d_model;
    T->threads = threads;
    T->scale = o->scale;
    T->grad = calloc(n * (size_t)threads, sizeof(float));
    T->adam_m = calloc(n, sizeof(float));
    T->adam_v = calloc(n, sizeof(float));
    if (T->grad == NULL || T->adam_m == NULL || T->adam_v == NULL)
        return ATTN_ENOMEM;
    for (int i = 0; i < threads; i++)
        if (attn_gpt_bind(&T->g[i], &c, T->grad + (size_t)i * n, n) != ATTN_OK)
            return ATTN_ENOMEM;
    if (o->qk_std > 0)                /* 同一组随机数，只放大 W_Q、W_K */
        for (size_t l = 0; l < (size_t)c.n_layers; l++)
            for (size_t i = 0; i < d * d; i++) {
                T->m.layers[l].w_q[i] *= o->qk_std / 0.02f;
                T->m.layers[l].w_k[i] *= o->qk_std / 0.02f;
            }
    attn_rng_seed(&T->rng, seed ^ 0x5eedULL);
    return ATTN_OK;
}

static int fluffy_init_heads(fluffy_trainer *T, unsigned long long seed, int threads, int heads)
{
    fluffy_shape o = {heads, 32, 0.0f, 0.0f};
    return fluffy_init_shape(T, seed, threads, &o);
}

/* 这两个是简写：引入本块的程序不一定都用它们（unused 让编译器不为此告警） */
static inline __attribute__((unused)) int fluffy_init(fluffy_trainer *T, unsigned long long seed, int threads)
{
    return fluffy_init_heads(T, seed, threads, 2);
}

static void fluffy_free(fluffy_trainer *T)
{
    for (int i = 0; i < FL_MAX_THREADS; i++) {
        attn_gpt_free(&T->g[i]);
        train_work_free(&T->work[i]);
    }
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
    int tok[FL_BATCH * FL_LEN], in[FL_BATCH * (FL_LEN - 1)], out[FL_BATCH * (FL_LEN - 1)];
    int nt = T->threads, bad = 0;
    double losses[FL_MAX_THREADS] = {0};
    fluffy_batch(T, tok);
    if (batch != NULL)
        memcpy(batch, tok, sizeof tok);
    for (int b = 0; b < FL_BATCH; b++)      /* 每句：读前 4 个词，猜后 4 个词 */
        for (int i = 0; i < FL_LEN - 1; i++) {
            in[b * (FL_LEN - 1) + i] = tok[b * FL_LEN + i];
            out[b * (FL_LEN - 1) + i] = tok[b * FL_LEN + i + 1];
        }
    /* 线程 w 算连续的一段句子，梯度加在自己的缓冲区上 */
    #pragma omp parallel for num_threads(nt) schedule(static, 1) if(nt > 1 && !T->serial) reduction(|:bad)
    for (int w = 0; w < nt; w++) {
        int b0 = w * FL_BATCH / nt, b1 = (w + 1) * FL_BATCH / nt;
        memset(T->grad + (size_t)w * n, 0, n * sizeof *T->grad);
        if (b1 > b0)
            bad |= train_loss_grad(&T->m, in + b0 * (FL_LEN - 1), out + b0 * (FL_LEN - 1),
                                   (size_t)(b1 - b0), FL_LEN - 1, T->scale, &losses[w],
                                   NULL, &T->g[w], 1.0f / (FL_BATCH * (FL_LEN - 1)),
                                   &T->work[w]) != ATTN_OK;
    }
    if (bad)                          /* 训练发散（logits 不再有限）：不走这一步 */
        return NAN;
    /* 按固定的顺序合起来：结果只由种子和线程数决定 */
    double total = 0;
    for (int w = 0; w < nt; w++) total += losses[w];
    for (int w = 1; w < nt; w++)
        for (size_t i = 0; i < n; i++) T->grad[i] += T->grad[(size_t)w * n + i];
    attn_adamw_step(T->m.params, T->grad, T->adam_m, T->adam_v, n, ++T->t,
                    3e-3f, 0.9f, 0.999f, 1e-8f, 0.01f);
    return (float)(total / (FL_BATCH * (FL_LEN - 1)));
}

/* 在留出的句子上：名词位置猜动词的平均损失与准确率（注意力的缩放为 scale） */
static void fluffy_eval_scaled(const attn_gpt *m, float scale, float *loss, float *acc)
{
    enum { MAXH = 128 };
    int in[MAXH * (FL_LEN - 1)], out[MAXH * (FL_LEN - 1)], count = 0, right = 0;
    float lg[MAXH * (FL_LEN - 1) * FL_VOCAB];
    for (int s = 0; s < 128; s++) {
        if (!fluffy_held_out(s)) continue;
        int tok[FL_LEN];
        fluffy_sentence(s, tok);
        for (int i = 0; i < FL_LEN - 1; i++) {
            in[count * (FL_LEN - 1) + i] = tok[i];
            out[count * (FL_LEN - 1) + i] = tok[i + 1];
        }
        count++;
    }
    double sum = 0;
    *loss = NAN;
    *acc = 0;
    if (train_loss_grad(m, in, out, (size_t)count, FL_LEN - 1, scale, &sum, lg, NULL, 0.0f,
                        NULL) != ATTN_OK)
        return;
    sum = 0;
    for (int c = 0; c < count; c++) {
        const float *row = lg + ((size_t)c * (FL_LEN - 1) + 3) * FL_VOCAB;
        int want = out[c * (FL_LEN - 1) + 3];
        float l;
        attn_cross_entropy(row, &want, 1, FL_VOCAB, &l, NULL);
        sum += l;
        int best = 0;
        for (int j = 1; j < FL_VOCAB; j++) if (row[j] > row[best]) best = j;
        right += best == want;
    }
    *loss = (float)(sum / count);
    *acc = (float)right / (float)count;
}

static inline __attribute__((unused)) void fluffy_eval(const attn_gpt *m, float *loss, float *acc)
{
    fluffy_eval_scaled(m, 0.0f, loss, acc);
}

#line 2406 "book/12-learning.nw"
/* w[(layer·n_heads + head)·n·n + i·n + j]：第 layer 层第 head 个头，查询 i 对键 j 的权重。n ≤ 8 */
static inline void fluffy_patterns(const attn_gpt *m, const int *tok, size_t n, float *w)
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

#line 2433 "book/12-learning.nw"
static inline void fluffy_colour_share(const attn_gpt *m, size_t layer, size_t head,
                                double *col, double *tex, double *low)
{
    float w[2 * 2 * 16];
    const float *row = w + (layer * (size_t)m->cfg.n_heads + head) * 16 + 12;
    *col = *tex = 0;
    *low = 1;
    for (int s = 0; s < 128; s++) {
        int tok[FL_LEN], cp = s < 64 ? 2 : 1;     /* 颜色的位置 */
        fluffy_sentence(s, tok);
        fluffy_patterns(m, tok, 4, w);
        *col += row[cp] / 128.0;
        *tex += row[3 - cp] / 128.0;
        if (row[cp] < *low) *low = row[cp];
    }
}
#line 2454 "book/12-learning.nw"
/* 第 layer 层里，名词的查询平均给颜色最多的那个头 */
static inline size_t fluffy_colour_head(const attn_gpt *m, size_t layer)
{
    size_t best = 0;
    double top = -1, col, tex, low;
    for (size_t h = 0; h < (size_t)m->cfg.n_heads; h++) {
        fluffy_colour_share(m, layer, h, &col, &tex, &low);
        if (col > top) {
            top = col;
            best = h;
        }
    }
    return best;
}

#line 2337 "book/12-learning.nw"
#endif
