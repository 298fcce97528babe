/* tests/fuzz/fuzz_attention.c — libFuzzer target for attn_sdpa and attn_mha.
 *
 * The input bytes choose the shapes (1..9 queries and keys, widths 1..8, 1..3 heads), the
 * scale (up to 1e20), the mask, the causal flag and the values (including huge values up to
 * FLT_MAX and -inf/+inf when a flag says so; values of v up to FLT_MAX, finite). A flag also
 * passes an output that overlaps an input: attn_sdpa must refuse it, attn_mha must give the
 * same numbers as with a separate output. Every call is compared with a plain double-precision implementation of the
 * contract in ../shared/design/contract.md: a masked-out key gets no weight, a query row with no
 * visible key gives zeros, every visible row of the pattern sums to 1, no NaN unless an input
 * held one. Any difference aborts, which libFuzzer reports with the input that caused it.
 */
#include "attn.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bytes { const uint8_t *p; size_t n, at; };

static unsigned take(struct bytes *b)
{
    return b->at < b->n ? b->p[b->at++] : 0;
}

/* a value in [-8, 8) in steps of 1/16, or (when specials are on) one of a few extremes;
   specials = 2 keeps to the finite ones */
static float take_value(struct bytes *b, int specials)
{
    unsigned v = take(b);
    if (specials && v >= 244) {
        static const float extreme[12] = {1e20f, -1e20f, 3e38f, -3e38f, FLT_MAX, 1e-20f,
                                          1e30f, -1e30f, 1e4f, -1e4f, INFINITY, -INFINITY};
        unsigned at = v - 244;
        return specials == 2 && at >= 10 ? extreme[at - 10] : extreme[at];
    }
    return ((float)v - 128.0f) / 16.0f;
}

static void fail(const char *what, size_t i, double got, double want)
{
    fprintf(stderr, "fuzz: %s at %zu: got %.9g, want %.9g\n", what, i, got, want);
    abort();
}

/* reference: out[n_q×d_v], weights[n_q×n_k], in double, following the contract word by word */
static void reference_sdpa(const float *q, const float *k, const float *v,
                           size_t n_q, size_t n_k, size_t d_k, size_t d_v, double scale,
                           const unsigned char *mask, int causal, double *out, double *w)
{
    for (size_t i = 0; i < n_q; i++) {
        double m = -INFINITY;
        for (size_t j = 0; j < n_k; j++) {
            int ok = (mask == NULL || mask[i * n_k + j]) && (!causal || j + n_q <= i + n_k);
            double s = 0.0;
            for (size_t t = 0; t < d_k; t++)
                s += (double)q[i * d_k + t] * k[j * d_k + t];
            s *= scale;   /* in double: scores beyond FLT_MAX keep their order */
            w[i * n_k + j] = ok ? s : -INFINITY;
            if (w[i * n_k + j] > m)
                m = w[i * n_k + j];
        }
        double sum = 0.0;
        for (size_t j = 0; j < n_k; j++) {
            w[i * n_k + j] = m == -INFINITY ? 0.0 : exp(w[i * n_k + j] - m);
            sum += w[i * n_k + j];
        }
        for (size_t j = 0; j < n_k; j++)
            if (sum > 0.0)
                w[i * n_k + j] /= sum;
        for (size_t c = 0; c < d_v; c++) {
            out[i * d_v + c] = 0.0;
            for (size_t j = 0; j < n_k; j++)
                if (w[i * n_k + j] != 0.0)
                    out[i * d_v + c] += w[i * n_k + j] * v[j * d_v + c];
        }
    }
}

