#line 5787 "book/13-poems.nw"
/* programs/poet/write.c — 第 13 章：用第 11 章的解码器写诗 */
#include "poet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#line 395 "book/13-poems.nw"
/* a 排在 b 前面吗：分数大的在前，相同时 id 小的在前 */
static int before(poet_cand a, poet_cand b)
{
    return a.score > b.score || (a.score == b.score && a.id < b.id);
}

/* 把 c[lo..hi) 按枢轴（中间的那个）分成两边：返回枢轴的新位置 a，
   前面的都排在它前面，后面的都排在它后面 */
static size_t split(poet_cand *c, size_t lo, size_t hi)
{
    poet_cand t = c[lo + (hi - lo) / 2];
    c[lo + (hi - lo) / 2] = c[hi - 1];
    c[hi - 1] = t;
    size_t a = lo;
    for (size_t i = lo; i + 1 < hi; i++)
        if (before(c[i], t)) {
            poet_cand x = c[i]; c[i] = c[a]; c[a++] = x;
        }
    c[hi - 1] = c[a];
    c[a] = t;
    return a;
}

/* 快速选择：把最大的 k 个（0 < k < n）换到 c[0..k)，它们之间不排序 */
static void select_top(poet_cand *c, size_t n, size_t k)
{
    size_t lo = 0, hi = n;                           /* 第 k 个的分界在 (lo, hi) 里 */
    for (;;) {
        size_t a = split(c, lo, hi);
        if (a == k || a + 1 == k)
            return;
        if (k < a)
            hi = a;
        else
            lo = a + 1;
    }
}

/* 核：概率（c[i].w，没有归一）从大到小加起来、刚到 need 的最少几个，
   换到前面；返回个数 */
static size_t nucleus(poet_cand *c, size_t n, double need)
{
    /* c[0..lo) 已经收下；答案在 (lo, hi] 里 */
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t a = split(c, lo, hi);
        double before_a = 0.0;
        for (size_t i = lo; i < a; i++)
            before_a += c[i].w;
        if (before_a >= need && a > lo)
            hi = a;                                  /* 前一半就够了 */
        else if (before_a + c[a].w >= need)
            return a + 1;                            /* 加上枢轴正好够 */
        else {
            need -= before_a + c[a].w;               /* 前一半和枢轴都收下 */
            lo = a + 1;
            if (lo == hi)
                return hi;                           /* 舍入：全收下也差一点 */
        }
    }
    return hi;
}

int poet_sample(const float *scores, const unsigned char *allowed, size_t V,
                const poet_write_options *o, attn_rng *rng, poet_cand *c)
{
    size_t n = 0, best = 0;
    for (size_t i = 0; i < V; i++)
        if (allowed[i]) {
            c[n] = (poet_cand){scores[i], (int)i, 0.0};
            if (before(c[n], c[best]))
                best = n;
            n++;
        }
    if (n == 0)
        return -1;
    poet_cand top = c[best];                         /* 分数最大的字 */
    if (o->temperature == 0.0f)
        return top.id;
    if (o->top_k > 0 && o->top_k < n) {
        select_top(c, n, o->top_k);
        n = o->top_k;
    }
    double total = 0.0;
    for (size_t i = 0; i < n; i++) {                 /* 先减去最大的分数，再除以温度 */
        c[i].w = exp(((double)c[i].score - (double)top.score) / (double)o->temperature);
        total += c[i].w;
    }
    if (o->top_p < 1.0f) {
        n = nucleus(c, n, (double)o->top_p * total);
        total = 0.0;
        for (size_t i = 0; i < n; i++)
            total += c[i].w;
    }
    double u = (double)(attn_rng_next(rng) >> 11) * 0x1.0p-53 * total, acc = 0.0;
    for (size_t i = 0; i < n; i++) {
        acc += c[i].w;
        if (u < acc)
            return c[i].id;
    }
    return c[n - 1].id;                              /* 舍入让 acc 差一点没到 total */
}

#line 503 "book/13-poems.nw"
void poet_penalize(float *scores, const int *ids, size_t n, float penalty)
{
    for (size_t i = 0; i < n; i++) {                 /* ids 里没有重复的 */
        float *s = &scores[ids[i]];
        *s = *s > 0.0f ? *s / penalty : *s * penalty;
    }
}

size_t poet_ban_ngrams(unsigned char *ok, const int *ids, size_t k, size_t N)
{
    size_t banned = 0;
    if (N == 0 || k + 1 < N)
        return 0;
    /* 最后 N−1 个词元 ids[k−N+1..k) 也出现在 ids[j..j+N−1) 的话，ids[j+N−1] 不许再写 */
    for (size_t j = 0; j + N <= k; j++)
        if (memcmp(ids + j, ids + k - (N - 1), (N - 1) * sizeof *ids) == 0
            && ok[ids[j + N - 1]]) {
            ok[ids[j + N - 1]] = 0;
            banned++;
        }
    return banned;
}

