#line 5481 "book/13-poems.nw"
/* programs/poet/train.c — 第 13 章：训练一步（一批、裁剪、AdamW），检验，存取训练的状态 */
#define _POSIX_C_SOURCE 200809L
#include "poet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#line 5509 "book/13-poems.nw"
int poet_trainer_init(poet_trainer *T, const attn_gpt_config *cfg, const poet_train_options *o,
                      poet_err *e)
{
    memset(T, 0, sizeof *T);
    if (o->steps == 0 || o->batch == 0 || o->warmup >= o->steps || !(o->lr > 0) ||
        !(o->lr_min >= 0) || o->lr_min > o->lr || !(o->weight_decay >= 0) || !(o->clip >= 0) ||
        cfg->n_layers > 64)
        return poet_fail(e, ATTN_EINVAL, "训练的设置不对：步数、批大小为 0，预热不短于步数，或学习率不合理");
    T->o = *o;
    if (attn_gpt_init(&T->m, cfg, o->seed) != ATTN_OK)
        return poet_fail(e, ATTN_EINVAL, "attn_gpt_init 失败：模型的形状不对，或者内存不足");
    size_t np = T->m.n_params, n_ctx = (size_t)cfg->n_ctx;
    T->work_bytes = attn_gpt_train_bytes(cfg, o->batch, n_ctx);
    T->grad = calloc(np, sizeof *T->grad);
    T->adam_m = calloc(np, sizeof *T->adam_m);
    T->adam_v = calloc(np, sizeof *T->adam_v);
    T->starts = calloc(o->batch, sizeof *T->starts);
    T->tokens = calloc(o->batch * n_ctx, sizeof *T->tokens);
    T->targets = calloc(o->batch * n_ctx, sizeof *T->targets);
    T->work = T->work_bytes ? malloc(T->work_bytes) : NULL;
    int ok = T->grad && T->adam_m && T->adam_v && T->starts && T->tokens && T->targets && T->work &&
             attn_gpt_bind(&T->g, cfg, T->grad, np) == ATTN_OK;
    if (!ok) {
        poet_trainer_free(T);
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    }
    attn_rng_seed(&T->rng, o->seed ^ 0x7061747a5eedULL);
    return ATTN_OK;
}

void poet_trainer_free(poet_trainer *T)
{
    attn_gpt_free(&T->g);
    attn_gpt_free(&T->m);
    free(T->grad); free(T->adam_m); free(T->adam_v); free(T->starts); free(T->tokens); free(T->targets); free(T->work);
    memset(T, 0, sizeof *T);
}

#line 239 "book/13-poems.nw"
float poet_lr(const poet_train_options *o, unsigned long step)
{
    if (step <= o->warmup)
        return o->lr * (float)step / (float)o->warmup;
    double progress = (double)(step - o->warmup) / (double)(o->steps - o->warmup);
    if (progress > 1.0)
        progress = 1.0;
    return o->lr_min
           + (float)(0.5 * (o->lr - o->lr_min) * (1.0 + cos(M_PI * progress)));
}

