#line 4701 "book/13-poems.nw"
/* programs/poet/chars.c — 第 13 章：汉字和标点，UTF-8 的编码和解码 */
#include "poet.h"

int poet_is_han(uint32_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) ||      /* 基本区 */
           (c >= 0x3400 && c <= 0x4DBF) ||      /* 扩展 A */
           (c >= 0xF900 && c <= 0xFAFF) ||      /* 兼容区 */
           (c >= 0x20000 && c <= 0x3134F);      /* 扩展 B～G 和兼容补充 */
}

int poet_is_punct(uint32_t c)
{
    return c == 0xFF0C || c == 0x3002 || c == 0xFF1F || c == 0xFF01 ||   /* ， 。 ？ ！ */
           c == 0xFF1B || c == 0xFF1A || c == 0x3001;                    /* ； ： 、 */
}

#line 3936 "book/13-poems.nw"
long poet_utf8_next(const char *s, size_t n, size_t *at)
{
    const unsigned char *p = (const unsigned char *)s + *at;
    size_t left = n - *at, len;
    uint32_t c, least;
    if (*at >= n)
        return -1;
    if (p[0] < 0x80) {                     /* 0xxxxxxx */
        *at += 1;
        return p[0];
    } else if ((p[0] & 0xE0) == 0xC0) {    /* 110xxxxx 10xxxxxx */
        len = 2; c = p[0] & 0x1Fu; least = 0x80;
    } else if ((p[0] & 0xF0) == 0xE0) {    /* 1110xxxx 10xxxxxx 10xxxxxx */
        len = 3; c = p[0] & 0x0Fu; least = 0x800;
    } else if ((p[0] & 0xF8) == 0xF0) {    /* 11110xxx 再三个 10xxxxxx */
        len = 4; c = p[0] & 0x07u; least = 0x10000;
    } else {
        return -1;                         /* 10xxxxxx 开头，或 11111xxx */
    }
    if (left < len)
        return -1;                         /* 字节不够 */
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return -1;
        c = (c << 6) | (p[i] & 0x3Fu);
    }
    if (c < least || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return -1;                         /* 过长的编码、超出范围、代理码位 */
    *at += len;
    return (long)c;
}

#line 4728 "book/13-poems.nw"
int poet_utf8_decode(const char *s, size_t n, uint32_t *out, size_t *len, size_t *bad)
{
    size_t at = 0, k = 0;
    while (at < n) {
        long c = poet_utf8_next(s, n, &at);
        if (c < 0) {
            *bad = at;
            *len = k;
            return 0;
        }
        out[k++] = (uint32_t)c;
    }
    *len = k;
    return 1;
}

size_t poet_utf8_put(uint32_t c, char *out)
{
    unsigned char *o = (unsigned char *)out;
    if (c < 0x80) {
        o[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        o[0] = (unsigned char)(0xC0 | (c >> 6));
        o[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        o[0] = (unsigned char)(0xE0 | (c >> 12));
        o[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | (c >> 18));
    o[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
    o[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

#line 4065 "book/13-poems.nw"
int poet_form_of(const uint32_t *c, size_t n)
{
    size_t lines = 0, len = 0, want = 0;
    for (size_t i = 0; i < n; i++) {
        if (poet_is_han(c[i])) {           /* 句子里的字 */
            len++;
            continue;
        }
        if (!poet_is_punct(c[i]) || len == 0 || (want != 0 && len != want))
            return POET_FORM_OTHER;        /* 怪字符、连着两个标点、句子长短不齐 */
        want = len;
        lines++;
        len = 0;
    }
    if (len != 0 || (want != 5 && want != 7))
        return POET_FORM_OTHER;            /* 最后一句没有标点，或者不是五言、七言 */
    if (lines == 4)
        return want == 5 ? POET_WUJUE : POET_QIJUE;
    if (lines == 8)
        return want == 5 ? POET_WULV : POET_QILV;
    return POET_FORM_OTHER;
}
