#line 393 "book/06-cross.nw"
#include "attn.h"
#include "check.h"

#include <math.h>
#include <stdint.h>

#include "../examples/ch06.h"

int main(void)
{
#line 413 "book/06-cross.nw"
    check_section("玩具翻译：注意力模式就是词对齐");
    {
        float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV];
        float out[TR_NQ * TR_DV], w[TR_NQ * TR_NK];
        double e3 = exp(3.0), e15 = exp(1.5);
        translation_example(6.0f, q, k, v);
        CHECK_OK(attn_sdpa(q, k, v, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, 0, out, w));
        /* 每个英文词和它最看重的中文词 */
        const char *pairs[TR_NQ][2] = {
            {"I", "我"}, {"saw", "看见"}, {"her", "她"}, {"yesterday", "昨天"}};
        for (size_t i = 0; i < TR_NQ; i++) {
            size_t best = 0;
            double sum = 0;
            for (size_t j = 0; j < TR_NK; j++) {
                sum += w[i * TR_NK + j];
                if (w[i * TR_NK + j] > w[i * TR_NK + best])
                    best = j;
            }
            CHECK_STR(tr_tgt[i], pairs[i][0]);
            CHECK_STR(tr_src[best], pairs[i][1]);
            CHECK_NEAR(sum, 1.0, 1e-6);
        }
        CHECK_NEAR(e3, 20.09, 5e-3);
        CHECK_NEAR(w[0 * TR_NK + 0], e3 / (e3 + 4), 1e-6);
        CHECK_NEAR(w[0 * TR_NK + 0], 0.8339, 1e-4);
        CHECK_NEAR(w[0 * TR_NK + 1], 0.0415, 1e-4);
        CHECK_NEAR(w[2 * TR_NK + 4], 0.8339, 1e-4);
        CHECK_NEAR(w[3 * TR_NK + 1], 0.8339, 1e-4);
        CHECK_NEAR(w[1 * TR_NK + 2], e3 / (e3 + e15 + 3), 1e-6);
        CHECK_NEAR(w[1 * TR_NK + 2], 0.7286, 1e-4);
        CHECK_NEAR(w[1 * TR_NK + 3], 0.1626, 1e-4);
        CHECK_NEAR(w[1 * TR_NK + 0], 0.0363, 1e-4);
        /* yesterday 的输出：主要是“时间”；I 和 her 的权重一样集中，读到的内容不同 */
        const float yesterday[TR_DV] = {0.0415f, 0.0415f, 0.8339f, 0.0415f, 0.0415f};
        CHECK_ARRAY_NEAR(out + 3 * TR_DV, yesterday, TR_DV, 1e-4);
        CHECK_NEAR(out[0 * TR_DV + 0], 0.8339, 1e-4);
        CHECK_NEAR(out[0 * TR_DV + 1], 0.0415, 1e-4);
        CHECK_NEAR(out[2 * TR_DV + 0], 0.0415, 1e-4);
        CHECK_NEAR(out[2 * TR_DV + 1], 0.8339, 1e-4);
        CHECK(fabsf(out[0] - out[2 * TR_DV]) > 0.7f);
        CHECK_NEAR(out[1 * TR_DV + 3], 0.7286, 1e-4);
        CHECK_NEAR(out[1 * TR_DV + 4], 0.1626, 1e-4);
    }
#line 459 "book/06-cross.nw"
    check_section("因果掩码放错了地方：her 看不见“她”");
    {
        float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV];
        float out[TR_NQ * TR_DV], w[TR_NQ * TR_NK];
        translation_example(6.0f, q, k, v);
        CHECK_OK(attn_sdpa(q, k, v, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, 1, out, w));
        CHECK_NEAR(w[2 * TR_NK + 4], 0.0, 0);
        for (size_t j = 0; j < 4; j++)
            CHECK_NEAR(w[2 * TR_NK + j], 0.25, 1e-6);
        /* 没有掩码时，her 的权重落在“她”上 */
        CHECK_OK(attn_sdpa(q, k, v, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, 0, out, w));
        CHECK_NEAR(w[2 * TR_NK + 4], 0.8339, 1e-4);
    }