#line 261 "book/13-poems.nw"
int poet_train_step(poet_trainer *T, const int *ids, size_t n, int threads,
                    float *loss, float *lr_out, poet_err *e)
{
    size_t np = T->m.n_params, B = T->o.batch, n_ctx = (size_t)T->m.cfg.n_ctx;
#line 5435 "book/13-poems.nw"
    if (n < n_ctx + 1)         /* n = n_ctx + 1 正好一个窗口：起点只能是 0 */
        return poet_fail(e, ATTN_EINVAL, "训练的文字只有 %zu 个字，一个窗口要 %zu 个", n, n_ctx + 1);
    #ifdef _OPENMP
    omp_set_num_threads(threads < 1 ? 1 : threads);
    #else
    (void)threads;
    #endif
#line 266 "book/13-poems.nw"
    /* 一批：第 b 个窗口是 ids[start .. start + n_ctx]，
       前 n_ctx 个读进模型，后 n_ctx 个是答案 */
    for (size_t b = 0; b < B; b++) {
        size_t start = T->starts[b] = (size_t)(attn_rng_next(&T->rng) % (n - n_ctx));
        memcpy(T->tokens + b * n_ctx, ids + start, n_ctx * sizeof *ids);
        memcpy(T->targets + b * n_ctx, ids + start + 1, n_ctx * sizeof *ids);
    }
    /* 平均的损失和它的梯度（第 12 章） */
    memset(T->grad, 0, np * sizeof *T->grad);
    int st = attn_gpt_loss_grad_batch(&T->m, T->tokens, T->targets, B, n_ctx, loss,
                                      &T->g, T->work, T->work_bytes);
    if (st != ATTN_OK)
        return poet_fail(e, st, "第 %lu 步：attn_gpt_loss_grad_batch 失败："
                                "%s（logits 不再是有限数？）",
                         T->step + 1, attn_strerror(st));
    /* 梯度的长度（double，按参数的顺序累加）；超过 clip 就整体缩短 */
    double norm = 0.0;
    for (size_t i = 0; i < np; i++)
        norm += (double)T->grad[i] * T->grad[i];
    norm = sqrt(norm);
    if (T->o.clip > 0 && norm > T->o.clip) {
        float k = (float)(T->o.clip / (norm + 1e-6));
        for (size_t i = 0; i < np; i++)
            T->grad[i] *= k;
    }
    /* 第 12 章的 AdamW：矩阵衰减，偏置和层规范化不衰减 */
    T->step++;
    *lr_out = poet_lr(&T->o, T->step);
    attn_gpt_adamw_step(&T->m, &T->g, T->adam_m, T->adam_v, T->step, *lr_out,
                        0.9f, 0.95f, 1e-8f, T->o.weight_decay);
    return ATTN_OK;
}

#line 5447 "book/13-poems.nw"
int poet_eval(const attn_gpt *m, const int *ids, size_t n, int threads, double *loss_sum,
              size_t *count)
{
    size_t n_ctx = (size_t)m->cfg.n_ctx, windows = (n + n_ctx - 1) / n_ctx;
    double *part = calloc(windows ? windows : 1, sizeof *part);
    if (part == NULL)
        return ATTN_ENOMEM;
    int bad = 0;
#ifdef _OPENMP
    #pragma omp parallel for num_threads(threads < 1 ? 1 : threads) schedule(dynamic) reduction(|:bad)
#else
    (void)threads;      /* 没有 OpenMP 的构建：一个线程 */
#endif
    for (size_t w = 0; w < windows; w++) {
        size_t at = w * n_ctx, len = n - at < n_ctx ? n - at : n_ctx;
        float loss = 0.0f;
        if (len >= 2)          /* 读 len − 1 个词，猜它们各自的下一个 */
            bad |= attn_gpt_loss_grad(m, ids + at, ids + at + 1, len - 1, &loss, NULL) != ATTN_OK;
        part[w] = (double)loss * (double)(len - 1);
    }
    double sum = 0.0;
    size_t k = 0;
    for (size_t w = 0; w < windows; w++) {
        sum += part[w];
        k += (n - w * n_ctx < n_ctx ? n - w * n_ctx : n_ctx) - 1;
    }
    free(part);
    *loss_sum = sum;
    *count = k;
    return bad ? ATTN_EINVAL : ATTN_OK;
}

#line 5554 "book/13-poems.nw"
int poet_trainer_save(const poet_trainer *T, const char *path, poet_err *e)
{
    size_t np = T->m.n_params;
    char v[10][40];
    const poet_train_options *o = &T->o;
    snprintf(v[0], sizeof v[0], "%lu", T->step);
    snprintf(v[1], sizeof v[1], "%llu", T->rng.state);
    snprintf(v[2], sizeof v[2], "%llu", o->seed);
    snprintf(v[3], sizeof v[3], "%zu", o->steps);
    snprintf(v[4], sizeof v[4], "%zu", o->batch);
    snprintf(v[5], sizeof v[5], "%.9g", o->lr);
    snprintf(v[6], sizeof v[6], "%.9g", o->lr_min);
    snprintf(v[7], sizeof v[7], "%zu", o->warmup);
    snprintf(v[8], sizeof v[8], "%.9g", o->weight_decay);
    snprintf(v[9], sizeof v[9], "%.9g", o->clip);
    const char *meta[] = {"step", v[0], "rng", v[1], "seed", v[2], "steps", v[3], "batch", v[4],
                          "lr", v[5], "lr_min", v[6], "warmup", v[7], "weight_decay", v[8],
                          "clip", v[9], NULL};
    poet_named t[2] = {{"adam.m", np, 0, T->adam_m}, {"adam.v", np, 0, T->adam_v}};
    return poet_safetensors_write(path, t, 2, meta, e);
}

