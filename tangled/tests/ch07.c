#line 681 "book/07-multihead.nw"
#include "attn.h"
#include "check.h"

#include <math.h>
#include <stdint.h>

#include "../examples/ch07.h"
#line 762 "book/07-multihead.nw"
enum { RMAX = 8, DMAX = 12, CMAX = 24 };   /* 参考实现支持的最大序列长度和宽度 */

/* c[m][n] = a[m][k] · b[k][n] (+ bias[n]) */
static void ref_linear(const float *a, const float *b, const float *bias, float *c,
                       size_t m, size_t k, size_t n)
{
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            double s = bias ? bias[j] : 0.0;
            for (size_t t = 0; t < k; t++)
                s += (double)a[i * k + t] * b[t * n + j];
            c[i * n + j] = (float)s;
        }
}

/* 从 big[rows][cols] 里复制出第 col0 列起的 width 列 */
static void ref_columns(const float *big, size_t rows, size_t cols, size_t col0,
                        size_t width, float *small)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < width; c++)
            small[r * width + c] = big[r * cols + col0 + c];
}

static void ref_mha(const attn_mha_weights *w, const float *xq, size_t nq,
                    const float *xkv, size_t nkv, const unsigned char *mask, int causal,
                    float *out)
{
    size_t dm = w->d_model, dh = w->d_head, dc = w->n_heads * w->d_head;
    float cat[RMAX * CMAX];
    for (size_t h = 0; h < w->n_heads; h++) {
        float wq[DMAX * CMAX], wk[DMAX * CMAX], wv[DMAX * CMAX];
        float bq[CMAX], bk[CMAX], bv[CMAX];
        float q[RMAX * CMAX], k[RMAX * CMAX], v[RMAX * CMAX], o[RMAX * CMAX];
        ref_columns(w->w_q, dm, dc, h * dh, dh, wq);
        ref_columns(w->w_k, dm, dc, h * dh, dh, wk);
        ref_columns(w->w_v, dm, dc, h * dh, dh, wv);
        if (w->b_q) ref_columns(w->b_q, 1, dc, h * dh, dh, bq);
        if (w->b_k) ref_columns(w->b_k, 1, dc, h * dh, dh, bk);
        if (w->b_v) ref_columns(w->b_v, 1, dc, h * dh, dh, bv);
        ref_linear(xq, wq, w->b_q ? bq : NULL, q, nq, dm, dh);
        ref_linear(xkv, wk, w->b_k ? bk : NULL, k, nkv, dm, dh);
        ref_linear(xkv, wv, w->b_v ? bv : NULL, v, nkv, dm, dh);
        attn_sdpa(q, k, v, nq, nkv, dh, dh, 0.0f, mask, causal, o, NULL);
        for (size_t i = 0; i < nq; i++)
            for (size_t c = 0; c < dh; c++)
                cat[i * dc + h * dh + c] = o[i * dh + c];
    }
    ref_linear(cat, w->w_o, w->b_o, out, nq, dc, dm);
}


