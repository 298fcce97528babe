#line 386 "book/00-preface.nw"
#include "attn.h"
#include "check.h"
#include "internal.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
#line 345 "book/00-preface.nw"
    check_section("每个状态码都有说明，未知的状态码也有，永不是 NULL");
    {
        CHECK_STR(attn_strerror(ATTN_OK), "success");
        CHECK_STR(attn_strerror(ATTN_EINVAL), "invalid argument");
        CHECK_STR(attn_strerror(ATTN_ENOMEM), "out of memory");
        CHECK_STR(attn_strerror(-7), "unknown status");
        CHECK_STR(attn_strerror(INT_MAX), "unknown status");
    }
#line 356 "book/00-preface.nw"
    check_section("attn_version() 与 attn.h 的三个宏是同一个版本");
    {
        char want[64];
        snprintf(want, sizeof want, "%d.%d.%d", ATTN_VERSION_MAJOR, ATTN_VERSION_MINOR, ATTN_VERSION_PATCH);
        CHECK_STR(attn_version(), want);
        CHECK_STR(attn_version(), "0.1.0");
    }
#line 366 "book/00-preface.nw"
    check_section("attn_bytes 在乘积超出 size_t 时报告溢出；attn_overlap 只认共同的字节");
    {
        size_t bytes = 0;
        CHECK(attn_bytes1(&bytes, 3) && bytes == 3 * sizeof(float));
        CHECK(attn_bytes2(&bytes, 2, 5) && bytes == 10 * sizeof(float));
        CHECK(attn_bytes3(&bytes, 2, 3, 4) && bytes == 24 * sizeof(float));
        CHECK(!attn_bytes1(&bytes, SIZE_MAX / 2));             /* 元素个数装得下，字节数装不下 */
        CHECK(!attn_bytes2(&bytes, SIZE_MAX / 2 + 1, 2));
        CHECK(!attn_bytes3(&bytes, 1, SIZE_MAX / 4, 2));
        float a[8];
        CHECK(attn_overlap(a, 4 * sizeof(float), a + 3, 2 * sizeof(float)));
        CHECK(!attn_overlap(a, 4 * sizeof(float), a + 4, 2 * sizeof(float)));   /* 首尾相接不算 */
        CHECK(!attn_overlap(a, 0, a, 4 * sizeof(float)));                      /* 0 字节 */
        CHECK(!attn_overlap(NULL, 4, a, 4));
    }
#line 399 "book/00-preface.nw"
    return check_summary("ch00");
}
