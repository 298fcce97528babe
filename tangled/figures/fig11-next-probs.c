#line 2288 "book/11-block.nw"
/* 图：随机的小模型读了 3 1 4 1 5 9 之后，下一个词的概率。每行 “词 概率” */
#include "attn.h"

#include <stdio.h>

#include "../examples/ch11.h"

int main(void)
{
    enum { N = 6, V = 16 };
    const int tokens[N] = {3, 1, 4, 1, 5, 9};
    float logits[N * V];
    attn_gpt_config c = tiny_config();
    attn_gpt m;
    if (attn_gpt_init(&m, &c, 2024) != ATTN_OK)
        return 1;
    int status = attn_gpt_forward(&m, tokens, N, logits);
    if (status == ATTN_OK)
        status = attn_softmax(logits + (N - 1) * V, V);
    attn_gpt_free(&m);
    if (status != ATTN_OK)
        return 1;
    for (int t = 0; t < V; t++)
        printf("%d %.5f\n", t, logits[(N - 1) * V + t]);
    return 0;
}
