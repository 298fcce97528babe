#line 1098 "book/13-poems.nw"
/* tests/poet.c — 第 13 章的测试：语料、词元、检查点、训练、写诗 */
#define _POSIX_C_SOURCE 200809L
#include "attn.h"
#include "check.h"
#include "../programs/poet/poet.h"
#include "../examples/ch13.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#line 1125 "book/13-poems.nw"
/* 整理好的语料里的一个文件，整个读进来（读不到：测试失败，返回 NULL） */
static char *data_file(const char *name, size_t *len)
{
    char path[4096], *buf = NULL;
    poet_err e;
    snprintf(path, sizeof path, "%s/%s", POET_DEFAULT_DATA, name);
    if (!CHECK_OK(poet_read_file(path, &buf, len, (size_t)1 << 30, &e)))
        fprintf(stderr, "  %s\n", e.msg);
    return buf;
}
#line 1615 "book/13-poems.nw"
/* 一个很小的模型：词表 <unk> 白 日 换行，宽 8，2 个头，2 层，上下文 6 */
static int tiny_model(attn_gpt *m, poet_vocab *v, unsigned long long seed)
{
    static const uint32_t cps[4] = {0, 0x767D, 0x65E5, '\n'};
    poet_err e;
    attn_gpt_config c = poet_config(4);
    c.d_model = 8; c.n_heads = 2; c.d_head = 4; c.d_ff = 32; c.n_layers = 2; c.n_ctx = 6;
    if (poet_vocab_from_list(cps, 4, v, &e) != ATTN_OK)
        return 0;
    if (attn_gpt_init(m, &c, seed) != ATTN_OK)
        return 0;
    for (size_t i = 0; i < m->n_params; i++)     /* 偏置、增益也不要是 0 和 1：每个数都不同 */
        m->params[i] += 0.001f * (float)(i % 97);
    return 1;
}

/* 临时文件的路径 */
static const char *temp_path(const char *name)
{
    static char path[4][4096];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "%s/test-%s", POET_DEFAULT_DATA, name);
    return path[k];
}
#line 1908 "book/13-poems.nw"
/* 训练集的词元（第一次调用时读进来） */
static const int *train_ids(size_t *n, poet_vocab *v)
{
    static int *ids;
    static size_t count;
    static poet_vocab vocab;
    if (ids == NULL) {
        size_t len;
        char *text = data_file("train.txt", &len), path[4096];
        poet_err e;
        snprintf(path, sizeof path, "%s/vocab.json", POET_DEFAULT_DATA);
        ids = text != NULL ? malloc(len * sizeof *ids) : NULL;
        if (ids == NULL || !CHECK_OK(poet_vocab_load(path, &vocab, &e)) ||
            !CHECK_OK(poet_encode(&vocab, text, len, ids, &count, &e))) {
            free(ids);
            ids = NULL;
        }
        free(text);
    }
    *n = count;
    if (v != NULL)
        *v = vocab;
    return ids;
}

static attn_gpt_config narrow_config(void)
{
    attn_gpt_config c = poet_config(5792);
    c.d_model = 32; c.n_heads = 2; c.d_head = 16; c.d_ff = 128; c.n_layers = 2; c.n_ctx = 32;
    return c;
}

static const poet_train_options narrow_options = {10, 8, 3e-3f, 3e-4f, 2, 0.1f, 1.0f, 11};
#line 2295 "book/13-poems.nw"
static int mkdir_for_test(const char *dir)
{
    return mkdir(dir, 0777) == 0;
}
#line 2497 "book/13-poems.nw"
/* 检验集的词元（第一次调用时读进来） */
static const int *valid_ids(size_t *n)
{
    static int *ids;
    static size_t count;
    if (ids == NULL) {
        size_t len, n_train;
        poet_vocab v;
        poet_err e;
        char *text = data_file("valid.txt", &len);
        if (text != NULL && train_ids(&n_train, &v) != NULL) {
            ids = malloc(len * sizeof *ids);
            if (ids != NULL && !CHECK_OK(poet_encode(&v, text, len, ids, &count, &e))) {
                free(ids);
                ids = NULL;
            }
        }
        free(text);
    }
    *n = count;
    return ids;
}

#line 1145 "book/13-poems.nw"
static void test_utf8(void)
{
    check_section("UTF-8 的解码（13 章）");
    uint32_t cp[8];
    size_t n, bad;
    char buf[4];
    /* “白”是 U+767D，E7 99 BD */
    CHECK(poet_utf8_decode("\xE7\x99\xBD", 3, cp, &n, &bad) && n == 1 && cp[0] == 0x767D);
    CHECK_INT(poet_utf8_put(0x767D, buf), 3);
    CHECK(memcmp(buf, "\xE7\x99\xBD", 3) == 0);
    /* 四个字节的字：扩展 B 的第一个字 U+20000 */
    CHECK(poet_utf8_decode("\xF0\xA0\x80\x80", 4, cp, &n, &bad) && n == 1 && cp[0] == 0x20000);
    /* 不合法：截断、孤零零的续字节、过长的编码、代理码位、超过 U+10FFFF、0xFF */
    static const char *bad_input[] = {"\xE7\x99", "\x80", "\xC0\x80", "\xE0\x80\xAF",
                                      "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF", "\xE7\x41\xBD"};
    for (size_t i = 0; i < sizeof bad_input / sizeof bad_input[0]; i++)
        CHECK(!poet_utf8_decode(bad_input[i], strlen(bad_input[i]), cp, &n, &bad));
    /* 出错的位置：第二个字是坏的，前一个字占 3 个字节 */
    CHECK(!poet_utf8_decode("\xE7\x99\xBD\xE7\x99", 5, cp, &n, &bad) && bad == 3 && n == 1);
}
#line 1190 "book/13-poems.nw"
/* s（UTF-8）整理之后是 want（UTF-8），理由是 verdict */
static void check_clean(const char *s, int verdict, const char *want)
{
    uint32_t in[256], out[256];
    size_t n, m, bad;
    int had_note;
    char got[1024];
    size_t bytes = 0;
    CHECK(poet_utf8_decode(s, strlen(s), in, &n, &bad));
    int v = poet_clean(in, n, out, &m, &had_note);
    if (!CHECK_INT(v, verdict))
        fprintf(stderr, "  %s\n", s);
    if (want != NULL) {
        for (size_t i = 0; i < m; i++)
            bytes += poet_utf8_put(out[i], got + bytes);
        got[bytes] = '\0';
        CHECK_STR(got, want);
    }
}

static void test_clean(void)
{
    check_section("整理一首诗的规则（13 章）");
    /* 括号里的校勘记删掉，连同里面的引号 */
    check_clean("闌風長雨（一作「東風細雨」）秋紛紛，四海（一作「萬里」）八荒同一雲。", POET_KEEP,
                "闌風長雨秋紛紛，四海八荒同一雲。");
    /* 方括号：补的字留下 */
    check_clean("停杯試北望，還欲淚沾[襟]。", POET_KEEP, "停杯試北望，還欲淚沾襟。");
    /* 嵌套的注，跨过几段 */
    check_clean("鶴立蛇行勢未休，五天文字鬼神愁。（〖1〗京兆（住持）立石。〖2〗刊。）。", POET_KEEP,
                "鶴立蛇行勢未休，五天文字鬼神愁。");
    /* 连着的标点只留第一个，开头的标点删掉 */
    check_clean("。悲夫！。", POET_KEEP, "悲夫！");
    /* 缺字：□、囗、{…}；怪符号；括号配不上；只剩标点 */
    check_clean("□□□□□，□□□□□。", POET_MISSING, NULL);
    check_clean("囗囗囗囗囗囗囗，但將詞賦奉恩輝。", POET_MISSING, NULL);
    check_clean("何如瓀{玉+冏}在堦墀。", POET_MISSING, NULL);
    check_clean("一○七七年。", POET_MISSING, NULL);
    check_clean("春風2月。", POET_ODD, NULL);
    check_clean("春風）二月。", POET_UNBALANCED, NULL);
    check_clean("春風（二月。", POET_UNBALANCED, NULL);
    check_clean("（同前）。", POET_EMPTY, NULL);
}
#line 1236 "book/13-poems.nw"
static int form_of(const char *s)
{
    uint32_t cp[256];
    size_t n, bad;
    poet_utf8_decode(s, strlen(s), cp, &n, &bad);
    return poet_form_of(cp, n);
}

static void test_forms(void)
{
    check_section("体裁：按句数和每句的字数（13 章）");
    CHECK_INT(form_of("白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"), POET_WUJUE);
    CHECK_INT(form_of("朝辞白帝彩云间，千里江陵一日还。两岸猿声啼不住，轻舟已过万重山。"), POET_QIJUE);
    CHECK_INT(form_of("国破山河在，城春草木深。感时花溅泪，恨别鸟惊心。"
                      "烽火连三月，家书抵万金。白头搔更短，浑欲不胜簪。"), POET_WULV);
    /* 句子长短不齐、最后没有标点、六句、连着两个标点 */
    CHECK_INT(form_of("白日依山尽，黄河入海。欲穷千里目，更上一层楼。"), POET_FORM_OTHER);
    CHECK_INT(form_of("白日依山尽，黄河入海流。欲穷千里目，更上一层楼"), POET_FORM_OTHER);
    CHECK_INT(form_of("白日依山尽，黄河入海流。欲穷千里目，更上一层楼。白日依山尽，黄河入海流。"),
              POET_FORM_OTHER);
    CHECK_INT(form_of("白日依山尽，，黄河入海流。欲穷千里目，更上一层楼。"), POET_FORM_OTHER);
    CHECK_INT(poet_form_length(POET_WUJUE), 24);
    CHECK_INT(poet_form_length(POET_QILV), 64);
    CHECK_INT(poet_form_from_name("七言律诗"), POET_QILV);
    CHECK_INT(poet_form_from_name("五言"), -1);
}
#line 1268 "book/13-poems.nw"
/* 文件 path（JSON 数组）里每首诗的 paragraphs 接起来，交给 visit */
static int each_raw_poem(const char *path, void (*visit)(const cJSON *poem, const char *text, void *ctx),
                         void *ctx)
{
    char *buf, text[1 << 16];
    size_t len;
    poet_err e;
    if (poet_read_file(path, &buf, &len, (size_t)1 << 30, &e) != ATTN_OK)
        return 0;
    cJSON *root = cJSON_ParseWithLength(buf, len);
    free(buf);
    const cJSON *poem;
    cJSON_ArrayForEach(poem, root) {
        size_t at = 0;
        const cJSON *p;
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(poem, "paragraphs")) {
            const char *s = cJSON_GetStringValue(p);
            size_t n = s != NULL ? strlen(s) : 0;
            if (at + n < sizeof text) {
                memcpy(text + at, s, n);
                at += n;
            }
        }
        text[at] = '\0';
        visit(poem, text, ctx);
    }
    int ok = root != NULL;
    cJSON_Delete(root);
    return ok;
}

typedef struct {
    size_t marks[7];          /* 《 （ 「 □ [ 〖 的个数 */
    size_t wei_poems;         /* 有“囗”的诗 */
    size_t poems;
    int dengque_authors;      /* 正文是《登鹳雀楼》的诗：1 = 王之渙，2 = 朱斌 */
    char (*ids)[40];          /* 每首诗的 id */
    size_t errors, in_main;   /* error/ 里的记录，其中 id 在主文件里的 */
} raw_counts;

static int by_id(const void *a, const void *b)
{
    return strcmp(a, b);
}

static size_t count_of(const char *s, const char *what)
{
    size_t n = 0, k = strlen(what);
    for (const char *p = strstr(s, what); p != NULL; p = strstr(p + k, what))
        n++;
    return n;
}

