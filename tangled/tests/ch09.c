#line 1925 "book/09-fast.nw"
#include "attn.h"
#include "attn_core.h"
#include "check.h"
#include "fastexp.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../examples/ch09.h"

#line 1971 "book/09-fast.nw"
/* 图 9.1 的块：按类别计数 */
static void ch09_count_tile(size_t i0, size_t rows, size_t j0, size_t cols, int kind, void *arg)
{
    (void)i0; (void)rows; (void)j0; (void)cols;
    ((size_t *)arg)[kind]++;
}

#line 1980 "book/09-fast.nw"
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

/* 要 t 个线程时实际有几个：没有 OpenMP 的构建只有一个线程，也只分配一份工作区 */
static size_t ch09_threads(size_t t)
{
#ifdef _OPENMP
    return t;
#else
    (void)t;
    return 1;
#endif
}

#line 1942 "book/09-fast.nw"
int main(void)
{
#line 35 "book/09-fast.nw"
    check_section("运算量和峰值");
    {
        double n = 2048, d = 64;
        CHECK_NEAR(4 * n * n * d, 1073741824.0, 0);
        CHECK_NEAR(8 * 4 * n * n * d, 8589934592.0, 0);
        CHECK_INT(4 * (int)d, 256);
        CHECK_INT(2 * 16 * 2, 64);
        CHECK_NEAR(64 * 2.3, 147, 0.5);
        CHECK_NEAR(64 * 2.3 / 2, 74, 0.5);
    }
#line 61 "book/09-fast.nw"
    check_section("参考实现搬动的字节");
    {
        size_t n = 2048, d = 64;
        CHECK_INT(2 * n * d * sizeof(float), 1 << 20);
        CHECK_INT(n * (2 * n * d * sizeof(float)), (size_t)2 << 30);
        CHECK_INT(n * n * sizeof(float), 16 << 20);
        CHECK_INT((size_t)16384 * 16384 * sizeof(float), (size_t)1 << 30);
    }
#line 102 "book/09-fast.nw"
    check_section("三种宽度的寄存器块");
    {
        CHECK_INT(6 * 16 / 8, 12);          /* AVX2：12 个累加器 */
        CHECK_INT(12 + 2 + 1, 15);          /* 15 ≤ 16 个 ymm */
        CHECK_INT(12 * 32 / 16, 24);        /* AVX-512：24 个累加器 */
        CHECK_INT(24 + 2 + 1, 27);          /* 27 ≤ 32 个 zmm */
        CHECK_INT(2 + 12, 14);              /* 每一步读 14 次，做 24 条 FMA */
        CHECK_INT(6 * 8 / 4, 12);           /* 通用：12 个 xmm 累加器 */
        CHECK_INT(16 * 2, 32);              /* 一条 AVX-512 FMA 做 32 次运算 */
    }
#line 367 "book/09-fast.nw"
    check_section("缓存块的大小");
    {
        CHECK_INT(96 * 192 * sizeof(float), 72 * 1024);
        int tiles_fit = 1;
        for (int fp = 24; fp <= 96; fp *= 2)       /* FP = 24、48、96 */
            tiles_fit &= 192 % fp == 0;
        for (int fr = 6; fr <= 12; fr += 6)        /* FR = 6、12 */
            tiles_fit &= 96 % fr == 0 && 24 % fr == 0;
        CHECK(tiles_fit);
        CHECK_INT(2 * 16, 32);                     /* 最宽的寄存器块的列数 = FD */
    }
#line 648 "book/09-fast.nw"
    check_section("在线 softmax：分两半算等于一次算完");
    {
        double x[4] = {1, 2, 4, 3}, v[4] = {1, 2, 3, 4};
        double la = exp(1 - 2.0) + 1, oa = 1 * exp(1 - 2.0) + 2;
        double lb = 1 + exp(3 - 4.0), ob = 3 + 4 * exp(3 - 4.0);
        double alpha = exp(2 - 4.0);
        CHECK_NEAR(la, 1.3679, 1e-4);
        CHECK_NEAR(oa, 2.3679, 1e-4);
        CHECK_NEAR(lb, 1.3679, 1e-4);
        CHECK_NEAR(ob, 4.4715, 1e-4);
        CHECK_NEAR(alpha, 0.1353, 1e-4);
        CHECK_NEAR(la * alpha, 0.1851, 1e-4);
        CHECK_NEAR(oa * alpha, 0.3205, 1e-4);
        CHECK_NEAR(la * alpha + lb, 1.5530, 1e-4);
        CHECK_NEAR(oa * alpha + ob, 4.7920, 1e-4);
        CHECK_NEAR((oa * alpha + ob) / (la * alpha + lb), 3.0856, 1e-4);
        CHECK_NEAR(exp(-3.0), 0.0498, 1e-4);
        CHECK_NEAR(exp(-1.0), 0.3679, 1e-4);

        /* 同一个例子交给参考实现和快速路径：d_k = 1，q = 1，k = x，scale = 1 */
        float qf[1] = {1}, kf[4], vf[4], o1, o2;
        for (int j = 0; j < 4; j++) {
            kf[j] = (float)x[j];
            vf[j] = (float)v[j];
        }
        CHECK_OK(attn_sdpa_reference(qf, kf, vf, 1, 4, 1, 1, 1.0f, NULL, 0, &o1, NULL));
        CHECK_OK(attn_sdpa_ex(qf, kf, vf, 1, 4, 1, 1, 1.0f, NULL, 0, &o2, NULL, &(attn_sdpa_options){1, 1}));
        CHECK_NEAR(o1, 3.0856, 1e-4);
        CHECK_NEAR(o2, 3.0856, 1e-4);

        /* 37 个随机分数在 11 处切开 */
        unsigned seed = 9;
        double xs[37], vs[37], m = -INFINITY, l = 0, o = 0;
        for (int j = 0; j < 37; j++) {
            xs[j] = 10 * ch09_rand(&seed);
            vs[j] = ch09_rand(&seed);
            m = fmax(m, xs[j]);
        }
        for (int j = 0; j < 37; j++) {
            l += exp(xs[j] - m);
            o += exp(xs[j] - m) * vs[j];
        }
        double part_m[2], part_l[2] = {0, 0}, part_o[2] = {0, 0};
        int cut[3] = {0, 11, 37};
        for (int h = 0; h < 2; h++) {
            part_m[h] = -INFINITY;
            for (int j = cut[h]; j < cut[h + 1]; j++)
                part_m[h] = fmax(part_m[h], xs[j]);
            for (int j = cut[h]; j < cut[h + 1]; j++) {
                part_l[h] += exp(xs[j] - part_m[h]);
                part_o[h] += exp(xs[j] - part_m[h]) * vs[j];
            }
        }
        double mm = fmax(part_m[0], part_m[1]);
        double ll = exp(part_m[0] - mm) * part_l[0] + exp(part_m[1] - mm) * part_l[1];
        double oo = exp(part_m[0] - mm) * part_o[0] + exp(part_m[1] - mm) * part_o[1];
        CHECK(part_m[0] != part_m[1]);
        CHECK_NEAR(mm, m, 0);
        CHECK_REL(ll, l, 1e-12);
        CHECK_NEAR(oo / ll, o / l, 1e-12);
    }
#line 825 "book/09-fast.nw"
    check_section("近似 exp");
    {
        double worst = 0.0;
        for (int i = 0; i <= 80000; i++) {
            float x = -0.001f * (float)i;
            double rel = fabs(attn_exp_neg(x) - exp((double)x)) / exp((double)x);
            worst = rel > worst ? rel : worst;
        }
        CHECK(worst < 3e-7);
        CHECK(worst > 0);
        CHECK_NEAR(attn_exp_neg(0.0f), 1.0f, 0);
        CHECK_NEAR(attn_exp_neg(-INFINITY), 0.0f, 0);
        CHECK_NEAR(attn_exp_neg(-88.0f), 0.0f, 0);
        CHECK_NEAR(0.5 * log(2.0), 0.347, 5e-4);
        CHECK_NEAR(1.5 * 8388608.0, 12582912.0, 0);
        CHECK_NEAR(0.693359375 + -2.12194440e-4, log(2.0), 1e-9);
    }
#line 1075 "book/09-fast.nw"
    check_section("工作区的大小与序列长度无关");
    {
        CHECK_INT(192 * 64 + 96 * 64 + 96 * 64 + 192 * 64 + 96 * 192 + 3 * 192, 55872);
        CHECK_INT(55872 * sizeof(float), 223488);
        CHECK_NEAR(223488 / 1024.0, 218, 0.5);
        CHECK_INT(attn_flash_bytes(64, 64, 1), 223488);
        CHECK_INT(attn_flash_bytes(64, 64, 2), ch09_threads(2) * 223488);
        CHECK_INT(attn_flash_bytes(64, 60, 1), 223488);
        CHECK_INT(attn_flash_bytes(0, 64, 1), 0);
        CHECK_INT(attn_flash_bytes(64, 64, -1), 0);
        CHECK(attn_flash_bytes(64, 64, 1) < ((size_t)64 << 20));
    }
#line 1146 "book/09-fast.nw"
    check_section("因果时跳过的块");
    {
        CHECK_INT(2048 / 192, 10);
        CHECK_INT(2048 - 10 * 192, 128);
        size_t sum = 0;
        for (size_t b = 0; b < 10; b++)
            sum += 192 * 192 * (b + 1);
        CHECK_INT(sum, 2027520);
        CHECK_INT(128 * 2048, 262144);
        CHECK_INT(attn_flash_scores(2048, 2048, 1), 2289664);
        CHECK_INT(attn_flash_scores(2048, 2048, 0), 2048 * 2048);
        CHECK_NEAR(2289664.0 / (2048.0 * 2048.0), 0.546, 5e-4);
        CHECK_INT(attn_flash_scores(400, 10, 1), 16 * 10);
        CHECK_INT(400 - 2 * 192, 16);
        CHECK_INT(attn_flash_scores(200, 300, 1), 192 * 292 + 8 * 300);
        CHECK_INT(292 % 96, 4);
    }
#line 1246 "book/09-fast.nw"
    check_section("图 9.1：n = 768 时的块");
    {
        size_t count[3] = {0, 0, 0};
        size_t scores = flash_tiles(768, ch09_count_tile, count);
        CHECK_INT(768 / FQ, 4);
        CHECK_INT(768 / FK, 8);
        CHECK_INT(FQ / FK, 2);                                  /* 对角线穿过每个横条里的两个键块 */
        CHECK_INT(count[0] + count[1] + count[2], 32);
        CHECK_INT(count[1] + count[2], 20);
        CHECK_INT(count[2], 8);
        CHECK_INT(count[0], 12);
        CHECK_INT(scores, 368640);
        CHECK_INT(20 * 192 * 96, 368640);
        CHECK_INT(attn_flash_scores(768, 768, 1), 368640);
        CHECK_NEAR(368640.0 / (768.0 * 768.0), 0.625, 0);
        CHECK_INT(flash_tiles(2048, NULL, NULL), 2289664);      /* 和上面的 54.6% 是同一种数法 */
    }
#line 1483 "book/09-fast.nw"
    check_section("极大的输入交给参考实现：不出 NaN");
    {
        float q[2] = {1e30f, 1e30f}, k[4] = {1e30f, -1e30f, 1e30f, 1e30f}, v[2] = {10, 20};
        float fast[1], ref[1], w[2];
        CHECK_OK(attn_sdpa_ex(q, k, v, 1, 2, 2, 1, 1.0f, NULL, 0, fast, w, &(attn_sdpa_options){1, 1}));
        CHECK_OK(attn_sdpa_reference(q, k, v, 1, 2, 2, 1, 1.0f, NULL, 0, ref, NULL));
        CHECK(!isnan(fast[0]) && !isnan(w[0]) && !isnan(w[1]));
        CHECK_NEAR(fast[0], ref[0], 0.0);
        CHECK_NEAR(fast[0], 20.0, 0.0);
    }
#line 1575 "book/09-fast.nw"
    check_section("多个头、多个线程");
    {
        size_t heads = 3, n = 150, d = 40;
        size_t nq = heads * n * d;
        float *q = malloc(nq * sizeof *q), *k = malloc(nq * sizeof *k), *v = malloc(nq * sizeof *v);
        float *o1 = malloc(nq * sizeof *o1), *o2 = malloc(nq * sizeof *o2), *o3 = malloc(nq * sizeof *o3);
        ch09_fill(q, nq, 11);
        ch09_fill(k, nq, 12);
        ch09_fill(v, nq, 13);
        CHECK_OK(attn_sdpa_ex(q, k, v, n, n, d, d, 0.0f, NULL, 1, o1, NULL, &(attn_sdpa_options){heads, 1}));
        CHECK_OK(attn_sdpa_ex(q, k, v, n, n, d, d, 0.0f, NULL, 1, o2, NULL, &(attn_sdpa_options){heads, 2}));
        CHECK(memcmp(o1, o2, nq * sizeof *o1) == 0);
        for (size_t h = 0; h < heads; h++)
            CHECK_OK(attn_sdpa_reference(q + h * n * d, k + h * n * d, v + h * n * d, n, n, d, d, 0.0f,
                               NULL, 1, o3 + h * n * d, NULL));
        CHECK_ARRAY_NEAR(o1, o3, nq, 1e-5);
        free(q); free(k); free(v); free(o1); free(o2); free(o3);
    }
#line 1710 "book/09-fast.nw"
    check_section("分块的矩阵乘法和第 1 章的循环一位不差");
    {
        size_t shapes[][3] = {{2048, 512, 512}, {100, 300, 50}, {37, 1000, 65}, {96, 129, 97}};
        for (int isa = 0; isa < ATTN_ISA_COUNT; isa++) {
            if (!attn_isa_available(isa)) {
                printf("  跳过 %s：这台机器或这个构建没有它\n", attn_isa_name(isa));
                continue;
            }
            CHECK_OK(attn_isa_force(isa));
            int same = 1;
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                size_t m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
                float *a = malloc(m * k * sizeof *a), *b = malloc(k * n * sizeof *b);
                float *c1 = malloc(m * n * sizeof *c1), *c2 = malloc(m * n * sizeof *c2);
                ch09_fill(a, m * k, 31 + (unsigned)s);
                ch09_fill(b, k * n, 41 + (unsigned)s);
                for (size_t i = 0; i < m; i++) {          /* 第 1 章的循环 */
                    for (size_t j = 0; j < n; j++)
                        c1[i * n + j] = 0.0f;
                    for (size_t p = 0; p < k; p++) {
                        float aip = a[i * k + p];
                        for (size_t j = 0; j < n; j++)
                            c1[i * n + j] += aip * b[p * n + j];
                    }
                }
                CHECK_OK(attn_matmul(a, b, c2, m, k, n));
                same &= memcmp(c1, c2, m * n * sizeof *c1) == 0;
                free(a); free(b); free(c1); free(c2);
            }
            printf("  %s：%s\n", attn_isa_name(isa), same ? "一位不差" : "有差别");
            CHECK(same);
        }
        CHECK_OK(attn_isa_force(-1));
        CHECK((double)100 * 300 * 50 >= 1048576.0);     /* 这些形状都够大，确实走了分块的版本 */
        CHECK((double)96 * 129 * 97 >= 1048576.0);
    }
