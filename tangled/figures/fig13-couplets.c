#line 8032 "book/13-poems.nw"
/* 图的数据：两个头在对照的字对上的平均权重和同距离的基线，每行 "名字 权重 基线"
   （头 pick[1]：四联之内和跨联的同一位置；头 pick[2]：韵脚和不押韵的句末） */
#include "../examples/ch13.h"

int main(void)
{
    ch13_heads hs;
    if (ch13_pick_heads("fig13-couplets", &hs))
        return 1;
    const poet_head_stats *b = &hs.s[hs.pick[1]], *c = &hs.s[hs.pick[2]];
    static const char *const couplet[4] = {"首联", "颔联", "颈联", "尾联"};
    for (int k = 0; k < 4; k++)
        printf("%s %.4f %.4f\n", couplet[k], b->couplet[k], b->couplet_base[k]);
    printf("跨联 %.4f %.4f\n", b->across, b->across_base);
    printf("韵脚 %.4f %.4f\n", c->rhyme, c->rhyme_base);
    printf("非韵句末 %.4f %.4f\n", c->other_end, c->other_end_base);
    ch13_heads_free(&hs);
    return 0;
}
