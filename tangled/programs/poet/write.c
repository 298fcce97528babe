#line 4425 "book/13-poems.nw"
/* programs/poet/write.c — 第 13 章：用第 11 章的解码器写诗 */
#include "poet.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    float score;
    int id;
} cand;

static int by_score(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

#line 910 "book/13-poems.nw"
/* 在 allowed 的词元里按 softmax(logits / T) 取一个（T = 0：取分数最大的）；只留分数最大的 top_k 个
   （0 表示不限）。cand、p 是 V 个位置的工作区。返回词元的 id；没有可取的词元：−1 */
static int sample(const float *logits, const unsigned char *allowed, size_t V, float temperature,
                  size_t top_k, attn_rng *rng, cand *c, float *p)
{
    size_t n = 0;
    for (size_t i = 0; i < V; i++)
        if (allowed[i])
            c[n++] = (cand){logits[i], (int)i};
    if (n == 0)
        return -1;
    qsort(c, n, sizeof *c, by_score);               /* 分数从大到小，相同时 id 小的在前 */
    if (temperature == 0.0f)
        return c[0].id;
    if (top_k > 0 && top_k < n)
        n = top_k;
    for (size_t i = 0; i < n; i++)
        p[i] = c[i].score / temperature;
    attn_softmax(p, n);                              /* 第 3 章的 softmax */
    double u = (double)(attn_rng_next(rng) >> 11) * 0x1.0p-53, acc = 0.0;
    for (size_t i = 0; i < n; i++) {
        acc += p[i];
        if (u < acc)
            return c[i].id;
    }
    return c[n - 1].id;                              /* 舍入让 acc 差一点没到 1 */
}

#line 4462 "book/13-poems.nw"
typedef struct {
    attn_gpt_decoder dec;
    float *logits, *p;
    cand *cand;
    unsigned char *han, *ends, *any;
} writer;

static void writer_free(writer *W)
{
    attn_gpt_decoder_free(&W->dec);
    free(W->logits); free(W->p); free(W->cand); free(W->han); free(W->ends); free(W->any);
    memset(W, 0, sizeof *W);
}

static int writer_init(writer *W, const attn_gpt *m, const poet_vocab *v, poet_err *e)
{
    memset(W, 0, sizeof *W);
    size_t V = v->n;
    if (V != m->cfg.vocab || poet_vocab_id(v, '\n') == POET_UNK)
        return poet_fail(e, ATTN_EINVAL, "词表和模型对不上，或者词表里没有换行");
    W->logits = malloc(V * sizeof *W->logits);
    W->p = malloc(V * sizeof *W->p);
    W->cand = malloc(V * sizeof *W->cand);
    W->han = calloc(V, 1);
    W->ends = calloc(V, 1);
    W->any = calloc(V, 1);
    if (W->logits == NULL || W->p == NULL || W->cand == NULL || W->han == NULL ||
        W->ends == NULL || W->any == NULL || attn_gpt_decoder_init(&W->dec, m) != ATTN_OK) {
        writer_free(W);
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    }
    for (size_t i = 1; i < V; i++) {
        uint32_t c = v->cp[i];
        W->han[i] = (unsigned char)poet_is_han(c);
        W->ends[i] = c == 0xFF0C || c == 0x3002 || c == 0xFF1F || c == 0xFF01;   /* ，。？！ */
        W->any[i] = 1;
    }
    return ATTN_OK;
}

#line 955 "book/13-poems.nw"
/* 体裁 form 的诗里，第 pos 个字（从 0 数起）：句子里的字只许是汉字，句末只许是 ，。？！；
   form 为 POET_FORM_OTHER（自由地写）：除了 <unk> 都许 */
static const unsigned char *allowed_at(const writer *W, int form, size_t pos)
{
    if (form == POET_FORM_OTHER)
        return W->any;
    size_t len = form == POET_WUJUE || form == POET_WULV ? 5 : 7;
    return pos % (len + 1) == len ? W->ends : W->han;
}

#line 967 "book/13-poems.nw"
int poet_write(const attn_gpt *m, const poet_vocab *v, const poet_write_options *o,
               const uint32_t *start, size_t n_start, attn_rng *rng, uint32_t *out, size_t cap,
               size_t *len, poet_err *e)
{
    writer W;
    int st = writer_init(&W, m, v, e);
    if (st != ATTN_OK)
        return st;
    size_t total = poet_form_length(o->form);       /* 按体裁：正好这么多个字；自由：到换行为止 */
    size_t limit = total ? total : (size_t)m->cfg.n_ctx - 1;
    if (total + 1 > (size_t)m->cfg.n_ctx) {          /* 开头的换行也占一个位置 */
        writer_free(&W);
        return poet_fail(e, ATTN_EINVAL, "模型的上下文只有 %llu 个位置，放不下一首%s",
                         (unsigned long long)m->cfg.n_ctx, poet_form_name(o->form));
    }
    int id = poet_vocab_id(v, '\n');                 /* 先读一个换行：一首新诗开始了 */
    st = attn_gpt_step(&W.dec, id, W.logits);
    size_t k = 0;
    for (; st == ATTN_OK && k < limit && k < cap; k++) {
        const unsigned char *ok = allowed_at(&W, o->form, k);
        if (k < n_start) {                           /* 开头的字由读者给出 */
            id = poet_vocab_id(v, start[k]);
            if (id == POET_UNK || !ok[id]) {
                st = poet_fail(e, ATTN_EINVAL, "开头的第 %zu 个字不在词表里，或者不合这个体裁的格式", k + 1);
                break;
            }
        } else {
            id = sample(W.logits, ok, v->n, o->temperature, o->top_k, rng, W.cand, W.p);
            if (id < 0) {
                st = poet_fail(e, ATTN_EINVAL, "词表里没有这个位置能写的字");
                break;
            }
        }
        if (o->form == POET_FORM_OTHER && v->cp[id] == '\n')
            break;                                   /* 自由地写：模型写了换行，这首诗完了 */
        out[k] = v->cp[id];
        if (k + 1 < limit)
            st = attn_gpt_step(&W.dec, id, W.logits);
    }
    if (st == ATTN_EFULL)                           /* 自由地写，写满了上下文：到此为止 */
        st = ATTN_OK;
    else if (st != ATTN_OK && st != ATTN_EINVAL)
        st = poet_fail(e, st, "解码器出错：%s", attn_strerror(st));
    *len = k;
    writer_free(&W);
    return st;
}

#line 4504 "book/13-poems.nw"
static const char *const form_names[] = {"自由", "五言绝句", "七言绝句", "五言律诗", "七言律诗"};

size_t poet_form_length(int form)
{
    switch (form) {
    case POET_WUJUE: return 4 * 6;
    case POET_QIJUE: return 4 * 8;
    case POET_WULV: return 8 * 6;
    case POET_QILV: return 8 * 8;
    default: return 0;
    }
}

const char *poet_form_name(int form)
{
    return form >= POET_FORM_OTHER && form <= POET_QILV ? form_names[form] : "?";
}

int poet_form_from_name(const char *name)
{
    for (int f = POET_FORM_OTHER; f <= POET_QILV; f++)
        if (strcmp(name, form_names[f]) == 0)
            return f;
    return -1;
}

#line 4535 "book/13-poems.nw"
static uint64_t line_hash(const uint32_t *c, size_t n)
{
    return poet_fnv1a((const char *)c, n * sizeof *c);
}

int poet_lines_add(poet_lines *lines, const char *text, size_t len)
{
    uint32_t line[256];
    size_t k = 0, at = 0, cap = lines->n;
    while (at < len) {
        long c = poet_utf8_next(text, len, &at);
        if (c < 0)
            return POET_EDATA;
        if (c == '\n' || poet_is_punct((uint32_t)c)) {
            if (k > 0) {
                if (lines->n == cap) {
                    cap = 2 * cap + 4096;
                    uint64_t *h = realloc(lines->hash, cap * sizeof *h);
                    if (h == NULL)
                        return ATTN_ENOMEM;
                    lines->hash = h;
                }
                lines->hash[lines->n++] = line_hash(line, k);
            }
            k = 0;
        } else if (k < sizeof line / sizeof line[0]) {
            line[k++] = (uint32_t)c;
        }
    }
    return ATTN_OK;
}

static int by_hash(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void poet_lines_sort(poet_lines *lines)
{
    qsort(lines->hash, lines->n, sizeof *lines->hash, by_hash);
}

int poet_lines_has(const poet_lines *lines, const uint32_t *c, size_t n)
{
    uint64_t h = line_hash(c, n);
    return n > 0 && bsearch(&h, lines->hash, lines->n, sizeof h, by_hash) != NULL;
}

void poet_lines_free(poet_lines *lines)
{
    free(lines->hash);
    memset(lines, 0, sizeof *lines);
}

#line 4367 "book/13-poems.nw"
int poet_write_survey(const attn_gpt *m, const poet_vocab *v, const poet_write_options *o,
                      unsigned long long first_seed, size_t n, const uint32_t *const *starts,
                      const size_t *start_lens, const poet_lines *corpus, poet_write_stats *out,
                      poet_err *e)
{
    size_t cap = (size_t)m->cfg.n_ctx, V = v->n;
    uint32_t *poems = malloc(n * cap * sizeof *poems);
    size_t *lens = calloc(n, sizeof *lens);
    int *ids = malloc(cap * sizeof *ids);
    float *logits = malloc(cap * V * sizeof *logits);
    uint64_t *seen = calloc(n, sizeof *seen);
    int st = poems && lens && ids && logits && seen ? ATTN_OK : poet_fail(e, ATTN_ENOMEM, "内存不足");
    memset(out, 0, sizeof *out);
    double loss = 0.0;
    size_t predicted = 0;
    for (size_t i = 0; i < n && st == ATTN_OK; i++) {
        attn_rng rng;
        attn_rng_seed(&rng, first_seed + i);
        uint32_t *p = poems + i * cap;
        if ((st = poet_write(m, v, o, starts ? starts[i] : NULL, starts ? start_lens[i] : 0, &rng, p,
                             cap - 1, &lens[i], e)) != ATTN_OK)
            break;
        /* 不同的诗：比较正文的散列 */
        uint64_t h = poet_fnv1a((const char *)p, lens[i] * sizeof *p);
        int dup = 0;
        for (size_t j = 0; j < i; j++)
            dup |= seen[j] == h;
        seen[i] = h;
        out->distinct += !dup;
        /* 每一句（标点之间的字）在语料里原样出现过吗 */
        for (size_t a = 0, b = 0; b < lens[i]; b++)
            if (poet_is_punct(p[b])) {
                out->lines++;
                out->verbatim += poet_lines_has(corpus, p + a, b - a);
                a = b + 1;
            }
        /* 模型自己读这首诗：换行 + 诗，每个字的 −ln p */
        ids[0] = poet_vocab_id(v, '\n');
        for (size_t k = 0; k < lens[i]; k++)
            ids[k + 1] = poet_vocab_id(v, p[k]);
        float l;
        if (lens[i] > 0 && (st = attn_gpt_loss_grad(m, ids, ids + 1, lens[i], &l, NULL)) != ATTN_OK)
            poet_fail(e, st, "attn_gpt_loss_grad 失败");
        if (lens[i] == 0)
            l = 0.0f;
        loss += (double)l * (double)lens[i];
        predicted += lens[i];
        out->forms[poet_form_of(p, lens[i])]++;
    }
    out->poems = n;
    out->own_loss = predicted ? loss / (double)predicted : 0.0;
    free(poems); free(lens); free(ids); free(logits); free(seen);
    return st;
}
