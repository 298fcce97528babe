#line 3999 "book/12-learning.nw"
/* 图的数据：lr_warmup_cosine(t, 200, 10000, 3e-3, 3e-4)，每行 "步数 学习率" */
#include "../examples/ch12.h"

#include <stdio.h>

int main(void)
{
    printf("0 0\n");
    for (unsigned long t = 1; t <= 10000; t++)
        printf("%lu %.8g\n", t, lr_warmup_cosine(t, 200, 10000, 3e-3, 3e-4));
    return 0;
}