#line 1758 "book/09-fast.nw"
    check_section("快速路径与参考实现一致");
    {
        size_t shapes[][4] = {   /* n_q, n_k, d_k, d_v */
            {1, 1, 1, 1}, {3, 5, 2, 3}, {64, 64, 16, 16}, {65, 63, 17, 33}, {192, 64, 64, 64},
            {130, 200, 64, 64}, {200, 130, 8, 20}, {7, 300, 32, 1}, {400, 389, 3, 48},
        };
        size_t n_shapes = sizeof shapes / sizeof shapes[0];
        double worst_out = 0.0, worst_w = 0.0;
        int all_ok = 1, same_without_weights = 1;
        for (size_t s = 0; s < n_shapes; s++)
            for (int variant = 0; variant < 4; variant++) {
                size_t n_q = shapes[s][0], n_k = shapes[s][1], d_k = shapes[s][2], d_v = shapes[s][3];
                int causal = variant & 1, use_mask = variant >> 1;
#line 1794 "book/09-fast.nw"
                float *q = malloc(n_q * d_k * sizeof *q), *k = malloc(n_k * d_k * sizeof *k);
                float *v = malloc(n_k * d_v * sizeof *v);
                float *o1 = malloc(n_q * d_v * sizeof *o1), *o2 = malloc(n_q * d_v * sizeof *o2);
                float *o3 = malloc(n_q * d_v * sizeof *o3);
                float *w1 = malloc(n_q * n_k * sizeof *w1), *w2 = malloc(n_q * n_k * sizeof *w2);
                unsigned char *mask = malloc(n_q * n_k);
                ch09_fill(q, n_q * d_k, 1 + (unsigned)s);
                ch09_fill(k, n_k * d_k, 100 + (unsigned)s);
                ch09_fill(v, n_k * d_v, 200 + (unsigned)s);
                /* 大约五分之一的位置不许看；第 2 行整行不许看 */
                for (size_t x = 0; x < n_q * n_k; x++)
                    mask[x] = (x * 7 + x / n_k) % 5 != 0 && x / n_k != 2;
#line 1772 "book/09-fast.nw"
                all_ok &= attn_sdpa_reference(q, k, v, n_q, n_k, d_k, d_v, 0.0f, use_mask ? mask : NULL,
                                    causal, o1, w1) == ATTN_OK;
                all_ok &= attn_sdpa_ex(q, k, v, n_q, n_k, d_k, d_v, 0.0f, use_mask ? mask : NULL,
                                         causal, o2, w2, &(attn_sdpa_options){1, 2}) == ATTN_OK;
                all_ok &= attn_sdpa_ex(q, k, v, n_q, n_k, d_k, d_v, 0.0f, use_mask ? mask : NULL,
                                         causal, o3, NULL, &(attn_sdpa_options){1, 1}) == ATTN_OK;
                for (size_t x = 0; x < n_q * d_v; x++)
                    worst_out = fmax(worst_out, fabs(o1[x] - o2[x]));
                for (size_t x = 0; x < n_q * n_k; x++)
                    worst_w = fmax(worst_w, fabs(w1[x] - w2[x]));
                same_without_weights &= memcmp(o2, o3, n_q * d_v * sizeof *o2) == 0;
                free(q); free(k); free(v); free(o1); free(o2); free(o3); free(w1); free(w2); free(mask);
            }
        CHECK(all_ok);
        CHECK(same_without_weights);
        CHECK(worst_out < 1e-5);
        CHECK(worst_w < 1e-5);
        CHECK(worst_out > 0);
    }
