#line 588 "book/03-attention.nw"
#include "attn.h"
#include "attn_core.h"
#include "internal.h"
#include "mask.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#line 689 "book/03-attention.nw"
int attn_problem_init(attn_problem *prob, const float *q, const float *k, const float *v,
                      size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                      float scale, const unsigned char *mask, int causal,
                      float *out, float *weights)
{
#line 706 "book/03-attention.nw"
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
#line 695 "book/03-attention.nw"
    *prob = (attn_problem){
        .q = q, .k = k, .v = v, .out = out, .weights = weights,
        .heads = 1, .n_q = n_q, .n_k = n_k, .d_k = d_k, .d_v = d_v,
        .ld_q = d_k, .ld_k = d_k, .ld_v = d_v, .ld_out = d_v,
        .scale = scale, .mask = mask, .causal = causal, .threads = 1,
    };
    return ATTN_OK;
}

#line 724 "book/03-attention.nw"
int attn_problem_reference(const attn_problem *prob)
{
    const size_t n_q = prob->n_q, n_k = prob->n_k, d_k = prob->d_k, d_v = prob->d_v;
    const float scale = prob->scale;
    const unsigned char *mask = prob->mask;
    const int causal = prob->causal;
    if (attn_problem_overlaps(prob))
        return ATTN_EINVAL;
#line 758 "book/03-attention.nw"
    float *row = NULL, *own = NULL;   /* own：自己分配的，最后释放 */
    if (prob->weights == NULL) {
        row = prob->scratch ? prob->scratch : (own = malloc(n_k * sizeof *row));
        if (row == NULL)
            return ATTN_ENOMEM;
    }
#line 733 "book/03-attention.nw"
    for (size_t h = 0; h < prob->heads; h++) {
#line 748 "book/03-attention.nw"
        const float *q = prob->q + h * prob->head_q, *k = prob->k + h * prob->head_k;
        const float *v = prob->v + h * prob->head_v;
        float *out = prob->out + h * prob->head_out;
        float *weights = prob->weights ? prob->weights + h * n_q * n_k : NULL;
#line 735 "book/03-attention.nw"
        for (size_t i = 0; i < n_q; i++) {
            float *p = weights ? weights + i * n_k : row;
#line 779 "book/03-attention.nw"
            /* p[j] = q[i]·k[j] · scale - top，看不见的键记为 -inf；第 0 遍只求 top = max_j q[i]·k[j] · scale */
            double top = -INFINITY;
            for (int pass = 0; pass < 2; pass++)
                for (size_t j = 0; j < n_k; j++) {
                    if (!attn_key_visible(mask, causal, n_q, n_k, i, j)) {
                        p[j] = -INFINITY;
                        continue;
                    }
                    double dot = 0.0;
                    for (size_t t = 0; t < d_k; t++)
                        dot += (double)q[i * prob->ld_q + t] * k[j * prob->ld_k + t];
                    dot *= scale;
                    if (pass == 0) {
                        top = dot > top ? dot : top;
                        continue;
                    }
                    if (isfinite(top))
                        dot -= top;
                    p[j] = dot > FLT_MAX ? FLT_MAX : dot < -FLT_MAX ? -FLT_MAX : (float)dot;
                }
#line 738 "book/03-attention.nw"
            attn_softmax(p, n_k);
#line 837 "book/03-attention.nw"
            /* out[i] = Σ_j p[j] · v[j] */
            for (size_t c = 0; c < d_v; c++)
                out[i * prob->ld_out + c] = 0.0f;
            for (size_t j = 0; j < n_k; j++) {
                if (p[j] == 0.0f)
                    continue;
                for (size_t c = 0; c < d_v; c++)
                    out[i * prob->ld_out + c] += p[j] * v[j * prob->ld_v + c];
            }
            for (size_t c = 0; c < d_v; c++) {
                if (!isinf(out[i * prob->ld_out + c]))
                    continue;
                double acc = 0.0;
                for (size_t j = 0; j < n_k; j++)
                    if (p[j] != 0.0f)
                        acc += (double)p[j] * v[j * prob->ld_v + c];
                out[i * prob->ld_out + c] = !isfinite(acc) ? (float)acc : acc > FLT_MAX ? FLT_MAX
                                          : acc < -FLT_MAX ? -FLT_MAX : (float)acc;
            }
#line 740 "book/03-attention.nw"
        }
    }
    free(own);
    return ATTN_OK;
}

#line 865 "book/03-attention.nw"
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

#line 894 "book/03-attention.nw"
int attn_problem_solve(const attn_problem *prob)
{
    if (attn_problem_overlaps(prob))
        return ATTN_EINVAL;
#line 904 "book/03-attention.nw"
    /* 更快的实现可以在这里接手 */
#line 1156 "book/09-fast.nw"
    if (attn_flash_bytes(prob->d_k, prob->d_v, prob->threads) == 0)
        return ATTN_EINVAL;
    if (attn_flash_applies(prob))
        return attn_flash(prob);
#line 899 "book/03-attention.nw"
    return attn_problem_reference(prob);
}

#line 911 "book/03-attention.nw"
size_t attn_problem_scratch_bytes(const attn_problem *prob)
{
    size_t bytes = prob->n_k * sizeof(float);   /* 参考实现的一行分数 */
#line 920 "book/03-attention.nw"
    /* 更快的实现在这里把 bytes 改大 */
#line 1150 "book/09-fast.nw"
    size_t fast = attn_flash_bytes(prob->d_k, prob->d_v, prob->threads);
    if (fast > bytes)
        bytes = fast;
#line 915 "book/03-attention.nw"
    return bytes;
}

#line 607 "book/03-attention.nw"
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
