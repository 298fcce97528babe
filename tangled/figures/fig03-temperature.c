#line 1830 "book/03-attention.nw"
/* @fig:softmax-temperature 的数据：键 j，以及 T = 0.5、1、2、5 时它的权重。 */
#include "attn.h"

#include <stdio.h>

#include "../examples/ch03.h"

int main(void)
{
    float w[TEMP_COUNT][TEMP_N];
    for (size_t t = 0; t < TEMP_COUNT; t++)
        if (softmax_at_temperature(temp_values[t], w[t]) != ATTN_OK)
            return 1;
    for (size_t j = 0; j < TEMP_N; j++) {
        printf("%g", temp_scores[j]);
        for (size_t t = 0; t < TEMP_COUNT; t++)
            printf(" %.4f", w[t][j]);
        printf("\n");
    }
    return 0;
}
