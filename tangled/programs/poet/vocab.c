#line 4524 "book/13-poems.nw"
/* programs/poet/vocab.c — 第 13 章：词表，文字和词元之间的转换 */
#include "poet.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#line 4545 "book/13-poems.nw"
static const uint32_t *list_cp;
static int by_code_point(const void *a, const void *b)
{
    uint32_t x = list_cp[*(const int *)a], y = list_cp[*(const int *)b];
    return (x > y) - (x < y);
}

int poet_vocab_from_list(const uint32_t *cps, size_t n, poet_vocab *v, poet_err *e)
{
    memset(v, 0, sizeof *v);
    if (cps == NULL || n < 2 || n > (size_t)INT32_MAX)
        return poet_fail(e, POET_EDATA, "词表至少要有 <unk> 和一个字");
    v->cp = malloc(n * sizeof *v->cp);
    v->sorted_cp = malloc((n - 1) * sizeof *v->sorted_cp);
    v->sorted_id = malloc((n - 1) * sizeof *v->sorted_id);
    if (v->cp == NULL || v->sorted_cp == NULL || v->sorted_id == NULL) {
        poet_vocab_free(v);
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    }
    v->n = n;
    memcpy(v->cp, cps, n * sizeof *cps);
    v->cp[0] = 0;
    for (size_t i = 1; i < n; i++)
        v->sorted_id[i - 1] = (int)i;
    list_cp = v->cp;
    qsort(v->sorted_id, n - 1, sizeof *v->sorted_id, by_code_point);
    for (size_t i = 0; i + 1 < n; i++) {
        v->sorted_cp[i] = v->cp[v->sorted_id[i]];
        if (v->sorted_cp[i] > 0x10FFFF || (v->sorted_cp[i] >= 0xD800 && v->sorted_cp[i] <= 0xDFFF) ||
            (i > 0 && v->sorted_cp[i] == v->sorted_cp[i - 1])) {
            uint32_t c = v->sorted_cp[i];
            poet_vocab_free(v);
            return poet_fail(e, POET_EDATA, "词表里的 U+%04X 不是字，或者出现了两次", (unsigned)c);
        }
    }
    return ATTN_OK;
}

void poet_vocab_free(poet_vocab *v)
{
    if (v == NULL)
        return;
    free(v->cp);
    free(v->sorted_cp);
    free(v->sorted_id);
    memset(v, 0, sizeof *v);
}

#line 4457 "book/13-poems.nw"
/* 排序用：次数多的在前，次数相同时码位小的在前 */
static const uint32_t *sort_counts;
static int by_count(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (sort_counts[x] != sort_counts[y])
        return sort_counts[x] > sort_counts[y] ? -1 : 1;
    return (x > y) - (x < y);
}

int poet_vocab_from_counts(const uint32_t *counts, unsigned min_count, poet_vocab *v, poet_err *e)
{
    memset(v, 0, sizeof *v);
    if (counts == NULL || min_count == 0)
        return poet_fail(e, ATTN_EINVAL, "poet_vocab_from_counts：参数不对");
    size_t n = 1;
    for (size_t c = 0; c < POET_CODE_POINTS; c++)
        n += counts[c] >= min_count;
    if (n == 1)
        return poet_fail(e, POET_EDATA, "没有一个字出现过 %u 次，词表是空的", min_count);
    uint32_t *cps = malloc(n * sizeof *cps);
    if (cps == NULL)
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    cps[0] = 0;
    for (size_t c = 0, k = 1; c < POET_CODE_POINTS; c++)
        if (counts[c] >= min_count)
            cps[k++] = (uint32_t)c;
    sort_counts = counts;
    qsort(cps + 1, n - 1, sizeof *cps, by_count);
    int st = poet_vocab_from_list(cps, n, v, e);
    free(cps);
    return st;
}

