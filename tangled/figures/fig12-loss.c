#line 4060 "book/12-learning.nw"
/* 图 12.1 的数据：每 20 步一行 "步数 训练损失(这 20 步的平均) 检验损失" */
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
    float sum = 0, loss, acc;
    for (int s = 1; s <= 2000; s++) {
        sum += fluffy_step(&T, NULL);
        if (s % 20 == 0) {
            fluffy_eval(&T.m, &loss, &acc);
            printf("%d %.5f %.5f\n", s, sum / 20, loss);
            sum = 0;
        }
    }
    fluffy_free(&T);
    return 0;
}
