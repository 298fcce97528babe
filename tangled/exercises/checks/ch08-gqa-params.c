#line 1415 "book/08-params.nw"
/* ch08-gqa-params：分组查询注意力的参数（第 8 章练习 8.6） */
#include "ex.h"

#include <stdint.h>
#include <stdio.h>

int ch08_count_params_gqa(const attn_gpt_config *c, uint64_t n_kv_heads, uint64_t *total);

int ex_check_ch08_gqa_params(void)
{
    attn_gpt_config g2, g3, tiny = {8, 4, 3, 2, 16, 10, 5, 0, 0, 0, 0};
    if (attn_gpt_preset("gpt2-small", &g2) != ATTN_OK || attn_gpt_preset("gpt3-175b", &g3) != ATTN_OK)
        return EX_FAIL;
    const struct { const attn_gpt_config *c; uint64_t g; const char *what; } cases[] = {
        {&g2, 12, "GPT-2 small，g = 12（就是多头）"},
        {&g2, 4, "GPT-2 small，g = 4"},
        {&g2, 1, "GPT-2 small，g = 1（多查询）"},
        {&g3, 8, "GPT-3，g = 8"},
        {&tiny, 2, "d = 8、h = 4、d_h = 3、没有偏置和层规范化，g = 2"},
    };
    int result = EX_PASS;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        attn_gpt_config cg = *cases[i].c;
        attn_param_breakdown bh, bg;
        cg.n_heads = cases[i].g;
        if (attn_count_params(cases[i].c, &bh) != ATTN_OK || attn_count_params(&cg, &bg) != ATTN_OK)
            return EX_FAIL;
        uint64_t want = bh.total - cases[i].c->n_layers * 2 * (bh.k - bg.k), got = 0;
        int st = ch08_count_params_gqa(cases[i].c, cases[i].g, &got);
        if (st == EX_TODO)
            return EX_TODO;
        int ok = st == ATTN_OK && got == want;
        printf("%s：返回 %d，你的 %llu，库拼出的 %llu%s\n", cases[i].what, st,
               (unsigned long long)got, (unsigned long long)want, ok ? "" : "  ← 不对");
        if (i == 2 && want != 111446784ULL) {   /* 正文练习 8.6 的答案 */
            printf("库拼出的数不是正文的 111446784  ← 书错了\n");
            result = EX_FAIL;
        }
        if (!ok)
            result = EX_FAIL;
    }
    static const uint64_t bad[2] = {0, 5};
    for (int b = 0; b < 2; b++) {
        uint64_t got = 0;
        int st = ch08_count_params_gqa(&g2, bad[b], &got);
        if (st == EX_TODO)
            return EX_TODO;
        printf("GPT-2 small，g = %llu：返回 %d，应当是 ATTN_EINVAL (%d)%s\n", (unsigned long long)bad[b], st,
               ATTN_EINVAL, st == ATTN_EINVAL ? "" : "  ← 不对");
        if (st != ATTN_EINVAL)
            result = EX_FAIL;
    }
    return result;
}
