#line 4092 "book/13-poems.nw"
/* programs/poet/corpus.c — 第 13 章：把 chinese-poetry 的 JSON 整理成训练集、检验集和词表 */
#define _POSIX_C_SOURCE 200809L
#include "poet.h"

#include <cjson/cJSON.h>
#include <opencc/opencc.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#line 4129 "book/13-poems.nw"
typedef struct {
    opencc_t cc;
    poet_corpus_stats *st;
    char *text;                 /* 留下的诗，简体 UTF-8，一首接一首 */
    size_t len, cap;
    size_t *start;              /* 第 i 首从 text[start[i]] 起，长 size[i] 字节 */
    size_t *size;
    unsigned char *valid;       /* 第 i 首属于检验集 */
    size_t n, ncap;
    size_t *table;              /* 去重：开放寻址的散列表，存诗的编号 + 1，0 表示空 */
    size_t tcap;
    uint32_t *cp, *clean;       /* 一首诗的码位，整理后的码位 */
    char *utf8;                 /* 整理后的诗的 UTF-8 */
    size_t n_cp, cpcap;
} prep;

/* cp、clean、utf8 至少能放 n 个码位 */
static int prep_room(prep *P, size_t n)
{
    if (n <= P->cpcap)
        return ATTN_OK;
    size_t cap = 2 * n;
    uint32_t *a = realloc(P->cp, cap * sizeof *a);
    if (a != NULL) P->cp = a;
    uint32_t *b = realloc(P->clean, cap * sizeof *b);
    if (b != NULL) P->clean = b;
    char *c = realloc(P->utf8, 4 * cap + 1);
    if (c != NULL) P->utf8 = c;
    if (a == NULL || b == NULL || c == NULL)
        return ATTN_ENOMEM;
    P->cpcap = cap;
    return ATTN_OK;
}

/* 散列表里找正文为 s[n] 的诗；找到返回 1，找不到返回 0，*slot 是它该在的位置 */
static int prep_find(const prep *P, const char *s, size_t n, size_t *slot)
{
    size_t i = (size_t)poet_fnv1a(s, n) & (P->tcap - 1);
    while (P->table[i] != 0) {
        size_t k = P->table[i] - 1;
        if (P->size[k] == n && memcmp(P->text + P->start[k], s, n) == 0)
            return 1;
        i = (i + 1) & (P->tcap - 1);
    }
    *slot = i;
    return 0;
}

static int prep_seen(const prep *P, const char *s, size_t n)
{
    size_t slot;
    return P->tcap > 0 && prep_find(P, s, n, &slot);
}

/* 留下一首诗：放进 text，记进散列表（表满一半时加倍） */
static int prep_keep(prep *P, const char *s, size_t n, int valid)
{
    if (P->len + n > P->cap) {
        size_t cap = 2 * (P->len + n) + 4096;
        char *t = realloc(P->text, cap);
        if (t == NULL) return ATTN_ENOMEM;
        P->text = t; P->cap = cap;
    }
    if (P->n == P->ncap) {
        size_t cap = 2 * P->ncap + 1024;
        size_t *a = realloc(P->start, cap * sizeof *a);
        if (a != NULL) P->start = a;
        size_t *b = realloc(P->size, cap * sizeof *b);
        if (b != NULL) P->size = b;
        unsigned char *c = realloc(P->valid, cap);
        if (c != NULL) P->valid = c;
        if (a == NULL || b == NULL || c == NULL) return ATTN_ENOMEM;
        P->ncap = cap;
    }
    if (2 * (P->n + 1) > P->tcap) {
        size_t cap = P->tcap ? 2 * P->tcap : 1 << 16;
        size_t *t = calloc(cap, sizeof *t);
        if (t == NULL) return ATTN_ENOMEM;
        free(P->table);
        P->table = t; P->tcap = cap;
        for (size_t k = 0; k < P->n; k++) {
            size_t slot;
            prep_find(P, P->text + P->start[k], P->size[k], &slot);
            P->table[slot] = k + 1;
        }
    }
    memcpy(P->text + P->len, s, n);
    P->start[P->n] = P->len;
    P->size[P->n] = n;
    P->valid[P->n] = (unsigned char)valid;
    size_t slot;
    prep_find(P, s, n, &slot);
    P->table[slot] = ++P->n;
    P->len += n;
    return ATTN_OK;
}

static void prep_free(prep *P)
{
    if (P->cc != NULL && P->cc != (opencc_t)-1)
        opencc_close(P->cc);
    free(P->text); free(P->start); free(P->size); free(P->valid); free(P->table);
    free(P->cp); free(P->clean); free(P->utf8);
}

