#line 109 "book/02-similarity.nw"
/* src/similarity.c — 两个向量有多相关：点积、余弦相似度、欧氏距离。 */
#include "attn.h"
#include "internal.h"

#include <math.h>

int attn_dot(const float *a, const float *b, size_t n, float *out)
{
#line 492 "book/02-similarity.nw"
    size_t bytes;
    if (a == NULL || b == NULL || out == NULL || n == 0 || !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
#line 118 "book/02-similarity.nw"
    /* out = a[n] · b[n] */
    double s = 0.0;
    for (size_t t = 0; t < n; t++)
        s += (double)a[t] * b[t];
    *out = (float)s;
    return ATTN_OK;
}

#line 148 "book/02-similarity.nw"
int attn_cosine(const float *a, const float *b, size_t n, float *out)
{
#line 492 "book/02-similarity.nw"
    size_t bytes;
    if (a == NULL || b == NULL || out == NULL || n == 0 || !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
#line 151 "book/02-similarity.nw"
    /* ab = a·b，aa = a·a，bb = b·b，都在一趟循环里累加 */
    double ab = 0.0, aa = 0.0, bb = 0.0;
    for (size_t t = 0; t < n; t++) {
        ab += (double)a[t] * b[t];
        aa += (double)a[t] * a[t];
        bb += (double)b[t] * b[t];
    }
    if (aa == 0.0 || bb == 0.0)
        return ATTN_EINVAL;               /* 零向量没有方向 */
    *out = (float)(ab / (sqrt(aa) * sqrt(bb)));
    return ATTN_OK;
}

#line 214 "book/02-similarity.nw"
int attn_sqdist(const float *a, const float *b, size_t n, float *out)
{
#line 492 "book/02-similarity.nw"
    size_t bytes;
    if (a == NULL || b == NULL || out == NULL || n == 0 || !attn_bytes1(&bytes, n))
        return ATTN_EINVAL;
#line 217 "book/02-similarity.nw"
    /* out = Σ (a[t] - b[t])²，a 和 b 都是 n 维 */
    double s = 0.0;
    for (size_t t = 0; t < n; t++) {
        double diff = (double)a[t] - b[t];
        s += diff * diff;
    }
    *out = (float)s;
    return ATTN_OK;
}

#line 284 "book/02-similarity.nw"
int attn_dot_all(const float *a, const float *b, size_t n_a, size_t n_b, size_t d,
                 float *out)
{
#line 500 "book/02-similarity.nw"
    size_t bytes;
    if (a == NULL || b == NULL || out == NULL || n_a == 0 || n_b == 0 || d == 0)
        return ATTN_EINVAL;
    if (!attn_bytes2(&bytes, n_a, d) || !attn_bytes2(&bytes, n_b, d) ||
        !attn_bytes2(&bytes, n_a, n_b))
        return ATTN_EINVAL;
    if (attn_overlap(out, n_a * n_b * sizeof *out, a, n_a * d * sizeof *a) ||
        attn_overlap(out, n_a * n_b * sizeof *out, b, n_b * d * sizeof *b))
        return ATTN_EINVAL;
#line 288 "book/02-similarity.nw"
    /* out[n_a][n_b] = a[n_a][d] · bᵀ，b 是 [n_b][d] */
    for (size_t i = 0; i < n_a; i++)
        for (size_t j = 0; j < n_b; j++) {
            double s = 0.0;
            for (size_t t = 0; t < d; t++)
                s += (double)a[i * d + t] * b[j * d + t];
            out[i * n_b + j] = (float)s;
        }
    return ATTN_OK;
}
