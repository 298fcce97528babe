#line 8148 "book/13-poems.nw"
/* 活图 ch13-poems 的数据：在页面里写诗，看注意力 */
#include "attn.h"
#include "live_json.h"
#include "../examples/ch13.h"

#line 8212 "book/13-poems.nw"
/* 按网页上的操作写一首诗（同 attn-poet write，种子 seed），期望的数：每个字的概率 p-k（模型读了前面的字以后，
   不加温度和限制的 softmax 给这个字的概率），和第 layer 层四个头在第 at 个字上的权重 w-h-j */
static void live_poem_check(const attn_gpt *m, const poet_vocab *v, const poet_rhyme *rhyme, const char *start,
                            int form, float temperature, unsigned long long seed, size_t layer, size_t at)
{
    uint32_t sc[16], poem[128];
    size_t ns, n, bad;
    poet_utf8_decode(start, strlen(start), sc, &ns, &bad);
    poet_write_options o = poet_write_defaults(form);
    o.temperature = temperature;
    o.rhyme = rhyme;                      /* 和 attn-poet write 一样：双数句的末字同辙 */
    attn_rng rng;
    poet_err e;
    attn_rng_seed(&rng, seed);
    if (poet_write(m, v, &o, sc, ns, &rng, poem, 128, &n, &e) != ATTN_OK) {
        fprintf(stderr, "live-ch13：%s\n", e.msg);
        exit(1);
    }
    size_t V = v->n, H = (size_t)m->cfg.n_heads, L = (size_t)m->cfg.n_layers, N = n + 1;
    int ids[129];
    ids[0] = poet_vocab_id(v, '\n');
    for (size_t k = 0; k < n; k++)
        ids[k + 1] = poet_vocab_id(v, poem[k]);
    float *logits = malloc(N * V * sizeof *logits), *pat = malloc(L * H * N * N * sizeof *pat);
    if (logits == NULL || pat == NULL || attn_gpt_forward(m, ids, N, logits) != ATTN_OK ||
        poet_attention(m, ids, N, pat, NULL) != ATTN_OK)
        exit(1);
    char ops[256], key[32];
    snprintf(ops, sizeof ops, "fill start %s; select form %s; fill temperature %g; fill seed %llu; "
             "click write 1; select layer %zu; select at %zu", start,
             poet_form_name(form), (double)temperature, seed, layer, at);
    live_check_begin("ch13-poems", ops);
    for (size_t k = 0; k < n; k++) {
        attn_softmax(logits + k * V, V);
        snprintf(key, sizeof key, "p-%zu", k);
        live_number(key, logits[k * V + (size_t)ids[k + 1]]);
    }
    for (size_t h = 0; h < H; h++)
        for (size_t j = 0; j <= at + 1; j++) {
            snprintf(key, sizeof key, "w-%zu-%zu", h, j);
            live_number(key, pat[((layer * H + h) * N + at + 1) * N + j]);
        }
    live_check_end();
    free(logits);
    free(pat);
}

#line 8155 "book/13-poems.nw"
int main(void)
{
    ch13_heads hs;
    if (ch13_pick_heads("live-ch13", &hs))
        return 1;
    const attn_gpt *m = &hs.m;
    const poet_vocab *v = &hs.v;
    size_t H = hs.H, *pick = hs.pick;
    poet_err e;
    poet_rhyme rhyme;
    if (poet_rhyme_load(POET_DEFAULT_DATA "/rhyme.tsv", v, &rhyme, &e) != ATTN_OK) {
        fprintf(stderr, "live-ch13：%s\n", e.msg);
        return 1;
    }
    live_open(NULL, '{');
    live_open("data", '{');
    live_open("ch13-poems", '{');
    live_open("config", '[');             /* attn_gpt_config 的字段，按顺序 */
    const uint64_t shape[7] = {m->cfg.d_model, m->cfg.n_heads, m->cfg.d_head, m->cfg.n_layers,
                               m->cfg.d_ff, m->cfg.vocab, m->cfg.n_ctx};
    for (int i = 0; i < 7; i++)
        live_number(NULL, (double)shape[i]);
    for (int i = 0; i < 4; i++)
        live_number(NULL, 1);
    live_close(']');
    live_open("vocab", '[');              /* 各词元的码位（0 是 <unk>）：换行也只是一个数 */
    for (size_t i = 0; i < v->n; i++)
        live_number(NULL, i > 0 ? v->cp[i] : 0);
    live_close(']');
    live_open("layers", '[');             /* 三种头所在的层：看前一个字、同联同位、押韵 */
    for (int k = 0; k < 3; k++)
        live_number(NULL, (double)(pick[k] / H));
    live_close(']');
    live_number("top_k", POET_DEFAULT_TOP_K);
    live_number("top_p", POET_DEFAULT_TOP_P);
    live_number("repetition_penalty", POET_DEFAULT_REPETITION_PENALTY);
    live_open("zhe", '[');                /* 各词元的辙（韵表，0：不是汉字或定不出） */
    for (size_t i = 0; i < v->n; i++)
        live_number(NULL, rhyme.zhe[i]);
    live_close(']');
    live_close('}');
    live_close('}');
    live_open("checks", '[');
    /* 温度 0：与种子无关；再看同联同位的头那一层在第 8 个字上的注意力 */
    live_poem_check(m, v, &rhyme, "白日", POET_WUJUE, 0.0f, 1, pick[1] / H, 7);
    live_poem_check(m, v, &rhyme, "月", POET_QIJUE, 0.8f, 3, pick[2] / H, 31);
    live_poem_check(m, v, &rhyme, "春", POET_WULV, 1.0f, 7, pick[0] / H, 20);
    live_close(']');
    live_close('}');
    putchar('\n');
    poet_rhyme_free(&rhyme);
    ch13_heads_free(&hs);
    return 0;
}