#line 1814 "book/09-fast.nw"
    check_section("每一种指令集都和参考实现对答案");
    {
        size_t shapes[][4] = {   /* n_q, n_k, d_k, d_v */
            {1, 1, 1, 1}, {3, 5, 2, 3}, {65, 63, 17, 33}, {200, 130, 8, 20}, {400, 389, 3, 48},
            {300, 300, 64, 64}, {97, 200, 32, 32}, {200, 300, 16, 16},
        };
        size_t n_shapes = sizeof shapes / sizeof shapes[0];
        int tested = 0;
        for (int isa = 0; isa < ATTN_ISA_COUNT; isa++) {
            if (!attn_isa_available(isa)) {
                printf("  跳过 %s：这台机器或这个构建没有它\n", attn_isa_name(isa));
                CHECK_STATUS(attn_isa_force(isa), ATTN_EINVAL);
                continue;
            }
            CHECK_OK(attn_isa_force(isa));
            CHECK_INT(attn_isa_current(), isa);
            double worst_out = 0.0, worst_w = 0.0;
            int all_ok = 1;
            for (size_t s = 0; s < n_shapes; s++)
                for (int variant = 0; variant < 4; variant++) {
                    size_t n_q = shapes[s][0], n_k = shapes[s][1], d_k = shapes[s][2], d_v = shapes[s][3];
                    int causal = variant & 1, use_mask = variant >> 1;
#line 1794 "book/09-fast.nw"
                    float *q = malloc(n_q * d_k * sizeof *q), *k = malloc(n_k * d_k * sizeof *k);
                    float *v = malloc(n_k * d_v * sizeof *v);
                    float *o1 = malloc(n_q * d_v * sizeof *o1), *o2 = malloc(n_q * d_v * sizeof *o2);
                    float *o3 = malloc(n_q * d_v * sizeof *o3);
                    float *w1 = malloc(n_q * n_k * sizeof *w1), *w2 = malloc(n_q * n_k * sizeof *w2);
                    unsigned char *mask = malloc(n_q * n_k);
                    ch09_fill(q, n_q * d_k, 1 + (unsigned)s);
                    ch09_fill(k, n_k * d_k, 100 + (unsigned)s);
                    ch09_fill(v, n_k * d_v, 200 + (unsigned)s);
                    /* 大约五分之一的位置不许看；第 2 行整行不许看 */
                    for (size_t x = 0; x < n_q * n_k; x++)
                        mask[x] = (x * 7 + x / n_k) % 5 != 0 && x / n_k != 2;
#line 1837 "book/09-fast.nw"
                    all_ok &= attn_sdpa_reference(q, k, v, n_q, n_k, d_k, d_v, 0.0f, use_mask ? mask : NULL,
                                                  causal, o1, w1) == ATTN_OK;
                    all_ok &= attn_sdpa_ex(q, k, v, n_q, n_k, d_k, d_v, 0.0f, use_mask ? mask : NULL,
                                           causal, o2, w2, &(attn_sdpa_options){1, 2}) == ATTN_OK;
                    for (size_t x = 0; x < n_q * d_v; x++)
                        worst_out = fmax(worst_out, fabs(o1[x] - o2[x]));
                    for (size_t x = 0; x < n_q * n_k; x++)
                        worst_w = fmax(worst_w, fabs(w1[x] - w2[x]));
                    free(q); free(k); free(v); free(o1); free(o2); free(o3); free(w1); free(w2); free(mask);
                }
            printf("  %s（%d 个 float 一个向量）：输出最大差 %.2g，权重最大差 %.2g\n", attn_isa_name(isa),
                   attn_isa_lanes(isa), worst_out, worst_w);
            CHECK(all_ok);
            CHECK(worst_out < 1e-5);
            CHECK(worst_w < 1e-5);
            tested++;
        }
        CHECK_OK(attn_isa_force(-1));
        CHECK(tested >= 1);                                   /* 通用的那一份总能用 */
        CHECK(attn_isa_available(ATTN_ISA_PORTABLE));
        CHECK_STATUS(attn_isa_force(7), ATTN_EINVAL);
        CHECK(strcmp(attn_isa_name(7), "unknown") == 0);
        CHECK_INT(attn_isa_lanes(ATTN_ISA_AVX512), 16);
    }
