#line 1196 "book/10-position.nw"
/* 图：RoPE 转动的一对分量。每行 “x y 名字 线型”：q 在 2、k 在 1（线型 1），q 在 7、k 在 6（线型 2） */
#include "attn.h"

#include <stdio.h>

int main(void)
{
    static const struct { size_t pos; const char *name; int style; } v[] = {
        {2, "q（位置 2）", 1}, {1, "k（位置 1）", 1}, {7, "q（位置 7）", 2}, {6, "k（位置 6）", 2}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        float x[2] = {1.0f, 0.0f};
        if (attn_rope(x, 1, 2, v[i].pos, 0.0f) != ATTN_OK)
            return 1;
        printf("%.4f %.4f \"%s\" %d\n", x[0], x[1], v[i].name, v[i].style);
    }
    return 0;
}