#line 4495 "book/13-poems.nw"
int poet_vocab_id(const poet_vocab *v, uint32_t c)
{
    size_t lo = 0, hi = v->n - 1;          /* 在 sorted_cp[lo, hi) 里找 */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->sorted_cp[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < v->n - 1 && v->sorted_cp[lo] == c ? v->sorted_id[lo] : POET_UNK;
}

int poet_encode(const poet_vocab *v, const char *s, size_t n, int *ids, size_t *len, poet_err *e)
{
    size_t at = 0, k = 0;
    *len = 0;
    while (at < n) {
        long c = poet_utf8_next(s, n, &at);
        if (c < 0)
            return poet_fail(e, POET_EDATA, "第 %zu 个字节处不是合法的 UTF-8", at + 1);
        ids[k++] = poet_vocab_id(v, (uint32_t)c);
    }
    *len = k;
    return ATTN_OK;
}

#line 4599 "book/13-poems.nw"
int poet_vocab_to_json(const poet_vocab *v, char **json)
{
    *json = NULL;
    cJSON *a = cJSON_CreateArray();
    if (a == NULL)
        return ATTN_ENOMEM;
    for (size_t i = 0; i < v->n; i++) {
        char s[8] = "<unk>";
        if (i > 0)
            s[poet_utf8_put(v->cp[i], s)] = '\0';
        cJSON *item = cJSON_CreateString(s);
        if (item == NULL || !cJSON_AddItemToArray(a, item)) {
            cJSON_Delete(item);
            cJSON_Delete(a);
            return ATTN_ENOMEM;
        }
    }
    char *text = cJSON_PrintUnformatted(a);
    cJSON_Delete(a);
    if (text == NULL)
        return ATTN_ENOMEM;
    *json = malloc(strlen(text) + 1);
    if (*json != NULL)
        strcpy(*json, text);
    cJSON_free(text);
    return *json != NULL ? ATTN_OK : ATTN_ENOMEM;
}

int poet_vocab_from_json(const char *json, size_t len, poet_vocab *v, poet_err *e)
{
    memset(v, 0, sizeof *v);
    cJSON *a = cJSON_ParseWithLength(json, len);
    if (a == NULL || !cJSON_IsArray(a) || cJSON_GetArraySize(a) < 2) {
        cJSON_Delete(a);
        return poet_fail(e, POET_EDATA, "词表不是至少有两个元素的 JSON 数组");
    }
    size_t n = (size_t)cJSON_GetArraySize(a), i = 0;
    uint32_t *cps = malloc(n * sizeof *cps);
    int st = cps == NULL ? poet_fail(e, ATTN_ENOMEM, "内存不足") : ATTN_OK;
    const cJSON *item;
    cJSON_ArrayForEach(item, a) {
        if (st != ATTN_OK)
            break;
        const char *s = cJSON_GetStringValue(item);
        size_t at = 0;
        long c = s != NULL ? poet_utf8_next(s, strlen(s), &at) : -1;
        if (i == 0 && (s == NULL || strcmp(s, "<unk>") != 0))
            st = poet_fail(e, POET_EDATA, "词表的第一个词元应当是 <unk>");
        else if (i > 0 && (c < 0 || s[at] != '\0'))
            st = poet_fail(e, POET_EDATA, "词表的第 %zu 个词元不是恰好一个字", i + 1);
        else
            cps[i] = i == 0 ? 0 : (uint32_t)c;
        i++;
    }
    cJSON_Delete(a);
    if (st == ATTN_OK)
        st = poet_vocab_from_list(cps, n, v, e);
    free(cps);
    return st;
}

int poet_vocab_save(const poet_vocab *v, const char *path, poet_err *e)
{
    char *json;
    if (poet_vocab_to_json(v, &json) != ATTN_OK)
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    int st = poet_write_file(path, json, strlen(json), e);
    free(json);
    return st;
}

int poet_vocab_load(const char *path, poet_vocab *v, poet_err *e)
{
    char *buf;
    size_t len;
    memset(v, 0, sizeof *v);
    int st = poet_read_file(path, &buf, &len, (size_t)1 << 26, e);
    if (st != ATTN_OK)
        return st;
    st = poet_vocab_from_json(buf, len, v, e);
    free(buf);
    if (st != ATTN_OK) {
        poet_err inner = e != NULL ? *e : (poet_err){{0}};
        poet_fail(e, st, "%s：%s", path, inner.msg);
    }
    return st;
}
