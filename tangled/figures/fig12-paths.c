#line 3944 "book/12-learning.nw"
/* 图 12.x 的数据：L = (x² + 25y²)/2 上从 (1, 1) 出发的三条路，各 31 行 "x y"（以两个空行分开）：
   梯度下降（η = 0.07）、动量（η = 0.07，β = 0.5）、Adam（η = 0.1） */
#include "../examples/ch12.h"

#include <stdio.h>

int main(void)
{
    const double a = 25.0;
    for (int way = 0; way < 3; way++) {
        double w[2] = {1, 1}, v[2] = {0, 0};
        float wf[2] = {1, 1}, m1[2] = {0, 0}, m2[2] = {0, 0};
        printf("%.6f %.6f\n", w[0], w[1]);
        for (unsigned long t = 1; t <= 30; t++) {
            if (way == 2) {
                if (quad_adam_step(wf, m1, m2, (float)a, 0.1f, t) != ATTN_OK)
                    return 1;
                w[0] = wf[0];
                w[1] = wf[1];
            } else {
                quad_momentum_step(w, v, a, 0.07, way == 1 ? 0.5 : 0.0);
            }
            printf("%.6f %.6f\n", w[0], w[1]);
        }
        printf("\n\n");
    }
    return 0;
}