#line 3873 "book/13-poems.nw"
/* 只标出引语、书名、补字的符号：删掉符号，留下里面的字 */
static int is_mark(uint32_t c)
{
    static const uint32_t marks[] = {
        '[', ']', 0xFF3B, 0xFF3D,             /* [ ] ［ ］ */
        0x300C, 0x300D, 0x300E, 0x300F,       /* 「 」 『 』 */
        0x201C, 0x201D, 0x2018, 0x2019,       /* “ ” ‘ ’ */
        0x300A, 0x300B, 0x3008, 0x3009,       /* 《 》 〈 〉 */
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (c == marks[i])
            return 1;
    return 0;
}

/* 缺了的字，或者写不出来的字 */
static int is_missing(uint32_t c)
{
    return c == 0x25A1 || c == 0x25A0 || c == 0x25CB || c == 0x25CF ||   /* □ ■ ○ ● */
           c == 0x56D7 ||                                              /* 囗 */
           c == '{' || c == '}' ||                                     /* {上休下鳥} */
           (c >= 0x2FF0 && c <= 0x2FFF) ||                             /* ⿰ 等结构符 */
           (c >= 0xE000 && c <= 0xF8FF);                               /* 私用区 */
}

int poet_clean(const uint32_t *in, size_t n, uint32_t *out, size_t *n_out, int *had_note)
{
    size_t k = 0, han = 0;
    int depth = 0, verdict = POET_KEEP;
    *had_note = 0;
    *n_out = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = in[i];
        if (c == '(' || c == 0xFF08) {                     /* ( （ ：注开始 */
            depth++;
            *had_note = 1;
        } else if (c == ')' || c == 0xFF09) {              /* ) ）：注结束 */
            if (depth == 0)
                return POET_UNBALANCED;
            depth--;
        } else if (depth == 0 && !is_mark(c)) {
            if (poet_is_punct(c) && (k == 0 || poet_is_punct(out[k - 1])))
                continue;                                  /* 连着的标点只留第一个 */
            if (is_missing(c))
                verdict = POET_MISSING;
            else if (!poet_is_han(c) && !poet_is_punct(c) && verdict == POET_KEEP)
                verdict = POET_ODD;
            han += poet_is_han(c);
            out[k++] = c;
        }
    }
    if (depth != 0)
        return POET_UNBALANCED;
    if (verdict == POET_KEEP && han == 0)
        verdict = POET_EMPTY;
    *n_out = k;
    return verdict;
}

