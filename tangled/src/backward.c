#line 1621 "book/12-learning.nw"
/* src/backward.c — 各块的反向传播：线性层、softmax、注意力、层规范化、GELU，和交叉熵。 */
#include "attn.h"
#include "attn_core.h"
#include "internal.h"
#include "mask.h"        /* 第 5 章：查询 i 能不能看见键 j，与前向用同一个函数 */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#line 1688 "book/12-learning.nw"
/* 附录 D 在这里包含它的快速实现的声明 */
#line 1112 "book/D-cpu.nw"
#include "linear_fast.h"
#line 1937 "book/D-cpu.nw"
#include "flash_common.h"   /* ATTN_OMP */
#line 1553 "book/12-learning.nw"
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF    /* 见“同样的种子，同样的位”一节 */
#endif

#line 1240 "book/12-learning.nw"
/* 维数都不是 0、scale 是有限的非负数、各个矩阵的字节数不溢出时返回 1，并给出各矩阵的元素个数
   （q、k、v、out 和 n_q × n_k） */
static int bwd_sizes(size_t n_q, size_t n_k, size_t d_k, size_t d_v, float scale, size_t *nq,
                     size_t *nk, size_t *nv, size_t *no, size_t *nqk)
{
    size_t bytes;
    return n_q != 0 && n_k != 0 && d_k != 0 && d_v != 0 && !isnan(scale) && !isinf(scale) &&
           scale >= 0.0f && !__builtin_mul_overflow(n_q, d_k, nq) &&
           !__builtin_mul_overflow(n_k, d_k, nk) && !__builtin_mul_overflow(n_k, d_v, nv) &&
           !__builtin_mul_overflow(n_q, d_v, no) && !__builtin_mul_overflow(n_q, n_k, nqk) &&
           attn_bytes2(&bytes, n_q, d_k) && attn_bytes2(&bytes, n_k, d_k) &&
           attn_bytes2(&bytes, n_k, d_v) && attn_bytes2(&bytes, n_q, d_v);
}

static int bwd_outputs_overlap(float *const outs[3], const size_t ol[3], const float *const *ins,
                               const size_t *il, int n_in)
{
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < n_in; b++)
            if (attn_overlap(outs[a], ol[a] * sizeof(float), ins[b], il[b] * sizeof(float)))
                return 1;
        for (int b = a + 1; b < 3; b++)
            if (attn_overlap(outs[a], ol[a] * sizeof(float), outs[b], ol[b] * sizeof(float)))
                return 1;
    }
    return 0;
}

#line 339 "book/12-learning.nw"
/* 参数已经查过：训练（train.c）直接调用它 */
int attn_linear_backward_kernel(const float *x, const float *w, const float *dy,
                                size_t n, size_t d_in, size_t d_out,
                                float *dx, float *dw, float *db)
{
#line 1692 "book/12-learning.nw"
    /* 附录 D 在这里用寄存器块算出大的 dx 和 dw */
#line 1116 "book/D-cpu.nw"
    if (attn_linear_backward_fast(x, w, dy, n, d_in, d_out, dx, dw) == ATTN_OK) {
        dx = NULL;          /* 已经算好了，下面的循环跳过它们 */
        dw = NULL;
    }
#line 345 "book/12-learning.nw"
    /* dx[n][d_in] = dy[n][d_out] · wᵀ */
    if (dx != NULL)
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < d_in; k++) {
                float s = 0.0f;
                for (size_t j = 0; j < d_out; j++)
                    s += dy[i * d_out + j] * w[k * d_out + j];
                dx[i * d_in + k] = s;
            }
    /* dw[d_in][d_out] += xᵀ · dy */
    if (dw != NULL)
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < d_in; k++)
                for (size_t j = 0; j < d_out; j++)
                    dw[k * d_out + j] += x[i * d_in + k] * dy[i * d_out + j];
    /* db[d_out] += Σ_i dy[i] */
    if (db != NULL)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < d_out; j++)
                db[j] += dy[i * d_out + j];
    return ATTN_OK;
}

