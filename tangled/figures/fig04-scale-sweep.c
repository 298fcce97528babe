#line 952 "book/04-scaling.nw"
/* 图：分数 (1, 0.5, 0) 乘上 c 之后的 softmax。每行 “c w0 w1 w2” */
#include "attn.h"

#include <stdio.h>

int main(void)
{
    static const float s[3] = {1.0f, 0.5f, 0.0f};
    for (int i = 0; i <= 200; i++) {
        float c = 10.0f * (float)i / 200.0f, w[3];
        for (int j = 0; j < 3; j++)
            w[j] = c * s[j];
        if (attn_softmax(w, 3) != ATTN_OK)
            return 1;
        printf("%.3f %.6f %.6f %.6f\n", c, w[0], w[1], w[2]);
    }
    return 0;
}
