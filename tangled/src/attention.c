#line 719 "book/03-attention.nw"
#include "attn.h"
#include "attn_core.h"
#include "internal.h"
#line 766 "book/03-attention.nw"
/* 第 5 章在这里包含 src/mask.h */
#line 240 "book/05-mask.nw"
#include "mask.h"

#line 724 "book/03-attention.nw"
#include <float.h>
#include <math.h>
#include <stdlib.h>

#line 773 "book/03-attention.nw"
int attn_problem_init(attn_problem *prob, const float *q, const float *k, const float *v,
                      size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                      float scale, const unsigned char *mask, int causal,
                      float *out, float *weights)
{
#line 790 "book/03-attention.nw"
    size_t bytes;
    if (q == NULL || k == NULL || v == NULL || out == NULL)
        return ATTN_EINVAL;
    if (n_q == 0 || n_k == 0 || d_k == 0 || d_v == 0)
        return ATTN_EINVAL;
    if (!attn_bytes2(&bytes, n_q, d_k) || !attn_bytes2(&bytes, n_k, d_k) ||
        !attn_bytes2(&bytes, n_k, d_v) || !attn_bytes2(&bytes, n_q, d_v) ||
        !attn_bytes2(&bytes, n_q, n_k))
        return ATTN_EINVAL;
    if (isnan(scale) || scale < 0.0f || isinf(scale))
        return ATTN_EINVAL;
    if (scale == 0.0f)
        scale = 1.0f / sqrtf((float)d_k);
#line 813 "book/03-attention.nw"
    #ifndef ATTN_MASK_H   /* 第 5 章的 src/mask.h 还没有接上：不认得掩码，一律拒绝 */
    if (mask != NULL || causal)
        return ATTN_EINVAL;
    #endif
#line 779 "book/03-attention.nw"
    *prob = (attn_problem){
        .q = q, .k = k, .v = v, .out = out, .weights = weights,
        .heads = 1, .n_q = n_q, .n_k = n_k, .d_k = d_k, .d_v = d_v,
        .ld_q = d_k, .ld_k = d_k, .ld_v = d_v, .ld_out = d_v,
        .scale = scale, .mask = mask, .causal = causal, .threads = 1,
    };
    return ATTN_OK;
}

#line 823 "book/03-attention.nw"
/* 查询 i 能不能看见键 j（第 5 章在钩子里接上掩码） */
static int key_visible(const attn_problem *prob, size_t i, size_t j)
{
#line 835 "book/03-attention.nw"
    /* 第 5 章：掩码或因果规则不允许时返回 0 */
#line 232 "book/05-mask.nw"
    if (!attn_key_visible(prob->mask, prob->causal, prob->n_q, prob->n_k, i, j))
        return 0;
#line 827 "book/03-attention.nw"
    (void)prob;
    (void)i;
    (void)j;
    return 1;
}

#line 960 "book/03-attention.nw"
/* 查询 i 的一行分数：p[j] = qi·k[j]·scale − top，看不见的键记为 -inf；
   top 是看得见的键里最大的分数（第 0 遍求出），它不是有限数时不减；差截到 ±FLT_MAX。 */
static void scores_in_double(const attn_problem *prob, const float *qi, const float *k,
                             size_t i, float *p)
{
    double top = -INFINITY;
    for (int pass = 0; pass < 2; pass++)
        for (size_t j = 0; j < prob->n_k; j++) {
            if (!key_visible(prob, i, j)) {
                p[j] = -INFINITY;
                continue;
            }
            double dot = 0.0;
            for (size_t t = 0; t < prob->d_k; t++)
                dot += (double)qi[t] * k[j * prob->ld_k + t];
            dot *= prob->scale;
            if (pass == 0) {
                top = dot > top ? dot : top;
                continue;
            }
            if (isfinite(top))
                dot -= top;
            p[j] = dot > FLT_MAX ? FLT_MAX : dot < -FLT_MAX ? -FLT_MAX : (float)dot;
        }
}

