#line 6489 "book/13-poems.nw"
/* programs/poet/heads.c — 第 13 章：取出注意力模式，统计三种字对上的权重 */
#include "poet.h"

#include <stdlib.h>
#include <string.h>

#line 864 "book/13-poems.nw"
int poet_attention(const attn_gpt *m, const int *ids, size_t n,
                   float *patterns, float *states)
{
    size_t d = (size_t)m->cfg.d_model, H = (size_t)m->cfg.n_heads,
           L = (size_t)m->cfg.n_layers;
    if (n == 0 || n > m->cfg.n_ctx)
        return ATTN_EINVAL;
    float *x = malloc(n * d * sizeof *x);
    int st = x != NULL ? ATTN_OK : ATTN_ENOMEM;
    if (st == ATTN_OK)
        st = attn_gpt_embed(m, ids, n, 0, x);        /* x = wte[ids] + wpe */
    if (st == ATTN_OK && states != NULL)
        memcpy(states, x, n * d * sizeof *x);
    for (size_t l = 0; l < L && st == ATTN_OK; l++) {
        /* 残差流进到下一层；第 l 层第 h 个头的模式在 patterns[l·H + h] */
        st = attn_gpt_block_weights(m, l, x, n,
                                    patterns != NULL ? patterns + l * H * n * n : NULL);
        if (st == ATTN_OK && states != NULL)
            memcpy(states + (l + 1) * n * d, x, n * d * sizeof *x);
    }
    free(x);
    return st;
}

#line 910 "book/13-poems.nw"
/* 一首整齐的诗（每句 L 个字加一个标点），在序列里从位置 1 起（位置 0 是换行）。
   patterns[L_layers·H][n][n]。把每个头在三种字对上的权重，
   和它在各个距离上的权重，加进 acc。 */
static void count_pairs(const float *patterns, size_t heads, size_t n, size_t L,
                        poet_head_acc *acc)
{
    for (size_t h = 0; h < heads; h++) {
        const float *p = patterns + h * n * n;
        poet_head_acc *A = &acc[h];
        for (size_t i = 1; i < n; i++) {
            size_t k = i - 1, line = k / (L + 1), col = k % (L + 1);
            /* 只看字，不看标点做查询 */
            if (col == L)
                continue;
            for (size_t j = 0; j <= i; j++) {                    /* 只认距离的基线 */
                A->by_distance[i - j] += p[i * n + j];
                A->pairs_at[i - j] += 1;
            }
            A->prev += p[i * n + i - 1];                         /* 前一个字 */
            A->prev_uniform += 1.0 / (double)(i + 1);
            A->n_prev++;
            /* 一联的第二句：上一句同一位置 */
            if (line % 2 == 1) {
                A->same[L + 1] += p[i * n + i - (L + 1)];
                A->n_same[L + 1]++;
            }
            /* 第 4、6、8 句的韵脚 */
            if (line >= 3 && line % 2 == 1 && col == L - 1) {
                A->rhyme[2 * (L + 1)] += p[i * n + i - 2 * (L + 1)];
                A->n_rhyme[2 * (L + 1)]++;
            }
#line 953 "book/13-poems.nw"
            size_t f = L == 5 ? 0 : 1;
            /* 一联之内：首联、颔联、颈联、尾联 */
            if (line % 2 == 1 && line / 2 < 4) {
                A->couplet[line / 2][f] += p[i * n + i - (L + 1)];
                A->n_couplet[line / 2][f]++;
            }
            /* 跨联：同一位置，不是对仗 */
            if (line % 2 == 0 && line >= 2) {
                A->across[f] += p[i * n + i - (L + 1)];
                A->n_across[f]++;
            }
            /* 第 3、5、7 句的末字：同样的距离，不押韵 */
            if (line % 2 == 0 && line >= 2 && col == L - 1) {
                A->other_end[f] += p[i * n + i - 2 * (L + 1)];
                A->n_other_end[f]++;
            }
#line 942 "book/13-poems.nw"
        }
    }
}

#line 6514 "book/13-poems.nw"
/* 对照的字对：五言、七言两组的权重和个数，各按自己的距离（d5、d7）的基线 */
static void control(const poet_head_acc *a, const double *w, const double *n, size_t d5, size_t d7,
                    double *mean, double *base, size_t *count)
{
    double b5 = a->pairs_at[d5] > 0 ? a->by_distance[d5] / a->pairs_at[d5] : 0.0;
    double b7 = a->pairs_at[d7] > 0 ? a->by_distance[d7] / a->pairs_at[d7] : 0.0;
    double all = n[0] + n[1];
    *mean = all > 0 ? (w[0] + w[1]) / all : 0.0;
    *base = all > 0 ? (n[0] * b5 + n[1] * b7) / all : 0.0;
    *count = (size_t)all;
}

