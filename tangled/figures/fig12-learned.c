#line 4164 "book/12-learning.nw"
/* 图 12.2 的数据：两块（以两个空行分开），每行 "查询 键 权重"，第 0 层最看重颜色的那个头 */
#include "attn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../examples/fluffy_task.h"

int main(void)
{
    fluffy_trainer T;
    if (fluffy_init(&T, 1) != ATTN_OK)
        return 1;
    for (int s = 0; s < 2000; s++)
        fluffy_step(&T, NULL);
    size_t head = fluffy_colour_head(&T.m, 0);
    const int sent[2] = {0, 64};       /* fluffy blue creature；blue fluffy creature */
    for (int e = 0; e < 2; e++) {
        int tok[FL_LEN];
        float w[2 * 2 * 16];
        fluffy_sentence(sent[e], tok);
        if (fluffy_patterns(&T.m, tok, 4, w) != ATTN_OK)
            return 1;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                printf("%d %d %.4f\n", i, j, w[head * 16 + i * 4 + j]);
        if (e == 0) printf("\n\n");
    }
    fluffy_free(&T);
    return 0;
}