int attn_linear_backward(const float *x, const float *w, const float *dy,
                         size_t n, size_t d_in, size_t d_out,
                         float *dx, float *dw, float *db)
{
#line 1160 "book/12-learning.nw"
    size_t bytes;
    size_t nx, nw, ny;
    if (dy == NULL || n == 0 || d_in == 0 || d_out == 0)
        return ATTN_EINVAL;
    if (dx == NULL && dw == NULL && db == NULL)
        return ATTN_EINVAL;
    if ((dx != NULL && w == NULL) || (dw != NULL && x == NULL))
        return ATTN_EINVAL;
    if (__builtin_mul_overflow(n, d_in, &nx) || __builtin_mul_overflow(d_in, d_out, &nw) ||
        __builtin_mul_overflow(n, d_out, &ny) || !attn_bytes2(&bytes, n, d_in) ||
        !attn_bytes2(&bytes, d_in, d_out) || !attn_bytes2(&bytes, n, d_out))
        return ATTN_EINVAL;
    const float *ins[3] = {x, w, dy};
    const size_t lens[3] = {nx, nw, ny};
    float *outs[3] = {dx, dw, db};
    const size_t olens[3] = {nx, nw, d_out};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            if (attn_overlap(outs[a], olens[a] * sizeof(float), ins[b], lens[b] * sizeof(float)) ||
                (a < b && attn_overlap(outs[a], olens[a] * sizeof(float), outs[b],
                                       olens[b] * sizeof(float))))
                return ATTN_EINVAL;
#line 373 "book/12-learning.nw"
    return attn_linear_backward_kernel(x, w, dy, n, d_in, d_out, dx, dw, db);
}