static void raw_visit(const cJSON *poem, const char *text, void *ctx)
{
    raw_counts *c = ctx;
    static const char *marks[7] = {"《", "（", "「", "□", "[", "〖", "囗"};
    for (int i = 0; i < 6; i++)
        c->marks[i] += count_of(text, marks[i]);
    c->wei_poems += strstr(text, marks[6]) != NULL;
    const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(poem, "id"));
    snprintf(c->ids[c->poems < 60000 ? c->poems : 59999], 40, "%s", id != NULL ? id : "");
    c->poems++;
    if (strcmp(text, "白日依山盡，黃河入海流。欲窮千里目，更上一層樓。") == 0) {
        const char *a = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(poem, "author"));
        c->dengque_authors |= a != NULL && strcmp(a, "王之渙") == 0 ? 1 : 0;
        c->dengque_authors |= a != NULL && strcmp(a, "朱斌") == 0 ? 2 : 0;
    }
}

static void error_visit(const cJSON *poem, const char *text, void *ctx)
{
    (void)text;
    raw_counts *c = ctx;
    char id[40];
    const char *sid = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(poem, "id"));
    snprintf(id, sizeof id, "%s", sid != NULL ? sid : "");
    c->errors += cJSON_GetObjectItemCaseSensitive(poem, "error_type") != NULL;
    c->in_main += bsearch(id, c->ids, c->poems, sizeof *c->ids, by_id) != NULL;
}

static void test_raw_corpus(void)
{
    check_section("原始数据里的符号、存疑的记录和重复的诗（13 章）");
    raw_counts c = {{0}, 0, 0, 0, calloc(60000, 40), 0, 0};
    if (!CHECK(c.ids != NULL))
        return;
    char path[4096];
    for (unsigned long k = 0; k <= 57000; k += 1000) {
        snprintf(path, sizeof path, "%s/poet.tang.%lu.json", POET_DEFAULT_CORPUS, k);
        CHECK(each_raw_poem(path, raw_visit, &c));
    }
    qsort(c.ids, c.poems, sizeof *c.ids, by_id);
    for (unsigned long k = 0; k <= 57000; k += 1000) {
        snprintf(path, sizeof path, "%s/error/poet.tang.%lu.json", POET_DEFAULT_CORPUS, k);
        each_raw_poem(path, error_visit, &c);        /* 有的卷没有存疑的记录 */
    }
    free(c.ids);
    CHECK_INT(c.poems, 57607);
    CHECK(c.marks[0] >= 9000 && c.marks[0] < 10000);     /* 书名号：九千多个 */
    CHECK(c.marks[1] >= 8800 && c.marks[1] < 8900);      /* 圆括号：八千八百多对 */
    CHECK(c.marks[2] >= 6000 && c.marks[2] < 7000);      /* 引号「：六千多对 */
    CHECK(c.marks[3] >= 2100 && c.marks[3] < 2200);      /* □：两千一百多个 */
    CHECK(c.marks[4] >= 1200 && c.marks[4] < 1300);      /* 方括号：一千两百多对 */
    CHECK(c.marks[5] >= 1000 && c.marks[5] < 1100);      /* 〖〗：一千多对 */
    CHECK_INT(c.wei_poems, 28);                          /* 用“囗”的诗 */
    CHECK_INT(c.dengque_authors, 3);                     /* 王之渙和朱斌各一次 */
    CHECK_INT(c.errors, 6685);                           /* error/ 里的记录，都有 error_type */
    CHECK_INT(c.in_main, 6680);                          /* 其中 id 在主文件里的 */
}
#line 1384 "book/13-poems.nw"
static long long stat_of(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(x) ? (long long)x->valuedouble : -1;
}

/* 同上，不取整（损失） */
static double number_of(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

static void test_prepare_counts(void)
{
    check_section("整理全唐诗的计数（13 章）");
    size_t len;
    char *buf = data_file("prepare.json", &len);
    cJSON *o = buf != NULL ? cJSON_Parse(buf) : NULL;
    free(buf);
    if (!CHECK(o != NULL))
        return;
    CHECK_INT(stat_of(o, "files"), 58);
    CHECK_INT(stat_of(o, "poems"), 57607);
    CHECK_INT(stat_of(o, "with_notes"), 4591);
    CHECK_INT(stat_of(o, "unbalanced"), 36);
    CHECK_INT(stat_of(o, "missing"), 585);
    CHECK_INT(stat_of(o, "odd"), 13);
    CHECK_INT(stat_of(o, "empty"), 197);
    CHECK_INT(stat_of(o, "duplicate"), 964);
    CHECK_INT(stat_of(o, "train"), 52298);
    CHECK_INT(stat_of(o, "valid"), 3514);
    CHECK_INT(stat_of(o, "train_chars"), 3110212);
    CHECK_INT(stat_of(o, "valid_chars"), 206572);
    CHECK_INT(stat_of(o, "wujue"), 4219);
    CHECK_INT(stat_of(o, "qijue"), 11006);
    CHECK_INT(stat_of(o, "wulv"), 14957);
    CHECK_INT(stat_of(o, "qilv"), 8419);
    CHECK_INT(stat_of(o, "other"), 17211);
    CHECK_INT(stat_of(o, "distinct"), 8617);
    CHECK_INT(stat_of(o, "min_count"), 5);
    CHECK_INT(stat_of(o, "vocab"), 5792);
    CHECK_INT(stat_of(o, "unknown"), 5007);
    /* 正文里由这些数算出的数 */
    long long dropped = stat_of(o, "unbalanced") + stat_of(o, "missing") + stat_of(o, "odd") +
                        stat_of(o, "empty") + stat_of(o, "duplicate");
    double kept_all = (double)(stat_of(o, "train") + stat_of(o, "valid"));
    CHECK_INT(dropped, 1795);
    CHECK_INT(kept_all, 55812);
    CHECK_NEAR(stat_of(o, "valid") / kept_all, 0.063, 0.0005);
    CHECK_NEAR(stat_of(o, "wujue") / kept_all, 0.076, 0.0005);
    CHECK_NEAR(stat_of(o, "qijue") / kept_all, 0.197, 0.0005);
    CHECK_NEAR(stat_of(o, "wulv") / kept_all, 0.268, 0.0005);
    CHECK_NEAR(stat_of(o, "qilv") / kept_all, 0.151, 0.0005);
    CHECK_NEAR(stat_of(o, "other") / kept_all, 0.308, 0.0005);
    CHECK_NEAR(1.0 - stat_of(o, "other") / kept_all, 0.7, 0.01);                 /* 七成 */
    CHECK_NEAR((double)stat_of(o, "qijue") / (double)stat_of(o, "wujue"), 2.5, 0.15);   /* 两倍半 */
    CHECK_NEAR((double)stat_of(o, "unknown") / (double)stat_of(o, "train_chars"), 0.0016, 0.00005);
    /* 丢掉的 + 留下的 = 读到的；各体裁加起来是留下的 */
    long long kept = stat_of(o, "train") + stat_of(o, "valid");
    CHECK_INT(stat_of(o, "unbalanced") + stat_of(o, "missing") + stat_of(o, "odd") +
              stat_of(o, "empty") + stat_of(o, "duplicate") + kept, stat_of(o, "poems"));
    CHECK_INT(stat_of(o, "wujue") + stat_of(o, "qijue") + stat_of(o, "wulv") + stat_of(o, "qilv") +
              stat_of(o, "other"), kept);
    cJSON_Delete(o);
}
#line 1456 "book/13-poems.nw"
/* text[len] 的各行：数行和字，查它们属于哪个集合，收进 seen（散列 → 行），查重 */
static void check_split(const char *text, size_t len, int valid, size_t *lines, size_t *chars,
                        uint64_t *seen, size_t cap, size_t *dups, size_t *wrong)
{
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl != NULL ? (size_t)(nl - (text + at)) : len - at;
        uint64_t h = poet_fnv1a(text + at, n);
        *wrong += poet_is_valid(text + at, n) != valid;
        size_t i = (size_t)h & (cap - 1);
        while (seen[i] != 0 && seen[i] != h)
            i = (i + 1) & (cap - 1);
        *dups += seen[i] == h;
        seen[i] = h;
        for (size_t k = at; k < at + n; k++)
            *chars += ((unsigned char)text[k] & 0xC0) != 0x80;   /* 每个码位的第一个字节 */
        (*lines)++;
        at += n + 1;
    }
}

static void test_splits(void)
{
    check_section("训练集和检验集：行数、字数、归属、不重复（13 章）");
    size_t n_train, n_valid, lines[2] = {0, 0}, chars[2] = {0, 0}, dups = 0, wrong = 0;
    size_t cap = (size_t)1 << 17;
    char *train = data_file("train.txt", &n_train), *valid = data_file("valid.txt", &n_valid);
    uint64_t *seen = calloc(cap, sizeof *seen);
    if (CHECK(train != NULL && valid != NULL && seen != NULL)) {
        check_split(train, n_train, 0, &lines[0], &chars[0], seen, cap, &dups, &wrong);
        check_split(valid, n_valid, 1, &lines[1], &chars[1], seen, cap, &dups, &wrong);
        CHECK_INT(lines[0], 52298);
        CHECK_INT(lines[1], 3514);
        CHECK_INT(chars[0], 3110212);
        CHECK_INT(chars[1], 206572);
        CHECK_INT(dups, 0);
        CHECK_INT(wrong, 0);
        CHECK(lines[1] * 100 >= 5 * (lines[0] + lines[1]));          /* 检验集不少于 5% */
        CHECK_NEAR((double)lines[1] / (double)(lines[0] + lines[1]), 0.063, 0.0005);
    }
    free(train);
    free(valid);
    free(seen);
}
#line 1506 "book/13-poems.nw"
static int by_count_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x < y) - (x > y);
}

