#line 4776 "book/13-poems.nw"
/* programs/poet/util.c — 第 13 章：出错的说明，读写整个文件，印出计数 */
#define _POSIX_C_SOURCE 200809L
#include "poet.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int poet_fail(poet_err *e, int status, const char *fmt, ...)
{
    if (e != NULL) {
        char msg[sizeof e->msg];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);    /* fmt 的参数可以就是 e->msg */
        va_end(ap);
        memcpy(e->msg, msg, sizeof msg);
    }
    return status;
}

int poet_read_file(const char *path, char **buf, size_t *len, size_t max, poet_err *e)
{
    *buf = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return poet_fail(e, POET_EFILE, "%s：打不开（%s）", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *p = malloc(cap + 1);
    while (p != NULL) {
        n += fread(p + n, 1, cap - n, f);
        if (n < cap || n > max)
            break;
        char *q = realloc(p, 2 * cap + 1);
        if (q == NULL) {
            free(p);
            p = NULL;
        } else {
            p = q;
            cap *= 2;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (p == NULL)
        return poet_fail(e, ATTN_ENOMEM, "%s：内存不足", path);
    if (bad || n > max) {
        free(p);
        return poet_fail(e, POET_EFILE, bad ? "%s：读不完" : "%s：文件太大", path);
    }
    p[n] = '\0';
    *buf = p;
    *len = n;
    return ATTN_OK;
}

int poet_write_file(const char *path, const void *buf, size_t len, poet_err *e)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return poet_fail(e, POET_EFILE, "%s：路径太长", path);
    FILE *f = fopen(tmp, "wb");
    if (f == NULL)
        return poet_fail(e, POET_EFILE, "%s：写不进（%s）", tmp, strerror(errno));
    size_t put = fwrite(buf, 1, len, f);
    if ((put != len) | fclose(f) || rename(tmp, path) != 0) {
        remove(tmp);
        return poet_fail(e, POET_EFILE, "%s：写不进", path);
    }
    return ATTN_OK;
}

void poet_print_stats(FILE *f, const poet_corpus_stats *st, unsigned min_count)
{
    fprintf(f, "{\"files\": %zu, \"poems\": %zu, \"with_notes\": %zu, \"unbalanced\": %zu, "
               "\"missing\": %zu, \"odd\": %zu, \"empty\": %zu, \"duplicate\": %zu, "
               "\"train\": %zu, \"valid\": %zu, \"train_chars\": %zu, \"valid_chars\": %zu, "
               "\"other\": %zu, \"wujue\": %zu, \"qijue\": %zu, \"wulv\": %zu, \"qilv\": %zu, "
               "\"distinct\": %zu, \"min_count\": %u, \"vocab\": %zu, \"unknown\": %zu}\n",
            st->files, st->poems, st->with_notes, st->dropped[POET_UNBALANCED],
            st->dropped[POET_MISSING], st->dropped[POET_ODD], st->dropped[POET_EMPTY],
            st->dropped[POET_DUPLICATE], st->train, st->valid, st->train_chars, st->valid_chars,
            st->forms[POET_FORM_OTHER], st->forms[POET_WUJUE], st->forms[POET_QIJUE],
            st->forms[POET_WULV], st->forms[POET_QILV], st->distinct, min_count, st->vocab,
            st->unknown);
}