static void finish(const poet_head_acc *a, poet_head_stats *s)
{
    for (int c = 0; c < 4; c++)
        control(a, a->couplet[c], a->n_couplet[c], 6, 8, &s->couplet[c], &s->couplet_base[c], &s->n_couplet[c]);
    control(a, a->across, a->n_across, 6, 8, &s->across, &s->across_base, &s->n_across);
    control(a, a->other_end, a->n_other_end, 12, 16, &s->other_end, &s->other_end_base, &s->n_other_end);
    double same = 0, same_base = 0, n_same = 0, rhyme = 0, rhyme_base = 0, n_rhyme = 0;
    for (size_t k = 1; k < POET_MAX_DISTANCE; k++) {
        double base = a->pairs_at[k] > 0 ? a->by_distance[k] / a->pairs_at[k] : 0.0;
        same += a->same[k];
        same_base += a->n_same[k] * base;
        n_same += a->n_same[k];
        rhyme += a->rhyme[k];
        rhyme_base += a->n_rhyme[k] * base;
        n_rhyme += a->n_rhyme[k];
    }
    s->prev = a->n_prev > 0 ? a->prev / a->n_prev : 0;
    s->prev_uniform = a->n_prev > 0 ? a->prev_uniform / a->n_prev : 0;
    s->same = n_same > 0 ? same / n_same : 0;
    s->same_base = n_same > 0 ? same_base / n_same : 0;
    s->rhyme = n_rhyme > 0 ? rhyme / n_rhyme : 0;
    s->rhyme_base = n_rhyme > 0 ? rhyme_base / n_rhyme : 0;
    s->n_prev = (size_t)a->n_prev;
    s->n_same = (size_t)n_same;
    s->n_rhyme = (size_t)n_rhyme;
}

#line 6555 "book/13-poems.nw"
/* 一首整齐的诗：在 text 里的位置和长度，每句几个字 */
typedef struct {
    size_t at, bytes, L;
} poem_span;

/* 一个线程统计 spans[first, last) 这几首诗，累计进 acc[heads] */
static int survey_part(const attn_gpt *m, const poet_vocab *v, const char *text,
                       const poem_span *spans, size_t first, size_t last, poet_head_acc *acc)
{
    size_t heads = (size_t)(m->cfg.n_layers * m->cfg.n_heads), n_ctx = (size_t)m->cfg.n_ctx;
    float *patterns = malloc(heads * n_ctx * n_ctx * sizeof *patterns);
    uint32_t *cp = malloc(n_ctx * sizeof *cp);
    int *ids = malloc(n_ctx * sizeof *ids);
    int st = patterns && cp && ids ? ATTN_OK : ATTN_ENOMEM;
    for (size_t k = first; k < last && st == ATTN_OK; k++) {
        size_t n, bad;
        poet_utf8_decode(text + spans[k].at, spans[k].bytes, cp, &n, &bad);   /* 已经解过一次 */
        ids[0] = poet_vocab_id(v, '\n');
        for (size_t i = 0; i < n; i++)
            ids[i + 1] = poet_vocab_id(v, cp[i]);
        st = poet_attention(m, ids, n + 1, patterns, NULL);
        if (st == ATTN_OK)
            count_pairs(patterns, heads, n + 1, spans[k].L, acc);
    }
    free(patterns); free(cp); free(ids);
    return st;
}

int poet_head_survey(const attn_gpt *m, const poet_vocab *v, const char *text, size_t len,
                     size_t max_poems, int threads, poet_head_stats *stats, size_t *poems, poet_err *e)
{
    size_t heads = (size_t)(m->cfg.n_layers * m->cfg.n_heads), n_ctx = (size_t)m->cfg.n_ctx;
    if (n_ctx > POET_MAX_DISTANCE || threads < 1)
        return poet_fail(e, ATTN_EINVAL, "上下文太长，或者线程数不对");
    /* 先找出四种体裁的诗（一行最多 n_ctx − 1 个字：更长的不用解码） */
    poem_span *spans = malloc((len / 2 + 1) * sizeof *spans);
    uint32_t *cp = malloc(4 * n_ctx * sizeof *cp);
    poet_head_acc *acc = calloc((size_t)threads * heads, sizeof *acc);
    if (spans == NULL || cp == NULL || acc == NULL) {
        free(spans); free(cp); free(acc);
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    }
    size_t count = 0;
    for (size_t at = 0; at < len && count < max_poems;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t bytes = nl != NULL ? (size_t)(nl - (text + at)) : len - at, n, bad;
        int form = POET_FORM_OTHER;
        if (bytes <= 4 * (n_ctx - 1) && poet_utf8_decode(text + at, bytes, cp, &n, &bad) && n < n_ctx)
            form = poet_form_of(cp, n);
        if (form != POET_FORM_OTHER)
            spans[count++] = (poem_span){at, bytes, form == POET_WUJUE || form == POET_WULV ? 5 : 7};
        at += bytes + 1;
    }
    /* 线程 t 统计连续的一段诗；各线程的累计最后按线程的顺序相加 */
    int bad = 0;
#ifdef _OPENMP
    #pragma omp parallel for num_threads(threads) schedule(static, 1) reduction(|:bad)
#endif
    for (int t = 0; t < threads; t++)
        bad |= survey_part(m, v, text, spans, count * (size_t)t / (size_t)threads,
                           count * (size_t)(t + 1) / (size_t)threads, acc + (size_t)t * heads) != ATTN_OK;
    for (int t = 1; t < threads; t++)
        for (size_t h = 0; h < heads; h++) {
            double *to = (double *)&acc[h];
            const double *from = (const double *)&acc[(size_t)t * heads + h];
            for (size_t k = 0; k < sizeof *acc / sizeof(double); k++)
                to[k] += from[k];
        }
    for (size_t h = 0; !bad && h < heads; h++)
        finish(&acc[h], &stats[h]);
    *poems = count;
    free(spans); free(cp); free(acc);
    return bad ? poet_fail(e, ATTN_ENOMEM, "统计失败：内存不足") : ATTN_OK;
}

