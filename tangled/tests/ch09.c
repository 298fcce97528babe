#line 474 "book/09-fast.nw"
#include "attn.h"
#include "check.h"
#include "fastexp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#line 492 "book/09-fast.nw"
/* 确定的伪随机数，落在 [-1, 1) */
static float ch09_rand(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 8388608.0f - 1.0f;
}

static void ch09_fill(float *x, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        x[i] = ch09_rand(&seed);
}

#line 484 "book/09-fast.nw"
int main(void)
{
    
#line 507 "book/09-fast.nw"
check_section("近似 exp");
{
    double worst = 0.0;
    for (float x = -80.0f; x <= 0.0f; x += 0.001f) {
        double rel = fabs(attn_exp_neg(x) - exp((double)x)) / exp((double)x);
        worst = rel > worst ? rel : worst;
    }
    CHECK(worst < 3e-7);
    CHECK_NEAR(attn_exp_neg(0.0f), 1.0f, 0);
    CHECK_NEAR(attn_exp_neg(-INFINITY), 0.0f, 0);
}
#line 521 "book/09-fast.nw"
check_section("快速路径与参考实现一致");
{
    size_t shapes[][4] = {   /* n_q, n_k, d_k, d_v */
        {1, 1, 1, 1}, {3, 5, 2, 3}, {64, 64, 16, 16}, {65, 63, 17, 33},
        {130, 200, 64, 64}, {200, 130, 8, 20}, {7, 300, 32, 1}, {129, 129, 3, 48},
    };
    size_t n_shapes = sizeof shapes / sizeof shapes[0];
    double worst_out = 0.0, worst_w = 0.0;
    int all_ok = 1;
    for (size_t s = 0; s < n_shapes; s++)
        for (int variant = 0; variant < 4; variant++) {
            size_t n_q = shapes[s][0], n_k = shapes[s][1], d_k = shapes[s][2], d_v = shapes[s][3];
            int causal = variant & 1, use_mask = variant >> 1;
            float *q = malloc(n_q * d_k * sizeof *q), *k = malloc(n_k * d_k * sizeof *k);
            float *v = malloc(n_k * d_v * sizeof *v);
            float *o1 = malloc(n_q * d_v * sizeof *o1), *o2 = malloc(n_q * d_v * sizeof *o2);
            float *w1 = malloc(n_q * n_k * sizeof *w1), *w2 = malloc(n_q * n_k * sizeof *w2);
            unsigned char *mask = malloc(n_q * n_k);
            ch09_fill(q, n_q * d_k, 1 + (unsigned)s);
            ch09_fill(k, n_k * d_k, 100 + (unsigned)s);
            ch09_fill(v, n_k * d_v, 200 + (unsigned)s);
            for (size_t x = 0; x < n_q * n_k; x++)
                mask[x] = (x * 7 + x / n_k) % 5 != 0;
            all_ok &= attn_sdpa(q, k, v, n_q, n_k, d_k, d_v, 0.0f, use_mask ? mask : NULL,
                                causal, o1, w1) == ATTN_OK;
            all_ok &= attn_sdpa_fast(q, k, v, n_q, n_k, d_k, d_v, 0.0f, use_mask ? mask : NULL,
                                     causal, o2, w2, 2) == ATTN_OK;
            for (size_t x = 0; x < n_q * d_v; x++)
                worst_out = fmax(worst_out, fabs(o1[x] - o2[x]));
            for (size_t x = 0; x < n_q * n_k; x++)
                worst_w = fmax(worst_w, fabs(w1[x] - w2[x]));
            free(q); free(k); free(v); free(o1); free(o2); free(w1); free(w2); free(mask);
        }
    CHECK(all_ok);
    CHECK(worst_out < 1e-5);
    CHECK(worst_w < 1e-5);
}
#line 487 "book/09-fast.nw"
    return check_summary("ch09");
}