#line 5814 "book/13-poems.nw"
typedef struct {
    attn_gpt_decoder dec;
    float *logits;
    poet_cand *cand;
    int *ids, *used;                   /* 写出的词元；写过的汉字（不重复） */
    unsigned char *seen, *ok, *rhyme_ok;   /* 哪些汉字写过；禁掉 n 元组以后的、押韵的许可表 */
    unsigned char *han, *comma, *stops, *any;
} writer;

static void writer_free(writer *W)
{
    attn_gpt_decoder_free(&W->dec);
    free(W->logits); free(W->cand); free(W->ids); free(W->used); free(W->seen); free(W->ok);
    free(W->rhyme_ok);
    free(W->han); free(W->comma); free(W->stops); free(W->any);
    memset(W, 0, sizeof *W);
}

static int writer_init(writer *W, const attn_gpt *m, const poet_vocab *v, poet_err *e)
{
    memset(W, 0, sizeof *W);
    size_t V = v->n, n_ctx = (size_t)m->cfg.n_ctx;
    if (V != m->cfg.vocab || poet_vocab_id(v, '\n') == POET_UNK)
        return poet_fail(e, ATTN_EINVAL, "词表和模型对不上，或者词表里没有换行");
    W->logits = malloc(V * sizeof *W->logits);
    W->cand = malloc(V * sizeof *W->cand);
    W->ids = malloc(n_ctx * sizeof *W->ids);
    W->used = malloc(n_ctx * sizeof *W->used);
    W->seen = calloc(V, 1);
    W->ok = calloc(V, 1);
    W->rhyme_ok = calloc(V, 1);
    W->han = calloc(V, 1);
    W->comma = calloc(V, 1);
    W->stops = calloc(V, 1);
    W->any = calloc(V, 1);
    if (W->logits == NULL || W->cand == NULL || W->ids == NULL || W->used == NULL || W->seen == NULL ||
        W->ok == NULL || W->rhyme_ok == NULL || W->han == NULL || W->comma == NULL || W->stops == NULL || W->any == NULL ||
        attn_gpt_decoder_init(&W->dec, m) != ATTN_OK) {
        writer_free(W);
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    }
    for (size_t i = 1; i < V; i++) {
        uint32_t c = v->cp[i];
        W->han[i] = (unsigned char)poet_is_han(c);
        W->comma[i] = c == 0xFF0C;                                         /* ， */
        W->stops[i] = c == 0x3002 || c == 0xFF1F || c == 0xFF01;           /* 。？！ */
        W->any[i] = 1;
    }
    return ATTN_OK;
}

static int any_allowed(const unsigned char *ok, size_t V)
{
    for (size_t i = 0; i < V; i++)
        if (ok[i])
            return 1;
    return 0;
}

#line 545 "book/13-poems.nw"
/* 体裁 form 的诗里，第 pos 个字（从 0 数起）：句子里的字只许是汉字；
   单数句的末尾只许逗号，双数句的末尾只许 。？！。
   form 为 POET_FORM_OTHER（自由地写）：除了 <unk> 都许 */
static const unsigned char *allowed_at(const writer *W, int form, size_t pos)
{
    if (form == POET_FORM_OTHER)
        return W->any;
    size_t len = form == POET_WUJUE || form == POET_WULV ? 5 : 7;
    if (pos % (len + 1) != len)
        return W->han;
    return pos / (len + 1) % 2 == 0 ? W->comma : W->stops;
}

/* 第 pos 个字是双数句的最后一个字吗（押韵的位置） */
static int rhyme_position(int form, size_t pos)
{
    if (form == POET_FORM_OTHER)
        return 0;
    size_t len = form == POET_WUJUE || form == POET_WULV ? 5 : 7;
    return pos % (len + 1) == len - 1 && pos / (len + 1) % 2 == 1;
}

