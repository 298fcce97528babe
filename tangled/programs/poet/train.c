#line 3892 "book/13-poems.nw"
/* programs/poet/train.c — 第 13 章：训练一步（分份、相加、裁剪、AdamW），检验，存取训练的状态 */
#define _POSIX_C_SOURCE 200809L
#include "poet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#line 3922 "book/13-poems.nw"
static void add_segment(poet_trainer *T, const float *p, size_t len, int decay)
{
    T->segments[T->n_segments].at = (size_t)(p - T->m.params);
    T->segments[T->n_segments].len = len;
    T->segments[T->n_segments].decay = decay;
    T->n_segments++;
}

static int find_segments(poet_trainer *T)
{
    const attn_gpt *m = &T->m;
    size_t d = (size_t)m->cfg.d_model, ff = (size_t)m->cfg.d_ff, total = 0;
    T->n_segments = 0;
    add_segment(T, m->wte, (size_t)m->cfg.vocab * d, 1);
    add_segment(T, m->wpe, (size_t)m->cfg.n_ctx * d, 1);
    for (size_t i = 0; i < (size_t)m->cfg.n_layers; i++) {
        const attn_gpt_layer *L = &m->layers[i];
        add_segment(T, L->ln1_g, d, 0); add_segment(T, L->ln1_b, d, 0);
        add_segment(T, L->w_q, d * d, 1); add_segment(T, L->b_q, d, 0);
        add_segment(T, L->w_k, d * d, 1); add_segment(T, L->b_k, d, 0);
        add_segment(T, L->w_v, d * d, 1); add_segment(T, L->b_v, d, 0);
        add_segment(T, L->w_o, d * d, 1); add_segment(T, L->b_o, d, 0);
        add_segment(T, L->ln2_g, d, 0); add_segment(T, L->ln2_b, d, 0);
        add_segment(T, L->w_up, d * ff, 1); add_segment(T, L->b_up, ff, 0);
        add_segment(T, L->w_down, ff * d, 1); add_segment(T, L->b_down, d, 0);
    }
    add_segment(T, m->lnf_g, d, 0);
    add_segment(T, m->lnf_b, d, 0);
    for (size_t k = 0; k < T->n_segments; k++) {
        if (T->segments[k].at != total)
            return 0;
        total += T->segments[k].len;
    }
    return total == m->n_params;
}

#line 3960 "book/13-poems.nw"
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
    size_t np = T->m.n_params;
    T->grad = calloc(np * POET_SLOTS, sizeof *T->grad);
    T->adam_m = calloc(np, sizeof *T->adam_m);
    T->adam_v = calloc(np, sizeof *T->adam_v);
    T->starts = calloc(o->batch, sizeof *T->starts);
    T->losses = calloc(o->batch, sizeof *T->losses);
    int ok = T->grad && T->adam_m && T->adam_v && T->starts && T->losses;
    for (size_t s = 0; ok && s < POET_SLOTS; s++)
        ok = attn_gpt_bind(&T->g[s], cfg, T->grad + s * np, np) == ATTN_OK;
    if (!ok) {
        poet_trainer_free(T);
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    }
    if (!find_segments(T)) {
        poet_trainer_free(T);
        return poet_fail(e, ATTN_EINVAL, "参数块的各段对不上第 11 章的顺序");
    }
    attn_rng_seed(&T->rng, o->seed ^ 0x7061747a5eedULL);
    return ATTN_OK;
}

void poet_trainer_free(poet_trainer *T)
{
    for (size_t s = 0; s < POET_SLOTS; s++)
        attn_gpt_free(&T->g[s]);
    attn_gpt_free(&T->m);
    free(T->grad); free(T->adam_m); free(T->adam_v); free(T->starts); free(T->losses);
    memset(T, 0, sizeof *T);
}

#line 746 "book/13-poems.nw"
float poet_lr(const poet_train_options *o, unsigned long step)
{
    if (step <= o->warmup)
        return o->lr * (float)step / (float)o->warmup;
    double progress = (double)(step - o->warmup) / (double)(o->steps - o->warmup);
    if (progress > 1.0)
        progress = 1.0;
    return o->lr_min + (float)(0.5 * (o->lr - o->lr_min) * (1.0 + cos(M_PI * progress)));
}

