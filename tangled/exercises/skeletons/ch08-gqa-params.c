#line 1367 "book/08-params.nw"
/* exercises/ch08-gqa-params.c — 第 8 章练习 8.6：分组查询注意力的参数。
   写完后运行：cmake --build build --target attn-ex && build/attn-ex check ch08-gqa-params */
#include "attn.h"
#include "ex.h"

#include <stdint.h>

/* 和 attn_count_params 一样数 *c 描述的模型，只是每层的 W_K、W_V 只有 n_kv_heads 个头宽
   （d_model × n_kv_heads·d_head，偏置 n_kv_heads·d_head）。总数写进 *total。
   n_kv_heads 为 0 或不整除 n_heads，或 attn_count_params 拒绝 *c：返回 ATTN_EINVAL。 */
int ch08_count_params_gqa(const attn_gpt_config *c, uint64_t n_kv_heads, uint64_t *total)
{
    (void)c; (void)n_kv_heads; (void)total;
    /* 在这里写你的代码 */
    return EX_TODO;
}
