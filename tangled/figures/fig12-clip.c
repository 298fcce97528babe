#line 4017 "book/12-learning.nw"
/* 图的数据：块 0 每行 "步数 不裁剪的梯度长度 裁剪的梯度长度"（裁剪之前量的），
   块 1 每行 "步数 不裁剪的检验损失 裁剪的检验损失" */
#include "attn.h"

#include <stdio.h>

#include "../examples/fluffy_task.h"

enum { STEPS = 2000, EVERY = 20 };

int main(void)
{
    static double norm[2][STEPS + 1], eval[2][STEPS / EVERY + 1];
    for (int run = 0; run < 2; run++) {
        fluffy_trainer T;
        if (fluffy_init(&T, 1) != ATTN_OK)
            return 1;
        T.lr = 1e-2f;
        T.clip = run == 0 ? 0.0 : 1.0;
        for (int s = 1; s <= STEPS; s++) {
            if (isnan(fluffy_step(&T, NULL)))
                return 1;
            norm[run][s] = T.grad_norm;
            if (s % EVERY == 0) {
                float loss, acc;
                fluffy_eval(&T.m, &loss, &acc);
                eval[run][s / EVERY] = loss;
            }
        }
        fluffy_free(&T);
    }
    for (int s = 1; s <= STEPS; s++)
        printf("%d %.6g %.6g\n", s, norm[0][s], norm[1][s]);
    printf("\n\n");
    for (int e = 1; e <= STEPS / EVERY; e++)
        printf("%d %.6g %.6g\n", e * EVERY, eval[0][e], eval[1][e]);
    return 0;
}
