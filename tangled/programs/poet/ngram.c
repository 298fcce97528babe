#line 5658 "book/13-poems.nw"
/* programs/poet/ngram.c — 第 13 章：一元和二元模型的损失，作为比较的对手 */
#include "poet.h"

#include <math.h>
#include <stdlib.h>

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* 排好序的 pairs[n] 里 key 出现的次数：二分查找第一个不小于它的位置，再数 */
static double pair_count(const uint64_t *pairs, size_t n, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pairs[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t k = lo;
    while (k < n && pairs[k] == key)
        k++;
    return (double)(k - lo);
}

#line 5691 "book/13-poems.nw"
/* 训练集 train[n_train] 数出一元和二元的次数，在检验集 valid[n_valid] 上算平均的 −ln p：
   每个字由它前面的那个字来猜（第一个字除外）。一元的概率加一平滑：(c(b) + 1) / (N + V)。 */
int poet_ngram_losses(const int *train, size_t n_train, const int *valid, size_t n_valid, size_t V,
                      double *unigram, double *bigram)
{
    double *uni = calloc(V, sizeof *uni);
    uint64_t *pairs = malloc((n_train ? n_train - 1 : 1) * sizeof *pairs);
    if (uni == NULL || pairs == NULL || n_train < 2 || n_valid < 2) {
        free(uni);
        free(pairs);
        return ATTN_EINVAL;
    }
    for (size_t i = 0; i < n_train; i++)
        uni[train[i]] += 1.0;
    for (size_t i = 0; i + 1 < n_train; i++)              /* 字对 (a, b) 编成一个数 a·V + b */
        pairs[i] = (uint64_t)train[i] * V + (uint64_t)train[i + 1];
    qsort(pairs, n_train - 1, sizeof *pairs, by_u64);
    double u = 0.0, b = 0.0;
    for (size_t i = 1; i < n_valid; i++) {
        size_t a = (size_t)valid[i - 1], c = (size_t)valid[i];
        double p_uni = (uni[c] + 1.0) / ((double)n_train + (double)V);
        double p_bi = uni[a] > 0 ? pair_count(pairs, n_train - 1, (uint64_t)a * V + c) / uni[a] : 0.0;
        u -= log(p_uni);
        b -= log(0.8 * p_bi + 0.2 * p_uni);
    }
    *unigram = u / (double)(n_valid - 1);
    *bigram = b / (double)(n_valid - 1);
    free(uni);
    free(pairs);
    return ATTN_OK;
}
