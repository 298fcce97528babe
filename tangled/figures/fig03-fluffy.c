#line 1918 "book/03-attention.nw"
/* @fig:fluffy 的数据：注意力权重，每行一个格子：键 j，查询 i，权重。 */
#include "attn.h"

#include <stdio.h>

#include "../examples/ch03.h"

int main(void)
{
    float w[FL_N * FL_N], out[FL_N * FL_D];
    int status = fluffy_attention(3, 2, w, out);
    if (status != ATTN_OK) {
        fprintf(stderr, "fig03-fluffy: %s\n", attn_strerror(status));
        return 1;
    }
    for (int i = 0; i < FL_N; i++) {
        for (int j = 0; j < FL_N; j++)
            printf("%d %d %.3f\n", j, i, w[i * FL_N + j]);
        printf("\n");
    }
    return 0;
}