#line 398 "book/12-learning.nw"
int attn_softmax_backward(const float *p, const float *dp, float *ds, size_t n)
{
#line 1187 "book/12-learning.nw"
    size_t bytes;
    if (p == NULL || dp == NULL || ds == NULL || n == 0 || !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
    if (attn_overlap(ds, bytes, p, bytes) || (ds != dp && attn_overlap(ds, bytes, dp, bytes)))
        return ATTN_EINVAL;
#line 401 "book/12-learning.nw"
    double dot = 0;
    for (size_t j = 0; j < n; j++)
        dot += (double)dp[j] * p[j];
    for (size_t j = 0; j < n; j++)
        ds[j] = (float)((double)p[j] * ((double)dp[j] - dot));
    return ATTN_OK;
}

#line 445 "book/12-learning.nw"
int attn_sdpa_backward_keep_p(const float *q, const float *k, const float *v,
                              const float *p, const float *out, const float *dout,
                              size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                              float scale, float *dq, float *dk, float *dv)
{
#line 1221 "book/12-learning.nw"
    size_t bytes, nq_, nk_, nv_, no_, np_;
    if (q == NULL || k == NULL || v == NULL || p == NULL || out == NULL || dout == NULL ||
        dq == NULL || dk == NULL || dv == NULL ||
        !bwd_sizes(n_q, n_k, d_k, d_v, scale, &nq_, &nk_, &nv_, &no_, &np_) ||
        !attn_bytes2(&bytes, n_q, n_k))
        return ATTN_EINVAL;
    {
        const float *ins[6] = {q, k, v, p, out, dout};
        const size_t il[6] = {nq_, nk_, nv_, np_, no_, no_};
        float *outs[3] = {dq, dk, dv};
        const size_t ol[3] = {nq_, nk_, nv_};
        if (bwd_outputs_overlap(outs, ol, ins, il, 6))
            return ATTN_EINVAL;
    }
#line 451 "book/12-learning.nw"
    double sc = scale == 0.0f ? 1.0 / sqrt((double)d_k) : (double)scale;
    memset(dq, 0, n_q * d_k * sizeof *dq);
    memset(dk, 0, n_k * d_k * sizeof *dk);
    memset(dv, 0, n_k * d_v * sizeof *dv);
    for (size_t i = 0; i < n_q; i++) {
        double D = 0;                               /* D_i = dO_i · O_i */
        for (size_t c = 0; c < d_v; c++)
            D += (double)dout[i * d_v + c] * out[i * d_v + c];
        for (size_t j = 0; j < n_k; j++) {
            double pij = p[i * n_k + j], dp = 0;    /* dP_ij = dO_i · V_j */
            for (size_t c = 0; c < d_v; c++)
                dp += (double)dout[i * d_v + c] * v[j * d_v + c];
            double ds = pij * (dp - D) * sc;        /* dS_ij，已乘上 scale */
            for (size_t c = 0; c < d_v; c++)        /* dV_j += P_ij · dO_i */
                dv[j * d_v + c] += (float)(pij * dout[i * d_v + c]);
            /* dQ_i += dS_ij·K_j；dK_j += dS_ij·Q_i */
            for (size_t c = 0; c < d_k; c++) {
                dq[i * d_k + c] += (float)(ds * k[j * d_k + c]);
                dk[j * d_k + c] += (float)(ds * q[i * d_k + c]);
            }
        }
    }
    return ATTN_OK;
}

#line 2133 "book/12-learning.nw"
enum { SDPA_BWD_BLOCK = 64 };    /* 一次重算的键数 */

/* s[jb] = scale · q[i]·k[j0 + jb]，jb < nb；看不见的记为 -inf */
static void bwd_scores(const float *q, const float *k, size_t n_q, size_t n_k, size_t d_k,
                       double scale, const unsigned char *mask, int causal,
                       size_t i, size_t j0, size_t nb, double *s)
{
    for (size_t jb = 0; jb < nb; jb++) {
        size_t j = j0 + jb;
        if (!attn_key_visible(mask, causal, n_q, n_k, i, j)) {
            s[jb] = -INFINITY;
            continue;
        }
        double dot = 0;
        for (size_t c = 0; c < d_k; c++)
            dot += (double)q[i * d_k + c] * k[j * d_k + c];
        s[jb] = dot * scale;
    }
}

/* try_fast 为 1 时先让附录 D 的快速实现试一试 */
int attn_sdpa_backward_kernel(const float *q, const float *k, const float *v,
                              size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                              float scale, const unsigned char *mask, int causal,
                              const float *dout, float *dq, float *dk, float *dv, int try_fast)
{
    double sc = scale == 0.0f ? 1.0 / sqrt((double)d_k) : (double)scale;
    if (try_fast) {
#line 2211 "book/12-learning.nw"
        /* 附录 D 在这里接手够大的问题 */
#line 1179 "book/D-cpu.nw"
        if ((double)n_q * (double)n_k >= 32.0 * 32.0 &&
            attn_flash_backward(q, k, v, n_q, n_k, d_k, d_v, (float)sc, mask, causal, dout,
                                dq, dk, dv, 1) == ATTN_OK)
            return ATTN_OK;
#line 2162 "book/12-learning.nw"
    }
    double *ml = malloc(2 * n_q * sizeof *ml);      /* 每行的最大值 m_i 与和 l_i */
    if (ml == NULL)
        return ATTN_ENOMEM;
    if (dq != NULL) memset(dq, 0, n_q * d_k * sizeof *dq);
    if (dk != NULL) memset(dk, 0, n_k * d_k * sizeof *dk);
    if (dv != NULL) memset(dv, 0, n_k * d_v * sizeof *dv);
    double s[SDPA_BWD_BLOCK];
    for (size_t i = 0; i < n_q; i++) {
#line 2217 "book/12-learning.nw"
        double m = -INFINITY, l = 0;
        for (size_t j0 = 0; j0 < n_k; j0 += SDPA_BWD_BLOCK) {
            size_t nb = n_k - j0 < SDPA_BWD_BLOCK ? n_k - j0 : SDPA_BWD_BLOCK;
            bwd_scores(q, k, n_q, n_k, d_k, sc, mask, causal, i, j0, nb, s);
            for (size_t jb = 0; jb < nb; jb++) {
                if (s[jb] == -INFINITY)
                    continue;
                if (s[jb] > m) {
                    l *= exp(m - s[jb]);
                    m = s[jb];
                }
                l += exp(s[jb] - m);
            }
        }
        ml[2 * i] = m;
        ml[2 * i + 1] = l;
#line 2172 "book/12-learning.nw"
        if (l == 0.0)        /* 一个键都看不见：没有贡献 */
            continue;
#line 2236 "book/12-learning.nw"
        double D = 0;
        for (size_t j0 = 0; j0 < n_k; j0 += SDPA_BWD_BLOCK) {
            size_t nb = n_k - j0 < SDPA_BWD_BLOCK ? n_k - j0 : SDPA_BWD_BLOCK;
            bwd_scores(q, k, n_q, n_k, d_k, sc, mask, causal, i, j0, nb, s);
            for (size_t jb = 0; jb < nb; jb++) {
                if (s[jb] == -INFINITY)
                    continue;
                double p = exp(s[jb] - m) / l, dp = 0;
                for (size_t c = 0; c < d_v; c++)
                    dp += (double)dout[i * d_v + c] * v[(j0 + jb) * d_v + c];
                D += p * dp;
            }
        }
#line 2252 "book/12-learning.nw"
        for (size_t j0 = 0; j0 < n_k; j0 += SDPA_BWD_BLOCK) {
            size_t nb = n_k - j0 < SDPA_BWD_BLOCK ? n_k - j0 : SDPA_BWD_BLOCK;
            bwd_scores(q, k, n_q, n_k, d_k, sc, mask, causal, i, j0, nb, s);
            for (size_t jb = 0; jb < nb; jb++) {
                size_t j = j0 + jb;
                if (s[jb] == -INFINITY)
                    continue;
                double p = exp(s[jb] - m) / l, dp = 0;
                for (size_t c = 0; c < d_v; c++)
                    dp += (double)dout[i * d_v + c] * v[j * d_v + c];
                double ds = p * (dp - D) * sc;          /* 已乘上 scale */
                /* dv[j] += P_ij · dout[i] */
                if (dv != NULL)
                    for (size_t c = 0; c < d_v; c++)
                        dv[j * d_v + c] += (float)(p * dout[i * d_v + c]);
                /* dq[i] += dS_ij · k[j]；dk[j] += dS_ij · q[i] */
                if (dq != NULL)
                    for (size_t c = 0; c < d_k; c++)
                        dq[i * d_k + c] += (float)(ds * k[j * d_k + c]);
                if (dk != NULL)
                    for (size_t c = 0; c < d_k; c++)
                        dk[j * d_k + c] += (float)(ds * q[i * d_k + c]);
            }
        }
#line 2176 "book/12-learning.nw"
    }
    free(ml);
    return ATTN_OK;
}

static int sdpa_backward(const float *q, const float *k, const float *v,
                         size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                         float scale, const unsigned char *mask, int causal,
                         const float *dout, float *dq, float *dk, float *dv, int try_fast)
{
#line 1198 "book/12-learning.nw"
    size_t nq_, nk_, nv_, no_, nm_;
    if (q == NULL || k == NULL || v == NULL || dout == NULL)
        return ATTN_EINVAL;
    if (dq == NULL && dk == NULL && dv == NULL)
        return ATTN_EINVAL;
    if (!bwd_sizes(n_q, n_k, d_k, d_v, scale, &nq_, &nk_, &nv_, &no_, &nm_) ||
        n_q > SIZE_MAX / (2 * sizeof(double)))
        return ATTN_EINVAL;
    const float *ins[4] = {q, k, v, dout};
    const size_t il[4] = {nq_, nk_, nv_, no_};
    float *outs[3] = {dq, dk, dv};
    const size_t ol[3] = {nq_, nk_, nv_};
    if (bwd_outputs_overlap(outs, ol, ins, il, 4))
        return ATTN_EINVAL;
    for (int a = 0; a < 3; a++)
        if (mask != NULL && attn_overlap(outs[a], ol[a] * sizeof(float), mask, nm_))
            return ATTN_EINVAL;
#line 2187 "book/12-learning.nw"
    return attn_sdpa_backward_kernel(q, k, v, n_q, n_k, d_k, d_v, scale, mask, causal, dout,
                                     dq, dk, dv, try_fast);
}

int attn_sdpa_backward(const float *q, const float *k, const float *v,
                       size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                       float scale, const unsigned char *mask, int causal,
                       const float *dout, float *dq, float *dk, float *dv)
{
    return sdpa_backward(q, k, v, n_q, n_k, d_k, d_v, scale, mask, causal, dout, dq, dk, dv, 1);
}

int attn_sdpa_backward_reference(const float *q, const float *k, const float *v,
                                 size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                                 float scale, const unsigned char *mask, int causal,
                                 const float *dout, float *dq, float *dk, float *dv)
{
    return sdpa_backward(q, k, v, n_q, n_k, d_k, d_v, scale, mask, causal, dout, dq, dk, dv, 0);
}

#line 615 "book/12-learning.nw"
int attn_cross_entropy_kernel(const float *logits, const int *targets, size_t n,
                              size_t vocab, float *loss, float *dlogits)
{
    double total = 0;
#line 1707 "book/12-learning.nw"
    /* 附录 D 在这里把各行分给几个线程 */
#line 1941 "book/D-cpu.nw"
    ATTN_OMP("omp parallel for ordered schedule(static, 1) if(n * vocab >= 65536)")
#line 620 "book/12-learning.nw"
    for (size_t i = 0; i < n; i++) {
        const float *z = logits + i * vocab;
        float *dz = dlogits != NULL ? dlogits + i * vocab : NULL;
        float m = z[0];
        double s = 0, zt = z[targets[i]];
        for (size_t j = 1; j < vocab; j++)
            m = z[j] > m ? z[j] : m;
        /* e_j = exp(z_j − m) ≤ 1，s = Σ e_j；
           要梯度时 e_j 先存进 dz（就地时 z_j 读过了才写） */
        for (size_t j = 0; j < vocab; j++) {
            float e = expf(z[j] - m);
            s += e;
            if (dz != NULL)
                dz[j] = e;
        }
#line 1711 "book/12-learning.nw"
        /* 附录 D 在这里规定：这一句按行的顺序执行 */
#line 1945 "book/D-cpu.nw"
        ATTN_OMP("omp ordered")
#line 636 "book/12-learning.nw"
        total += m + log(s) - zt;          /* −ln p_t = m + ln s − z_t */
        /* dz_j = (p_j − [j = t]) / n，p_j = e_j / s */
        if (dz != NULL) {
            float scale = (float)(1.0 / (s * (double)n));
            for (size_t j = 0; j < vocab; j++)
                dz[j] *= scale;
            dz[targets[i]] -= (float)(1.0 / (double)n);
        }
    }
#line 1334 "book/12-learning.nw"
    if (!isfinite(total))
        return ATTN_EINVAL;
#line 646 "book/12-learning.nw"
    *loss = (float)(total / (double)n);
    return ATTN_OK;
}

int attn_cross_entropy(const float *logits, const int *targets, size_t n, size_t vocab,
                       float *loss, float *dlogits)
{
#line 1312 "book/12-learning.nw"
    size_t bytes;
    if (logits == NULL || targets == NULL || loss == NULL || n == 0 || vocab == 0 ||
        !attn_bytes2(&bytes, n, vocab) || n > SIZE_MAX / sizeof(int))
        return ATTN_EINVAL;
    size_t tb = n * sizeof(int);
    if ((dlogits != logits && attn_overlap(dlogits, bytes, logits, bytes)) ||
        attn_overlap(dlogits, bytes, targets, tb) || attn_overlap(loss, sizeof *loss, targets, tb) ||
        attn_overlap(loss, sizeof *loss, logits, bytes) ||
        attn_overlap(loss, sizeof *loss, dlogits, bytes))
        return ATTN_EINVAL;
    for (size_t i = 0; i < n; i++)
        if (targets[i] < 0 || (size_t)targets[i] >= vocab)
            return ATTN_EINVAL;
    for (size_t i = 0; i < n * vocab; i++)
        if (!isfinite(logits[i]))
            return ATTN_EINVAL;
#line 654 "book/12-learning.nw"
    return attn_cross_entropy_kernel(logits, targets, n, vocab, loss, dlogits);
}