#line 4018 "book/13-poems.nw"
uint64_t poet_fnv1a(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

int poet_is_valid(const char *s, size_t n)
{
    return poet_fnv1a(s, n) >> 60 == 0;
}

#line 4037 "book/13-poems.nw"
static int prepare_poem(prep *P, poet_err *e)
{
    size_t n;
    int had_note;
    int verdict = poet_clean(P->cp, P->n_cp, P->clean, &n, &had_note);
    P->st->with_notes += had_note;
    if (verdict != POET_KEEP) {
        P->st->dropped[verdict]++;
        return ATTN_OK;
    }
#line 4006 "book/13-poems.nw"
    /* P->clean[n] → UTF-8 → OpenCC 的 t2s → P->simp（以 '\0' 结尾） */
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        bytes += poet_utf8_put(P->clean[i], P->utf8 + bytes);
    char *simp = opencc_convert_utf8(P->cc, P->utf8, bytes);
    if (simp == NULL)
        return poet_fail(e, POET_EDATA, "OpenCC 转换失败：%s", opencc_error());
#line 4048 "book/13-poems.nw"
    size_t len = strlen(simp);
    int st = ATTN_OK;
    if (prep_seen(P, simp, len)) {
        P->st->dropped[POET_DUPLICATE]++;
    } else {
        st = prep_keep(P, simp, len, poet_is_valid(simp, len));
        if (st != ATTN_OK)
            poet_fail(e, st, "内存不足");
    }
    opencc_convert_utf8_free(simp);
    return st;
}

#line 3839 "book/13-poems.nw"
static int prepare_file(prep *P, const char *path, poet_err *e)
{
    char *buf;
    size_t len;
    int st = poet_read_file(path, &buf, &len, (size_t)1 << 30, e);
    if (st != ATTN_OK)
        return st;
    cJSON *root = cJSON_ParseWithLength(buf, len);
    free(buf);
    if (root == NULL || !cJSON_IsArray(root)) {
        cJSON_Delete(root);
        return poet_fail(e, POET_EDATA, "%s：不是一个 JSON 数组", path);
    }
    size_t index = 0;
    const cJSON *poem;
    cJSON_ArrayForEach(poem, root) {
        const cJSON *paras = cJSON_GetObjectItemCaseSensitive(poem, "paragraphs");
        if (!cJSON_IsArray(paras)) {
            st = poet_fail(e, POET_EDATA, "%s：第 %zu 首诗没有 paragraphs 数组", path, index + 1);
            break;
        }
#line 3973 "book/13-poems.nw"
        P->n_cp = 0;
        const cJSON *para;
        cJSON_ArrayForEach(para, paras) {
            if (!cJSON_IsString(para)) {
                st = poet_fail(e, POET_EDATA, "%s：第 %zu 首诗有一段不是字符串", path, index + 1);
                break;
            }
            size_t n = strlen(para->valuestring), bad;
            if ((st = prep_room(P, P->n_cp + n)) != ATTN_OK)
                break;
            size_t got;
            if (!poet_utf8_decode(para->valuestring, n, P->cp + P->n_cp, &got, &bad)) {
                st = poet_fail(e, POET_EDATA, "%s：第 %zu 首诗在第 %zu 个字节处不是合法的 UTF-8",
                               path, index + 1, bad + 1);
                break;
            }
            P->n_cp += got;
        }
        if (st != ATTN_OK)
            break;
        P->st->poems++;
#line 3861 "book/13-poems.nw"
        if ((st = prepare_poem(P, e)) != ATTN_OK)
            break;
        index++;
    }
    cJSON_Delete(root);
    return st;
}

#line 4241 "book/13-poems.nw"
/* 名字是 poet.tang.N.json 时返回 1，*num = N */
static int tang_file(const char *name, unsigned long *num)
{
    char tail[8];
    int used = 0;
    if (sscanf(name, "poet.tang.%lu%7s%n", num, tail, &used) != 2 || name[used] != '\0')
        return 0;
    return strcmp(tail, ".json") == 0 && strncmp(name, "poet.tang.", 10) == 0 &&
           name[10] >= '0' && name[10] <= '9';
}

/* 语料里的一个文件：名字里的数和文件夹里原样的名字 */
typedef struct {
    unsigned long num;
    char *name;
} tang_entry;

static int by_number(const void *a, const void *b)
{
    unsigned long x = ((const tang_entry *)a)->num, y = ((const tang_entry *)b)->num;
    return (x > y) - (x < y);
}

static void free_files(tang_entry *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(a[i].name);
    free(a);
}

/* corpus_dir 里全部 poet.tang.N.json，按 N 从小到大；两个文件的 N 相同是错误 */
static int list_files(const char *dir, tang_entry **files, size_t *count, poet_err *e)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return poet_fail(e, POET_EFILE, "%s：打不开这个文件夹（%s）", dir, strerror(errno));
    size_t n = 0, cap = 0;
    tang_entry *a = NULL;
    unsigned long num;
    const struct dirent *ent;
    int st = ATTN_OK;
    while (st == ATTN_OK && (ent = readdir(d)) != NULL) {
        if (!tang_file(ent->d_name, &num))
            continue;
        if (n == cap) {
            cap = 2 * cap + 64;
            tang_entry *t = realloc(a, cap * sizeof *t);
            if (t == NULL) {
                st = poet_fail(e, ATTN_ENOMEM, "内存不足");
                break;
            }
            a = t;
        }
        if ((a[n].name = strdup(ent->d_name)) == NULL)
            st = poet_fail(e, ATTN_ENOMEM, "内存不足");
        else
            a[n++].num = num;
    }
    closedir(d);
    if (st == ATTN_OK && n == 0)
        st = poet_fail(e, POET_EDATA, "%s：没有 poet.tang.*.json（语料在 chinese-poetry 包的 "
                       "dist/quantangshi 里）", dir);
    if (st == ATTN_OK)
        qsort(a, n, sizeof *a, by_number);
    for (size_t i = 1; st == ATTN_OK && i < n; i++) {
        int order = strcmp(a[i - 1].name, a[i].name) < 0;    /* 说明里两个名字的顺序与 readdir 无关 */
        if (a[i].num == a[i - 1].num)
            st = poet_fail(e, POET_EDATA, "%s：%s 和 %s 的编号相同，不知道先读哪一个", dir,
                           a[order ? i - 1 : i].name, a[order ? i : i - 1].name);
    }
    if (st != ATTN_OK) {
        free_files(a, n);
        return st;
    }
    *files = a;
    *count = n;
    return ATTN_OK;
}