/* 元数据 key 的值整个是一个 [0, max] 里的数（whole：还得是整数）；先查范围，再转成整数才不越界 */
static int state_number(const poet_safetensors *f, const char *key, double max, int whole,
                        double *out, poet_err *e)
{
    const char *s = poet_safetensors_meta(f, key);
    char *end;
    *out = s != NULL && *s != '\0' ? strtod(s, &end) : NAN;
    if (s == NULL || *s == '\0' || *end != '\0' || !isfinite(*out) || *out < 0 || *out > max ||
        (whole && *out != floor(*out)))
        return poet_fail(e, POET_EDATA, "训练状态的元数据里没有合理的 %s（要是 0 到 %.9g 的%s）", key,
                         max, whole ? "整数" : "数");
    return ATTN_OK;
}

int poet_trainer_resume(poet_trainer *T, const attn_gpt *m, const char *path, poet_err *e)
{
    char *buf;
    size_t n;
    memset(T, 0, sizeof *T);
    int st = poet_read_file(path, &buf, &n, (size_t)1 << 31, e);
    if (st != ATTN_OK)
        return st;
    poet_safetensors f;
    if ((st = poet_safetensors_open((const unsigned char *)buf, n, &f, e)) != ATTN_OK) {
        free(buf);
        return st;
    }
#line 5630 "book/13-poems.nw"
    double x[10] = {0};
    static const char *keys[10] = {"step", "seed", "steps", "batch", "lr", "lr_min", "warmup",
                                   "weight_decay", "clip", "rng"};
    static const double max[10] = {1e7, INFINITY, 1e7, 4096, 1.0, 1.0, 1e7, 10.0, 1e6, INFINITY};
    static const int whole[10] = {1, 1, 1, 1, 0, 0, 1, 0, 0, 1};
    for (int i = 0; i < 10 && st == ATTN_OK; i++)
        st = state_number(&f, keys[i], max[i], whole[i], &x[i], e);
    const char *rng = poet_safetensors_meta(&f, "rng");
    poet_train_options o = {0};
    if (st == ATTN_OK) {
        o = (poet_train_options){(size_t)x[2], (size_t)x[3], (float)x[4], (float)x[5], (size_t)x[6],
                                 (float)x[7], (float)x[8], 0};
        o.seed = strtoull(poet_safetensors_meta(&f, "seed"), NULL, 10);
    }
    if (st == ATTN_OK && x[0] > (double)o.steps)
        st = poet_fail(e, POET_EDATA, "训练状态的步数 %.0f 比总步数 %zu 还多", x[0], o.steps);
#line 5604 "book/13-poems.nw"
    if (st == ATTN_OK)
        st = poet_trainer_init(T, &m->cfg, &o, e);
    if (st == ATTN_OK) {
        memcpy(T->m.params, m->params, m->n_params * sizeof *m->params);
        T->step = (unsigned long)x[0];
        T->rng.state = strtoull(rng, NULL, 10);
        st = poet_safetensors_get(&f, "adam.m", T->m.n_params, 0, T->adam_m, e);
    }
    if (st == ATTN_OK)
        st = poet_safetensors_get(&f, "adam.v", T->m.n_params, 0, T->adam_v, e);
    poet_safetensors_close(&f);
    free(buf);
    if (st != ATTN_OK) {
        poet_trainer_free(T);
        if (e != NULL)
            poet_fail(e, st, "%s：%s", path, e->msg);
    }
    return st;
}
