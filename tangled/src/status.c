#line 67 "book/00-preface.nw"
#include "attn.h"

const char *attn_strerror(int status)
{
    switch (status) {
    case ATTN_OK:     return "success";
    case ATTN_EINVAL: return "invalid argument";
    case ATTN_ENOMEM: return "out of memory";
    default:          return "unknown status";
    }
}
