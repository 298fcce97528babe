#line 6084 "book/13-poems.nw"
/* programs/poet/check.c — 第 13 章：诗的检查器（合格式、重复、押韵）和它读的韵表 */
#include "poet.h"

#include <stdlib.h>
#include <string.h>

#line 682 "book/13-poems.nw"
void poet_check_poem(const poet_rhyme *r, const poet_vocab *v, int form,
                     const uint32_t *c, size_t n, poet_check *acc)
{
    acc->poems++;
    /* 合格式：体裁对；单数句末是逗号，双数句末是 。？！ */
    int in_form = poet_form_of(c, n) == form;
    for (size_t i = 0, line = 0; i < n && in_form; i++)
        if (poet_is_punct(c[i])) {
            int comma = c[i] == 0xFF0C;
            int stop = c[i] == 0x3002 || c[i] == 0xFF1F || c[i] == 0xFF01;
            in_form = line++ % 2 == 0 ? comma : stop;
        }
    acc->in_form += (size_t)in_form;
    /* 重复：一个汉字用了三次以上 */
    int repeat = 0;
    for (size_t i = 0; i < n && !repeat; i++) {
        size_t times = 0;
        for (size_t j = 0; j < n; j++)
            times += c[j] == c[i];
        repeat = poet_is_han(c[i]) && times >= 3;
    }
    acc->repeats += (size_t)repeat;
    /* 押韵：每个双数句的最后一个字都同辙 */
    int zhe = 0, rhymes = n > 0;
    for (size_t i = 1, line = 0; i < n && rhymes; i++)
        if (poet_is_punct(c[i]) && line++ % 2 == 1) {
            int z = r->zhe[poet_vocab_id(v, c[i - 1])];
            rhymes = z > 0 && (zhe == 0 || z == zhe);
            zhe = z;
        }
    acc->rhymes += (size_t)rhymes;
}

#line 6098 "book/13-poems.nw"
void poet_rhyme_free(poet_rhyme *r)
{
    free(r->zhe);
    free(r->tone);
    memset(r, 0, sizeof *r);
}

int poet_rhyme_load(const char *path, const poet_vocab *v, poet_rhyme *r, poet_err *e)
{
    memset(r, 0, sizeof *r);
    char *buf;
    size_t len;
    int st = poet_read_file(path, &buf, &len, (size_t)1 << 26, e);
    if (st != ATTN_OK)
        return st;
    r->n = v->n;
    r->zhe = calloc(v->n, 1);
    r->tone = calloc(v->n, 1);
    if (r->zhe == NULL || r->tone == NULL) {
        free(buf);
        poet_rhyme_free(r);
        return poet_fail(e, ATTN_ENOMEM, "内存不足");
    }
    size_t at = 0, line = 0;
    while (at < len && st == ATTN_OK) {
        line++;
        size_t end = at;
        while (end < len && buf[end] != '\n')
            end++;
        /* 字 \t 韵母 \t 辙 \t 声调 */
        size_t p = at;
        long c = poet_utf8_next(buf, end, &p);
        unsigned zhe = 0, tone = 0;
        char tail = 0;
        char field[64];
        size_t rest = end - p < sizeof field - 1 ? end - p : sizeof field - 1;
        memcpy(field, buf + p, rest);
        field[rest] = '\0';
        char fin[16];
        if (c < 0 || sscanf(field, "\t%15[^\t]\t%u\t%u%c", fin, &zhe, &tone, &tail) != 3 || zhe > 13 ||
            tone > 4)
            st = poet_fail(e, POET_EDATA, "%s：第 %zu 行不是“字、韵母、辙、声调”", path, line);
        else {
            int id = poet_vocab_id(v, (uint32_t)c);
            if (id != POET_UNK) {
                r->zhe[id] = (unsigned char)zhe;
                r->tone[id] = (unsigned char)tone;
            }
        }
        at = end + 1;
    }
    free(buf);
    if (st != ATTN_OK)
        poet_rhyme_free(r);
    return st;
}

#line 6157 "book/13-poems.nw"
int poet_check_text(const poet_rhyme *r, const poet_vocab *v, int form, const char *text, size_t len,
                    poet_check *acc)
{
    uint32_t poem[256];
    size_t n = 0, at = 0;
    while (at < len) {
        long c = poet_utf8_next(text, len, &at);
        if (c < 0)
            return POET_EDATA;
        if (c != '\n') {
            if (n < sizeof poem / sizeof poem[0])
                poem[n] = (uint32_t)c;
            n++;
            continue;
        }
        if (n <= sizeof poem / sizeof poem[0] && poet_form_of(poem, n) == form)
            poet_check_poem(r, v, form, poem, n, acc);
        n = 0;
    }
    if (n > 0 && n <= sizeof poem / sizeof poem[0] && poet_form_of(poem, n) == form)
        poet_check_poem(r, v, form, poem, n, acc);
    return ATTN_OK;
}