#line 569 "book/13-poems.nw"
int poet_write(const attn_gpt *m, const poet_vocab *v, const poet_write_options *o,
               const uint32_t *start, size_t n_start, attn_rng *rng,
               uint32_t *out, size_t cap, size_t *len, poet_err *e)
{
    /* 按体裁：正好这么多个字；自由：到换行为止 */
    size_t total = poet_form_length(o->form);
    size_t limit = total ? total : (size_t)m->cfg.n_ctx - 1;
#line 5973 "book/13-poems.nw"
    if (!(o->temperature >= 0.0f && o->temperature <= 1e30f) || !(o->top_p > 0.0f && o->top_p <= 1.0f) ||
        !(o->repetition_penalty > 0.0f && o->repetition_penalty <= 1e30f))
        return poet_fail(e, ATTN_EINVAL, "取字的设置不对：温度要 ≥ 0，top-p 在 (0, 1] 里，重复的惩罚要 > 0");
    if (total + 1 > (size_t)m->cfg.n_ctx)            /* 开头的换行也占一个位置 */
        return poet_fail(e, ATTN_EINVAL, "模型的上下文只有 %llu 个位置，放不下一首%s",
                         (unsigned long long)m->cfg.n_ctx, poet_form_name(o->form));
    if (o->rhyme != NULL && o->rhyme->n != v->n)
        return poet_fail(e, ATTN_EINVAL, "韵表和词表对不上");
#line 577 "book/13-poems.nw"
    writer W;
    int st = writer_init(&W, m, v, e);
    if (st != ATTN_OK)
        return st;
    int id = poet_vocab_id(v, '\n');                 /* 先读一个换行：一首新诗开始了 */
    st = attn_gpt_step(&W.dec, id, W.logits);
    size_t k = 0, n_used = 0;
    int zhe = 0;                          /* 这首诗的韵（第 2 句末字的辙）；0：还没定 */
    for (; st == ATTN_OK && k < limit && k < cap; k++) {
        const unsigned char *ok = allowed_at(&W, o->form, k);
        if (k < n_start) {                           /* 开头的字由读者给出 */
            id = poet_vocab_id(v, start[k]);
            if (id == POET_UNK || !ok[id]) {
                st = poet_fail(e, ATTN_EINVAL,
                               "开头的第 %zu 个字不在词表里，或者不合这个体裁的格式",
                               k + 1);
                break;
            }
        } else {
            if (o->rhyme && zhe > 0 && rhyme_position(o->form, k)) {   /* 押韵的位置 */
                for (size_t i = 0; i < v->n; i++)  /* 只许和第 2 句的末字同辙的字 */
                    W.rhyme_ok[i] = ok[i] && o->rhyme->zhe[i] == zhe;
                if (any_allowed(W.rhyme_ok, v->n))
                    ok = W.rhyme_ok;
            }
            if (o->repetition_penalty != 1.0f)
                poet_penalize(W.logits, W.used, n_used, o->repetition_penalty);
            if (o->no_repeat_ngram > 0) {
                memcpy(W.ok, ok, v->n);
                if (poet_ban_ngrams(W.ok, W.ids, k, o->no_repeat_ngram) > 0
                    && any_allowed(W.ok, v->n))
                    ok = W.ok;                       /* 禁掉了几个，还剩可写的 */
            }
            id = poet_sample(W.logits, ok, v->n, o, rng, W.cand);
            if (id < 0) {
                st = poet_fail(e, ATTN_EINVAL, "词表里没有这个位置能写的字");
                break;
            }
        }
        if (o->form == POET_FORM_OTHER && v->cp[id] == '\n')
            break;                                   /* 自由地写：写了换行就完了 */
        out[k] = v->cp[id];
        W.ids[k] = id;
        if (o->rhyme && zhe == 0 && rhyme_position(o->form, k))
            zhe = o->rhyme->zhe[id];                 /* 第 2 句的末字定下了韵 */
        if (W.han[id] && !W.seen[id]) {              /* 写过的汉字，以后要受罚 */
            W.seen[id] = 1;
            W.used[n_used++] = id;
        }
        if (k + 1 < limit)
            st = attn_gpt_step(&W.dec, id, W.logits);
    }
#line 5986 "book/13-poems.nw"
    if (st == ATTN_EFULL)
        st = ATTN_OK;
    else if (st != ATTN_OK && st != ATTN_EINVAL)
        st = poet_fail(e, st, "解码器出错：%s", attn_strerror(st));
#line 630 "book/13-poems.nw"
    *len = k;
    writer_free(&W);
    return st;
}

#line 5875 "book/13-poems.nw"
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

poet_write_options poet_write_defaults(int form)
{
    return (poet_write_options){form, (float)POET_DEFAULT_TEMPERATURE, POET_DEFAULT_TOP_K,
                                (float)POET_DEFAULT_TOP_P, (float)POET_DEFAULT_REPETITION_PENALTY,
                                POET_DEFAULT_NO_REPEAT_NGRAM, NULL};
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

#line 5913 "book/13-poems.nw"
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

#line 5729 "book/13-poems.nw"
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