#line 6634 "book/13-poems.nw"
/* 一处“before[b] target”：在第几首诗（行的起点）、第几个字、属于哪一组、哪个 b */
typedef struct {
    size_t at, bytes, k, g, b;
} occurrence;

static int by_position(const void *x, const void *y)
{
    const occurrence *a = x, *c = y;
    if (a->at != c->at)
        return a->at > c->at ? 1 : -1;
    return (a->k > c->k) - (a->k < c->k);
}

int poet_context_vectors(const attn_gpt *m, const poet_vocab *v, const char *text, size_t len,
                         uint32_t target, const uint32_t *before, const size_t *group_of_before,
                         size_t n_before, size_t groups, size_t per_group, attn_rng *rng, float *vectors,
                         size_t *group, size_t *word, size_t *occurs, size_t *found)
{
    size_t d = (size_t)m->cfg.d_model, L = (size_t)m->cfg.n_layers, n_ctx = (size_t)m->cfg.n_ctx;
    uint32_t *cp = malloc(4 * n_ctx * sizeof *cp);
    int *ids = malloc(n_ctx * sizeof *ids);
    float *states = malloc((L + 1) * n_ctx * d * sizeof *states);
    occurrence *all = NULL, *pick = malloc(groups * per_group * sizeof *pick);
    size_t n_all = 0, cap = 0, n_pick = 0;
    int st = cp && ids && states && pick ? ATTN_OK : ATTN_ENOMEM;
    *found = 0;
    if (occurs != NULL)
        memset(occurs, 0, n_before * sizeof *occurs);
    /* 第一遍：找出所有的“before[b] target” */
    for (size_t at = 0; st == ATTN_OK && at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t bytes = nl != NULL ? (size_t)(nl - (text + at)) : len - at, n = 0, bad;
        if (bytes > 4 * (n_ctx - 1) || !poet_utf8_decode(text + at, bytes, cp, &n, &bad))
            n = 0;                                          /* 太长的诗不看 */
        for (size_t k = 1; k < n && k + 1 < n_ctx; k++)
            for (size_t b = 0; b < n_before && cp[k] == target; b++)
                if (cp[k - 1] == before[b]) {
                    if (occurs != NULL)
                        occurs[b]++;
                    if (n_all == cap) {
                        cap = 2 * cap + 256;
                        occurrence *grown = realloc(all, cap * sizeof *all);
                        if (grown == NULL) {
                            st = ATTN_ENOMEM;
                            break;
                        }
                        all = grown;
                    }
                    all[n_all++] = (occurrence){at, bytes, k, group_of_before[b], b};
                }
        at += bytes + 1;
    }
    /* 每组取 per_group 处：最前面的，或者随机的，再按先后排好 */
    for (size_t g = 0; st == ATTN_OK && g < groups; g++) {
        size_t first = n_pick, seen = 0;
        for (size_t i = 0; i < n_all; i++) {
            if (all[i].g != g)
                continue;
            seen++;
            if (seen <= per_group)
                pick[n_pick++] = all[i];
            else if (rng != NULL) {                         /* 蓄水池抽样：第 seen 处以 per_group/seen 的概率换进来 */
                size_t r = (size_t)(attn_rng_next(rng) % seen);
                if (r < per_group)
                    pick[first + r] = all[i];
            }
        }
    }
    if (st == ATTN_OK)
        qsort(pick, n_pick, sizeof *pick, by_position);
    /* 第二遍：把诗从头读到这个字为止，最后一个位置的残差流，每一层 */
    for (size_t p = 0; st == ATTN_OK && p < n_pick; p++) {
        size_t n, bad, k = pick[p].k;
        poet_utf8_decode(text + pick[p].at, pick[p].bytes, cp, &n, &bad);   /* 已经解过一次 */
        ids[0] = poet_vocab_id(v, '\n');
        for (size_t i = 0; i <= k; i++)
            ids[i + 1] = poet_vocab_id(v, cp[i]);
        if ((st = poet_attention(m, ids, k + 2, NULL, states)) != ATTN_OK)
            break;
        for (size_t l = 0; l <= L; l++)
            memcpy(vectors + (*found * (L + 1) + l) * d, states + (l * (k + 2) + k + 1) * d,
                   d * sizeof *vectors);
        group[*found] = pick[p].g;
        if (word != NULL)
            word[*found] = pick[p].b;
        (*found)++;
    }
    free(cp); free(ids); free(states); free(all); free(pick);
    return st;
}

