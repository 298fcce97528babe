#line 2418 "book/09-fast.nw"
/* 阶梯的图 的数据：examples/ch09.h 里阶梯的测量记录，每行：序号，GFLOP/s，这一级的峰值，名字。 */
#include <stdio.h>

#include "../examples/ch09.h"

int main(void)
{
    static const char *const names[CH09_LADDER_ROWS] = {
        "参考实现", "逐行块", "分块+在线", "AVX-512", "两个线程"};
    printf("# step gflops peak name\n");
    for (size_t i = 0; i < CH09_LADDER_ROWS; i++)
        printf("%zu %.1f %.2f \"%s\"\n", i, ch09_ladder(i)[1], ch09_ladder(i)[2], names[i]);
    return 0;
}