#line 1864 "book/09-fast.nw"
    check_section("看不见任何键的行是零");
    {
        size_t n_q = 200, n_k = 130, d = 8;
        float *q = malloc(n_q * d * sizeof *q), *k = malloc(n_k * d * sizeof *k);
        float *v = malloc(n_k * d * sizeof *v), *o = malloc(n_q * d * sizeof *o);
        float *w = malloc(n_q * n_k * sizeof *w);
        ch09_fill(q, n_q * d, 5);
        ch09_fill(k, n_k * d, 6);
        ch09_fill(v, n_k * d, 7);
        CHECK_OK(attn_sdpa_ex(q, k, v, n_q, n_k, d, d, 0.0f, NULL, 1, o, w, &(attn_sdpa_options){1, 2}));
        double zeros = 0, row70 = 0;
        for (size_t x = 0; x < 70 * d; x++)
            zeros += fabs(o[x]);
        for (size_t x = 0; x < 70 * n_k; x++)
            zeros += fabs(w[x]);
        for (size_t j = 0; j < n_k; j++)
            row70 += w[70 * n_k + j];
        CHECK_NEAR(zeros, 0, 0);
        CHECK_NEAR(row70, 1, 1e-5);
        CHECK_NEAR(w[70 * n_k + 0], 1, 1e-6);   /* 第 70 个查询只看得见第 0 个键 */
        free(q); free(k); free(v); free(o); free(w);
    }
