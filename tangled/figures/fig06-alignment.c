#line 154 "book/06-cross.nw"
#include "attn.h"

#include <stdio.h>

#line 76 "book/06-cross.nw"
enum { TR_NQ = 4, TR_NK = 5, TR_DK = 4, TR_DV = 3 };

static const char *const tr_src[TR_NK] = {"我", "昨天", "看见", "了", "她"};
static const char *const tr_tgt[TR_NQ] = {"I", "saw", "her", "yesterday"};

/* q[4][4]：英文词的查询，长度为 s；k[5][4]、v[5][3]：中文词的键和值 */
static void translation_example(float s, float *q, float *k, float *v)
{
    /* 四个概念方向：0 说话人，1 时间，2 看见，3 她 */
    static const float keys[TR_NK * TR_DK] = {
        1, 0, 0,    0,     /* 我 */
        0, 1, 0,    0,     /* 昨天 */
        0, 0, 1,    0,     /* 看见 */
        0, 0, 0.5f, 0,     /* 了 */
        0, 0, 0,    1};    /* 她 */
    static const float dirs[TR_NQ * TR_DK] = {
        1, 0, 0, 0,        /* I */
        0, 0, 1, 0,        /* saw */
        0, 0, 0, 1,        /* her */
        0, 1, 0, 0};       /* yesterday */
    /* 值的三个分量：人、时间、动作 */
    static const float values[TR_NK * TR_DV] = {
        1, 0, 0,   0, 1, 0,   0, 0, 1,   0, 0, 0,   1, 0, 0};
    for (size_t i = 0; i < TR_NQ * TR_DK; i++)
        q[i] = s * dirs[i];
    for (size_t i = 0; i < TR_NK * TR_DK; i++)
        k[i] = keys[i];
    for (size_t i = 0; i < TR_NK * TR_DV; i++)
        v[i] = values[i];
}

#line 160 "book/06-cross.nw"
int main(void)
{
    float q[TR_NQ * TR_DK], k[TR_NK * TR_DK], v[TR_NK * TR_DV];
    float out[TR_NQ * TR_DV], w[TR_NQ * TR_NK];
    translation_example(6.0f, q, k, v);
    if (attn_sdpa(q, k, v, TR_NQ, TR_NK, TR_DK, TR_DV, 0.0f, NULL, 0, out, w) != ATTN_OK)
        return 1;
    /* 每行 “键 查询 权重”，一个查询一段 */
    printf("# 查询: %s %s %s %s\n", tr_tgt[0], tr_tgt[1], tr_tgt[2], tr_tgt[3]);
    printf("# 键: %s %s %s %s %s\n", tr_src[0], tr_src[1], tr_src[2], tr_src[3], tr_src[4]);
    for (size_t i = 0; i < TR_NQ; i++) {
        for (size_t j = 0; j < TR_NK; j++)
            printf("%zu %zu %.4f\n", j, i, w[i * TR_NK + j]);
        printf("\n");
    }
    return 0;
}
