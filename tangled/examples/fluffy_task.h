#line 1897 "book/12-learning.nw"
/* examples/fluffy_task.h — 第 12 章的训练任务：小语言的句子、模型的形状、取批、训练一步、检验，
   还有读出训练后的注意力模式。不属于库：attn-train、第 12 章的测试和图的数据程序
   各自包含它（函数都是 static）。 */
#ifndef FLUFFY_TASK_H
#define FLUFFY_TASK_H

#include "attn.h"
#include "../src/train.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#line 832 "book/12-learning.nw"
enum { FL_BOS = 0, FL_TEX = 1, FL_COL = 5, FL_NOUN = 9, FL_VERB = 13,
       FL_VOCAB = 29, FL_LEN = 5 };

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
    c.n_heads = (uint64_t)heads; c.d_head = 32 / (uint64_t)heads;
    c.d_ff = 64; c.biases = 1;
    c.layer_norms = 1; c.learned_positions = 1; c.tied = 1;
    return c;
}

#line 1931 "book/12-learning.nw"
enum { FL_BATCH = 16 };

typedef struct {
    attn_gpt m, g;                    /* 模型；套在梯度缓冲区上的同形模型 */
    float *grad, *m1, *m2;            /* 梯度和 AdamW 的两个矩，各 n_params 个 */
    void *work;                       /* attn_gpt_loss_grad_batch 的工作区 */
    size_t work_bytes;
    float scale;                      /* 注意力的缩放：0 表示 1/sqrt(d_head) */
    float lr;                         /* 学习率，默认 3e-3 */
    double clip, grad_norm;           /* 梯度长度的上限（0：不裁剪）；这一步裁剪前的长度 */
    unsigned long t;                  /* 已经走了几步 */
    attn_rng rng;                     /* 取批用 */
} fluffy_trainer;

/* 模型的形状和两个实验用的选项 */
typedef struct {
    int heads;          /* 每层的头数，d_model 要能被它整除 */
    uint64_t d_model;   /* 默认 32；d_ff = 2·d_model */
    float scale;        /* 0：1/sqrt(d_head)；1：不缩放 */
    float qk_std;       /* 0：W_Q、W_K 按 GPT-2 取 N(0, 0.02²)；否则取 N(0, qk_std²) */
} fluffy_shape;

/* 这一步要用的 16 句话（只由种子决定） */
static void fluffy_batch(fluffy_trainer *T, int *tok)
{
    for (int b = 0; b < FL_BATCH; b++) {
        int s;
        do s = (int)(attn_rng_next(&T->rng) % 128); while (fluffy_held_out(s));
        fluffy_sentence(s, tok + b * FL_LEN);
    }
}

/* 取一批；copy 不为 NULL 时另抄一份给调用者 */
static void fluffy_batch_copy(fluffy_trainer *T, int *tok, int *copy)
{
    fluffy_batch(T, tok);
    if (copy != NULL)
        memcpy(copy, tok, FL_BATCH * FL_LEN * sizeof *tok);
}

#line 868 "book/12-learning.nw"
/* 一步；返回这一批的平均训练损失。
   失败（例如训练发散，logits 不再有限）时返回 NaN、不走这一步。
   batch 不为 NULL 时得到这一批的词（FL_BATCH × FL_LEN） */