#line 6729 "book/13-poems.nw"
double poet_centroid_accuracy(const float *x, const size_t *group, size_t n, size_t d, size_t groups)
{
    double *sum = calloc(groups * d, sizeof *sum);
    size_t *count = calloc(groups, sizeof *count), right = 0;
    if (sum == NULL || count == NULL || n == 0) {
        free(sum);
        free(count);
        return 0.0;
    }
    for (size_t i = 0; i < n; i++) {
        count[group[i]]++;
        for (size_t j = 0; j < d; j++)
            sum[group[i] * d + j] += x[i * d + j];
    }
    for (size_t i = 0; i < n; i++) {
        size_t best = groups;
        double best_dist = 0.0;
        for (size_t g = 0; g < groups; g++) {
            /* 组中心不算它自己：它所在的组少一个 */
            size_t c = count[g] - (g == group[i]);
            if (c == 0)
                continue;
            double dist = 0.0;
            for (size_t j = 0; j < d; j++) {
                double centre = (sum[g * d + j] - (g == group[i] ? x[i * d + j] : 0.0)) / (double)c;
                dist += (x[i * d + j] - centre) * (x[i * d + j] - centre);
            }
            if (best == groups || dist < best_dist) {
                best = g;
                best_dist = dist;
            }
        }
        right += best == group[i];
    }
    free(sum);
    free(count);
    return (double)right / (double)n;
}

double poet_split_null(const float *x, const size_t *word, size_t n, size_t d, const size_t *group_of_before,
                       size_t n_before, size_t groups, size_t trials, attn_rng *rng, size_t *group,
                       double *max)
{
    size_t *split = malloc(n_before * sizeof *split);
    double sum = 0.0;
    *max = 0.0;
    if (split == NULL || trials == 0) {
        free(split);
        return 0.0;
    }
    memcpy(split, group_of_before, n_before * sizeof *split);
    for (size_t t = 0; t < trials; t++) {
        for (size_t i = n_before; i > 1; i--) {            /* Fisher–Yates：组的大小不变 */
            size_t j = (size_t)(attn_rng_next(rng) % i), tmp = split[i - 1];
            split[i - 1] = split[j];
            split[j] = tmp;
        }
        for (size_t i = 0; i < n; i++)
            group[i] = split[word[i]];
        double a = poet_centroid_accuracy(x, group, n, d, groups);
        sum += a;
        if (a > *max)
            *max = a;
    }
    free(split);
    return sum / (double)trials;
}

#line 6803 "book/13-poems.nw"
enum { POET_PICK_FLOOR_PERMILLE = 10 };   /* POET_PICK_FLOOR = 1%：权重低于它的头不按比值挑 */

/* h 在这种字对上的权重 w、基线 b 比 best 的 (wb, bb) 更突出 */
static int more_striking(double w, double b, double wb, double bb, int have)
{
    if (w * 1000.0 < POET_PICK_FLOOR_PERMILLE)
        return 0;
    return !have || w / b > wb / bb;
}

void poet_pick_heads(const poet_head_stats *s, size_t heads, size_t pick[3])
{
    int have1 = 0, have2 = 0;
    pick[0] = pick[1] = pick[2] = 0;
    for (size_t h = 0; h < heads; h++) {
        if (s[h].prev > s[pick[0]].prev)                                   /* 前一个字 */
            pick[0] = h;
        if (more_striking(s[h].same, s[h].same_base, s[pick[1]].same, s[pick[1]].same_base, have1)) {
            pick[1] = h;                                                   /* 上一句同一位置 */
            have1 = 1;
        }
        if (more_striking(s[h].rhyme, s[h].rhyme_base, s[pick[2]].rhyme, s[pick[2]].rhyme_base, have2)) {
            pick[2] = h;                                                   /* 上一联的韵脚 */
            have2 = 1;
        }
    }
}