#line 690 "book/07-multihead.nw"
int main(void)
{
#line 728 "book/07-multihead.nw"
    check_section("手算例子：两个词、两个头");
    {
        const float x[2 * 2] = {1, 0,
                                0, 1};
        const float ln3 = logf(3.0f);
        /* 每个矩阵 2×2：第 0 列属于头 0，第 1 列属于头 1 */
        const float wq[4] = {0, 0,
                             0, ln3};
        const float wk[4] = {1, 0,
                             0, 1};
        const float wv[4] = {1, 0,
                             0, 1};
        const float wo[4] = {1, 1,
                             0, 2};
        attn_mha_weights w = {2, 2, 1, wq, wk, wv, wo, NULL, NULL, NULL, NULL};
        float out[4], p[4];
        CHECK_OK(attn_mha(&w, x, 2, x, 2, NULL, 0, out));
        CHECK_NEAR(out[0], 0.5, 1e-6);
        CHECK_NEAR(out[1], 1.5, 1e-6);
        CHECK_NEAR(out[2], 0.5, 1e-6);
        CHECK_NEAR(out[3], 2.0, 1e-6);
        CHECK_OK(attn_mha_pattern(&w, x, 2, x, 2, NULL, 0, 0, p));
        CHECK_NEAR(p[0], 0.5, 1e-6);
        CHECK_NEAR(p[3], 0.5, 1e-6);
        CHECK_OK(attn_mha_pattern(&w, x, 2, x, 2, NULL, 0, 1, p));
        CHECK_NEAR(p[0], 0.5, 1e-6);
        CHECK_NEAR(p[2], 0.25, 1e-6);
        CHECK_NEAR(p[3], 0.75, 1e-6);
    }
#line 816 "book/07-multihead.nw"
    check_section("一个头一个头地算：手算例子，以及随机权重上与 attn_mha 一致");
    {
        const float x[2 * 2] = {1, 0,
                                0, 1};
        const float ln3 = logf(3.0f);
        const float wq[4] = {0, 0, 0, ln3}, wk[4] = {1, 0, 0, 1}, wv[4] = {1, 0, 0, 1};
        const float wo[4] = {1, 1, 0, 2};
        attn_mha_weights w2 = {2, 2, 1, wq, wk, wv, wo, NULL, NULL, NULL, NULL};
        float out2[4];
        CHECK_OK(mha_per_head(&w2, x, 2, x, 2, out2));
        CHECK_NEAR(out2[0], 0.5, 1e-6);
        CHECK_NEAR(out2[1], 1.5, 1e-6);
        CHECK_NEAR(out2[2], 0.5, 1e-6);
        CHECK_NEAR(out2[3], 2.0, 1e-6);
        enum { DM = 6, NH = 3, DH = 4, DC = NH * DH, NQ = 5, NKV = 7 };
        unsigned seed = 11;
        float rq[DM * DC], rk[DM * DC], rv[DM * DC], ro[DC * DM], bo[DM];
        float xq[NQ * DM], xkv[NKV * DM], mine[NQ * DM], lib[NQ * DM];
        rnd_fill(rq, DM * DC, &seed); rnd_fill(rk, DM * DC, &seed); rnd_fill(rv, DM * DC, &seed);
        rnd_fill(ro, DC * DM, &seed); rnd_fill(bo, DM, &seed);
        rnd_fill(xq, NQ * DM, &seed); rnd_fill(xkv, NKV * DM, &seed);
        attn_mha_weights w = {DM, NH, DH, rq, rk, rv, ro, NULL, NULL, NULL, bo};
        CHECK_OK(mha_per_head(&w, xq, NQ, xkv, NKV, mine));
        CHECK_OK(attn_mha(&w, xq, NQ, xkv, NKV, NULL, 0, lib));
        CHECK_ARRAY_NEAR(mine, lib, NQ * DM, 1e-6);
        /* 尺寸超出直白版本的数组时拒绝，而不是越界 */
        CHECK_STATUS(mha_per_head(&w, xq, PH_N + 1, xkv, NKV, mine), ATTN_EINVAL);
    }
#line 847 "book/07-multihead.nw"
    check_section("attn_mha 与直白的参考实现一致");
    {
        enum { DM = 6, NH = 3, DH = 4, DC = NH * DH, NQ = 5, NKV = 7 };
        unsigned seed = 7;
        float wq[DM * DC], wk[DM * DC], wv[DM * DC], wo[DC * DM];
        float bq[DC], bk[DC], bv[DC], bo[DM];
        float xq[NQ * DM], xkv[NKV * DM];
        unsigned char mask[NKV * NKV];   /* 自注意力用 NKV×NKV，交叉注意力用前 NQ×NKV 个 */
        rnd_fill(wq, DM * DC, &seed); rnd_fill(wk, DM * DC, &seed);
        rnd_fill(wv, DM * DC, &seed); rnd_fill(wo, DC * DM, &seed);
        rnd_fill(bq, DC, &seed); rnd_fill(bk, DC, &seed);
        rnd_fill(bv, DC, &seed); rnd_fill(bo, DM, &seed);
        rnd_fill(xq, NQ * DM, &seed); rnd_fill(xkv, NKV * DM, &seed);
        for (size_t i = 0; i < NKV * NKV; i++)
            mask[i] = (unsigned char)((i * 7 + 3) % 4 != 0);   /* 约四分之一的位置不许看 */
        for (int config = 0; config < 8; config++) {
            int biases = config & 1, masked = (config >> 1) & 1, causal = (config >> 2) & 1;
            attn_mha_weights w = {DM, NH, DH, wq, wk, wv, wo,
                                  biases ? bq : NULL, biases ? bk : NULL,
                                  biases ? bv : NULL, biases ? bo : NULL};
            const unsigned char *m = masked ? mask : NULL;
            float got[NKV * DM], want[NKV * DM];
            /* 自注意力：同一个序列既出查询也出键值 */
            CHECK_OK(attn_mha(&w, xkv, NKV, xkv, NKV, m, causal, got));
            ref_mha(&w, xkv, NKV, xkv, NKV, m, causal, want);
            CHECK_ARRAY_NEAR(got, want, NKV * DM, 1e-5);
            /* 交叉注意力：5 个查询，7 个键值 */
            CHECK_OK(attn_mha(&w, xq, NQ, xkv, NKV, m, causal, got));
            ref_mha(&w, xq, NQ, xkv, NKV, m, causal, want);
            CHECK_ARRAY_NEAR(got, want, NQ * DM, 1e-5);
        }
    }
#line 882 "book/07-multihead.nw"
    check_section("输出层的三个独立检查");
    {
        enum { DM = 4, NH = 2, DH = 3, DC = NH * DH, N = 3 };
        unsigned seed = 11;
        float wq[DM * DC], wk[DM * DC], wv[DM * DC], wo[DC * DM], zero[DC * DM] = {0};
        float bo[DM] = {1, -2, 3, -4}, x[N * DM], a[N * DM], b[N * DM];
        rnd_fill(wq, DM * DC, &seed); rnd_fill(wk, DM * DC, &seed);
        rnd_fill(wv, DM * DC, &seed); rnd_fill(wo, DC * DM, &seed);
        rnd_fill(x, N * DM, &seed);
        attn_mha_weights w = {DM, NH, DH, wq, wk, wv, wo, NULL, NULL, NULL, NULL};
        CHECK_OK(attn_mha(&w, x, N, x, N, NULL, 1, a));
        w.b_o = bo;
        CHECK_OK(attn_mha(&w, x, N, x, N, NULL, 1, b));
        for (size_t i = 0; i < N * DM; i++)
            CHECK_NEAR(b[i] - a[i], bo[i % DM], 1e-5);
        w.w_o = zero;
        CHECK_OK(attn_mha(&w, x, N, x, N, NULL, 1, b));
        for (size_t i = 0; i < N * DM; i++)
            CHECK_NEAR(b[i], bo[i % DM], 0);
        /* 一个键也不许看：每个头输出 0，结果只剩 b_o */
        const unsigned char none[N * N] = {0};
        w.w_o = wo;
        CHECK_OK(attn_mha(&w, x, N, x, N, none, 0, b));
        for (size_t i = 0; i < N * DM; i++)
            CHECK_NEAR(b[i], bo[i % DM], 0);
    }
#line 913 "book/07-multihead.nw"
    check_section("attn_mha 拒绝错误的参数");
    {
        float x[4] = {1, 2, 3, 4}, m[4] = {0}, out[4], p[4];
        attn_mha_weights w = {2, 2, 1, m, m, m, m, NULL, NULL, NULL, NULL};
        CHECK_OK(attn_mha(&w, x, 2, x, 2, NULL, 0, out));
        CHECK_STATUS(attn_mha(NULL, x, 2, x, 2, NULL, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha(&w, NULL, 2, x, 2, NULL, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha(&w, x, 2, x, 2, NULL, 0, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_mha(&w, x, 0, x, 2, NULL, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha(&w, x, 2, x, 0, NULL, 0, out), ATTN_EINVAL);
        CHECK_STATUS(attn_mha_pattern(&w, x, 2, x, 2, NULL, 0, 2, p), ATTN_EINVAL);
        CHECK_STATUS(attn_mha_pattern(&w, x, 2, x, 2, NULL, 0, 0, NULL), ATTN_EINVAL);
        attn_mha_weights bad = w;
        bad.w_v = NULL;
        CHECK_STATUS(attn_mha(&bad, x, 2, x, 2, NULL, 0, out), ATTN_EINVAL);
        bad = w;
        bad.n_heads = 0;
        CHECK_STATUS(attn_mha(&bad, x, 2, x, 2, NULL, 0, out), ATTN_EINVAL);
        bad = w;
        bad.d_head = SIZE_MAX / 2;
        CHECK_STATUS(attn_mha(&bad, x, 2, x, 2, NULL, 0, out), ATTN_EINVAL);
    }
#line 938 "book/07-multihead.nw"
    check_section("切开 X 是另一个、更弱的模型");
    {
        size_t d = 512, h = 8, dh = 64;
        CHECK_INT(h * dh, d);
        CHECK_INT(3 * (d * h * dh) + (h * dh) * d, 1048576);
        CHECK_INT(3 * h * dh * dh, 98304);
        CHECK_INT(d * d, 262144);
        CHECK_INT(3 * h * dh * dh + d * d, 360448);
    }
    {
        enum { DM = 4, NH = 2, DH = 2, DC = NH * DH, N = 3 };
        unsigned seed = 5;
        float wq[DM * DC], wk[DM * DC], wv[DM * DC], wo[DC * DM];
        float sq[DM * DC] = {0}, sk[DM * DC] = {0}, sv[DM * DC] = {0};   /* 分块对角 */
        float x[N * DM], y[N * DM], px[N * N], py[N * N];
        rnd_fill(wq, DM * DC, &seed); rnd_fill(wk, DM * DC, &seed);
        rnd_fill(wv, DM * DC, &seed); rnd_fill(wo, DC * DM, &seed);
        /* 头 h 的列只在第 [h·DH, (h+1)·DH) 行上非零：头 h 只读 x 的这一块分量 */
        for (size_t r = 0; r < DM; r++)
            for (size_t c = 0; c < DC; c++)
                if (r / DH == c / DH) {
                    sq[r * DC + c] = wq[r * DC + c];
                    sk[r * DC + c] = wk[r * DC + c];
                    sv[r * DC + c] = wv[r * DC + c];
                }
        rnd_fill(x, N * DM, &seed);
        for (size_t i = 0; i < N * DM; i++)
            y[i] = (i % DM >= DH) ? x[i] + 1.5f * rnd(&seed) : x[i];   /* 只改头 1 的那块 */
        attn_mha_weights split = {DM, NH, DH, sq, sk, sv, wo, NULL, NULL, NULL, NULL};
        attn_mha_weights full = {DM, NH, DH, wq, wk, wv, wo, NULL, NULL, NULL, NULL};
        double change_split = 0, change_full = 0;
        CHECK_OK(attn_mha_pattern(&split, x, N, x, N, NULL, 0, 0, px));
        CHECK_OK(attn_mha_pattern(&split, y, N, y, N, NULL, 0, 0, py));
        for (size_t i = 0; i < N * N; i++)
            change_split += fabsf(px[i] - py[i]);
        CHECK_OK(attn_mha_pattern(&full, x, N, x, N, NULL, 0, 0, px));
        CHECK_OK(attn_mha_pattern(&full, y, N, y, N, NULL, 0, 0, py));
        for (size_t i = 0; i < N * N; i++)
            change_full += fabsf(px[i] - py[i]);
        CHECK_NEAR(change_split, 0, 0);
        CHECK(change_full > 1e-2);
    }
#line 983 "book/07-multihead.nw"
    check_section("值矩阵的参数：12288 → 128 → 12288");
    {
        size_t d = 12288, dh = 128;
        CHECK_INT(d * dh * 2, 3145728);
        CHECK_INT(d * d, 150994944);
        CHECK_INT((d * d) / (d * dh * 2), 48);
        CHECK_INT((d * d) % (d * dh * 2), 0);
        CHECK_INT(d * dh, 1572864);
        CHECK_INT(d * dh + d * dh, d * dh * 2);   /* W_Q 加 W_K 等于 value-down 加 value-up */
        CHECK_INT((d * d) / (d * dh), 96);
    }
#line 1042 "book/07-multihead.nw"
    check_section("一个头的值矩阵，秩不超过 d_head");
    {
        unsigned seed = 3;
        float m[6 * 6];
        random_value_map(6, 2, &seed, m);
        CHECK_INT(matrix_rank(m, 6, 6, 1e-4f), 2);
        rnd_fill(m, 6 * 6, &seed);
        CHECK_INT(matrix_rank(m, 6, 6, 1e-4f), 6);
    }
#line 1054 "book/07-multihead.nw"
    check_section("拼接再乘 W_O，等于各个头的值矩阵之和");
    {
        enum { DM = 5, NH = 3, DH = 2, DC = NH * DH, N = 4 };
        unsigned seed = 19;
        float wq[DM * DC], wk[DM * DC], wv[DM * DC], wo[DC * DM], x[N * DM];
        rnd_fill(wq, DM * DC, &seed); rnd_fill(wk, DM * DC, &seed);
        rnd_fill(wv, DM * DC, &seed); rnd_fill(wo, DC * DM, &seed);
        rnd_fill(x, N * DM, &seed);
        attn_mha_weights w = {DM, NH, DH, wq, wk, wv, wo, NULL, NULL, NULL, NULL};
        float got[N * DM], sum[N * DM] = {0}, sum_up[N * DM] = {0};
        CHECK_OK(attn_mha(&w, x, N, x, N, NULL, 1, got));
        for (size_t h = 0; h < NH; h++) {
            float a[N * N], vmap[DM * DM], xv[N * DM];
            CHECK_OK(attn_mha_pattern(&w, x, N, x, N, NULL, 1, h, a));
            /* 头 h 的输出 o[N][DH] = a · (x · W_V 的第 h 个列块)；sum_up += o · value-up */
            for (size_t i = 0; i < N; i++)
                for (size_t t = 0; t < DH; t++) {
                    float o = 0.0f;
                    for (size_t j = 0; j < N; j++)
                        for (size_t r = 0; r < DM; r++)
                            o += a[i * N + j] * x[j * DM + r] * wv[r * DC + h * DH + t];
                    for (size_t c = 0; c < DM; c++)
                        sum_up[i * DM + c] += o * wo[(h * DH + t) * DM + c];
                }
            /* vmap[DM][DM] = W_V 的第 h 个列块 · W_O 的第 h 个行块 */
            for (size_t r = 0; r < DM; r++)
                for (size_t c = 0; c < DM; c++) {
                    float s = 0.0f;
                    for (size_t t = 0; t < DH; t++)
                        s += wv[r * DC + h * DH + t] * wo[(h * DH + t) * DM + c];
                    vmap[r * DM + c] = s;
                }
            /* xv[N][DM] = x · vmap；sum += a · xv */
            ref_linear(x, vmap, NULL, xv, N, DM, DM);
            for (size_t i = 0; i < N; i++)
                for (size_t j = 0; j < N; j++)
                    for (size_t c = 0; c < DM; c++)
                        sum[i * DM + c] += a[i * N + j] * xv[j * DM + c];
        }
        CHECK_ARRAY_NEAR(got, sum_up, N * DM, 1e-5);
        CHECK_ARRAY_NEAR(got, sum, N * DM, 1e-5);
    }
#line 1099 "book/07-multihead.nw"
    check_section("值向量的个数等于词数，不等于嵌入维数");
    {
        enum { N = 5, D = 12 };
        unsigned seed = 23;
        float q[N * D], k[N * D], v[N * D], out[N * D], a[N * N];
        rnd_fill(q, N * D, &seed); rnd_fill(k, N * D, &seed); rnd_fill(v, N * D, &seed);
        CHECK_OK(attn_sdpa(q, k, v, N, N, D, D, 0.0f, NULL, 0, out, a));
        double wsum = 0;
        for (size_t j = 0; j < N; j++)
            wsum += a[0 * N + j];
        CHECK_NEAR(wsum, 1.0, 1e-6);
        for (size_t c = 0; c < D; c++) {
            double delta = 0;
            for (size_t j = 0; j < N; j++)
                delta += a[0 * N + j] * v[j * D + c];
            CHECK_NEAR(out[0 * D + c], delta, 1e-5);
        }
        /* GPT-3：代码里每个值向量 d_head = 12288 / 96 = 128 维，升维之后 12288 维 */
        CHECK_INT(12288 / 96, 128);
    }
#line 1122 "book/07-multihead.nw"
    check_section("W_O 把拼接结果映射回 d_model；GPT 里它是方阵");
    {
        CHECK_INT(12 * 64, 768);                           /* W_O 是 d_model × d_model */
        CHECK_INT(96 * 128, 12288);
        CHECK_INT(8 * 64, 512);
    }
#line 1131 "book/07-multihead.nw"
    check_section("三个手工头的注意力模式");
    {
        float x[SENT_N * SENT_D], wq[SENT_D * SENT_DC], wk[SENT_D * SENT_DC];
        float wv[SENT_D * SENT_DC], wo[SENT_DC * SENT_D], bq[SENT_DC], p[SENT_N * SENT_N];
        double e6 = exp(6.0);
        sent_embed(x);
        sent_heads(6.0f, wq, wk, wv, wo, bq);
        attn_mha_weights w = {SENT_D, SENT_H, SENT_DH, wq, wk, wv, wo, bq, NULL, NULL, NULL};
        CHECK_STR(sent_words[3], "creature");
        CHECK_OK(attn_mha_pattern(&w, x, SENT_N, x, SENT_N, NULL, 1, 0, p));
        for (size_t i = 1; i < SENT_N; i++)
            CHECK_NEAR(p[i * SENT_N + (i - 1)], e6 / (e6 + (double)i), 1e-5);
        CHECK_NEAR(p[7 * SENT_N + 6], 0.9829, 1e-4);
        CHECK_NEAR(p[0], 1.0, 1e-6);
        CHECK_OK(attn_mha_pattern(&w, x, SENT_N, x, SENT_N, NULL, 1, 1, p));
        CHECK_NEAR(p[3 * SENT_N + 1], e6 / (2 * e6 + 2), 1e-5);
        CHECK_NEAR(p[3 * SENT_N + 2], 0.4988, 1e-4);
        CHECK_NEAR(p[7 * SENT_N + 6], e6 / (3 * e6 + 5), 1e-5);
        CHECK_NEAR(p[7 * SENT_N + 1], 0.3320, 1e-4);
        CHECK_NEAR(p[4 * SENT_N + 0], 0.2, 1e-6);   /* roamed 不是名词：5 个可看的词平均分 */
        CHECK_OK(attn_mha_pattern(&w, x, SENT_N, x, SENT_N, NULL, 1, 2, p));
        for (size_t i = 1; i < SENT_N; i++)
            CHECK_NEAR(p[i * SENT_N + 0], e6 / (e6 + (double)i), 1e-5);
        CHECK_NEAR(p[5], 0.0, 0);   /* 第 0 行第 5 列被因果掩码挡住 */
    }
#line 1159 "book/07-multihead.nw"
    check_section("8 个头与 96 个头");
    {
        CHECK_INT(8 * 64, 512);
        CHECK_INT(96 * 128, 12288);
        unsigned long long d = 12288, per_layer = 4 * d * d;
        CHECK_INT(per_layer, 603979776LL);
        CHECK_INT(per_layer * 96, 57982058496LL);
        /* 每个头四块 12288×128 的矩阵，96 个头合起来就是每层的四个大矩阵 */
        CHECK_INT(96 * 4 * d * 128, per_layer);
        /* 约三分之一：580 亿 / 1750 亿 */
        CHECK_NEAR((double)(per_layer * 96) / 175e9, 0.331, 1e-3);
    }
#line 1174 "book/07-multihead.nw"
    check_section("头数：8、16、12、96，每头的宽度；原论文对比里的 1 个和 32 个头");
    {
        CHECK_INT(512 / 8, 64);                            /* 原始 Transformer 的基础模型 */
        CHECK_INT(1024 / 16, 64);                          /* 同一篇论文的大模型 */
        CHECK_INT(768 / 12, 64);                           /* GPT-2 small */
        CHECK_INT(12288 / 96, 128);                        /* GPT-3 */
        CHECK_INT(512 / 32, 16);                           /* 对比里最多的头数：每头 16 维 */
        CHECK_INT(512 / 1, 512);                           /* 只用 1 个头：一个 512 维的头 */
    }
#line 706 "book/07-multihead.nw"
    return check_summary("ch07");
}