#line 802 "book/13-poems.nw"
int poet_train_step(poet_trainer *T, const int *ids, size_t n, int threads, float *loss, float *lr_out,
                    poet_err *e)
{
    size_t np = T->m.n_params, B = T->o.batch, n_ctx = (size_t)T->m.cfg.n_ctx;
    if (n < n_ctx + 2)
        return poet_fail(e, ATTN_EINVAL, "训练的文字只有 %zu 个字，一个窗口要 %zu 个", n, n_ctx + 1);
    if (threads < 1)
        threads = 1;
    /* 各窗口的起点：ids[start .. start + n_ctx] 共 n_ctx + 1 个词元 */
    for (size_t b = 0; b < B; b++)
        T->starts[b] = (size_t)(attn_rng_next(&T->rng) % (n - n_ctx));
    int bad = 0;
#line 709 "book/13-poems.nw"
    /* 第 s 份：窗口 s、s+S、s+2S…… 的梯度依次加进 grad[s]（每个窗口的损失是 128 个位置的平均） */
    #pragma omp parallel for num_threads(threads) schedule(static, 1) reduction(|:bad)
    for (int s = 0; s < POET_SLOTS; s++) {
        float *g = T->grad + (size_t)s * np;
        memset(g, 0, np * sizeof *g);
        for (size_t b = (size_t)s; b < B; b += POET_SLOTS) {
            const int *w = ids + T->starts[b];
            bad |= attn_gpt_loss_grad(&T->m, w, w + 1, n_ctx, &T->losses[b], &T->g[s]) != ATTN_OK;
        }
    }
#line 815 "book/13-poems.nw"
    if (bad)
        return poet_fail(e, ATTN_EINVAL, "第 %lu 步：attn_gpt_loss_grad 失败（logits 不再是有限数？）",
                         T->step + 1);
#line 722 "book/13-poems.nw"
    /* grad[0][i] = (((g0[i] + g1[i]) + g2[i]) + g3[i]) / B：每个 i 的加法顺序都一样，与线程数无关 */
    float inv_b = 1.0f / (float)B;
    #pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < np; i++) {
        float sum = T->grad[i];
        for (size_t s = 1; s < POET_SLOTS; s++)
            sum += T->grad[s * np + i];
        T->grad[i] = sum * inv_b;
    }
#line 758 "book/13-poems.nw"
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
    /* 矩阵有权重衰减，向量没有：按 T->decay 记下的各段分别走一步 */
    T->step++;
    float lr = poet_lr(&T->o, T->step);
    for (size_t k = 0; k < T->n_segments; k++) {
        size_t at = T->segments[k].at, len = T->segments[k].len;
        attn_adamw_step(T->m.params + at, T->grad + at, T->adam_m + at, T->adam_v + at, len, T->step,
                        lr, 0.9f, 0.95f, 1e-8f, T->segments[k].decay ? T->o.weight_decay : 0.0f);
    }
#line 820 "book/13-poems.nw"
    double sum = 0.0;
    for (size_t b = 0; b < B; b++)
        sum += T->losses[b];
    *loss = (float)(sum / (double)B);
    if (lr_out != NULL)
        *lr_out = lr;
    return ATTN_OK;
}

#line 838 "book/13-poems.nw"
int poet_eval(const attn_gpt *m, const int *ids, size_t n, int threads, double *loss_sum,
              size_t *count)
{
    size_t n_ctx = (size_t)m->cfg.n_ctx, windows = (n + n_ctx - 1) / n_ctx;
    double *part = calloc(windows ? windows : 1, sizeof *part);
    if (part == NULL)
        return ATTN_ENOMEM;
    int bad = 0;
    #pragma omp parallel for num_threads(threads < 1 ? 1 : threads) schedule(dynamic) reduction(|:bad)
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

#line 4008 "book/13-poems.nw"
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

/* 元数据 key 的值整个是一个数 */
static int state_number(const poet_safetensors *f, const char *key, double *out, poet_err *e)
{
    const char *s = poet_safetensors_meta(f, key);
    char *end;
    *out = s != NULL && *s != '\0' ? strtod(s, &end) : NAN;
    if (s == NULL || *s == '\0' || *end != '\0' || !isfinite(*out) || *out < 0)
        return poet_fail(e, POET_EDATA, "训练状态的元数据里没有合理的 %s", key);
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
    double x[10];
    static const char *keys[10] = {"step", "seed", "steps", "batch", "lr", "lr_min", "warmup",
                                   "weight_decay", "clip", "rng"};
    for (int i = 0; i < 10 && st == ATTN_OK; i++)
        st = state_number(&f, keys[i], &x[i], e);
    const char *rng = poet_safetensors_meta(&f, "rng");
    poet_train_options o = {(size_t)x[2], (size_t)x[3], (float)x[4], (float)x[5], (size_t)x[6],
                            (float)x[7], (float)x[8], 0};
    if (st == ATTN_OK && (x[0] > (double)o.steps || x[0] != floor(x[0])))
        st = poet_fail(e, POET_EDATA, "训练状态的步数不对");
    if (st == ATTN_OK)
        o.seed = strtoull(poet_safetensors_meta(&f, "seed"), NULL, 10);
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