static int all_finite(const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

static void fuzz_sdpa(struct bytes *b)
{
    size_t n_q = 1 + take(b) % 9, n_k = 1 + take(b) % 9, d_k = 1 + take(b) % 8, d_v = 1 + take(b) % 8;
    unsigned flags = take(b);
    int causal = flags & 1, use_mask = flags & 2, specials = flags & 4;
    int v_specials = flags & 32 ? 2 : 0, overlap = flags & 64;
    static const float scales[4] = {0.0f, 1.0f, 0.125f, 3.0f};
    float scale = flags & 128 ? 1e20f : scales[(flags >> 3) & 3];
    float q[81 * 8], k[81 * 8], v[81 * 8], out[9 * 8], w[81];
    unsigned char mask[81];
    double rout[9 * 8], rw[81];
    for (size_t i = 0; i < n_q * d_k; i++) q[i] = take_value(b, specials);
    for (size_t i = 0; i < n_k * d_k; i++) k[i] = take_value(b, specials);
    for (size_t i = 0; i < n_k * d_v; i++) v[i] = take_value(b, v_specials);
    for (size_t i = 0; i < n_q * n_k; i++) mask[i] = (unsigned char)(take(b) & 1);
    const unsigned char *m = use_mask ? mask : NULL;

    int status = attn_sdpa(q, k, v, n_q, n_k, d_k, d_v, scale, m, causal, out, w);
    if (status != ATTN_OK)
        fail("attn_sdpa status", 0, status, ATTN_OK);
    /* the library turns scale 0 into the float 1/sqrtf(d_k); with scores near 1e8 the last bit matters */
    double s = scale == 0.0f ? (double)(1.0f / sqrtf((float)d_k)) : scale;
    reference_sdpa(q, k, v, n_q, n_k, d_k, d_v, s, m, causal, rout, rw);

    int finite_in = all_finite(q, n_q * d_k) && all_finite(k, n_k * d_k);
    if (!finite_in)
        return;   /* ±inf in q or k: the contract asks only for no crash and no out-of-bounds */
    /* How far a float kernel may be from the double reference: a score is a sum of d_k
       products, each at most max|q|·max|k|, accumulated in float (relative error about
       d_k·2^-24 of that bound). A score error e moves a weight by at most about 2e. */
    double mq = 0, mk = 0, mv = 0;
    for (size_t i = 0; i < n_q * d_k; i++) mq = fmax(mq, fabs(q[i]));
    for (size_t i = 0; i < n_k * d_k; i++) mk = fmax(mk, fabs(k[i]));
    for (size_t i = 0; i < n_k * d_v; i++) mv = fmax(mv, fabs(v[i]));
    double score_err = (double)d_k * d_k * mq * mk * s * 6e-8;
    double w_tol = 1e-4 + 4.0 * score_err;
    for (size_t i = 0; i < n_q; i++) {
        double sum = 0.0, rsum = 0.0;
        for (size_t j = 0; j < n_k; j++) {
            if (isnan(w[i * n_k + j]) || w[i * n_k + j] < 0.0f || w[i * n_k + j] > 1.0f)
                fail("attn_sdpa weight outside [0, 1]", i * n_k + j, w[i * n_k + j], rw[i * n_k + j]);
            int visible = (m == NULL || m[i * n_k + j]) && (!causal || j + n_q <= i + n_k);
            if (!visible && w[i * n_k + j] != 0.0f)
                fail("attn_sdpa weight on a hidden key", i * n_k + j, w[i * n_k + j], 0.0);
            sum += w[i * n_k + j];
            rsum += rw[i * n_k + j];
        }
        if (fabs(sum - rsum) > 1e-4)   /* 1 for a row with a visible key, 0 for a row without */
            fail("attn_sdpa row sum", i, sum, rsum);
    }
    if (w_tol < 0.05) {
        for (size_t i = 0; i < n_q * n_k; i++)
            if (fabs(w[i] - rw[i]) > w_tol)
                fail("attn_sdpa weights", i, w[i], rw[i]);
        for (size_t i = 0; i < n_q * d_v; i++)
            if (isnan(out[i]) || fabs(out[i] - rout[i]) > 1e-3 * (1.0 + fabs(rout[i])) + n_k * w_tol * mv)
                fail("attn_sdpa out", i, out[i], rout[i]);
    }
    for (size_t i = 0; i < n_q * d_v; i++)
        if (!isfinite(out[i]))   /* q, k, v all finite here: so must the output be */
            fail("attn_sdpa non-finite out", i, out[i], rout[i]);

    if (overlap) {
        /* out on top of q, k or v: refused, and nothing written */
        float *in[3] = {q, k, v};
        for (int t = 0; t < 3; t++) {
            float keep = in[t][0];
            if (attn_sdpa(q, k, v, n_q, n_k, d_k, d_v, scale, m, causal, in[t], NULL) != ATTN_EINVAL)
                fail("attn_sdpa accepted an overlapping out", (size_t)t, 0, ATTN_EINVAL);
            if (memcmp(&keep, &in[t][0], sizeof keep) != 0)
                fail("attn_sdpa wrote an overlapping out", (size_t)t, in[t][0], keep);
        }
    }

    /* the same without a weights buffer */
    float out2[9 * 8];
    if (attn_sdpa(q, k, v, n_q, n_k, d_k, d_v, scale, m, causal, out2, NULL) != ATTN_OK)
        fail("attn_sdpa without weights", 0, 1, 0);
    for (size_t i = 0; i < n_q * d_v; i++)
        if (fabs(out2[i] - out[i]) > 1e-5 * (1.0 + fabs(out[i])))
            fail("attn_sdpa weights=NULL differs", i, out2[i], out[i]);

    /* attn_sdpa_ex with two threads: the same numbers as attn_sdpa, bit for bit */
    float out3[9 * 8], w3[81];
    const attn_sdpa_options two = {.heads = 1, .threads = 2};
    if (attn_sdpa_ex(q, k, v, n_q, n_k, d_k, d_v, scale, m, causal, out3, w3, &two) != ATTN_OK)
        fail("attn_sdpa_ex status", 0, 1, 0);
    if (memcmp(out3, out, n_q * d_v * sizeof *out) != 0 || memcmp(w3, w, n_q * n_k * sizeof *w) != 0)
        fail("attn_sdpa_ex differs from attn_sdpa", 0, out3[0], out[0]);
}

static void fuzz_mha(struct bytes *b)
{
    size_t n_heads = 1 + take(b) % 3, d_head = 1 + take(b) % 4, d_model = 1 + take(b) % 6;
    size_t n_q = 1 + take(b) % 6, n_kv = 1 + take(b) % 6, dh = n_heads * d_head;
    unsigned flags = take(b);
    int causal = flags & 1, use_bias = flags & 2, use_mask = flags & 4;
    float wq[6 * 12], wk[6 * 12], wv[6 * 12], wo[12 * 6], bq[12], bk[12], bv[12], bo[6];
    float xq[6 * 6], xkv[6 * 6], out[6 * 6];
    unsigned char mask[36];
    for (size_t i = 0; i < d_model * dh; i++) {
        wq[i] = take_value(b, 0) / 4;
        wk[i] = take_value(b, 0) / 4;
        wv[i] = take_value(b, 0) / 4;
        wo[i] = take_value(b, 0) / 4;
    }
    for (size_t i = 0; i < dh; i++) { bq[i] = take_value(b, 0); bk[i] = take_value(b, 0); bv[i] = take_value(b, 0); }
    for (size_t i = 0; i < d_model; i++) bo[i] = take_value(b, 0);
    for (size_t i = 0; i < n_q * d_model; i++) xq[i] = take_value(b, 0);
    for (size_t i = 0; i < n_kv * d_model; i++) xkv[i] = take_value(b, 0);
    for (size_t i = 0; i < n_q * n_kv; i++) mask[i] = (unsigned char)(take(b) & 1);
    attn_mha_weights w = {d_model, n_heads, d_head, wq, wk, wv, wo,
                          use_bias ? bq : NULL, use_bias ? bk : NULL, use_bias ? bv : NULL,
                          use_bias ? bo : NULL};
    const unsigned char *m = use_mask ? mask : NULL;
    if (attn_mha(&w, xq, n_q, xkv, n_kv, m, causal, out) != ATTN_OK)
        fail("attn_mha status", 0, 1, 0);
    if (flags & 8) {
        /* out on top of x_q (the same buffer as x_kv when self-attention): allowed, same numbers */
        float x[6 * 6], out_x[6 * 6];
        int self = n_q == n_kv;
        memcpy(x, xq, n_q * d_model * sizeof *x);
        if (attn_mha(&w, x, n_q, self ? x : xkv, n_kv, m, causal, x) != ATTN_OK)
            fail("attn_mha overlapping out status", 0, 1, 0);
        if (attn_mha(&w, xq, n_q, self ? xq : xkv, n_kv, m, causal, out_x) != ATTN_OK)
            fail("attn_mha status", 1, 1, 0);
        if (memcmp(x, out_x, n_q * d_model * sizeof *x) != 0)
            fail("attn_mha with out = x_q differs", 0, x[0], out_x[0]);
    }

    /* reference: project in double, one reference_sdpa per head, concatenate, W_O */
    double concat[6 * 12] = {0}, ref[6 * 6];
    for (size_t h = 0; h < n_heads; h++) {
        float q[6 * 4], k[6 * 4], v[6 * 4];
        double ho[6 * 4], hw[36];
        for (size_t i = 0; i < n_q; i++)
            for (size_t c = 0; c < d_head; c++) {
                double s = use_bias ? bq[h * d_head + c] : 0.0;
                for (size_t t = 0; t < d_model; t++)
                    s += (double)xq[i * d_model + t] * wq[t * dh + h * d_head + c];
                q[i * d_head + c] = (float)s;
            }
        for (size_t j = 0; j < n_kv; j++)
            for (size_t c = 0; c < d_head; c++) {
                double sk = use_bias ? bk[h * d_head + c] : 0.0, sv = use_bias ? bv[h * d_head + c] : 0.0;
                for (size_t t = 0; t < d_model; t++) {
                    sk += (double)xkv[j * d_model + t] * wk[t * dh + h * d_head + c];
                    sv += (double)xkv[j * d_model + t] * wv[t * dh + h * d_head + c];
                }
                k[j * d_head + c] = (float)sk;
                v[j * d_head + c] = (float)sv;
            }
        reference_sdpa(q, k, v, n_q, n_kv, d_head, d_head, (double)(1.0f / sqrtf((float)d_head)), m, causal, ho, hw);
        for (size_t i = 0; i < n_q; i++)
            for (size_t c = 0; c < d_head; c++)
                concat[i * dh + h * d_head + c] = ho[i * d_head + c];
    }
    for (size_t i = 0; i < n_q; i++)
        for (size_t c = 0; c < d_model; c++) {
            double s = use_bias ? bo[c] : 0.0;
            for (size_t t = 0; t < dh; t++)
                s += concat[i * dh + t] * wo[t * d_model + c];
            ref[i * d_model + c] = s;
        }
    for (size_t i = 0; i < n_q * d_model; i++)
        if (isnan(out[i]) || fabs(out[i] - ref[i]) > 2e-3 * (1.0 + fabs(ref[i])))
            fail("attn_mha out", i, out[i], ref[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct bytes b = {data, size, 0};
    if (take(&b) & 1)
        fuzz_mha(&b);
    else
        fuzz_sdpa(&b);
    return 0;
}