static void test_vocab_from_train(void)
{
    check_section("词表：训练集里出现至少 5 次的字（13 章）");
    size_t len;
    char *train = data_file("train.txt", &len), path[4096];
    uint32_t *counts = calloc(POET_CODE_POINTS, sizeof *counts);
    poet_vocab want = {0}, got = {0};
    poet_err e;
    if (!CHECK(train != NULL && counts != NULL)) {
        free(train);
        free(counts);
        return;
    }
    size_t at = 0, ones = 0, twos = 0;
    while (at < len) {
        long c = poet_utf8_next(train, len, &at);
        if (c < 0) {
            CHECK(c >= 0);
            break;
        }
        counts[c]++;
    }
    for (size_t c = 0; c < POET_CODE_POINTS; c++) {
        ones += counts[c] == 1;
        twos += counts[c] == 2;
    }
    CHECK_OK(poet_vocab_from_counts(counts, 5, &want, &e));
    snprintf(path, sizeof path, "%s/vocab.json", POET_DEFAULT_DATA);
    CHECK_OK(poet_vocab_load(path, &got, &e));
    CHECK_INT(got.n, want.n);
    CHECK(got.n == want.n && memcmp(got.cp, want.cp, got.n * sizeof *got.cp) == 0);
    /* 最常见的：，。换行 不 人 无 山 一 风 日 云 */
    static const uint32_t top[] = {0xFF0C, 0x3002, '\n', 0x4E0D, 0x4EBA, 0x65E0, 0x5C71, 0x4E00,
                                   0x98CE, 0x65E5, 0x4E91};
    for (size_t i = 0; i < sizeof top / sizeof top[0] && i + 1 < got.n; i++)
        CHECK_INT(got.cp[i + 1], top[i]);
    CHECK(counts[0xFF0C] > 200000 && counts[0xFF0C] < 300000);   /* 逗号、句号各二十多万个 */
    CHECK(counts[0x3002] > 200000 && counts[0x3002] < 300000);
    CHECK_INT(ones + twos, 2202);                                 /* 只出现一两次的字 */
    /* 汉字：个数，最常用的 1,000 个、3,000 个占全部汉字的比例 */
    uint32_t *han = malloc(POET_CODE_POINTS / 8 * sizeof *han);
    size_t n_han = 0;
    double total = 0, top1000 = 0, top3000 = 0;
    for (size_t c = 0; han != NULL && c < POET_CODE_POINTS; c++)
        if (counts[c] > 0 && poet_is_han((uint32_t)c) && n_han < POET_CODE_POINTS / 8) {
            han[n_han++] = counts[c];
            total += counts[c];
        }
    if (CHECK(han != NULL)) {
        qsort(han, n_han, sizeof *han, by_count_desc);
        for (size_t i = 0; i < n_han && i < 3000; i++) {
            top1000 += i < 1000 ? han[i] : 0;
            top3000 += han[i];
        }
        CHECK_INT(n_han, 8609);
        CHECK_NEAR(top1000 / total, 0.82, 0.005);
        CHECK_NEAR(top3000 / total, 0.975, 0.0005);
    }
    free(han);
    CHECK_INT(poet_vocab_id(&got, 0x767D), poet_vocab_id(&want, 0x767D));   /* 白 */
    CHECK_INT(poet_vocab_id(&got, 0x25A1), POET_UNK);                        /* □ 不在词表里 */
    poet_vocab_free(&want);
    poet_vocab_free(&got);
    free(counts);
    free(train);
}
#line 1592 "book/13-poems.nw"
static void test_model_size(void)
{
    check_section("本章的模型：尺寸和参数个数（13 章）");
    attn_gpt_config c = poet_config(5792);
    attn_param_breakdown b;
    CHECK_OK(attn_count_params(&c, &b));
    CHECK_INT(b.embedding, 741376);
    CHECK_INT(b.positions, 16384);
    CHECK_INT(b.layer, 198272);
    CHECK_INT(b.layers, 1189632);
    CHECK_INT(b.final_norm, 256);
    CHECK_INT(b.total, 1947648);
    CHECK_NEAR((double)b.embedding / (double)b.total, 0.38, 0.005);
    CHECK_NEAR(4.0 * (double)b.total / 1e6, 7.8, 0.05);          /* 7.8 MB */
    CHECK_NEAR(124439808.0 / (double)b.total, 64, 0.5);           /* GPT-2 最小的一版是它的六十多倍 */
}
#line 1643 "book/13-poems.nw"
static void test_checkpoint_roundtrip(void)
{
    check_section("检查点：写了再读，每一位都相同（13 章）");
    attn_gpt m, back;
    poet_vocab v, vback;
    poet_err e;
    const char *path = temp_path("tiny.safetensors");
    if (!CHECK(tiny_model(&m, &v, 7)))
        return;
    const char *extra[] = {"seed", "7", NULL};
    CHECK_OK(poet_save(path, &m, &v, extra, &e));
    if (CHECK_OK(poet_load(path, &back, &vback, &e))) {
        CHECK(memcmp(&back.cfg, &m.cfg, sizeof m.cfg) == 0);
        CHECK(back.n_params == m.n_params &&
              memcmp(back.params, m.params, m.n_params * sizeof *m.params) == 0);
        CHECK(vback.n == v.n && memcmp(vback.cp, v.cp, v.n * sizeof *v.cp) == 0);
        attn_gpt_free(&back);
        poet_vocab_free(&vback);
    }
    /* 文件本身：c_attn 的布局、元数据 */
    char *buf;
    size_t n;
    poet_safetensors f;
    if (CHECK_OK(poet_read_file(path, &buf, &n, (size_t)1 << 20, &e))) {
        if (CHECK_OK(poet_safetensors_open((unsigned char *)buf, n, &f, &e))) {
            float w[8 * 24], b[24];
            CHECK_OK(poet_safetensors_get(&f, "h.1.attn.c_attn.weight", 8, 24, w, &e));
            CHECK_OK(poet_safetensors_get(&f, "h.1.attn.c_attn.bias", 24, 0, b, &e));
            const attn_gpt_layer *L = &m.layers[1];
            for (size_t r = 0; r < 8; r++) {
                CHECK(memcmp(w + 24 * r, L->w_q + 8 * r, 8 * sizeof *w) == 0);
                CHECK(memcmp(w + 24 * r + 8, L->w_k + 8 * r, 8 * sizeof *w) == 0);
                CHECK(memcmp(w + 24 * r + 16, L->w_v + 8 * r, 8 * sizeof *w) == 0);
            }
            CHECK(memcmp(b + 8, L->b_k, 8 * sizeof *b) == 0);
            CHECK_STR(poet_safetensors_meta(&f, "n_layer"), "2");
            CHECK_STR(poet_safetensors_meta(&f, "n_head"), "2");
            CHECK_STR(poet_safetensors_meta(&f, "n_embd"), "8");
            CHECK_STR(poet_safetensors_meta(&f, "n_ctx"), "6");
            CHECK_STR(poet_safetensors_meta(&f, "format"), "pt");
            CHECK_STR(poet_safetensors_meta(&f, "seed"), "7");
            CHECK_STR(poet_safetensors_meta(&f, "vocab"), "[\"<unk>\",\"白\",\"日\",\"\\n\"]");
            CHECK_INT(f.n_tensors, 4 + 12 * 2);
            CHECK((8 + (size_t)((unsigned char)buf[0] | (unsigned char)buf[1] << 8)) % 8 == 0);
            poet_safetensors_close(&f);
        }
        free(buf);
    }
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    remove(path);
}
#line 1702 "book/13-poems.nw"
/* 改头部：edit(root) 之后重新印出头部，补空格，接上原来的数据段 */
static unsigned char *rebuild(const unsigned char *good, size_t n, void (*edit)(cJSON *),
                              size_t *out_n)
{
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--)
        hlen = (hlen << 8) | good[i];
    cJSON *root = cJSON_ParseWithLength((const char *)good + 8, (size_t)hlen);
    edit(root);
    char *head = cJSON_PrintUnformatted(root);
    size_t hl = strlen(head), padded = (hl + 7) / 8 * 8, data = n - 8 - (size_t)hlen;
    unsigned char *buf = malloc(8 + padded + data);
    for (int i = 0; i < 8; i++)
        buf[i] = (unsigned char)((uint64_t)padded >> (8 * i));
    memcpy(buf + 8, head, hl);
    memset(buf + 8 + hl, ' ', padded - hl);
    memcpy(buf + 8 + padded, good + 8 + hlen, data);
    *out_n = 8 + padded + data;
    cJSON_free(head);
    cJSON_Delete(root);
    return buf;
}

static cJSON *tensor(cJSON *root, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(root, name);
}
static void set_meta(cJSON *root, const char *key, cJSON *value)
{
    cJSON *meta = tensor(root, "__metadata__");
    cJSON_DeleteItemFromObjectCaseSensitive(meta, key);
    if (value != NULL)
        cJSON_AddItemToObject(meta, key, value);
}
static void edit_dtype(cJSON *r) { cJSON_ReplaceItemInObject(tensor(r, "wpe.weight"), "dtype", cJSON_CreateString("F16")); }
static void edit_shape(cJSON *r) { cJSON_ReplaceItemInArray(cJSON_GetObjectItem(tensor(r, "wte.weight"), "shape"), 1, cJSON_CreateNumber(9)); }
static void edit_offset(cJSON *r) { cJSON_ReplaceItemInArray(cJSON_GetObjectItem(tensor(r, "wte.weight"), "data_offsets"), 1, cJSON_CreateNumber(99999999)); }
static void edit_negative(cJSON *r) { cJSON_ReplaceItemInArray(cJSON_GetObjectItem(tensor(r, "wte.weight"), "data_offsets"), 0, cJSON_CreateNumber(-64)); }
static void edit_overlap(cJSON *r)
{
    cJSON *o = cJSON_GetObjectItem(tensor(r, "wpe.weight"), "data_offsets");
    cJSON_ReplaceItemInArray(o, 0, cJSON_CreateNumber(64));
    cJSON_ReplaceItemInArray(o, 1, cJSON_CreateNumber(64 + 4 * 6 * 8));
}
static void edit_hole(cJSON *r) { cJSON_DeleteItemFromObjectCaseSensitive(r, "ln_f.bias"); }
static void edit_rename(cJSON *r)
{
    cJSON *t = cJSON_DetachItemFromObjectCaseSensitive(r, "ln_f.bias");
    cJSON_AddItemToObject(r, "ln_f.b", t);
}
static void edit_extra(cJSON *r)
{
    cJSON *t = cJSON_Duplicate(tensor(r, "ln_f.bias"), 1), *o = cJSON_GetObjectItem(t, "data_offsets");
    double end = cJSON_GetArrayItem(o, 1)->valuedouble;
    cJSON_ReplaceItemInObject(t, "shape", cJSON_Parse("[0]"));
    cJSON_ReplaceItemInArray(o, 0, cJSON_CreateNumber(end));
    cJSON_AddItemToObject(r, "lm_head.weight", t);
}
static void edit_duplicate(cJSON *r) { cJSON_AddItemToObject(r, "wte.weight", cJSON_Duplicate(tensor(r, "wte.weight"), 1)); }
static void edit_embd(cJSON *r) { set_meta(r, "n_embd", cJSON_CreateString("8x")); }
static void edit_huge(cJSON *r) { set_meta(r, "n_embd", cJSON_CreateString("4096")); set_meta(r, "n_head", cJSON_CreateString("1")); }
static void edit_heads(cJSON *r) { set_meta(r, "n_head", cJSON_CreateString("3")); }
static void edit_eps(cJSON *r) { set_meta(r, "layer_norm_epsilon", cJSON_CreateString("1e-6")); }
static void edit_vocab(cJSON *r) { set_meta(r, "vocab", cJSON_CreateString("[\"<unk>\",\"白\",\"白\",\"\\n\"]")); }
static void edit_no_vocab(cJSON *r) { set_meta(r, "vocab", NULL); }
static void edit_number(cJSON *r) { set_meta(r, "n_layer", cJSON_CreateNumber(2)); }

static void expect_bad(const unsigned char *buf, size_t n, const char *what)
{
    attn_gpt m;
    poet_vocab v;
    poet_err e = {{0}};
    int st = poet_load_buffer(buf, n, &m, &v, &e);
    CHECK_INT(st, POET_EDATA);
    if (!CHECK(strstr(e.msg, what) != NULL))
        fprintf(stderr, "  说明是“%s”，应当含有“%s”\n", e.msg, what);
    CHECK(m.params == NULL && v.cp == NULL);          /* 失败时什么也没有留下 */
    if (st == ATTN_OK) {
        attn_gpt_free(&m);
        poet_vocab_free(&v);
    }
}

