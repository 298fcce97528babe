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
#line 339 "book/05-mask.nw"
    case ATTN_EFULL:  return "cache is full";
#line 205 "book/00-preface.nw"
    default:          return "unknown status";
    }
}
