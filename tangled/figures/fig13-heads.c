#line 7836 "book/13-poems.nw"
/* 图 13.3 的数据：三块（以两个空行分开），每行 "查询 键 权重"，依次是看前一个字、
   看上一句同一位置、看上一联韵脚的头读《登鹳雀楼》；最后一块是三个头的名字 "层 头" */
#include "../examples/ch13.h"

int main(void)
{
    ch13_heads hs;
    if (ch13_pick_heads("fig13-heads", &hs))
        return 1;
    attn_gpt *m = &hs.m;
    size_t H = hs.H, *pick = hs.pick;
    poet_err e;
    static const char poem[] = "\n白日依山尽，黄河入海流。欲穷千里目，更上一层楼。";
    int ids[64];
    size_t n;
    float *patterns = malloc(hs.heads * 64 * 64 * sizeof *patterns);
    if (patterns == NULL || poet_encode(&hs.v, poem, sizeof poem - 1, ids, &n, &e) != ATTN_OK ||
        poet_attention(m, ids, n, patterns, NULL) != ATTN_OK) {
        fprintf(stderr, "fig13-heads：算不出注意力\n");
        return 1;
    }
    for (int k = 0; k < 3; k++) {
        const float *p = patterns + pick[k] * n * n;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                printf("%zu %zu %.4f\n", i, j, j <= i ? p[i * n + j] : 0.0);
        printf("\n\n");
    }
    printf("%zu %zu %zu %zu %zu %zu\n", pick[0] / H, pick[0] % H, pick[1] / H, pick[1] % H,
           pick[2] / H, pick[2] % H);
    free(patterns);
    ch13_heads_free(&hs);
    return 0;
}
