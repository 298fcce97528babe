#line 861 "book/07-multihead.nw"
#include "attn.h"

#include <math.h>
#include <stdio.h>

#line 810 "book/07-multihead.nw"
enum { SENT_N = 8, SENT_D = 10, SENT_H = 3, SENT_DH = 8, SENT_DC = SENT_H * SENT_DH };

static const char *const sent_words[SENT_N] = {
    "a", "fluffy", "blue", "creature", "roamed", "the", "verdant", "forest"};
static const int sent_adj[SENT_N] = {0, 1, 1, 0, 0, 0, 1, 0};
static const int sent_noun[SENT_N] = {0, 0, 0, 1, 0, 0, 0, 1};

/* x[8][10]：位置的独热编码、形容词标记、名词标记 */
static void sent_embed(float *x)
{
    for (size_t i = 0; i < SENT_N * SENT_D; i++)
        x[i] = 0.0f;
    for (size_t i = 0; i < SENT_N; i++) {
        x[i * SENT_D + i] = 1.0f;
        x[i * SENT_D + 8] = (float)sent_adj[i];
        x[i * SENT_D + 9] = (float)sent_noun[i];
    }
}

/* w_q、w_k、w_v、w_o、b_q 由调用者提供存储；s 是对得上的一对缩放后的分数 */
static void sent_heads(float s, float *wq, float *wk, float *wv, float *wo, float *bq)
{
    float c = s * sqrtf((float)SENT_DH);   /* 点积乘以 1/sqrt(8) 之后正好是 s */
    for (size_t i = 0; i < SENT_D * SENT_DC; i++)
        wq[i] = wk[i] = wv[i] = wo[i] = 0.0f;
    for (size_t i = 0; i < SENT_DC; i++)
        bq[i] = 0.0f;
    /* 头 0，列 0..7：查询 i 指向位置 i-1，键 j 就是位置 j */
    for (size_t p = 1; p < SENT_N; p++)
        wq[p * SENT_DC + 0 * SENT_DH + (p - 1)] = c;
    for (size_t p = 0; p < SENT_N; p++)
        wk[p * SENT_DC + 0 * SENT_DH + p] = 1.0f;
    /* 头 1，列 8..15：名词标记进入查询，形容词标记进入键 */
    wq[9 * SENT_DC + 1 * SENT_DH] = c;
    wk[8 * SENT_DC + 1 * SENT_DH] = 1.0f;
    /* 头 2，列 16..23：查询只有偏置，指向位置 0 */
    bq[2 * SENT_DH + 0] = c;
    for (size_t p = 0; p < SENT_N; p++)
        wk[p * SENT_DC + 2 * SENT_DH + p] = 1.0f;
    /* 值和输出：把位置编码原样搬运（本节只看注意力模式） */
    for (size_t p = 0; p < SENT_N; p++)
        for (size_t h = 0; h < SENT_H; h++) {
            wv[p * SENT_DC + h * SENT_DH + p] = 1.0f;
            wo[(h * SENT_DH + p) * SENT_D + p] = 1.0f / SENT_H;
        }
}

#line 868 "book/07-multihead.nw"
int main(void)
{
    float x[SENT_N * SENT_D], wq[SENT_D * SENT_DC], wk[SENT_D * SENT_DC];
    float wv[SENT_D * SENT_DC], wo[SENT_DC * SENT_D], bq[SENT_DC], p[SENT_N * SENT_N];
    sent_embed(x);
    sent_heads(6.0f, wq, wk, wv, wo, bq);
    attn_mha_weights w = {SENT_D, SENT_H, SENT_DH, wq, wk, wv, wo, bq, NULL, NULL, NULL};
    printf("#");
    for (size_t j = 0; j < SENT_N; j++)
        printf(" %s", sent_words[j]);
    printf("\n");
    /* 每个头一块：每行 “键 查询 权重”，一个查询一段，块与块之间空两行 */
    for (size_t h = 0; h < SENT_H; h++) {
        if (attn_mha_pattern(&w, x, SENT_N, x, SENT_N, NULL, 1, h, p) != ATTN_OK)
            return 1;
        for (size_t i = 0; i < SENT_N; i++) {
            for (size_t j = 0; j < SENT_N; j++)
                printf("%zu %zu %.4f\n", j, i, p[i * SENT_N + j]);
            printf("\n");
        }
        printf("\n");
    }
    return 0;
}
