#line 964 "book/09-fast.nw"
#include "attn.h"
#include "attn_core.h"
#include "internal.h"

int attn_sdpa_ex(const float *q, const float *k, const float *v,
                 size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                 float scale, const unsigned char *mask, int causal,
                 float *out, float *weights, const attn_sdpa_options *opt)
{
    size_t heads = opt ? opt->heads : 1, bytes;
    int threads = opt ? opt->threads : 1;
    if (heads == 0 || threads < 0)
        return ATTN_EINVAL;
    attn_problem prob;
    int status = attn_problem_init(&prob, q, k, v, n_q, n_k, d_k, d_v, scale, mask, causal,
                                   out, weights);
    if (status != ATTN_OK)
        return status;
    if (!attn_bytes3(&bytes, heads, n_q, d_k) || !attn_bytes3(&bytes, heads, n_k, d_k) ||
        !attn_bytes3(&bytes, heads, n_k, d_v) || !attn_bytes3(&bytes, heads, n_q, d_v) ||
        !attn_bytes3(&bytes, heads, n_q, n_k))
        return ATTN_EINVAL;
    prob.heads = heads;
    prob.threads = threads;
    prob.head_q = n_q * d_k;
    prob.head_k = n_k * d_k;
    prob.head_v = n_k * d_v;
    prob.head_out = n_q * d_v;
    return attn_problem_solve(&prob);
}
