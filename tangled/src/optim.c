#line 1561 "book/12-learning.nw"
/* src/optim.c — 优化器：AdamW 的一步，和按本书的规矩给整个小 GPT 走一步。 */
#include "attn.h"
#include "gpt_shape.h"
#include "internal.h"

#include <math.h>
#include <string.h>
#line 1579 "book/12-learning.nw"
/* 附录 D 在这里包含线程要用的头文件 */
#line 1960 "book/D-cpu.nw"
#include "flash_common.h"   /* ATTN_OMP */
#line 1553 "book/12-learning.nw"
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF    /* 见“同样的种子，同样的位”一节 */
#endif

#line 1122 "book/12-learning.nw"
/* 各 bytes 个字节的四个数组里，有两个共用字节时返回 1 */
static int adamw_overlap(const void *p, const void *g, const void *m, const void *v, size_t bytes)
{
    const void *arrays[4] = {p, g, m, v};
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            if (attn_overlap(arrays[a], bytes, arrays[b], bytes))
                return 1;
    return 0;
}
#line 1137 "book/12-learning.nw"
/* 超参数合法时返回 1 */
static int adamw_hyper_ok(unsigned long t, float lr, float beta1, float beta2, float eps,
                          float weight_decay)
{
    return t != 0 && lr >= 0 && beta1 >= 0 && beta1 < 1 && beta2 >= 0 && beta2 < 1 &&
           eps > 0 && weight_decay >= 0 && !isinf(lr) && !isinf(eps) && !isinf(weight_decay);
}

#line 179 "book/12-learning.nw"
/* AdamW 的一步本身：参数已经查过 */
static void adamw_kernel(float *p, const float *g, float *m, float *v, size_t n,
                         unsigned long t, float lr, float beta1, float beta2,
                         float eps, float weight_decay)
{
    /* 偏差校正：m̂ = m/c1，sqrt(v̂) = sqrt(v)/sqrt(c2) */
    double c1 = 1.0 - pow(beta1, (double)t), c2 = 1.0 - pow(beta2, (double)t);
    float step = (float)(lr / c1), rs2 = (float)(1.0 / sqrt(c2));
    float decay = 1.0f - lr * weight_decay;
#line 1583 "book/12-learning.nw"
    /* 附录 D 在这里把各个数分给几个线程 */
#line 1964 "book/D-cpu.nw"
    ATTN_OMP("omp parallel for schedule(static) if(n >= 65536)")
#line 189 "book/12-learning.nw"
    for (size_t i = 0; i < n; i++) {
        m[i] = beta1 * m[i] + (1.0f - beta1) * g[i];
        v[i] = beta2 * v[i] + (1.0f - beta2) * g[i] * g[i];
        p[i] = p[i] * decay - step * m[i] / (sqrtf(v[i]) * rs2 + eps);
    }
}

int attn_adamw_step(float *p, const float *g, float *m, float *v, size_t n,
                    unsigned long t, float lr, float beta1, float beta2,
                    float eps, float weight_decay)
{
#line 1110 "book/12-learning.nw"
    size_t bytes;
    if (p == NULL || g == NULL || m == NULL || v == NULL || n == 0 || !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
    if (!adamw_hyper_ok(t, lr, beta1, beta2, eps, weight_decay))
        return ATTN_EINVAL;
    if (adamw_overlap(p, g, m, v, bytes))
        return ATTN_EINVAL;
#line 201 "book/12-learning.nw"
    adamw_kernel(p, g, m, v, n, t, lr, beta1, beta2, eps, weight_decay);
    return ATTN_OK;
}

#line 1598 "book/12-learning.nw"
int attn_gpt_adamw_step(attn_gpt *m, const attn_gpt *g, float *m1, float *m2, unsigned long t,
                        float lr, float beta1, float beta2, float eps, float weight_decay)
{
#line 1149 "book/12-learning.nw"
    size_t bytes;
    if (!attn_gpt_ready(m) || !attn_gpt_ready(g) || m1 == NULL || m2 == NULL ||
        memcmp(&g->cfg, &m->cfg, sizeof m->cfg) != 0 || !attn_bytes1(&bytes, m->n_params))
        return ATTN_EINVAL;
    if (adamw_overlap(m->params, g->params, m1, m2, bytes))
        return ATTN_EINVAL;
#line 1602 "book/12-learning.nw"
    if (!adamw_hyper_ok(t, lr, beta1, beta2, eps, weight_decay))
        return ATTN_EINVAL;
    size_t tensors = attn_gpt_tensor_count(&m->cfg);
    attn_gpt_tensor x;
    for (size_t k = 0; k < tensors; k++) {
        attn_gpt_tensor_info(&m->cfg, k, &x);
        size_t at = x.offset, count = x.rows * (x.cols ? x.cols : 1);
        /* 矩阵衰减，向量不衰减 */
        adamw_kernel(m->params + at, g->params + at, m1 + at, m2 + at, count, t, lr, beta1,
                     beta2, eps, x.cols != 0 ? weight_decay : 0.0f);
    }
    return ATTN_OK;
}