static void test_bad_checkpoints(void)
{
    check_section("坏的检查点：清楚的说明，不崩溃（13 章）");
    attn_gpt m;
    poet_vocab v;
    poet_err e;
    const char *path = temp_path("good.safetensors");
    char *good;
    size_t n, k;
    if (!CHECK(tiny_model(&m, &v, 3)) || !CHECK_OK(poet_save(path, &m, &v, NULL, &e)) ||
        !CHECK_OK(poet_read_file(path, &good, &n, (size_t)1 << 20, &e)))
        return;
    const unsigned char *g = (const unsigned char *)good;
    expect_bad(g, 7, "放不下头部的长度");
    expect_bad(g, n - 4, "不在数据段");                       /* 截掉最后一个数 */
    expect_bad(g, 100, "头部说它有");                          /* 在头部中间截断 */
    unsigned char *b = malloc(n);
    memcpy(b, good, n);
    b[0] = 0xFF; b[1] = 0xFF; b[2] = 0xFF; b[7] = 0x7F;        /* 头部的长度大得离谱 */
    expect_bad(b, n, "头部说它有");
    memcpy(b, good, n);
    b[8] = 'x';                                                /* 头部不是 JSON */
    expect_bad(b, n, "不是一个 JSON 对象");
    memcpy(b, good, n);
    float nan = NAN;
    memcpy(b + n - 4 * 9, &nan, 4);                            /* ln_f.weight 的最后一个数 */
    expect_bad(b, n, "不是有限数");
    free(b);
    static const struct { void (*edit)(cJSON *); const char *what; } cases[] = {
        {edit_dtype, "类型不是 F32"}, {edit_shape, "偏移却给了"}, {edit_offset, "不在数据段"},
        {edit_negative, "不在数据段"}, {edit_overlap, "重叠"}, {edit_hole, "不属于任何张量"},
        {edit_rename, "没有张量 ln_f.bias"}, {edit_extra, "应当正好有"},
        {edit_duplicate, "重叠"}, {edit_embd, "不是 1 到 4096 之间的整数"},
        {edit_huge, "数据段有"}, {edit_heads, "不能被"}, {edit_eps, "只用 1e-5"},
        {edit_vocab, "出现了两次"}, {edit_no_vocab, "没有词表"}, {edit_number, "不是字符串"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned char *bad = rebuild(g, n, cases[i].edit, &k);
        expect_bad(bad, k, cases[i].what);
        free(bad);
    }
    /* 没改过的文件读得进来 */
    attn_gpt ok;
    poet_vocab okv;
    if (CHECK_OK(poet_load_buffer(g, n, &ok, &okv, &e))) {
        attn_gpt_free(&ok);
        poet_vocab_free(&okv);
    }
    free(good);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    remove(path);
}
#line 1860 "book/13-poems.nw"
static void test_lr(void)
{
    check_section("学习率：预热，再按余弦降下来（13 章）");
    poet_train_options o = {1500, 32, 3e-3f, 3e-4f, 150, 0.1f, 1.0f, 1};
    CHECK_NEAR(poet_lr(&o, 1), 3e-3 / 150, 1e-9);
    CHECK_NEAR(poet_lr(&o, 75), 1.5e-3, 1e-9);
    CHECK_NEAR(poet_lr(&o, 150), 3e-3, 1e-9);
    CHECK_NEAR(poet_lr(&o, 825), 1.65e-3, 1e-7);       /* 余弦的一半：最大值和最小值的中点 */
    CHECK_NEAR(poet_lr(&o, 1500), 3e-4, 1e-9);
    CHECK(poet_lr(&o, 400) > poet_lr(&o, 401));         /* 预热之后一路下降 */
}
#line 1877 "book/13-poems.nw"
static void test_eval_windows(void)
{
    check_section("检验：按 n_ctx 切段，每段第一个以后的位置都要猜（13 章）");
    attn_gpt m;
    poet_vocab v;
    if (!CHECK(tiny_model(&m, &v, 5)))
        return;
    const int ids[14] = {3, 1, 2, 1, 1, 3, 2, 2, 1, 3, 1, 2, 3, 1};
    double sum1, sum2, want = 0.0;
    size_t count1, count2;
    CHECK_OK(poet_eval(&m, ids, 14, 1, &sum1, &count1));
    CHECK_OK(poet_eval(&m, ids, 14, 2, &sum2, &count2));
    CHECK_INT(count1, 11);
    CHECK(count1 == count2 && memcmp(&sum1, &sum2, sizeof sum1) == 0);
    float logits[6 * 4], loss;
    for (size_t at = 0; at < 14; at += 6) {
        size_t len = 14 - at < 6 ? 14 - at : 6;
        CHECK_OK(attn_gpt_forward(&m, ids + at, len, logits));
        CHECK_OK(attn_cross_entropy(logits, ids + at + 1, len - 1, 4, &loss, NULL));
        want += (double)loss * (double)(len - 1);
    }
    CHECK_NEAR(sum1, want, 1e-4);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
}
#line 1944 "book/13-poems.nw"
static void test_threads_same_bits(void)
{
    check_section("同一个种子：一个线程和两个线程训练出的每一位都相同（13 章）");
    size_t n;
    const int *ids = train_ids(&n, NULL);
    attn_gpt_config c = narrow_config();
    poet_trainer a, b;
    poet_err e;
    if (ids == NULL || !CHECK_OK(poet_trainer_init(&a, &c, &narrow_options, &e)) ||
        !CHECK_OK(poet_trainer_init(&b, &c, &narrow_options, &e)))
        return;
    int same_loss = 1;
    for (int s = 0; s < 4; s++) {
        float la, lb;
        CHECK_OK(poet_train_step(&a, ids, n, 1, &la, &(float){0}, &e));
        CHECK_OK(poet_train_step(&b, ids, n, 2, &lb, &(float){0}, &e));
        same_loss &= memcmp(&la, &lb, sizeof la) == 0;
    }
    size_t np = a.m.n_params;
    CHECK(same_loss);
    CHECK(memcmp(a.m.params, b.m.params, np * sizeof(float)) == 0);
    CHECK(memcmp(a.adam_v, b.adam_v, np * sizeof(float)) == 0);
    /* 训练确实改了参数 */
    attn_gpt fresh;
    CHECK_OK(attn_gpt_init(&fresh, &c, narrow_options.seed));
    CHECK(memcmp(fresh.params, a.m.params, np * sizeof(float)) != 0);
    attn_gpt_free(&fresh);
    poet_trainer_free(&a);
    poet_trainer_free(&b);
}
#line 1977 "book/13-poems.nw"
static void test_resume_same_bits(void)
{
    check_section("存盘、读回、接着训练：与一口气训练的每一位相同（13 章）");
    size_t n;
    poet_vocab v;
    const int *ids = train_ids(&n, &v);
    attn_gpt_config c = narrow_config();
    poet_trainer once, first, then;
    poet_err e;
    float loss;
    const char *model = temp_path("resume.safetensors"), *state = temp_path("resume.state");
    if (ids == NULL || !CHECK_OK(poet_trainer_init(&once, &c, &narrow_options, &e)) ||
        !CHECK_OK(poet_trainer_init(&first, &c, &narrow_options, &e)))
        return;
    for (int s = 0; s < 6; s++)
        CHECK_OK(poet_train_step(&once, ids, n, 2, &loss, &(float){0}, &e));
    for (int s = 0; s < 3; s++)
        CHECK_OK(poet_train_step(&first, ids, n, 2, &loss, &(float){0}, &e));
    CHECK_OK(poet_save(model, &first.m, &v, NULL, &e));
    CHECK_OK(poet_trainer_save(&first, state, &e));
    poet_trainer_free(&first);
    attn_gpt m;
    poet_vocab mv;
    if (CHECK_OK(poet_load(model, &m, &mv, &e)) && CHECK_OK(poet_trainer_resume(&then, &m, state, &e))) {
        CHECK_INT(then.step, 3);
        for (int s = 0; s < 3; s++)
            CHECK_OK(poet_train_step(&then, ids, n, 1, &loss, &(float){0}, &e));
        CHECK(memcmp(then.m.params, once.m.params, once.m.n_params * sizeof(float)) == 0);
        CHECK(memcmp(then.adam_m, once.adam_m, once.m.n_params * sizeof(float)) == 0);
        CHECK_INT(then.rng.state, once.rng.state);
        poet_trainer_free(&then);
        attn_gpt_free(&m);
        poet_vocab_free(&mv);
    }
    poet_trainer_free(&once);
    remove(model);
    remove(state);
}
#line 2024 "book/13-poems.nw"
static size_t draw_counts(const float *scores, const unsigned char *ok, size_t V, poet_write_options o,
                          size_t draws, size_t *count)
{
    poet_cand *c = malloc(V * sizeof *c);
    attn_rng rng;
    attn_rng_seed(&rng, 5);
    memset(count, 0, V * sizeof *count);
    size_t bad = 0;
    for (size_t i = 0; c != NULL && i < draws; i++) {
        int id = poet_sample(scores, ok, V, &o, &rng, c);
        if (id < 0 || (size_t)id >= V)
            bad++;
        else
            count[id]++;
    }
    free(c);
    return c == NULL ? draws : bad;
}

static int by_float_desc(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x < y) - (x > y);
}