static inline float fluffy_step(fluffy_trainer *T, int *batch)
{
    int tok[FL_BATCH * FL_LEN];
    int in[FL_BATCH * (FL_LEN - 1)], out[FL_BATCH * (FL_LEN - 1)];
    fluffy_batch_copy(T, tok, batch);
    for (int b = 0; b < FL_BATCH; b++)      /* 每句：读前 4 个词，猜后 4 个词 */
        for (int i = 0; i < FL_LEN - 1; i++) {
            in[b * (FL_LEN - 1) + i] = tok[b * FL_LEN + i];
            out[b * (FL_LEN - 1) + i] = tok[b * FL_LEN + i + 1];
        }
    float loss;
    memset(T->grad, 0, T->m.n_params * sizeof *T->grad);
    if (attn_gpt_train_scaled(&T->m, in, out, FL_BATCH, FL_LEN - 1, T->scale,
                              &loss, NULL, &T->g, T->work, T->work_bytes) != ATTN_OK)
        return NAN;
#line 254 "book/12-learning.nw"
    double norm = 0;                      /* 全部参数的梯度的长度，按参数的顺序累加 */
    for (size_t i = 0; i < T->m.n_params; i++)
        norm += (double)T->grad[i] * T->grad[i];
    T->grad_norm = norm = sqrt(norm);
    if (T->clip > 0 && norm > T->clip)
        for (size_t i = 0; i < T->m.n_params; i++)
            T->grad[i] *= (float)(T->clip / norm);
#line 887 "book/12-learning.nw"
    if (attn_gpt_adamw_step(&T->m, &T->g, T->m1, T->m2, T->t + 1, T->lr,
                            0.9f, 0.999f, 1e-8f, 0.01f) != ATTN_OK)
        return NAN;
    T->t++;
    return loss;
}

#line 1976 "book/12-learning.nw"
/* 在留出的句子上：名词位置猜动词的平均损失与准确率（注意力的缩放为 scale）；失败时损失是 NaN */
static void fluffy_eval_scaled(const attn_gpt *m, float scale, float *loss, float *acc)
{
    enum { MAXH = 128 };
    int in[MAXH * (FL_LEN - 1)], out[MAXH * (FL_LEN - 1)], count = 0, right = 0;
    float lg[MAXH * (FL_LEN - 1) * FL_VOCAB], all;
    for (int s = 0; s < 128; s++) {
        if (!fluffy_held_out(s))
            continue;
        int tok[FL_LEN];
        fluffy_sentence(s, tok);
        for (int i = 0; i < FL_LEN - 1; i++) {
            in[count * (FL_LEN - 1) + i] = tok[i];
            out[count * (FL_LEN - 1) + i] = tok[i + 1];
        }
        count++;
    }
    *loss = NAN;
    *acc = 0;
    if (attn_gpt_train_scaled(m, in, out, (size_t)count, FL_LEN - 1, scale, &all, lg, NULL,
                              NULL, 0) != ATTN_OK)
        return;
    double sum = 0;
    for (int c = 0; c < count; c++) {
        const float *row = lg + ((size_t)c * (FL_LEN - 1) + 3) * FL_VOCAB;
        int want = out[c * (FL_LEN - 1) + 3], best = 0;
        float l;
        if (attn_cross_entropy(row, &want, 1, FL_VOCAB, &l, NULL) != ATTN_OK)
            return;
        sum += l;
        for (int j = 1; j < FL_VOCAB; j++)
            best = row[j] > row[best] ? j : best;
        right += best == want;
    }
    *loss = (float)(sum / count);
    *acc = (float)right / (float)count;
}


#line 2017 "book/12-learning.nw"
/* 失败时返回状态码，*T 里已经分配的用 fluffy_free 释放 */
static int fluffy_init_shape(fluffy_trainer *T, unsigned long long seed, const fluffy_shape *o)
{
    attn_gpt_config c = fluffy_config(o->heads);
    c.d_model = o->d_model; c.d_head = o->d_model / (uint64_t)o->heads; c.d_ff = 2 * o->d_model;
    memset(T, 0, sizeof *T);
    int st = attn_gpt_init(&T->m, &c, seed);
    if (st != ATTN_OK)
        return st;
    size_t n = T->m.n_params, d = (size_t)c.d_model;
    T->scale = o->scale;
    T->lr = 3e-3f;
    T->work_bytes = attn_gpt_train_bytes(&c, FL_BATCH, FL_LEN - 1);
    T->grad = calloc(n, sizeof(float));
    T->m1 = calloc(n, sizeof(float));
    T->m2 = calloc(n, sizeof(float));
    T->work = malloc(T->work_bytes);
    if (T->grad == NULL || T->m1 == NULL || T->m2 == NULL || T->work == NULL)
        return ATTN_ENOMEM;
    if ((st = attn_gpt_bind(&T->g, &c, T->grad, n)) != ATTN_OK)
        return st;
    if (o->qk_std > 0)                /* 同一组随机数，只放大 W_Q、W_K */
        for (size_t l = 0; l < (size_t)c.n_layers; l++)
            for (size_t i = 0; i < d * d; i++) {
                T->m.layers[l].w_q[i] *= o->qk_std / 0.02f;
                T->m.layers[l].w_k[i] *= o->qk_std / 0.02f;
            }
    attn_rng_seed(&T->rng, seed ^ 0x5eedULL);
    return ATTN_OK;
}

