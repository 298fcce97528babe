#line 3977 "book/12-learning.nw"
/* 图的数据：L(w) = (w − 3)² 上从 0 出发的梯度下降，每行 "步数 w(η=0.1) w(0.5) w(0.9) w(1) w(1.1)" */
#include <stdio.h>

int main(void)
{
    const double lrs[5] = {0.1, 0.5, 0.9, 1.0, 1.1};
    double w[5] = {0, 0, 0, 0, 0};
    for (int t = 0; t <= 10; t++) {
        printf("%d", t);
        for (int k = 0; k < 5; k++) {
            printf(" %.6f", w[k]);
            w[k] -= lrs[k] * 2 * (w[k] - 3);
        }
        printf("\n");
    }
    return 0;
}