static void test_sampling_rules(void)
{
    check_section("取字：温度、top-k、top-p（13 章）");
    float s[4] = {logf(0.5f), logf(0.3f), logf(0.2f), 9.0f};
    unsigned char ok[4] = {1, 1, 1, 0};
    size_t count[4];
    poet_write_options o = poet_write_defaults(POET_WUJUE);
    o.top_k = 0;
    o.top_p = 1.0f;
    o.temperature = 1e-40f;                          /* 不能溢出：与温度 0 一样 */
    CHECK_INT(draw_counts(s, ok, 4, o, 1000, count), 0);
    CHECK_INT(count[0], 1000);
    o.temperature = 1.0f;
    o.top_k = 2;
    CHECK_INT(draw_counts(s, ok, 4, o, 4000, count), 0);
    CHECK(fabs((double)count[0] / 4000 - 0.625) < 0.03 && count[2] == 0 && count[3] == 0);
    o.top_k = 0;
    const float ps[3] = {0.45f, 0.7f, 0.9f};
    for (size_t k = 0; k < 3; k++) {
        o.top_p = ps[k];
        CHECK_INT(draw_counts(s, ok, 4, o, 4000, count), 0);
        size_t used = (count[0] > 0) + (count[1] > 0) + (count[2] > 0);
        CHECK_INT(used, k + 1);
        CHECK_INT(count[3], 0);
    }
    unsigned char none[4] = {0, 0, 0, 0};
    poet_cand c4[4];
    attn_rng rng;
    attn_rng_seed(&rng, 1);
    CHECK_INT(poet_sample(s, none, 4, &o, &rng, c4), -1);
    /* 分数相同：top-k 为 1 时取 id 小的 */
    float tie[3] = {1.0f, 1.0f, 1.0f};
    o.top_p = 1.0f;
    o.top_k = 1;
    CHECK_INT(poet_sample(tie, ok, 3, &o, &rng, c4), 0);
    /* 五千个随机的分数：快速选择和排序选出同样的集合 */
    enum { V = 5000, K = 40 };
    float *r = malloc(V * sizeof *r), *sorted = malloc(V * sizeof *sorted);
    unsigned char *all = malloc(V);
    size_t *cnt = malloc(V * sizeof *cnt);
    if (!CHECK(r != NULL && sorted != NULL && all != NULL && cnt != NULL)) {
        free(r); free(sorted); free(all); free(cnt);
        return;
    }
    attn_rng_seed(&rng, 11);
    attn_rng_normal(&rng, r, V);
    for (size_t i = 0; i < V; i++) {
        r[i] *= 4.0f;
        all[i] = 1;
    }
    memcpy(sorted, r, V * sizeof *r);
    qsort(sorted, V, sizeof *sorted, by_float_desc);
    o.top_k = K;
    o.temperature = 1e30f;                           /* 核里几乎均匀：每个都取得到 */
    CHECK_INT(draw_counts(r, all, V, o, 20000, cnt), 0);
    size_t inside = 0, outside = 0;
    for (size_t i = 0; i < V; i++) {
        inside += cnt[i] > 0 && r[i] >= sorted[K - 1];
        outside += cnt[i] > 0 && r[i] < sorted[K - 1];
    }
    CHECK_INT(inside, K);
    CHECK_INT(outside, 0);
    /* top-p 0.9、温度 1：核是排序以后概率加到 0.9 的前几个 */
    double total = 0.0, acc = 0.0;
    for (size_t i = 0; i < V; i++)
        total += exp((double)sorted[i] - (double)sorted[0]);
    size_t m = 0;
    while (acc < 0.9 * total)
        acc += exp((double)sorted[m++] - (double)sorted[0]);
    o.top_k = 0;
    o.top_p = 0.9f;
    o.temperature = 1.0f;
    CHECK_INT(draw_counts(r, all, V, o, 20000, cnt), 0);
    outside = 0;
    for (size_t i = 0; i < V; i++)
        outside += cnt[i] > 0 && r[i] < sorted[m - 1];
    CHECK(m > 1 && m < V);
    CHECK_INT(outside, 0);
    free(r); free(sorted); free(all); free(cnt);
}
#line 2136 "book/13-poems.nw"
static void test_repetition_rules(void)
{
    check_section("取字：重复的惩罚和不许重复的 n 元组（13 章）");
    float s[3] = {2.0f, -1.0f, 3.0f};
    int used[2] = {0, 1};
    poet_penalize(s, used, 2, 2.0f);
    CHECK(s[0] == 1.0f && s[1] == -2.0f && s[2] == 3.0f);
    unsigned char ok[8];
    int a[5] = {5, 6, 7, 5, 6}, b[5] = {1, 2, 1, 2, 1};
    memset(ok, 1, sizeof ok);
    CHECK_INT(poet_ban_ngrams(ok, a, 5, 3), 1);
    CHECK(ok[7] == 0 && ok[5] && ok[6]);
    memset(ok, 1, sizeof ok);
    CHECK_INT(poet_ban_ngrams(ok, a, 5, 2), 1);
    CHECK(ok[7] == 0);
    memset(ok, 1, sizeof ok);
    CHECK_INT(poet_ban_ngrams(ok, b, 5, 2), 1);
    CHECK(ok[2] == 0 && ok[1]);
    memset(ok, 1, sizeof ok);
    CHECK_INT(poet_ban_ngrams(ok, a, 5, 1), 3);
    CHECK(!ok[5] && !ok[6] && !ok[7] && ok[0]);
    memset(ok, 1, sizeof ok);
    CHECK_INT(poet_ban_ngrams(ok, a, 5, 0), 0);
    CHECK_INT(poet_ban_ngrams(ok, a, 1, 3), 0);       /* 还不够 n − 1 个字 */
}
#line 2168 "book/13-poems.nw"
static void test_write_layout(void)
{
    check_section("按体裁写：格式由程序保证（13 章）");
    static const uint32_t cps[7] = {0, 0x767D, 0x65E5, 0xFF0C, 0x3002, 0xFF01, '\n'};
    poet_vocab v;
    attn_gpt m;
    poet_err e;
    attn_gpt_config c = poet_config(7);
    c.d_model = 8; c.n_heads = 2; c.d_head = 4; c.d_ff = 32; c.n_layers = 1; c.n_ctx = 40;
    if (!CHECK_OK(poet_vocab_from_list(cps, 7, &v, &e)) || !CHECK_OK(attn_gpt_init(&m, &c, 9)))
        return;
    poet_write_options o = poet_write_defaults(POET_WUJUE);
    o.temperature = 1.0f;
    o.top_k = 0;
    uint32_t out[64], out2[64], start[2] = {0x65E5, 0x767D};     /* 日白 */
    size_t len, len2;
    for (unsigned long long s = 1; s <= 20; s++) {
        attn_rng rng;
        attn_rng_seed(&rng, s);
        CHECK_OK(poet_write(&m, &v, &o, start, 2, &rng, out, 64, &len, &e));
        CHECK_INT(poet_form_of(out, len), POET_WUJUE);
        CHECK(out[0] == 0x65E5 && out[1] == 0x767D);
        /* 单数句末是逗号，双数句末是句号或叹号 */
        CHECK(len == 24 && out[5] == 0xFF0C && out[17] == 0xFF0C && out[11] != 0xFF0C && out[23] != 0xFF0C);
    }
    o.form = POET_QIJUE;
    attn_rng rng;
    attn_rng_seed(&rng, 1);
    CHECK_OK(poet_write(&m, &v, &o, NULL, 0, &rng, out, 64, &len, &e));
    CHECK_INT(poet_form_of(out, len), POET_QIJUE);
    /* 开头不合格式：第一个字是标点；开头有词表里没有的字 */
    uint32_t comma = 0xFF0C, moon = 0x6708;
    CHECK_STATUS(poet_write(&m, &v, &o, &comma, 1, &rng, out, 64, &len, &e), ATTN_EINVAL);
    CHECK_STATUS(poet_write(&m, &v, &o, &moon, 1, &rng, out, 64, &len, &e), ATTN_EINVAL);
    /* 五言律诗要 48 个字，上下文只有 40：动笔之前就拒绝 */
    o.form = POET_WULV;
    CHECK_STATUS(poet_write(&m, &v, &o, NULL, 0, &rng, out, 64, &len, &e), ATTN_EINVAL);
    /* 温度 0：与种子无关 */
    o = poet_write_defaults(POET_WUJUE);
    o.temperature = 0.0f;
    attn_rng_seed(&rng, 1);
    CHECK_OK(poet_write(&m, &v, &o, NULL, 0, &rng, out, 64, &len, &e));
    attn_rng_seed(&rng, 2);
    CHECK_OK(poet_write(&m, &v, &o, NULL, 0, &rng, out2, 64, &len2, &e));
    CHECK(len == len2 && memcmp(out, out2, len * sizeof *out) == 0);
    /* 温度 1e-40、不限 top-k：与温度 0 相同（先减去最大的分数，不会溢出） */
    o.temperature = 1e-40f;
    o.top_k = 0;
    for (unsigned long long sd = 1; sd <= 5; sd++) {
        attn_rng_seed(&rng, sd);
        CHECK_OK(poet_write(&m, &v, &o, NULL, 0, &rng, out2, 64, &len2, &e));
        CHECK(len == len2 && memcmp(out, out2, len * sizeof *out) == 0);
    }
    /* 设置不对：负的温度、top-p 为 0、惩罚为 0 */
    poet_write_options bad = o;
    bad.temperature = -1.0f;
    CHECK_STATUS(poet_write(&m, &v, &bad, NULL, 0, &rng, out, 64, &len, &e), ATTN_EINVAL);
    bad = o;
    bad.top_p = 0.0f;
    CHECK_STATUS(poet_write(&m, &v, &bad, NULL, 0, &rng, out, 64, &len, &e), ATTN_EINVAL);
    bad = o;
    bad.repetition_penalty = 0.0f;
    CHECK_STATUS(poet_write(&m, &v, &bad, NULL, 0, &rng, out, 64, &len, &e), ATTN_EINVAL);
    /* 开头不合格式：第一句末尾是句号 */
    uint32_t stop_early[6] = {0x65E5, 0x767D, 0x65E5, 0x767D, 0x65E5, 0x3002};
    CHECK_STATUS(poet_write(&m, &v, &o, stop_early, 6, &rng, out, 64, &len, &e), ATTN_EINVAL);
    /* 没有句末标点的词表 */
    poet_vocab_free(&v);
    attn_gpt_free(&m);
    if (CHECK(tiny_model(&m, &v, 1))) {
        o.form = POET_WUJUE;
        CHECK_STATUS(poet_write(&m, &v, &o, NULL, 0, &rng, out, 64, &len, &e), ATTN_EINVAL);
        attn_gpt_free(&m);
        poet_vocab_free(&v);
    }
}
#line 2258 "book/13-poems.nw"
static void check_prepare_error(const char *json, size_t n, const char *what)
{
    char dir[4096], file[4200];
    snprintf(dir, sizeof dir, "%s/test-corpus", POET_DEFAULT_DATA);
    snprintf(file, sizeof file, "%s/poet.tang.0.json", dir);
    poet_err e = {{0}};
    poet_corpus_stats st;
    remove(file);
    remove(dir);
    if (json != NULL) {
        CHECK(mkdir_for_test(dir));
        CHECK_OK(poet_write_file(file, json, n, &e));
    }
    int status = poet_prepare(dir, temp_path("out"), 5, &st, &e);
    CHECK(status == POET_EDATA || status == POET_EFILE);
    if (!CHECK(strstr(e.msg, what) != NULL))
        fprintf(stderr, "  说明是“%s”，应当含有“%s”\n", e.msg, what);
    remove(file);
    remove(dir);
}

static void test_prepare_errors(void)
{
    check_section("整理坏的语料：清楚的说明（13 章）");
    static const char not_array[] = "{\"paragraphs\": []}";
    static const char no_paras[] = "[{\"title\": \"无题\"}]";
    static const char bad_utf8[] = "[{\"paragraphs\": [\"白日\xE4\xBE\"]}]";
    static const char nothing_left[] = "[{\"paragraphs\": [\"□□□□□，□□□□□。\"]}]";
    check_prepare_error(NULL, 0, "打不开这个文件夹");
    check_prepare_error(not_array, sizeof not_array - 1, "不是一个 JSON 数组");
    check_prepare_error(no_paras, sizeof no_paras - 1, "第 1 首诗没有 paragraphs");
    check_prepare_error(bad_utf8, sizeof bad_utf8 - 1, "第 1 首诗在第 7 个字节处不是合法的 UTF-8");
    check_prepare_error(nothing_left, sizeof nothing_left - 1, "一首诗也没有留下");
}
#line 2317 "book/13-poems.nw"
/* 临时的语料文件夹 dir 里写一个只有一首五言绝句的文件 name */
static void corpus_file(const char *dir, const char *name)
{
    static const char poem[] = "[{\"paragraphs\": [\"白日依山盡，黃河入海流。\", \"欲窮千里目，更上一層樓。\"]}]";
    char file[4300];
    poet_err e;
    snprintf(file, sizeof file, "%s/%s", dir, name);
    CHECK_OK(poet_write_file(file, poem, sizeof poem - 1, &e));
}

static void test_corpus_names(void)
{
    char dir[4096], a[4300], b[4300];
    poet_err e = {{0}};
    poet_corpus_stats st;
    snprintf(dir, sizeof dir, "%s/test-names", POET_DEFAULT_DATA);
    snprintf(a, sizeof a, "%s/poet.tang.007.json", dir);
    snprintf(b, sizeof b, "%s/poet.tang.7.json", dir);
    remove(a); remove(b); remove(dir);
    if (!CHECK(mkdir_for_test(dir)))
        return;
    corpus_file(dir, "poet.tang.007.json");           /* 只有 007：读的是它 */
    int status = poet_prepare(dir, temp_path("names-out"), 1, &st, &e);
    if (!CHECK_OK(status))
        fprintf(stderr, "  %s\n", e.msg);
    CHECK_INT(st.files, 1);
    CHECK_INT(st.poems, 1);
    corpus_file(dir, "poet.tang.7.json");             /* 再来一个编号相同的：错误 */
    status = poet_prepare(dir, temp_path("names-out"), 1, &st, &e);
    CHECK_INT(status, POET_EDATA);
    if (!CHECK(strstr(e.msg, "poet.tang.007.json 和 poet.tang.7.json 的编号相同") != NULL))
        fprintf(stderr, "  说明是“%s”\n", e.msg);
    remove(a); remove(b); remove(dir);
}

/* 一个训练状态文件：tiny_model 的 n_params 个矩，批大小 batch，其余设置合理 */
static void state_with_batch(const char *path, size_t np, const char *batch)
{
    float *zero = calloc(np, sizeof *zero);
    poet_err e;
    const char *meta[] = {"step", "0", "rng", "12345", "seed", "1", "steps", "10", "batch", batch,
                          "lr", "0.001", "lr_min", "0", "warmup", "1", "weight_decay", "0.1",
                          "clip", "1", NULL};
    poet_named t[2] = {{"adam.m", np, 0, zero}, {"adam.v", np, 0, zero}};
    CHECK(zero != NULL && poet_safetensors_write(path, t, 2, meta, &e) == ATTN_OK);
    free(zero);
}

static void test_state_ranges(void)
{
    attn_gpt m;
    poet_vocab v;
    poet_trainer T;
    poet_err e;
    const char *path = temp_path("edges.state");
    if (!CHECK(tiny_model(&m, &v, 3)))
        return;
    state_with_batch(path, m.n_params, "2");          /* 对照：合理的文件能接着训练 */
    if (CHECK_OK(poet_trainer_resume(&T, &m, path, &e))) {
        CHECK_INT(T.o.batch, 2);
        poet_trainer_free(&T);
    }
    static const char *bad[] = {"1e30", "2.5", "-1", "4097"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        state_with_batch(path, m.n_params, bad[i]);
        CHECK_INT(poet_trainer_resume(&T, &m, path, &e), POET_EDATA);
        if (!CHECK(strstr(e.msg, "没有合理的 batch") != NULL))
            fprintf(stderr, "  batch = %s：说明是“%s”\n", bad[i], e.msg);
    }
    remove(path);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
}

