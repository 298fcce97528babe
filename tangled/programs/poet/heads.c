#line 4852 "book/13-poems.nw"
/* programs/poet/heads.c — 第 13 章：取出注意力模式，统计三种字对上的权重 */
#include "poet.h"

#include <stdlib.h>
#include <string.h>

#line 1112 "book/13-poems.nw"
int poet_attention(const attn_gpt *m, const int *ids, size_t n, float *patterns, float *states)
{
    size_t d = (size_t)m->cfg.d_model, H = (size_t)m->cfg.n_heads, L = (size_t)m->cfg.n_layers;
    if (n == 0 || n > m->cfg.n_ctx)
        return ATTN_EINVAL;
    float *x = malloc(n * d * sizeof *x), *a = malloc(n * d * sizeof *a);
    int st = x != NULL && a != NULL ? ATTN_OK : ATTN_ENOMEM;
    if (st == ATTN_OK)
        st = attn_gpt_embed(m, ids, n, 0, x);                    /* x = wte[ids] + wpe */
    if (st == ATTN_OK && states != NULL)
        memcpy(states, x, n * d * sizeof *x);
    for (size_t l = 0; l < L && st == ATTN_OK; l++) {
        const attn_gpt_layer *W = &m->layers[l];
        attn_mha_weights w = {d, H, (size_t)m->cfg.d_head, W->w_q, W->w_k, W->w_v, W->w_o,
                              W->b_q, W->b_k, W->b_v, W->b_o};
        st = attn_layernorm(x, W->ln1_g, W->ln1_b, a, n, d, 1e-5f);   /* 注意力子层的输入 */
        for (size_t h = 0; h < H && st == ATTN_OK && patterns != NULL; h++)   /* 第 l 层第 h 个头 */
            st = attn_mha_pattern(&w, a, n, a, n, NULL, 1, h, patterns + (l * H + h) * n * n);
        if (st == ATTN_OK)
            st = attn_gpt_block(m, l, x, n);                     /* 残差流进到下一层 */
        if (st == ATTN_OK && states != NULL)
            memcpy(states + (l + 1) * n * d, x, n * d * sizeof *x);
    }
    free(x);
    free(a);
    return st;
}

#line 1162 "book/13-poems.nw"
/* 一首整齐的诗（每句 L 个字加一个标点），在序列里从位置 1 起（位置 0 是换行）。
   patterns[L_layers·H][n][n]。把每个头在三种字对上的权重，和它在各个距离上的权重，加进 acc。 */
static void count_pairs(const float *patterns, size_t heads, size_t n, size_t L, poet_head_acc *acc)
{
    for (size_t h = 0; h < heads; h++) {
        const float *p = patterns + h * n * n;
        poet_head_acc *A = &acc[h];
        for (size_t i = 1; i < n; i++) {
            size_t k = i - 1, line = k / (L + 1), col = k % (L + 1);
            if (col == L)
                continue;                                        /* 只看字，不看标点做查询 */
            for (size_t j = 0; j <= i; j++) {                    /* 只认距离的基线 */
                A->by_distance[i - j] += p[i * n + j];
                A->pairs_at[i - j] += 1;
            }
            A->prev += p[i * n + i - 1];                         /* 前一个字 */
            A->prev_uniform += 1.0 / (double)(i + 1);
            A->n_prev++;
            if (line % 2 == 1) {                                 /* 一联的第二句：上一句同一位置 */
                A->same[L + 1] += p[i * n + i - (L + 1)];
                A->n_same[L + 1]++;
            }
            if (line >= 3 && line % 2 == 1 && col == L - 1) {   /* 第 4、6、8 句的韵脚 */
                A->rhyme[2 * (L + 1)] += p[i * n + i - 2 * (L + 1)];
                A->n_rhyme[2 * (L + 1)]++;
            }
        }
    }
}

#line 4877 "book/13-poems.nw"
static void finish(const poet_head_acc *a, poet_head_stats *s)
{
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

#line 4902 "book/13-poems.nw"
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

#line 4981 "book/13-poems.nw"
int poet_context_vectors(const attn_gpt *m, const poet_vocab *v, const char *text, size_t len,
                         uint32_t target, const uint32_t *before, const size_t *group_of_before,
                         size_t n_before, size_t groups, size_t per_group, float *vectors,
                         size_t *group, size_t *found)
{
    size_t d = (size_t)m->cfg.d_model, L = (size_t)m->cfg.n_layers, n_ctx = (size_t)m->cfg.n_ctx;
    size_t *taken = calloc(groups, sizeof *taken);
    uint32_t *cp = malloc(4 * n_ctx * sizeof *cp);
    int *ids = malloc(n_ctx * sizeof *ids);
    float *states = malloc((L + 1) * n_ctx * d * sizeof *states);
    int st = taken && cp && ids && states ? ATTN_OK : ATTN_ENOMEM;
    *found = 0;
    for (size_t at = 0; st == ATTN_OK && at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t bytes = nl != NULL ? (size_t)(nl - (text + at)) : len - at, n = 0, bad;
        if (bytes > 4 * (n_ctx - 1) || !poet_utf8_decode(text + at, bytes, cp, &n, &bad))
            n = 0;                                          /* 太长的诗不看 */
        at += bytes + 1;
        for (size_t k = 1; k < n && k + 1 < n_ctx; k++) {
            size_t g = groups;                              /* cp[k−1] cp[k] 是哪一组的词 */
            for (size_t b = 0; b < n_before && cp[k] == target; b++)
                if (cp[k - 1] == before[b])
                    g = group_of_before[b];
            if (g == groups || taken[g] == per_group)
                continue;
            /* 换行 + 诗的开头到这个字为止：最后一个位置的残差流，每一层 */
            ids[0] = poet_vocab_id(v, '\n');
            for (size_t i = 0; i <= k; i++)
                ids[i + 1] = poet_vocab_id(v, cp[i]);
            if ((st = poet_attention(m, ids, k + 2, NULL, states)) != ATTN_OK)
                break;
            for (size_t l = 0; l <= L; l++)
                memcpy(vectors + (*found * (L + 1) + l) * d, states + (l * (k + 2) + k + 1) * d,
                       d * sizeof *vectors);
            group[(*found)++] = g;
            taken[g]++;
        }
    }
    free(taken); free(cp); free(ids); free(states);
    return st;
}

#line 5027 "book/13-poems.nw"
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

#line 5072 "book/13-poems.nw"
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
