#line 1856 "book/03-attention.nw"
/* @fig:fluffy-plane 的数据：a、fluffy、blue、creature 的查询和键（第 1、2 个分量；第 3 个分量都是 0）。 */
#include "attn.h"

#include <stdio.h>

#include "../examples/ch03.h"

int main(void)
{
    float q[FL_N * FL_DK], k[FL_N * FL_DK];
    if (fluffy_qk(3, 2, q, k) != ATTN_OK)
        return 1;
    for (int i = 0; i < 4; i++) {
        if (q[i * FL_DK + 2] != 0.0f || k[i * FL_DK + 2] != 0.0f)
            return 1;                           /* 平面图会丢掉第 3 个分量 */
        printf("query %s %g %g\n", fluffy_words[i], q[i * FL_DK], q[i * FL_DK + 1]);
        printf("key %s %g %g\n", fluffy_words[i], k[i * FL_DK], k[i * FL_DK + 1]);
    }
    return 0;
}