static void test_one_window(void)
{
    attn_gpt m;
    poet_vocab v;
    poet_trainer T;
    poet_err e = {{0}};
    const poet_train_options o = {10, 2, 1e-3f, 1e-4f, 1, 0.1f, 1.0f, 3};
    const int ids[7] = {3, 1, 2, 1, 1, 3, 2};         /* n_ctx = 6：正好 n_ctx + 1 个 */
    float loss;
    if (!CHECK(tiny_model(&m, &v, 4)) || !CHECK_OK(poet_trainer_init(&T, &m.cfg, &o, &e))) {
        attn_gpt_free(&m);
        return;
    }
    CHECK_OK(poet_train_step(&T, ids, 7, 1, &loss, &(float){0}, &e));
    CHECK(T.starts[0] == 0 && T.starts[1] == 0 && isfinite(loss));
    CHECK_INT(poet_train_step(&T, ids, 6, 1, &loss, &(float){0}, &e), ATTN_EINVAL);
    if (!CHECK(strstr(e.msg, "只有 6 个字，一个窗口要 7 个") != NULL))
        fprintf(stderr, "  说明是“%s”\n", e.msg);
    poet_trainer_free(&T);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
}

static void test_poet_edges(void)
{
    check_section("attn-poet 的边界：语料的文件名、训练状态里的数、正好一个窗口（13 章）");
    test_corpus_names();
    test_state_ranges();
    test_one_window();
}
#line 2522 "book/13-poems.nw"
static void test_ngram(void)
{
    check_section("一元和二元模型在检验集上的损失（13 章）");
    size_t n_train, n_valid;
    const int *train = train_ids(&n_train, NULL), *valid = valid_ids(&n_valid);
    double uni, bi;
    if (!CHECK(train != NULL && valid != NULL))
        return;
    CHECK_OK(poet_ngram_losses(train, n_train, valid, n_valid, 5792, &uni, &bi));
    CHECK_NEAR(uni, 6.61, 0.005);
    CHECK_NEAR(bi, 5.63, 0.005);
    CHECK_NEAR(log(5792.0), 8.66, 0.005);
    /* 两个字组成的小例子：训练 “甲乙甲乙”，检验 “甲乙”：二元的概率 0.8·1 + 0.2·(2+1)/(4+3) */
    const int t[4] = {1, 2, 1, 2}, w[2] = {1, 2};
    CHECK_OK(poet_ngram_losses(t, 4, w, 2, 3, &uni, &bi));
    CHECK_NEAR(uni, -log(3.0 / 7.0), 1e-12);
    CHECK_NEAR(bi, -log(0.8 + 0.2 * 3.0 / 7.0), 1e-12);
}
#line 2614 "book/13-poems.nw"
static void test_speed_table(void)
{
    check_section("和 PyTorch 比速度的表：倍数是 C 的速度除以 PyTorch 的（13 章）");
    CHECK_NEAR(7858.0 / 10863, 0.72, 0.005);
    CHECK_NEAR(7551.0 / 5634, 1.34, 0.005);
    CHECK_NEAR(4849.0 / 8362, 0.58, 0.005);
    CHECK_NEAR(5066.0 / 2126, 2.38, 0.005);
}
#line 2661 "book/13-poems.nw"
static void test_replay_log(void)
{
    check_section("训练日志：从记下的设置和种子重做前两步，损失一字不差（13 章）");
    size_t len, n;
    char *log;
    poet_err e;
    const int *ids = train_ids(&n, NULL);
    if (!CHECK(ids != NULL) || !CHECK_OK(poet_read_file(POET_DEFAULT_LOG, &log, &len, (size_t)1 << 30, &e)))
        return;
    char *line = strtok(log, "\n");
    cJSON *o = line != NULL ? cJSON_Parse(line) : NULL;
    if (CHECK(o != NULL && stat_of(o, "steps") > 0 && stat_of(o, "resumed_at") == 0)) {
        double lr = cJSON_GetObjectItemCaseSensitive(o, "lr")->valuedouble;
        double lr_min = cJSON_GetObjectItemCaseSensitive(o, "lr_min")->valuedouble;
        double wd = cJSON_GetObjectItemCaseSensitive(o, "weight_decay")->valuedouble;
        double clip = cJSON_GetObjectItemCaseSensitive(o, "clip")->valuedouble;
        poet_train_options opt = {(size_t)stat_of(o, "steps"), (size_t)stat_of(o, "batch"), (float)lr,
                                  (float)lr_min, (size_t)stat_of(o, "warmup"), (float)wd, (float)clip,
                                  (unsigned long long)stat_of(o, "seed")};
        attn_gpt_config c = poet_config(5792);
        c.n_layers = (uint64_t)stat_of(o, "layers");
        c.d_model = (uint64_t)stat_of(o, "width");
        c.n_heads = (uint64_t)stat_of(o, "heads");
        c.d_head = c.d_model / c.n_heads;
        c.d_ff = 4 * c.d_model;
        c.n_ctx = (uint64_t)stat_of(o, "ctx");
        poet_trainer T;
        if (CHECK_OK(poet_trainer_init(&T, &c, &opt, &e))) {
            for (int s = 1; s <= 2; s++) {
                char want[64] = "", got[64];
                float loss;
                line = strtok(NULL, "\n");
                cJSON *step = line != NULL ? cJSON_Parse(line) : NULL;
                const char *p = line != NULL ? strstr(line, "\"loss\": ") : NULL;
                if (p != NULL)
                    sscanf(p + 8, "%63[^,}]", want);
                CHECK_INT(stat_of(step, "step"), s);
                CHECK_OK(poet_train_step(&T, ids, n, 2, &loss, &(float){0}, &e));
                snprintf(got, sizeof got, "%.9g", loss);
                CHECK_STR(got, want);
                cJSON_Delete(step);
            }
            poet_trainer_free(&T);
        }
    }
    cJSON_Delete(o);
    free(log);
}
#line 2714 "book/13-poems.nw"
static void test_shipped(void)
{
    check_section("本书的检查点：形状、大小、检验集上的损失（13 章）");
    attn_gpt m;
    poet_vocab v;
    poet_err e;
    char *buf;
    size_t len, n_valid, count;
    double sum;
    if (!CHECK_OK(poet_read_file(POET_DEFAULT_CHECKPOINT, &buf, &len, (size_t)1 << 30, &e)))
        return;
    CHECK(len <= 8000000);
    if (CHECK_OK(poet_load_buffer((unsigned char *)buf, len, &m, &v, &e))) {
        attn_gpt_config c = poet_config(5792);
        CHECK(memcmp(&m.cfg, &c, sizeof c) == 0);
        CHECK_INT(m.n_params, 1947648);
        const int *valid = valid_ids(&n_valid);
        if (CHECK(valid != NULL) && CHECK_OK(poet_eval(&m, valid, n_valid, 2, &sum, &count))) {
            CHECK_INT(count, 208444);
            CHECK_NEAR(sum / (double)count, 4.4699, 0.00005);
            CHECK_NEAR(5.63 - sum / (double)count, 1.16, 0.005);
            CHECK_NEAR(exp(sum / (double)count), 87, 0.5);
        }
        /* 日志的第一行：10000 步，每步 16 × 128 个字；读了训练集几遍 */
        char *log;
        size_t log_len, n_train;
        if (CHECK_OK(poet_read_file(POET_DEFAULT_LOG, &log, &log_len, (size_t)1 << 30, &e))) {
            char *nl = strchr(log, '\n');
            if (nl != NULL)
                *nl = '\0';
            cJSON *o = cJSON_Parse(log);
            CHECK_INT(stat_of(o, "steps"), 10000);
            CHECK_INT(stat_of(o, "batch"), 16);
            CHECK_INT(stat_of(o, "ctx"), 128);
            CHECK_INT(stat_of(o, "threads"), 2);
            CHECK_INT(10000 * 16 * 128, 20480000);
            if (CHECK(train_ids(&n_train, NULL) != NULL))
                CHECK_NEAR((double)20480000 / (double)n_train, 6.5, 0.05);
            cJSON_Delete(o);
            /* 其余的行：第 2000 步之后换成一个线程接着跑；每 250 步在整个检验集上检验 */
            double last200 = 0.0, valid_first = 0.0, valid_last = 0.0;
            size_t evals = 0, whole = 0, settings = 0;
            for (char *line = strtok(nl != NULL ? nl + 1 : log + log_len, "\n"); line != NULL;
                 line = strtok(NULL, "\n")) {
                cJSON *x = cJSON_Parse(line);
                long long step = stat_of(x, "step");
                if (cJSON_GetObjectItemCaseSensitive(x, "resumed_at") != NULL) {
                    settings++;
                    CHECK_INT(stat_of(x, "resumed_at"), 2000);
                    CHECK_INT(stat_of(x, "threads"), 1);
                } else if (cJSON_GetObjectItemCaseSensitive(x, "valid_loss") != NULL) {
                    evals++;
                    whole += stat_of(x, "valid_tokens") == 208444;
                    valid_last = number_of(x, "valid_loss");
                    if (evals == 1)
                        valid_first = valid_last;
                    CHECK_INT(step, 250 * evals);
                } else if (step > 9800) {
                    last200 += number_of(x, "loss") / 200.0;
                }
                cJSON_Delete(x);
            }
            CHECK_INT(settings, 1);
            CHECK_INT(evals, 40);
            CHECK_INT(whole, 40);                          /* 每一次都是整个检验集 */
            CHECK_NEAR(valid_first, 6.17, 0.005);
            CHECK_NEAR(valid_last, 4.4699, 0.00005);
            CHECK_NEAR(last200, 4.31, 0.005);
            CHECK_NEAR(valid_last - last200, 0.16, 0.005);
            free(log);
        }
        attn_gpt_free(&m);
        poet_vocab_free(&v);
    }
    free(buf);
}
#line 2975 "book/13-poems.nw"
static void test_exercise_lines(void)
{
    check_section("练习 5 的诗句在检验集里、不在训练集里（13 章）");
    size_t n_train, n_valid;
    char *train = data_file("train.txt", &n_train), *valid = data_file("valid.txt", &n_valid);
    poet_lines in_train = {0}, in_valid = {0};
    if (CHECK(train != NULL && valid != NULL) && CHECK_OK(poet_lines_add(&in_train, train, n_train)) &&
        CHECK_OK(poet_lines_add(&in_valid, valid, n_valid))) {
        poet_lines_sort(&in_train);
        poet_lines_sort(&in_valid);
        static const char *const lines[4] = {"胡风千里惊", "汉月五更明", "惊里千风胡", "明更五月汉"};
        for (int i = 0; i < 4; i++) {
            uint32_t cp[8];
            size_t n, bad;
            if (!CHECK(poet_utf8_decode(lines[i], strlen(lines[i]), cp, &n, &bad)))
                continue;
            CHECK(!poet_lines_has(&in_train, cp, n));
            CHECK(poet_lines_has(&in_valid, cp, n) == (i < 2));
        }
    }
    poet_lines_free(&in_train);
    poet_lines_free(&in_valid);
    free(train);
    free(valid);
}
#line 3006 "book/13-poems.nw"
static int load_shipped_rhyme(attn_gpt *m, poet_vocab *v, poet_rhyme *r)
{
    poet_err e;
    if (!CHECK_OK(poet_load(POET_DEFAULT_CHECKPOINT, m, v, &e)))
        return 0;
    if (!CHECK_OK(poet_rhyme_load(POET_DEFAULT_DATA "/rhyme.tsv", v, r, &e))) {
        fprintf(stderr, "  %s（韵表由构建里的 rhyme.js 写出，要 npm ci --prefix corpus 装的 pinyin-pro）\n", e.msg);
        attn_gpt_free(m);
        poet_vocab_free(v);
        return 0;
    }
    return 1;
}

