#line 197 "book/00-preface.nw"
#include "attn.h"
#include "check.h"

int main(void)
{
    check_section("状态码的说明");
    CHECK_STR(attn_strerror(ATTN_OK), "success");
    CHECK_STR(attn_strerror(ATTN_EINVAL), "invalid argument");
    CHECK_STR(attn_strerror(ATTN_ENOMEM), "out of memory");
    CHECK_STR(attn_strerror(-7), "unknown status");
    return check_summary("ch00");
}