#line 475 "book/06-cross.nw"
    check_section("填充掩码：补上的 pad 不能分走权重");
    {
        enum { NP = 2, NKP = TR_NK + NP };
        float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV];
        float kp[NKP * TR_DK], vp[NKP * TR_DV];
        float base[TR_NQ * TR_DV], bare[TR_NQ * TR_DV], masked[TR_NQ * TR_DV];
        float w[TR_NQ * NKP];
        unsigned char mask[TR_NQ * NKP];
        double e3 = exp(3.0);
        translation_example(6.0f, q, k, v);
        pad_source(k, v, NP, kp, vp);
        CHECK_OK(attn_sdpa(q, k, v, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, 0, base, NULL));
        /* 不用掩码：pad 分走权重，输出变了 */
        CHECK_OK(attn_sdpa(q, kp, vp, TR_NQ, NKP, TR_DK, TR_DV, 0.0f, NULL, 0, bare, w));
        CHECK_NEAR(w[0], e3 / (e3 + 6), 1e-6);
        CHECK_NEAR(w[0], 0.7700, 1e-4);
        CHECK_NEAR(w[5] + w[6], 0.0767, 1e-4);
        double diff = 0;
        for (size_t c = 0; c < TR_DV; c++)
            diff = fmax(diff, fabsf(bare[c] - base[c]));
        CHECK(diff > 0.05);   /* “I” 的“时间”分量从 0.0415 涨到约 0.115 */
        CHECK_NEAR(bare[2], 0.115, 1e-3);
        /* 用掩码：和没有 pad 时一样 */
        CHECK_OK(attn_padding_mask(TR_NQ, NKP, TR_NK, mask));
        CHECK_INT(mask[4], 1);
        CHECK_INT(mask[5], 0);
        CHECK_INT(mask[NKP + 6], 0);
        CHECK_OK(attn_sdpa(q, kp, vp, TR_NQ, NKP, TR_DK, TR_DV, 0.0f, mask, 0, masked, w));
        CHECK_ARRAY_NEAR(masked, base, TR_NQ * TR_DV, 1e-7);
        CHECK_NEAR(w[0], 0.8339, 1e-4);
        CHECK_NEAR(w[5] + w[6], 0.0, 0);
        /* 错误的参数 */
        CHECK_STATUS(attn_padding_mask(TR_NQ, NKP, 0, mask), ATTN_EINVAL);
        CHECK_STATUS(attn_padding_mask(TR_NQ, NKP, NKP + 1, mask), ATTN_EINVAL);
        CHECK_STATUS(attn_padding_mask(TR_NQ, NKP, TR_NK, NULL), ATTN_EINVAL);
        CHECK_STATUS(attn_padding_mask(SIZE_MAX, 2, 1, mask), ATTN_EINVAL);
    }
#line 515 "book/06-cross.nw"
    check_section("值不可省略：权重由 Q、K 决定，输出由 V 决定");
    {
        float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV], v2[TR_NK * TR_DV];
        float out[TR_NQ * TR_DV], out2[TR_NQ * TR_DV], w[TR_NQ * TR_NK], w2[TR_NQ * TR_NK];
        translation_example(6.0f, q, k, v);
        for (size_t i = 0; i < TR_NK * TR_DV; i++)
            v2[i] = 1.0f - v[i];
        CHECK_OK(attn_sdpa(q, k, v, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, 0, out, w));
        CHECK_OK(attn_sdpa(q, k, v2, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, 0, out2, w2));
        CHECK_ARRAY_NEAR(w2, w, TR_NQ * TR_NK, 0);
        CHECK_NEAR(out[3 * TR_DV + 2], 0.8339, 1e-4);
        CHECK_NEAR(out2[3 * TR_DV + 2], 1.0 - 0.8339, 1e-4);
        size_t d = 512;
        CHECK_INT(4 * d * d, 1048576);
        CHECK_INT(d * d, 262144);
    }
#line 536 "book/06-cross.nw"
    check_section("源句的键和值只算一次：逐步解码与一次算完一样；乘加次数");
    {
        enum { D = 5 };
        float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV];
        float m[TR_NK * D] = {0}, y[TR_NQ * D] = {0}, wq[D * TR_DK] = {0};
        float kk[TR_NK * TR_DK], vv[TR_NK * TR_DV], qt[TR_DK];
        float once[TR_NQ * TR_DV], steps[TR_NQ * TR_DV];
        translation_example(6.0f, q, k, v);
        /* M、Y 的行是独热向量；W_K、W_V 就是键和值的表，W_Q 的前 4 行是 4 个查询 */
        for (size_t j = 0; j < TR_NK; j++)
            m[j * D + j] = 1.0f;
        for (size_t t = 0; t < TR_NQ; t++)
            y[t * D + t] = 1.0f;
        for (size_t i = 0; i < TR_NQ * TR_DK; i++)
            wq[i] = q[i];
        CHECK_OK(cross_attention_steps(m, TR_NK, y, TR_NQ, D, TR_DK, TR_DV, wq, k, v,
                                       kk, vv, qt, steps));
        CHECK_ARRAY_NEAR(kk, k, TR_NK * TR_DK, 0);
        CHECK_ARRAY_NEAR(vv, v, TR_NK * TR_DV, 0);
        CHECK_OK(attn_sdpa(q, k, v, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, 0, once, NULL));
        CHECK_ARRAY_NEAR(steps, once, TR_NQ * TR_DV, 1e-6);
        CHECK_NEAR(steps[3 * TR_DV + 0], 0.0415, 1e-4);
        CHECK_NEAR(steps[3 * TR_DV + 2], 0.8339, 1e-4);
        CHECK_NEAR(steps[3 * TR_DV + 4], 0.0415, 1e-4);
        CHECK_STATUS(cross_attention_steps(m, TR_NK, y, TR_NQ, 0, TR_DK, TR_DV, wq, k, v,
                                           kk, vv, qt, steps), ATTN_EINVAL);
        /* 乘加次数：n_src·d·(d_k + d_v)，只算一次与每步重算 */
        CHECK_INT(TR_NK * D * (TR_DK + TR_DV), 225);
        CHECK_INT(TR_NQ * TR_NK * D * (TR_DK + TR_DV), 900);
        CHECK_INT(kv_projection_macs(30, 512, 512, 512, 6), 94371840LL);
        CHECK_INT(30 * kv_projection_macs(30, 512, 512, 512, 6), 2831155200LL);
    }
#line 408 "book/06-cross.nw"
    return check_summary("ch06");
}