static void check_text_poem(const poet_rhyme *r, const poet_vocab *v, const char *text, poet_check *c)
{
    uint32_t cp[128];
    size_t n, bad;
    memset(c, 0, sizeof *c);
    if (CHECK(poet_utf8_decode(text, strlen(text), cp, &n, &bad)))
        poet_check_poem(r, v, POET_WUJUE, cp, n, c);
}

static void test_checker(void)
{
    check_section("诗的检查器：合格式、重复、押韵（13 章）");
    attn_gpt m;
    poet_vocab v;
    poet_rhyme r;
    poet_err e;
    if (!load_shipped_rhyme(&m, &v, &r))
        return;
    poet_check c;
    check_text_poem(&r, &v, "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。", &c);
    CHECK(c.poems == 1 && c.in_form == 1 && c.repeats == 0 && c.rhymes == 1);
    check_text_poem(&r, &v, "月月月山尽，黄河入海流。欲穷千里目，更上一层天，", &c);
    CHECK(c.poems == 1 && c.in_form == 0 && c.repeats == 1 && c.rhymes == 0);
    check_text_poem(&r, &v, "白日依山尽？黄河入海流。欲穷千里目，更上一层楼。", &c);
    CHECK(c.in_form == 0 && c.rhymes == 1);
    CHECK_INT(r.zhe[poet_vocab_id(&v, 0x6D41)], 9);   /* 流：油求辙 */
    CHECK_INT(r.zhe[poet_vocab_id(&v, 0x6B32)], 4);   /* 欲（yù）：一七辙，不是姑苏 */
    CHECK_INT(r.zhe[poet_vocab_id(&v, 0xFF0C)], 0);   /* 标点没有辙 */
    /* 坏的韵表：说出第几行 */
    const char *path = "poet-bad-rhyme.tsv";
    FILE *f = fopen(path, "w");
    if (CHECK(f != NULL)) {
        fputs("流\tiu\t9\t2\n楼\tou\t99\t2\n", f);
        fclose(f);
        poet_rhyme bad;
        CHECK_STATUS(poet_rhyme_load(path, &v, &bad, &e), POET_EDATA);
        CHECK(strstr(e.msg, "第 2 行") != NULL);
        CHECK_STATUS(poet_rhyme_load("poet-no-such-file.tsv", &v, &bad, &e), POET_EFILE);
        remove(path);
    }
    /* 韵表和词表对不上：写诗时是错误 */
    poet_write_options o = poet_write_defaults(POET_WUJUE);
    poet_rhyme wrong = r;
    wrong.n = r.n - 1;
    o.rhyme = &wrong;
    uint32_t out[64];
    size_t len;
    attn_rng rng;
    attn_rng_seed(&rng, 1);
    CHECK_STATUS(poet_write(&m, &v, &o, NULL, 0, &rng, out, 64, &len, &e), ATTN_EINVAL);
    poet_rhyme_free(&r);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
}
#line 2797 "book/13-poems.nw"
/* 本书的检查点写诗的统计（正文引用的数） */
enum { SHIP_JUE_DISTINCT = 200, SHIP_JUE_VERBATIM = 1,
       SHIP_FREE_OTHER = 75, SHIP_FREE_WUJUE = 61, SHIP_FREE_QIJUE = 40,
       SHIP_FREE_WULV = 21, SHIP_FREE_QILV = 3, SHIP_FREE_DISTINCT = 191 };
static const char ship_poem_08[] = "我闻古木声，月落天然寒。秋风一夜雨，吹洒山中兰。";   /* 种子 1，缺省的取法 */
static const char ship_poem_0[] = "一夜月明秋，孤灯照残烛。独立寒窗下，空山寂寥处。";     /* 温度 0，罚重复、押韵 */
static const char ship_poem_0_plain[] = "一夜月明秋，孤灯照残月。夜月明月明，愁人愁梦想。";   /* 温度 0，不罚重复、不管押韵 */

static void written_poem(const attn_gpt *m, const poet_vocab *v, const poet_write_options *o, char *out,
                         size_t cap)
{
    uint32_t cp[64];
    size_t len, k = 0;
    attn_rng rng;
    poet_err e;
    attn_rng_seed(&rng, 1);
    out[0] = '\0';
    if (!CHECK_OK(poet_write(m, v, o, NULL, 0, &rng, cp, 64, &len, &e)))
        return;
    for (size_t i = 0; i < len && k + 5 < cap; i++)
        k += poet_utf8_put(cp[i], out + k);
    out[k] = '\0';
}

static void test_shipped_writing(void)
{
    check_section("本书的检查点写诗：体裁、不同的诗、原样抄来的句子（13 章）");
    attn_gpt m;
    poet_vocab v;
    poet_rhyme rhyme;
    poet_lines lines = {0};
    size_t n_train, n_valid;
    char *train = data_file("train.txt", &n_train), *valid = data_file("valid.txt", &n_valid);
    poet_err e;
    if (!CHECK(train != NULL && valid != NULL) || !load_shipped_rhyme(&m, &v, &rhyme)) {
        free(train); free(valid);
        return;
    }
    if (CHECK_OK(poet_lines_add(&lines, train, n_train)) && CHECK_OK(poet_lines_add(&lines, valid, n_valid))) {
        poet_lines_sort(&lines);
        poet_write_options jue = poet_write_defaults(POET_WUJUE), free_form = poet_write_defaults(POET_FORM_OTHER);
        jue.rhyme = &rhyme;
        poet_write_stats s;
        if (CHECK_OK(poet_write_survey(&m, &v, &jue, 1, 200, NULL, NULL, &lines, &s, &e))) {
            CHECK_INT(s.forms[POET_WUJUE], 200);          /* 按体裁写：格式由程序保证 */
            CHECK_INT(s.lines, 800);
            CHECK_INT(s.distinct, SHIP_JUE_DISTINCT);
            CHECK_INT(s.verbatim, SHIP_JUE_VERBATIM);
        }
        if (CHECK_OK(poet_write_survey(&m, &v, &free_form, 1, 200, NULL, NULL, &lines, &s, &e))) {
            CHECK_INT(s.forms[POET_FORM_OTHER], SHIP_FREE_OTHER);
            CHECK_INT(s.forms[POET_WUJUE], SHIP_FREE_WUJUE);
            CHECK_INT(s.forms[POET_QIJUE], SHIP_FREE_QIJUE);
            CHECK_INT(s.forms[POET_WULV], SHIP_FREE_WULV);
            CHECK_INT(s.forms[POET_QILV], SHIP_FREE_QILV);
            CHECK_INT(s.distinct, SHIP_FREE_DISTINCT);
        }
        char poem[512];
        written_poem(&m, &v, &jue, poem, sizeof poem);
        CHECK_STR(poem, ship_poem_08);
        poet_write_options greedy = jue, old_greedy = poet_write_defaults(POET_WUJUE);
        greedy.temperature = 0.0f;
        written_poem(&m, &v, &greedy, poem, sizeof poem);
        CHECK_STR(poem, ship_poem_0);
        old_greedy.temperature = 0.0f;                     /* 不罚重复、不管押韵 */
        old_greedy.repetition_penalty = 1.0f;
        written_poem(&m, &v, &old_greedy, poem, sizeof poem);
        CHECK_STR(poem, ship_poem_0_plain);
    }
    poet_lines_free(&lines);
    poet_rhyme_free(&rhyme);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    free(train); free(valid);
}

#line 2878 "book/13-poems.nw"
static void test_stages(void)
{
    check_section("训练到一半的检查点：先学会标点和句长，再学会体裁，最后学会押韵（13 章）");
    static const char *const file[4] = {POET_DEFAULT_MODELS "/poems-250.safetensors",
                                        POET_DEFAULT_MODELS "/poems-1000.safetensors",
                                        POET_DEFAULT_MODELS "/poems-3000.safetensors", POET_DEFAULT_CHECKPOINT};
    static const char *const first[4] = {
        "山春寺，白夜清月。", "江来相回去，酒向春心老。", "野老愁中醉，花间别后归。春来多远梦，明月不知音。",
        "昔闻圣代有遗民，今古还应是汉臣。为报国书何处问，不如归思一轮尘。"};
    static const char *const want_loss[3] = {"6.171769", "5.446686", "4.931255"};
    static const size_t want[4][4] = {   /* 句数、其中五字或七字的、合体裁的诗、其中押韵的 */
        {382, 21, 0, 0}, {454, 369, 24, 1}, {715, 686, 100, 17}, {800, 774, 125, 91}};
    static const double want_share[4] = {5.5, 81.3, 95.9, 96.8};
    for (int c = 0; c < 4; c++) {
        attn_gpt m;
        poet_vocab v;
        poet_rhyme r;
        poet_err e;
        char *buf;
        size_t len;
        if (!CHECK_OK(poet_read_file(file[c], &buf, &len, (size_t)1 << 30, &e)))
            continue;
        if (c < 3) {                                   /* 元数据里的检验损失：训练时在整个检验集上算的 */
            poet_safetensors f;
            if (CHECK_OK(poet_safetensors_open((const unsigned char *)buf, len, &f, &e))) {
                const char *loss = poet_safetensors_meta(&f, "valid_loss");
                CHECK_STR(loss != NULL ? loss : "", want_loss[c]);
                poet_safetensors_close(&f);
            }
        }
        int ok = CHECK_OK(poet_load_buffer((unsigned char *)buf, len, &m, &v, &e));
        free(buf);
        if (!ok)
            continue;
        if (CHECK_OK(poet_rhyme_load(POET_DEFAULT_DATA "/rhyme.tsv", &v, &r, &e))) {
            poet_write_options o = poet_write_defaults(POET_FORM_OTHER);
            size_t lines = 0, five_seven = 0, in_form = 0;
            poet_check ck = {0};
            for (unsigned long long seed = 1; seed <= 200; seed++) {
                attn_rng rng;
                uint32_t cp[128];
                size_t n, run = 0;
                attn_rng_seed(&rng, seed);
                if (!CHECK_OK(poet_write(&m, &v, &o, NULL, 0, &rng, cp, 127, &n, &e)))
                    break;
                for (size_t i = 0; i < n; i++)
                    if (poet_is_han(cp[i]))
                        run++;
                    else if (run > 0) {                /* 一句：标点前面的几个字 */
                        lines++;
                        five_seven += run == 5 || run == 7;
                        run = 0;
                    }
                int form = poet_form_of(cp, n);
                if (form != POET_FORM_OTHER) {
                    in_form++;
                    poet_check_poem(&r, &v, form, cp, n, &ck);
                }
                if (seed == 1) {
                    char text[512];
                    size_t k = 0;
                    for (size_t i = 0; i < n && k + 5 < sizeof text; i++)
                        k += poet_utf8_put(cp[i], text + k);
                    text[k] = '\0';
                    CHECK_STR(text, first[c]);
                }
            }
            printf("  %s：%zu 句里 %zu 句五字或七字（%.1f%%），%zu 首合体裁，其中 %zu 首押韵\n", file[c], lines,
                   five_seven, 100.0 * (double)five_seven / (double)lines, in_form, ck.rhymes);
            CHECK_INT(lines, want[c][0]);
            CHECK_INT(five_seven, want[c][1]);
            CHECK_INT(in_form, want[c][2]);
            CHECK_INT(ck.rhymes, want[c][3]);
            CHECK_NEAR(100.0 * (double)five_seven / (double)lines, want_share[c], 0.05);
            poet_rhyme_free(&r);
        }
        attn_gpt_free(&m);
        poet_vocab_free(&v);
    }
}
#line 3081 "book/13-poems.nw"
/* [体裁][取法][几首、合格式、重复、押韵]；取法：真诗、温度 0.8 和 top-k 40、缺省不管押韵、缺省 */
static const size_t SHIP_CHECK[3][4][4] = {
    {{283, 281, 4, 213}, {200, 200, 43, 148}, {200, 200, 0, 159}, {200, 200, 0, 200}},
    {{689, 687, 20, 592}, {200, 200, 70, 161}, {200, 200, 2, 144}, {200, 200, 2, 200}},
    {{943, 936, 14, 658}, {200, 200, 126, 100}, {200, 200, 3, 105}, {200, 200, 1, 200}},
};

