#line 1090 "book/03-attention.nw"
/* 图 3.1 的数据：注意力模式，每行一个格子：键 j，查询 i，权重。 */
#include "attn.h"

#include <stdio.h>

#line 1007 "book/03-attention.nw"
/* a fluffy blue creature roamed the verdant forest：八个词，每个词 5 维。
   分量：名词、形容词、第一个短语、第二个短语、动词。 */
enum { FL_N = 8, FL_D = 5, FL_DK = 3 };
static const char *const fluffy_words[FL_N] = {
    "a", "fluffy", "blue", "creature", "roamed", "the", "verdant", "forest"};
static const float fluffy_x[FL_N * FL_D] = {
    0, 0, 1, 0, 0,   /* a */
    0, 1, 1, 0, 0,   /* fluffy */
    0, 1, 1, 0, 0,   /* blue */
    1, 0, 1, 0, 0,   /* creature */
    0, 0, 0, 0, 1,   /* roamed */
    0, 0, 0, 1, 0,   /* the */
    0, 1, 0, 1, 0,   /* verdant */
    1, 0, 0, 1, 0,   /* forest */
};

/* 用强度 s（名词找形容词）和 c（同一短语）造出 W_Q、W_K，算出注意力模式 w[8][8]
   和输出 out[8][5]（W_V 是单位矩阵，所以 V = X）。 */
static int fluffy_attention(float s, float c, float *w, float *out)
{
    /* w_q[5][3]、w_k[5][3]：行是嵌入的分量，列是查询（键）的分量 */
    const float w_q[FL_D * FL_DK] = {
        s, 0, 0,    /* 名词 → “我在找形容词” */
        0, 0, 0,
        0, c, 0,    /* 第一个短语 */
        0, 0, c,    /* 第二个短语 */
        0, 0, 0,
    };
    const float w_k[FL_D * FL_DK] = {
        0, 0, 0,
        s, 0, 0,    /* 形容词 → “我是形容词” */
        0, c, 0,
        0, 0, c,
        0, 0, 0,
    };
    float q[FL_N * FL_DK], k[FL_N * FL_DK];
    attn_linear(fluffy_x, w_q, NULL, q, FL_N, FL_D, FL_DK);    /* Q = X W_Q */
    attn_linear(fluffy_x, w_k, NULL, k, FL_N, FL_D, FL_DK);    /* K = X W_K */
    return attn_sdpa(q, k, fluffy_x, FL_N, FL_N, FL_DK, FL_D, 0.0f, NULL, 0, out, w);
}

#line 1097 "book/03-attention.nw"
int main(void)
{
    float w[FL_N * FL_N], out[FL_N * FL_D];
    if (fluffy_attention(3, 2, w, out) != ATTN_OK)
        return 1;
    for (int i = 0; i < FL_N; i++) {
        for (int j = 0; j < FL_N; j++)
            printf("%d %d %.3f\n", j, i, w[i * FL_N + j]);
        printf("\n");
    }
    return 0;
}