static int fluffy_init_heads(fluffy_trainer *T, unsigned long long seed, int heads)
{
    fluffy_shape o = {heads, 32, 0.0f, 0.0f};
    return fluffy_init_shape(T, seed, &o);
}

/* 简写：每层两个头。引入本块的程序不一定都用它（unused 让编译器不为此告警） */
static inline __attribute__((unused)) int fluffy_init(fluffy_trainer *T, unsigned long long seed)
{
    return fluffy_init_heads(T, seed, 2);
}

static void fluffy_free(fluffy_trainer *T)
{
    attn_gpt_free(&T->g);
    attn_gpt_free(&T->m);
    free(T->grad); free(T->m1); free(T->m2); free(T->work);
    memset(T, 0, sizeof *T);
}

/* 检验，注意力照常缩放 */
static inline __attribute__((unused)) void fluffy_eval(const attn_gpt *m, float *loss, float *acc)
{
    fluffy_eval_scaled(m, 0.0f, loss, acc);
}

#line 4093 "book/12-learning.nw"
/* w[(layer·n_heads + head)·n·n + i·n + j]：第 layer 层第 head 个头，查询 i 对键 j 的权重。
   n ≤ 8，d_model ≤ 32；出错时返回状态码 */
static inline int fluffy_patterns(const attn_gpt *m, const int *tok, size_t n, float *w)
{
    size_t d = (size_t)m->cfg.d_model, H = (size_t)m->cfg.n_heads;
    size_t dh = (size_t)m->cfg.d_head, hd = H * dh;
    float x[8 * 32], a[8 * 32], q[8 * 32], k[8 * 32], qh[8 * 32], kh[8 * 32], o[8 * 32];
    int st = attn_gpt_embed(m, tok, n, 0, x);
    for (size_t l = 0; st == ATTN_OK && l < (size_t)m->cfg.n_layers; l++) {
        const attn_gpt_layer *L = &m->layers[l];
        if ((st = attn_layernorm(x, L->ln1_g, L->ln1_b, a, n, d, 1e-5f)) != ATTN_OK ||
            (st = attn_linear(a, L->w_q, L->b_q, q, n, d, hd)) != ATTN_OK ||
            (st = attn_linear(a, L->w_k, L->b_k, k, n, d, hd)) != ATTN_OK)
            return st;
        for (size_t h = 0; st == ATTN_OK && h < H; h++) {
            for (size_t i = 0; i < n; i++) {
                memcpy(qh + i * dh, q + i * hd + h * dh, dh * sizeof *q);
                memcpy(kh + i * dh, k + i * hd + h * dh, dh * sizeof *k);
            }
            st = attn_sdpa(qh, kh, kh, n, n, dh, dh, 0.0f, NULL, 1, o, w + (l * H + h) * n * n);
        }
        if (st == ATTN_OK)
            st = attn_gpt_block(m, l, x, n);
    }
    return st;
}

#line 4125 "book/12-learning.nw"
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
        if (fluffy_patterns(m, tok, 4, w) != ATTN_OK) {
            *col = *tex = NAN;
            return;
        }
        *col += row[cp] / 128.0;
        *tex += row[3 - cp] / 128.0;
        if (row[cp] < *low) *low = row[cp];
    }
}

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

#line 1925 "book/12-learning.nw"
#endif