static void test_shipped_checker(void)
{
    check_section("本书的检查点写的诗：合格式、重复、押韵，和检验集的真诗比（13 章）");
    attn_gpt m;
    poet_vocab v;
    poet_rhyme r;
    size_t n_valid;
    char *valid = data_file("valid.txt", &n_valid);
    if (!CHECK(valid != NULL) || !load_shipped_rhyme(&m, &v, &r)) {
        free(valid);
        return;
    }
    static const int forms[3] = {POET_WUJUE, POET_QIJUE, POET_WULV};
    for (int f = 0; f < 3; f++) {
        poet_check got[4] = {{0}};
        CHECK_OK(poet_check_text(&r, &v, forms[f], valid, n_valid, &got[0]));
        poet_write_options way[3];
        way[0] = poet_write_defaults(forms[f]);
        way[0].top_p = 1.0f;
        way[0].repetition_penalty = 1.0f;
        way[1] = poet_write_defaults(forms[f]);
        way[2] = poet_write_defaults(forms[f]);
        way[2].rhyme = &r;
        for (int w = 0; w < 3; w++)
            for (unsigned long long seed = 1; seed <= 200; seed++) {
                uint32_t out[64];
                size_t len;
                attn_rng rng;
                poet_err e;
                attn_rng_seed(&rng, seed);
                if (CHECK_OK(poet_write(&m, &v, &way[w], NULL, 0, &rng, out, 64, &len, &e)))
                    poet_check_poem(&r, &v, forms[f], out, len, &got[w + 1]);
            }
        for (int w = 0; w < 4; w++) {
            printf("  %s %d：%zu 首，合格式 %zu，重复 %zu，押韵 %zu\n", poet_form_name(forms[f]), w,
                   got[w].poems, got[w].in_form, got[w].repeats, got[w].rhymes);
            CHECK_INT(got[w].poems, SHIP_CHECK[f][w][0]);
            CHECK_INT(got[w].in_form, SHIP_CHECK[f][w][1]);
            CHECK_INT(got[w].repeats, SHIP_CHECK[f][w][2]);
            CHECK_INT(got[w].rhymes, SHIP_CHECK[f][w][3]);
        }
        /* 缺省的取法：全合格式；重复不超过真诗的两倍；押韵至少是真诗的 95% */
        const poet_check *real = &got[0], *now = &got[3];
        CHECK_INT(now->in_form, now->poems);
        CHECK((double)now->repeats / (double)now->poems <= 2.0 * (double)real->repeats / (double)real->poems);
        CHECK((double)now->rhymes / (double)now->poems >= 0.95 * (double)real->rhymes / (double)real->poems);
    }
    poet_rhyme_free(&r);
    attn_gpt_free(&m);
    poet_vocab_free(&v);
    free(valid);
}
#line 3146 "book/13-poems.nw"
static void test_shipped_heads(void)
{
    check_section("本书的检查点的注意力：前一个字、上一句同一位置、上一联的韵脚（13 章）");
    static const size_t want_pick[3] = {23, 16, 17};                    /* 层·4 + 头 */
    static const double want[3][2] = {{0.8206, 0.0815}, {0.1055, 0.0401}, {0.1612, 0.0190}};   /* 权重和基线 */
    static const size_t want_pairs[3] = {36700, 18350, 2234}, want_poems = 1000;
    ch13_heads hs;
    if (CHECK(ch13_pick_heads("test-poet", &hs) == 0)) {
        CHECK_INT(hs.poems, want_poems);
        for (int k = 0; k < 3; k++)
            CHECK_INT(hs.pick[k], want_pick[k]);
        const poet_head_stats *a = &hs.s[hs.pick[0]], *b = &hs.s[hs.pick[1]], *c = &hs.s[hs.pick[2]];
        CHECK_NEAR(a->prev, want[0][0], 0.0005);
        CHECK_NEAR(a->prev_uniform, want[0][1], 0.0005);
        CHECK_NEAR(b->same, want[1][0], 0.0005);
        CHECK_NEAR(b->same_base, want[1][1], 0.0005);
        CHECK_NEAR(c->rhyme, want[2][0], 0.0005);
        CHECK_NEAR(c->rhyme_base, want[2][1], 0.0005);
        CHECK_NEAR(a->prev / a->prev_uniform, 10.07, 0.005);          /* 正文表里的比 */
        CHECK_NEAR(b->prev, 0.326, 0.0005);                             /* 同联同位的头也看前一个字 */
        CHECK_NEAR(b->same / b->same_base, 2.63, 0.005);
        CHECK_NEAR(c->rhyme / c->rhyme_base, 8.48, 0.005);
        CHECK_INT(a->n_prev, want_pairs[0]);
        CHECK_INT(b->n_same, want_pairs[1]);
        CHECK_INT(c->n_rhyme, want_pairs[2]);
        /* 对照：头 (4, 0) 在四联之内和跨联；头 (4, 1) 在不押韵的句末 */
        static const double cpl[4][2] = {{0.1265, 0.0395}, {0.0906, 0.0395}, {0.0960, 0.0411}, {0.1045, 0.0411}};
        static const size_t n_cpl[4] = {5798, 5798, 3377, 3377};
        for (int k = 0; k < 4; k++) {
            CHECK_NEAR(b->couplet[k], cpl[k][0], 0.0005);
            CHECK_NEAR(b->couplet_base[k], cpl[k][1], 0.0005);
            CHECK_INT(b->n_couplet[k], n_cpl[k]);
        }
        CHECK(b->couplet[1] < b->couplet[0] && b->couplet[2] < b->couplet[3]);   /* 颔联、颈联不比首联、尾联强 */
        CHECK_NEAR(b->across, 0.0034, 0.0005);
        CHECK_NEAR(b->across_base, 0.0404, 0.0005);
        CHECK_INT(b->n_across, 12552);
        CHECK_NEAR(c->other_end, 0.0267, 0.0005);
        CHECK_NEAR(c->other_end_base, 0.0190, 0.0005);
        CHECK_INT(c->n_other_end, 2234);
    }
    ch13_heads_free(&hs);
}
#line 3194 "book/13-poems.nw"
static void test_shipped_light(void)
{
    check_section("本书的检查点里的“光”：各层按意思归对的比例（13 章）");
    static const double want[7] = {0.5269, 0.5329, 0.4671, 0.5569, 0.7725, 0.7725, 0.7425};
    const size_t want_found = 167;
    static const size_t want_occurs[LIGHT_BEFORE] = {110, 75, 29, 9, 14, 181, 193, 60, 48, 34, 13};
    static const double want_random[7] = {0.4671, 0.5030, 0.5269, 0.5150, 0.8263, 0.8144, 0.7485};
    static const double want_null[7][2] = {{0.3850, 0.6108}, {0.4238, 0.5689}, {0.4083, 0.5749}, {0.4434, 0.6108},
                                           {0.6052, 0.8024}, {0.6240, 0.8024}, {0.5621, 0.7964}};
    ch13_light c;
    size_t scratch[LIGHT_GROUPS * LIGHT_PER_GROUP];
    if (!CHECK(ch13_light_open("test-poet", &c) == 0)) {
        ch13_light_close(&c);
        return;
    }
    size_t d = c.d, L = c.L;
    /* 按文件里的先后取最前面的 60 处 */
    if (CHECK(L == 6) && CHECK_OK(ch13_light_vectors(&c, NULL))) {
        CHECK_INT(c.found, want_found);
        size_t per_group[LIGHT_GROUPS] = {0, 0, 0};
        for (size_t i = 0; i < c.found; i++)
            per_group[c.group[i]]++;
        CHECK_INT(per_group[0], LIGHT_PER_GROUP);                  /* 光亮、景色够 60 处 */
        CHECK_INT(per_group[1], LIGHT_PER_GROUP);
        CHECK(per_group[2] < LIGHT_PER_GROUP);                     /* 恩光、荣光不够 */
        for (size_t l = 0; l <= L; l++)
            CHECK_NEAR(poet_centroid_accuracy(ch13_light_layer(&c, l), c.group, c.found, d, LIGHT_GROUPS),
                       want[l], 0.0005);
        for (size_t b = 0; b < LIGHT_BEFORE; b++) {
            printf("  %zu 组的第 %zu 个词：%zu 处\n", light_group[b], b, c.occurs[b]);
            CHECK_INT(c.occurs[b], want_occurs[b]);
        }
    }
    /* 随机取的 60 处（种子 LIGHT_SEED），和随机重分的对照 */
    attn_rng rng, null_rng;
    attn_rng_seed(&rng, LIGHT_SEED);
    attn_rng_seed(&null_rng, LIGHT_NULL_SEED);
    if (CHECK(L == 6) && CHECK_OK(ch13_light_vectors(&c, &rng))) {
        CHECK_INT(c.found, want_found);
        for (size_t i = 0; i < c.found; i++)                       /* 组和前一个字对得上 */
            CHECK_INT(c.group[i], light_group[c.word[i]]);
        for (size_t l = 0; l <= L; l++) {
            const float *layer = ch13_light_layer(&c, l);
            double acc = poet_centroid_accuracy(layer, c.group, c.found, d, LIGHT_GROUPS), max;
            double mean = poet_split_null(layer, c.word, c.found, d, light_group, LIGHT_BEFORE, LIGHT_GROUPS,
                                          LIGHT_NULL_TRIALS, &null_rng, scratch, &max);
            printf("  块 %zu：归对 %.4f，随机重分 平均 %.4f 最大 %.4f\n", l, acc, mean, max);
            CHECK_NEAR(acc, want_random[l], 0.0005);
            CHECK_NEAR(mean, want_null[l][0], 0.0005);
            CHECK_NEAR(max, want_null[l][1], 0.0005);
        }
    }
    ch13_light_close(&c);
}

#line 1117 "book/13-poems.nw"
int main(void)
{
#line 1141 "book/13-poems.nw"
    test_utf8();
#line 1176 "book/13-poems.nw"
    test_clean();
    test_forms();
    if (!check_light("读一遍全唐诗的原始 JSON"))
        test_raw_corpus();
    test_prepare_counts();
    if (!check_light("核对两个集合和词表"))
        test_splits();
    if (!check_light("从训练集重数词表"))
        test_vocab_from_train();
#line 1586 "book/13-poems.nw"
    test_model_size();
    test_checkpoint_roundtrip();
    test_bad_checkpoints();
#line 1850 "book/13-poems.nw"
    test_lr();
    test_eval_windows();
    test_threads_same_bits();
    test_resume_same_bits();
    test_sampling_rules();
    test_repetition_rules();
    test_write_layout();
#line 2250 "book/13-poems.nw"
    test_prepare_errors();
#line 2313 "book/13-poems.nw"
    test_poet_edges();
#line 2492 "book/13-poems.nw"
    if (!check_light("一元和二元模型"))
        test_ngram();
#line 2610 "book/13-poems.nw"
    test_speed_table();
#line 2637 "book/13-poems.nw"
    if (!check_light("重做训练日志的前两步"))
        test_replay_log();
    if (!check_light("本书的检查点在检验集上的损失"))
        test_shipped();
    if (!check_light("本书的检查点写两次两百首诗"))
        test_shipped_writing();
    if (!check_light("三个中途的检查点和本书的检查点各自由地写两百首诗"))
        test_stages();
    test_checker();
    test_exercise_lines();
    if (!check_light("本书的检查点按三种取法写三种体裁的诗，逐首检查"))
        test_shipped_checker();
    if (!check_light("本书的检查点在检验集的诗上的注意力"))
        test_shipped_heads();
    if (!check_light("本书的检查点里“光”的向量"))
        test_shipped_light();
#line 1120 "book/13-poems.nw"
    return check_summary("ch13");
}
