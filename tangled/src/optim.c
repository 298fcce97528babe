#line 188 "book/12-learning.nw"
/* src/optim.c — 优化器：AdamW 的一步，和按本书的规矩给整个小 GPT 走一步。 */
#include "attn.h"
#include "gpt_shape.h"
#include "internal.h"

#include <math.h>
#include <string.h>
#line 223 "book/12-learning.nw"
/* 附录 D 在这里包含线程要用的头文件 */
#line 1390 "book/D-cpu.nw"
#include "flash_common.h"   /* ATTN_OMP */
#line 196 "book/12-learning.nw"
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF    /* 不把乘加合成 FMA（见“同样的种子，同样的位”一节） */
#endif

int attn_adamw_step(float *p, const float *g, float *m, float *v, size_t n, unsigned long t,
                    float lr, float beta1, float beta2, float eps, float weight_decay)
{
#line 1691 "book/12-learning.nw"
    size_t bytes;
    if (p == NULL || g == NULL || m == NULL || v == NULL || n == 0 || t == 0 ||
        !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
    if (!(lr >= 0) || !(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1) ||
        !(eps > 0) || !(weight_decay >= 0) || isinf(lr) || isinf(eps) || isinf(weight_decay))
        return ATTN_EINVAL;
    const void *arrays[4] = {p, g, m, v};
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            if (attn_overlap(arrays[a], bytes, arrays[b], bytes))
                return ATTN_EINVAL;
#line 204 "book/12-learning.nw"
    /* 偏差校正：m̂ = m/c1，sqrt(v̂) = sqrt(v)/sqrt(c2) */
    double c1 = 1.0 - pow(beta1, (double)t), c2 = 1.0 - pow(beta2, (double)t);
    float step = (float)(lr / c1), rs2 = (float)(1.0 / sqrt(c2));
    float decay = 1.0f - lr * weight_decay;
#line 227 "book/12-learning.nw"
    /* 附录 D 在这里把各个数分给几个线程 */
#line 1394 "book/D-cpu.nw"
    ATTN_OMP("omp parallel for schedule(static) if(n >= 65536)")
#line 209 "book/12-learning.nw"
    for (size_t i = 0; i < n; i++) {
        m[i] = beta1 * m[i] + (1.0f - beta1) * g[i];
        v[i] = beta2 * v[i] + (1.0f - beta2) * g[i] * g[i];
        p[i] = p[i] * decay - step * m[i] / (sqrtf(v[i]) * rs2 + eps);
    }
    return ATTN_OK;
}

#line 251 "book/12-learning.nw"
/* 参数 [at, at + count) 的一步；decay 为 0 时不衰减 */
static int adamw_range(attn_gpt *m, const attn_gpt *g, float *m1, float *m2, size_t at,
                       size_t count, int decay, unsigned long t, float lr, float beta1,
                       float beta2, float eps, float weight_decay)
{
    return attn_adamw_step(m->params + at, g->params + at, m1 + at, m2 + at, count, t, lr,
                           beta1, beta2, eps, decay ? weight_decay : 0.0f);
}

int attn_gpt_adamw_step(attn_gpt *m, const attn_gpt *g, float *m1, float *m2, unsigned long t,
                        float lr, float beta1, float beta2, float eps, float weight_decay)
{
#line 1708 "book/12-learning.nw"
    size_t bytes;
    if (!attn_gpt_ready(m) || !attn_gpt_ready(g) || m1 == NULL || m2 == NULL ||
        memcmp(&g->cfg, &m->cfg, sizeof m->cfg) != 0 || !attn_bytes1(&bytes, m->n_params))
        return ATTN_EINVAL;
    const void *arrays[4] = {m->params, g->params, m1, m2};
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            if (attn_overlap(arrays[a], bytes, arrays[b], bytes))
                return ATTN_EINVAL;
#line 264 "book/12-learning.nw"
    size_t d = (size_t)m->cfg.d_model, hd = (size_t)(m->cfg.n_heads * m->cfg.d_head);
    size_t ff = (size_t)m->cfg.d_ff;
    /* 每层 16 块的长度；矩阵（第 2、4、6、8、12、14 块）衰减 */
    const size_t len[16] = {d, d, d * hd, hd, d * hd, hd, d * hd, hd, hd * d, d, d, d,
                            d * ff, ff, ff * d, d};
    const int matrix[16] = {0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0};
    size_t at = 0, wte = (size_t)m->cfg.vocab * d, wpe = (size_t)m->cfg.n_ctx * d;
    int st = adamw_range(m, g, m1, m2, at, wte + wpe, 1, t, lr, beta1, beta2, eps, weight_decay);
    at += wte + wpe;
    for (size_t l = 0; l < (size_t)m->cfg.n_layers; l++)
        for (int b = 0; b < 16; b++) {
            if (st == ATTN_OK)
                st = adamw_range(m, g, m1, m2, at, len[b], matrix[b], t, lr, beta1, beta2, eps,
                                 weight_decay);
            at += len[b];
        }
    if (st == ATTN_OK)      /* 最后的层规范化：lnf_g、lnf_b */
        st = adamw_range(m, g, m1, m2, at, 2 * d, 0, t, lr, beta1, beta2, eps, weight_decay);
    return st;
}