#line 847 "book/03-attention.nw"
int attn_problem_reference(const attn_problem *prob)
{
    const size_t n_q = prob->n_q, n_k = prob->n_k, d_k = prob->d_k, d_v = prob->d_v;
    const size_t ld_q = prob->ld_q, ld_k = prob->ld_k, ld_v = prob->ld_v, ld_out = prob->ld_out;
    const float scale = prob->scale;
    if (attn_problem_overlaps(prob))
        return ATTN_EINVAL;
#line 875 "book/03-attention.nw"
    float *row = NULL, *own = NULL;   /* own：自己分配的，最后释放 */
    if (prob->weights == NULL) {
        row = prob->scratch ? prob->scratch : (own = malloc(n_k * sizeof *row));
        if (row == NULL)
            return ATTN_ENOMEM;
    }
#line 855 "book/03-attention.nw"
    for (size_t h = 0; h < prob->heads; h++) {
#line 865 "book/03-attention.nw"
        const float *q = prob->q + h * prob->head_q, *k = prob->k + h * prob->head_k;
        const float *v = prob->v + h * prob->head_v;
        float *out = prob->out + h * prob->head_out;
        float *weights = prob->weights ? prob->weights + h * n_q * n_k : NULL;
#line 892 "book/03-attention.nw"
        /* 一个头：q[n_q][d_k]、k[n_k][d_k]、v[n_k][d_v] → out[n_q][d_v]，第 i 行从 q + i·ld_q 开始 */
        for (size_t i = 0; i < n_q; i++) {
            const float *qi = q + i * ld_q;
            float *p = weights ? weights + i * n_k : row;   /* p[n_k]：查询 i 的分数，之后是权重 */

            /* 第一步：p[j] = qi·k[j] · scale */
            for (size_t j = 0; j < n_k; j++) {
                const float *kj = k + j * ld_k;
                double dot = 0.0;
                for (size_t t = 0; t < d_k; t++)
                    dot += (double)qi[t] * kj[t];
                p[j] = (float)(dot * scale);
            }
#line 952 "book/03-attention.nw"
            for (size_t j = 0; j < n_k; j++)
                if (isinf(p[j])) {
                    scores_in_double(prob, qi, k, i, p);
                    break;
                }
#line 839 "book/03-attention.nw"
            /* 第 5 章：看不见的键，分数换成 -inf */
#line 224 "book/05-mask.nw"
            for (size_t j = 0; j < n_k; j++)
                if (!key_visible(prob, i, j))
                    p[j] = -INFINITY;

#line 908 "book/03-attention.nw"
            /* 第二步：p = softmax(p)，每个数在 0 和 1 之间，和为 1 */
            attn_softmax(p, n_k);

            /* 第三步：out[i] = Σ_j p[j] · v[j]，权重为 0 的键跳过 */
            float *oi = out + i * ld_out;
            for (size_t c = 0; c < d_v; c++) {
                float acc = 0.0f;
                for (size_t j = 0; j < n_k; j++)
                    if (p[j] != 0.0f)
                        acc += p[j] * v[j * ld_v + c];
                oi[c] = acc;
            }
#line 992 "book/03-attention.nw"
            for (size_t c = 0; c < d_v; c++) {
                if (!isinf(oi[c]))
                    continue;
                double acc = 0.0;
                for (size_t j = 0; j < n_k; j++)
                    if (p[j] != 0.0f)
                        acc += (double)p[j] * v[j * ld_v + c];
                oi[c] = !isfinite(acc) ? (float)acc : acc > FLT_MAX ? FLT_MAX
                      : acc < -FLT_MAX ? -FLT_MAX : (float)acc;
            }
#line 921 "book/03-attention.nw"
        }
#line 858 "book/03-attention.nw"
    }
    free(own);
    return ATTN_OK;
}

#line 1013 "book/03-attention.nw"
/* 一个矩阵从第一个数到最后一个数的字节数：heads 个头（头距 head）、n 行（行距 ld）、每行 d 个 */
static size_t problem_span(size_t heads, size_t head, size_t n, size_t ld, size_t d)
{
    return ((heads - 1) * head + (n - 1) * ld + d) * sizeof(float);
}

int attn_problem_overlaps(const attn_problem *p)
{
    size_t out = problem_span(p->heads, p->head_out, p->n_q, p->ld_out, p->d_v);
    size_t weights = p->weights ? p->heads * p->n_q * p->n_k * sizeof(float) : 0;
    const void *in[4] = {p->q, p->k, p->v, p->mask};
    const size_t in_bytes[4] = {
        problem_span(p->heads, p->head_q, p->n_q, p->ld_q, p->d_k),
        problem_span(p->heads, p->head_k, p->n_k, p->ld_k, p->d_k),
        problem_span(p->heads, p->head_v, p->n_k, p->ld_v, p->d_v),
        p->mask ? p->n_q * p->n_k : 0,
    };
    for (size_t i = 0; i < 4; i++)
        if (attn_overlap(p->out, out, in[i], in_bytes[i]) ||
            attn_overlap(p->weights, weights, in[i], in_bytes[i]))
            return 1;
    return attn_overlap(p->out, out, p->weights, weights);
}

#line 1044 "book/03-attention.nw"
int attn_problem_solve(const attn_problem *prob)
{
    if (attn_problem_overlaps(prob))
        return ATTN_EINVAL;
    return attn_problem_run(prob);
}

int attn_problem_run(const attn_problem *prob)
{
#line 1059 "book/03-attention.nw"
    /* 更快的实现可以在这里接手 */
#line 871 "book/09-fast.nw"
    if (attn_flash_bytes(prob->d_k, prob->d_v, prob->threads) == 0)
        return ATTN_EINVAL;
    if (attn_flash_applies(prob))
        return attn_flash(prob);
#line 1054 "book/03-attention.nw"
    return attn_problem_reference(prob);
}

#line 1066 "book/03-attention.nw"
size_t attn_problem_scratch_bytes(const attn_problem *prob)
{
    size_t bytes = prob->n_k * sizeof(float);   /* 参考实现的一行分数 */
#line 1075 "book/03-attention.nw"
    /* 更快的实现在这里把 bytes 改大 */
#line 865 "book/09-fast.nw"
    size_t fast = attn_flash_bytes(prob->d_k, prob->d_v, prob->threads);
    if (fast > bytes)
        bytes = fast;
#line 1070 "book/03-attention.nw"
    return bytes;
}

#line 742 "book/03-attention.nw"
int attn_sdpa_reference(const float *q, const float *k, const float *v,
                        size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                        float scale, const unsigned char *mask, int causal,
                        float *out, float *weights)
{
    attn_problem prob;
    int status = attn_problem_init(&prob, q, k, v, n_q, n_k, d_k, d_v, scale, mask, causal,
                                   out, weights);
    return status != ATTN_OK ? status : attn_problem_reference(&prob);
}

int attn_sdpa(const float *q, const float *k, const float *v,
              size_t n_q, size_t n_k, size_t d_k, size_t d_v,
              float scale, const unsigned char *mask, int causal,
              float *out, float *weights)
{
    attn_problem prob;
    int status = attn_problem_init(&prob, q, k, v, n_q, n_k, d_k, d_v, scale, mask, causal,
                                   out, weights);
    return status != ATTN_OK ? status : attn_problem_solve(&prob);
}