#line 1891 "book/09-fast.nw"
    check_section("快速路径的参数检查");
    {
        float q[4] = {1, 2, 3, 4}, k[4] = {1, 0, 0, 1}, v[4] = {1, 2, 3, 4}, o[4] = {9, 9, 9, 9};
        CHECK_STATUS(attn_sdpa_ex(NULL, k, v, 2, 2, 2, 2, 0, NULL, 0, o, NULL, &(attn_sdpa_options){1, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, k, v, 0, 2, 2, 2, 0, NULL, 0, o, NULL, &(attn_sdpa_options){1, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, k, v, 2, 2, 2, 2, -1.0f, NULL, 0, o, NULL, &(attn_sdpa_options){1, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, k, v, 2, 2, 2, 2, NAN, NULL, 0, o, NULL, &(attn_sdpa_options){1, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, k, v, 2, 2, 2, 2, 0, NULL, 0, o, NULL, &(attn_sdpa_options){1, -1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, k, v, 2, 2, 2, 2, 0, NULL, 0, o, NULL, &(attn_sdpa_options){0, 1}), ATTN_EINVAL);
        CHECK_STATUS(attn_sdpa_ex(q, k, v, 2, 2, 2, 2, 0, NULL, 0, o, NULL, &(attn_sdpa_options){SIZE_MAX / 2, 1}),
                     ATTN_EINVAL);
        CHECK_NEAR(o[0], 9, 0);
        CHECK_OK(attn_sdpa_ex(q, k, v, 2, 2, 2, 2, 0, NULL, 0, o, NULL, &(attn_sdpa_options){1, 0}));
        CHECK(o[0] != 9);
    }
#line 2157 "book/09-fast.nw"
    check_section("attn-bench 报告的内存");
    {
        CHECK_INT((192 + 96) * 16 + (96 + 192) * 32 + 96 * 192 + 3 * 192, 32832);
        CHECK_INT(attn_flash_bytes(16, 16, 1), 131328);
        CHECK_INT(64 * sizeof(float), 256);
        CHECK_INT(64 * 65 / 2, 2080);
    }
#line 2336 "book/09-fast.nw"
    check_section("表里的额外内存");
    {
        CHECK_INT(2048 * sizeof(float), 8 * 1024);
        CHECK_INT((size_t)8 * 2048 * 2048 * sizeof(float), (size_t)128 << 20);
        CHECK_INT((size_t)2 * 8 * 2048 * 2048 * sizeof(float), (size_t)256 << 20);
        CHECK_INT((size_t)3 * 8 * 2048 * 2048 * sizeof(float), (size_t)384 << 20);
        CHECK_INT(attn_flash_bytes(64, 64, 1), 223488);
        CHECK_INT(attn_flash_bytes(64, 64, 2), ch09_threads(2) * 223488);
        CHECK_NEAR(2 * 223488 / 1024.0, 437, 0.5);
        CHECK_INT((size_t)4 * 16384 * 64 * sizeof(float), (size_t)16 << 20);   /* q、k、v、out */
        CHECK_NEAR(log10((256.0 * 1048576) / 223488), 3.08, 0.01);              /* 三个数量级 */
        CHECK_NEAR(2048.0 * 2048 * 2289664.0 / (2048.0 * 2048 * 4194304.0), 0.546, 5e-4);
    }
#line 2357 "book/09-fast.nw"
    check_section("图 9.2 的峰值线");
    {
        double peak1 = 176.3, peak2 = 352.3, peak_avx2 = 103.8;   /* 表里量出的峰值 */
        CHECK_NEAR(peak2 / peak1, 2.0, 0.005);
        CHECK_NEAR(peak1 / peak_avx2, 1.70, 0.005);
    }
#line 2431 "book/09-fast.nw"
    check_section("测量一节里由表算出的比例");
    {
        double ref = 3.7831, fast = 0.0706, causal = 0.0383, fast2 = 0.0362, causal2 = 0.0191;
        CHECK_NEAR(ref / fast, 54, 0.5);
        CHECK_NEAR(causal / fast, 0.54, 0.005);
        CHECK_NEAR(fast / fast2, 1.95, 0.005);
        CHECK_NEAR(causal / causal2, 2.0, 0.05);
        CHECK_NEAR(352.3 / 176.3, 2.00, 0.005);
        CHECK_INT(8 * ((2048 + FQ - 1) / FQ), 88);
        CHECK_NEAR(0.4223 / fast, 6.0, 0.05);
        CHECK_NEAR(0.5071 / fast, 7.2, 0.05);
        CHECK_NEAR(0.7717 / 0.2503, 3.1, 0.05);
        CHECK_NEAR(1.27 / 0.2503, 5.1, 0.05);
        CHECK_NEAR(0.2503 / 0.1415, 1.77, 0.005);
        CHECK_NEAR(0.1324 / 0.0734, 1.80, 0.005);
        CHECK_NEAR(121.7 / 176.3, 0.69, 0.005);
        CHECK_NEAR(62.6 / 103.8, 0.60, 0.005);
    }
#line 2461 "book/09-fast.nw"
    check_section("两个常见的误解");
    {
        CHECK_INT(attn_flash_scores(2048, 2048, 0), 2048 * 2048);
        CHECK_INT(attn_flash_scores(1000, 700, 0), 1000 * 700);
        CHECK(attn_flash_scores(2048, 2048, 1) > 2048 * 2048 / 2);
        CHECK(attn_flash_scores(4096, 4096, 1) * 2048.0 * 2048.0
              < attn_flash_scores(2048, 2048, 1) * 4096.0 * 4096.0);
    }
#line 2497 "book/09-fast.nw"
    check_section("练习的参考答案");
    {
        CHECK_INT((192 + 96) * 128 + (96 + 192) * 128 + 96 * 192 + 3 * 192, 92736);
        CHECK_INT(attn_flash_bytes(128, 128, 1), 370944);
        CHECK_INT(attn_flash_bytes(128, 128, 2), ch09_threads(2) * 370944);
        CHECK_INT(2 * 370944, 741888);
        CHECK_INT(21 * 192 + 64, 4096);
        size_t sum = 0;
        for (size_t b = 0; b < 21; b++)
            sum += 192 * 192 * (b + 1);
        CHECK_INT(sum, 8515584);
        CHECK_INT(sum + 64 * 4096, 8777728);
        CHECK_INT(attn_flash_scores(4096, 4096, 1), 8777728);
        CHECK_NEAR(8777728.0 / (4096.0 * 4096.0), 0.523, 5e-4);
        CHECK_INT(21 * 96 + 32, 2048);
        sum = 0;
        for (size_t b = 0; b < 21; b++)
            sum += 96 * 96 * (b + 1);
        CHECK_INT(sum, 2128896);
        CHECK_INT(sum + 32 * 2048, 2194432);
        CHECK_NEAR(2194432.0 / (2048.0 * 2048.0), 0.523, 5e-4);
        CHECK_INT((96 + 96) * 64 * 2 + 96 * 96 + 3 * 96, 34080);
        CHECK_INT(34080 * 4, 136320);
        CHECK_INT(96 % 96, 0);
    }
#line 1966 "book/09-fast.nw"
    return check_summary("ch09");
}
