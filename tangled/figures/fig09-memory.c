#line 1281 "book/09-fast.nw"
/* 读内存的图 的数据：examples/ch09.h 里 attn-membw 的测量记录，每行：字节数，GB/s。 */
#include <stdio.h>

#include "../examples/ch09.h"

int main(void)
{
    printf("# bytes GB/s\n");
    for (size_t i = 0; i < CH09_MEMBW_ROWS; i++)
        printf("%.0f %.1f\n", ch09_membw(i)[0], ch09_membw(i)[1]);
    return 0;
}
