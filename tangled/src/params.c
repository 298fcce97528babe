#line 159 "book/08-params.nw"
#include "attn.h"
#include "checked.h"

#include <string.h>

int attn_count_params(const attn_gpt_config *c, attn_param_breakdown *out)
{
#line 621 "book/08-params.nw"
    if (c == NULL || out == NULL)
        return ATTN_EINVAL;
    if (c->d_model == 0 || c->n_heads == 0 || c->d_head == 0 || c->n_layers == 0 ||
        c->d_ff == 0 || c->vocab == 0 || c->n_ctx == 0)
        return ATTN_EINVAL;
#line 167 "book/08-params.nw"
    attn_param_breakdown b;
    memset(&b, 0, sizeof b);
    int ok = 1;
    uint64_t d = c->d_model;
    uint64_t hd = attn_u64_mul(c->n_heads, c->d_head, &ok);   /* 所有头拼起来的宽度 */
#line 189 "book/08-params.nw"
    /* W_Q, W_K, W_V: w[d][hd] + b[hd]；W_O: w[hd][d] + b[d] */
    uint64_t w = attn_u64_mul(d, hd, &ok);
    b.q = attn_u64_add(w, c->biases ? hd : 0, &ok);
    b.k = b.q;
    b.v = b.q;
    b.o = attn_u64_add(w, c->biases ? d : 0, &ok);
    b.attention = attn_u64_add(attn_u64_add(b.q, b.k, &ok),
                               attn_u64_add(b.v, b.o, &ok), &ok);
#line 202 "book/08-params.nw"
    /* 升维 w[d][d_ff] + b[d_ff]，降维 w[d_ff][d] + b[d]；两个层规范化各 2d */
    uint64_t up = attn_u64_add(attn_u64_mul(d, c->d_ff, &ok), c->biases ? c->d_ff : 0, &ok);
    uint64_t down = attn_u64_add(attn_u64_mul(c->d_ff, d, &ok), c->biases ? d : 0, &ok);
    b.mlp = attn_u64_add(up, down, &ok);
    b.norms = c->layer_norms ? attn_u64_mul(4, d, &ok) : 0;
    b.layer = attn_u64_add(attn_u64_add(b.attention, b.mlp, &ok), b.norms, &ok);
    b.layers = attn_u64_mul(c->n_layers, b.layer, &ok);
#line 214 "book/08-params.nw"
    b.embedding = attn_u64_mul(c->vocab, d, &ok);
    b.positions = c->learned_positions ? attn_u64_mul(c->n_ctx, d, &ok) : 0;
    b.final_norm = c->layer_norms ? attn_u64_mul(2, d, &ok) : 0;
    b.unembedding = c->tied ? 0 : b.embedding;
#line 223 "book/08-params.nw"
    b.attention_all = attn_u64_mul(c->n_layers, b.attention, &ok);
    b.mlp_all = attn_u64_mul(c->n_layers, b.mlp, &ok);
    b.norms_all = attn_u64_add(attn_u64_mul(c->n_layers, b.norms, &ok), b.final_norm, &ok);
    b.embeddings_all = attn_u64_add(attn_u64_add(b.embedding, b.positions, &ok),
                                    b.unembedding, &ok);
    b.total = attn_u64_add(attn_u64_add(b.attention_all, b.mlp_all, &ok),
                           attn_u64_add(b.norms_all, b.embeddings_all, &ok), &ok);
#line 654 "book/08-params.nw"
    if (!ok)
        return ATTN_EINVAL;
#line 177 "book/08-params.nw"
    *out = b;
    return ATTN_OK;
}

#line 631 "book/08-params.nw"
int attn_gpt_preset(const char *name, attn_gpt_config *c)
{
    if (name == NULL || c == NULL)
        return ATTN_EINVAL;
    if (strcmp(name, "gpt2-small") == 0) {
        *c = (attn_gpt_config){.d_model = 768, .n_heads = 12, .d_head = 64, .n_layers = 12,
                               .d_ff = 3072, .vocab = 50257, .n_ctx = 1024, .biases = 1,
                               .layer_norms = 1, .learned_positions = 1, .tied = 1};
        return ATTN_OK;
    }
    if (strcmp(name, "gpt3-175b") == 0) {
        *c = (attn_gpt_config){.d_model = 12288, .n_heads = 96, .d_head = 128, .n_layers = 96,
                               .d_ff = 49152, .vocab = 50257, .n_ctx = 2048, .biases = 1,
                               .layer_norms = 1, .learned_positions = 1, .tied = 1};
        return ATTN_OK;
    }
    return ATTN_EINVAL;
}
