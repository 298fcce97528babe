#line 196 "book/00-preface.nw"
#include "attn.h"

const char *attn_strerror(int status)
{
    switch (status) {
    case ATTN_OK:     return "success";
    case ATTN_EINVAL: return "invalid argument";
    case ATTN_ENOMEM: return "out of memory";
#line 213 "book/00-preface.nw"
    /* 各章新增的状态码 */
#line 511 "book/05-mask.nw"
    case ATTN_EFULL:  return "cache is full";
#line 205 "book/00-preface.nw"
    default:          return "unknown status";
    }
}

#line 278 "book/00-preface.nw"
#define ATTN_STR2(x) #x
#define ATTN_STR(x) ATTN_STR2(x)

const char *attn_version(void)
{
    return ATTN_STR(ATTN_VERSION_MAJOR) "." ATTN_STR(ATTN_VERSION_MINOR) "." ATTN_STR(ATTN_VERSION_PATCH);
}