#line 4325 "book/13-poems.nw"
static int write_split(const prep *P, const char *dir, const char *name, int valid, poet_err *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return poet_fail(e, POET_EFILE, "%s：写不进（%s）", path, strerror(errno));
    for (size_t k = 0; k < P->n; k++)
        if (P->valid[k] == valid) {
            fwrite(P->text + P->start[k], 1, P->size[k], f);
            fputc('\n', f);
        }
    if (ferror(f) | fclose(f))
        return poet_fail(e, POET_EFILE, "%s：写不进", path);
    return ATTN_OK;
}

static int write_stats(const poet_corpus_stats *st, unsigned min_count, const char *dir,
                       poet_err *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/prepare.json", dir);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return poet_fail(e, POET_EFILE, "%s：写不进（%s）", path, strerror(errno));
    poet_print_stats(f, st, min_count);
    if (ferror(f) | fclose(f))
        return poet_fail(e, POET_EFILE, "%s：写不进", path);
    return ATTN_OK;
}

#line 4402 "book/13-poems.nw"
static int prepare_count(prep *P, unsigned min_count, const char *dir, poet_err *e)
{
    poet_corpus_stats *st = P->st;
    uint32_t *counts = calloc(POET_CODE_POINTS, sizeof *counts);
    if (counts == NULL)
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    int status = ATTN_OK;
    for (size_t k = 0; k < P->n && status == ATTN_OK; k++) {
        size_t n, bad;
        if ((status = prep_room(P, P->size[k])) != ATTN_OK) {
            poet_fail(e, status, "内存不足");
            break;
        }
        if (!poet_utf8_decode(P->text + P->start[k], P->size[k], P->cp, &n, &bad)) {
            status = poet_fail(e, POET_EDATA, "OpenCC 的输出不是合法的 UTF-8");
            break;
        }
        st->forms[poet_form_of(P->cp, n)]++;
        if (P->valid[k]) {
            st->valid++;
            st->valid_chars += n;
        } else {
            st->train++;
            st->train_chars += n;
            for (size_t i = 0; i < n; i++)
                counts[P->cp[i]]++;
            counts['\n']++;
        }
    }
    poet_vocab v = {0};
    if (status == ATTN_OK)
        status = poet_vocab_from_counts(counts, min_count, &v, e);
    if (status == ATTN_OK) {
        for (size_t c = 0; c < POET_CODE_POINTS; c++)
            if (counts[c] > 0) {
                st->distinct++;
                if (poet_vocab_id(&v, (uint32_t)c) == POET_UNK)
                    st->unknown += counts[c];
            }
        st->vocab = v.n;
        char path[4096];
        snprintf(path, sizeof path, "%s/vocab.json", dir);
        status = poet_vocab_save(&v, path, e);
    }
    poet_vocab_free(&v);
    free(counts);
    return status;
}

#line 4358 "book/13-poems.nw"
int poet_prepare(const char *corpus_dir, const char *out_dir, unsigned min_count,
                 poet_corpus_stats *st, poet_err *e)
{
    if (corpus_dir == NULL || out_dir == NULL || st == NULL || min_count == 0)
        return poet_fail(e, ATTN_EINVAL, "poet_prepare：参数不对");
    memset(st, 0, sizeof *st);
    prep P = {0};
    P.st = st;
    tang_entry *files = NULL;
    size_t n_files = 0;
    int status = list_files(corpus_dir, &files, &n_files, e);
    if (status == ATTN_OK) {
        P.cc = opencc_open(OPENCC_DEFAULT_CONFIG_TRAD_TO_SIMP);
        if (P.cc == (opencc_t)-1)
            status = poet_fail(e, POET_EFILE, "OpenCC 打不开 t2s.json：%s", opencc_error());
    }
    for (size_t i = 0; status == ATTN_OK && i < n_files; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", corpus_dir, files[i].name);
        status = prepare_file(&P, path, e);
        st->files++;
    }
    free_files(files, n_files);
    if (status == ATTN_OK && P.n == 0)
        status = poet_fail(e, POET_EDATA, "%s：整理之后一首诗也没有留下", corpus_dir);
    if (status == ATTN_OK && mkdir(out_dir, 0777) != 0 && errno != EEXIST)
        status = poet_fail(e, POET_EFILE, "%s：建不了这个文件夹（%s）", out_dir, strerror(errno));
    if (status == ATTN_OK)
        status = prepare_count(&P, min_count, out_dir, e);
    if (status == ATTN_OK)
        status = write_split(&P, out_dir, "train.txt", 0, e);
    if (status == ATTN_OK)
        status = write_split(&P, out_dir, "valid.txt", 1, e);
    if (status == ATTN_OK)
        status = write_stats(st, min_count, out_dir, e);
    prep_free(&P);
    return status;
}
