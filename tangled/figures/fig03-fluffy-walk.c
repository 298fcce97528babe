#line 1882 "book/03-attention.nw"
/* @fig:fluffy-walk 的数据：creature（第 3 个词）这一个查询的三步。 */
#include "attn.h"

#include <math.h>
#include <stdio.h>

#include "../examples/ch03.h"

int main(void)
{
    static const char *const parts[FL_D] = {"名词", "形容词", "第一个短语", "第二个短语", "动词"};
    float q[FL_N * FL_DK], k[FL_N * FL_DK], w[FL_N * FL_N], out[FL_N * FL_D];
    if (fluffy_qk(3, 2, q, k) != ATTN_OK || fluffy_attention(3, 2, w, out) != ATTN_OK)
        return 1;
    const int i = 3;                                    /* creature */
    for (int j = 0; j < FL_N; j++) {
        float dot;
        if (attn_dot(q + i * FL_DK, k + j * FL_DK, FL_DK, &dot) != ATTN_OK)
            return 1;
        printf("%d %s %.4f\n", j, fluffy_words[j], dot / sqrtf((float)FL_DK));
    }
    printf("\n\n");
    for (int j = 0; j < FL_N; j++)
        printf("%d %s %.4f\n", j, fluffy_words[j], w[i * FL_N + j]);
    printf("\n\n");
    for (int c = 0; c < FL_D; c++) {
        float e = fluffy_x[i * FL_D + c], de = out[i * FL_D + c];
        printf("%d %s %.4f %.4f %.4f\n", c, parts[c], de, e, e + de);
    }
    return 0;
}
