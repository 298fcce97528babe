#line 1122 "book/08-params.nw"
/* 三种数法下，各类参数占总数的百分比。列：模型 注意力 MLP 嵌入 层规范化 总数（亿） */
#include "attn.h"

#include <stdio.h>

static int print_row(const char *label, const attn_gpt_config *c)
{
    attn_param_breakdown b;
    int status = attn_count_params(c, &b);
    if (status != ATTN_OK)
        return status;
    double t = (double)b.total;
    printf("\"%s\" %.4f %.4f %.4f %.4f %.4f\n", label, 100.0 * (double)b.attention_all / t,
           100.0 * (double)b.mlp_all / t, 100.0 * (double)b.embeddings_all / t,
           100.0 * (double)b.norms_all / t, t / 1e8);
    return ATTN_OK;
}

int main(void)
{
    attn_gpt_config g2, g3, video;
    if (attn_gpt_preset("gpt2-small", &g2) != ATTN_OK || attn_gpt_preset("gpt3-175b", &g3) != ATTN_OK)
        return 1;
    video = g3;
    video.biases = video.layer_norms = video.learned_positions = video.tied = 0;
    printf("# 模型 注意力%% MLP%% 嵌入%% 层规范化%% 总数（亿）\n");
    if (print_row("GPT-2 small", &g2) != ATTN_OK || print_row("GPT-3（真实搭法）", &g3) != ATTN_OK ||
        print_row("GPT-3（只数矩阵）", &video) != ATTN_OK)
        return 1;
    return 0;
}
