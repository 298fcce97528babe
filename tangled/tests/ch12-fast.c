#line 3662 "book/D-cpu.nw"
#include "attn.h"
#include "attn_core.h"
#include "check.h"
#include "linear_fast.h"
#include "matmul_fast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "../examples/fluffy_task.h"

#line 3426 "book/D-cpu.nw"
/* x[n] 取 N(0, s²) */
static void fill(attn_rng *r, float *x, size_t n, float s)
{
    attn_rng_normal(r, x, n);
    for (size_t i = 0; i < n; i++)
        x[i] *= s;
}

#line 3680 "book/D-cpu.nw"
int main(void)
{
#ifdef _OPENMP
    omp_set_num_threads(1);
#endif
#line 3436 "book/D-cpu.nw"
    check_section("线性层反向传播的寄存器块和第 12 章的循环一位不差；小矩阵乘法和第 1 章的循环一位不差");
    {
        size_t shapes[][3] = {   /* n, d_in, d_out */
            {64, 32, 32}, {64, 32, 29}, {37, 45, 61}, {300, 64, 96}, {2048, 128, 160}, {5, 200, 7},
            {200, 103, 1000},   /* dw 矮而宽：一件工作取整列；剩下 4 行、3 行和不足一个向量的列 */
        };
        attn_rng r;
        attn_rng_seed(&r, 31);
        for (int isa = 0; isa < ATTN_ISA_COUNT; isa++) {
            if (!attn_isa_available(isa)) {
                printf("  跳过 %s：这台机器或这个构建没有它\n", attn_isa_name(isa));
                continue;
            }
            CHECK_OK(attn_isa_force(isa));
            int same = 1, took = 0;
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                size_t n = shapes[s][0], di = shapes[s][1], dout = shapes[s][2];
                float *x = malloc(n * di * sizeof *x), *w = malloc(di * dout * sizeof *w);
                float *dy = malloc(n * dout * sizeof *dy), *dx1 = malloc(n * di * sizeof *dx1);
                float *dx2 = malloc(n * di * sizeof *dx2), *dw1 = malloc(di * dout * sizeof *dw1);
                float *dw2 = malloc(di * dout * sizeof *dw2), *c1 = malloc(n * dout * sizeof *c1);
                float *c2 = malloc(n * dout * sizeof *c2);
                fill(&r, x, n * di, 1);
                fill(&r, w, di * dout, 1);
                fill(&r, dy, n * dout, 1);
                fill(&r, dw1, di * dout, 1);        /* dw 是“加上”：从非零的数开始 */
                memcpy(dw2, dw1, di * dout * sizeof *dw1);
                /* 第 12 章的循环 */
                for (size_t i = 0; i < n; i++)
                    for (size_t k = 0; k < di; k++) {
                        float acc = 0.0f;
                        for (size_t j = 0; j < dout; j++)
                            acc += dy[i * dout + j] * w[k * dout + j];
                        dx1[i * di + k] = acc;
                    }
                for (size_t i = 0; i < n; i++)
                    for (size_t k = 0; k < di; k++)
                        for (size_t j = 0; j < dout; j++)
                            dw1[k * dout + j] += x[i * di + k] * dy[i * dout + j];
                took += attn_linear_backward_fast(x, w, dy, n, di, dout, dx2, dw2) == ATTN_OK;
                same &= memcmp(dx1, dx2, n * di * sizeof *dx1) == 0;
                same &= memcmp(dw1, dw2, di * dout * sizeof *dw1) == 0;
                /* 小矩阵乘法：c[n×dout] = x[n×di]·w，与第 1 章的循环比 */
                for (size_t i = 0; i < n; i++) {
                    for (size_t j = 0; j < dout; j++)
                        c1[i * dout + j] = 0.0f;
                    for (size_t p = 0; p < di; p++)
                        for (size_t j = 0; j < dout; j++)
                            c1[i * dout + j] += x[i * di + p] * w[p * dout + j];
                }
                CHECK_OK(attn_matmul(x, w, c2, n, di, dout));
                same &= memcmp(c1, c2, n * dout * sizeof *c1) == 0;
                free(x); free(w); free(dy); free(dx1); free(dx2); free(dw1); free(dw2);
                free(c1); free(c2);
            }
            printf("  %s：%s\n", attn_isa_name(isa), same ? "一位不差" : "有差别");
            CHECK(same);
            CHECK_INT(took, 7);
        }
        CHECK_OK(attn_isa_force(-1));
        CHECK(attn_matmul_fast(NULL, NULL, NULL, 4, 4, 4) == -1);      /* 太小：交给第 1 章的循环 */
    }
#line 1527 "book/D-cpu.nw"
    check_section("快速的反向传播：n = 16384 时额外的内存");
    {
        size_t bytes = attn_flash_backward_bytes(16384, 16384, 64, 64, 1);
        /* o、qt、qp、dot、dop、dq 各 16384×64 个 float，每行 4 个数，一小块工作区 */
        CHECK_INT((size_t)16384 * 64 * 4, (size_t)4 << 20);
        CHECK(bytes > (size_t)24 << 20);
        CHECK(bytes < (size_t)25 << 20);
        CHECK(bytes < (size_t)64 << 20);
        CHECK_INT(attn_flash_backward_bytes(0, 16, 64, 64, 1), 0);
        CHECK_INT(attn_flash_backward_bytes(16, 16, 64, 64, -1), 0);
        CHECK_INT(attn_flash_backward_bytes(SIZE_MAX, 16, 64, 64, 1), 0);
    }
#line 1771 "book/D-cpu.nw"
    check_section("快速的反向传播与参考版本一致（每一种指令集）");
    {
        size_t shapes[][4] = {   /* n_q, n_k, d_k, d_v */
            {1, 1, 1, 1}, {3, 5, 4, 3}, {65, 63, 17, 33}, {200, 130, 8, 20}, {130, 200, 64, 64},
            {400, 389, 3, 48},
        };
        size_t n_shapes = sizeof shapes / sizeof shapes[0];
        attn_rng r;
        attn_rng_seed(&r, 21);
        for (int isa = 0; isa < ATTN_ISA_COUNT; isa++) {
            if (!attn_isa_available(isa)) {
                printf("  跳过 %s：这台机器或这个构建没有它\n", attn_isa_name(isa));
                continue;
            }
            CHECK_OK(attn_isa_force(isa));
            double worst = 0.0;
            int all_ok = 1, partial_same = 1;
            for (size_t s = 0; s < n_shapes; s++)
                for (int variant = 0; variant < 4; variant++) {
                    size_t n_q = shapes[s][0], n_k = shapes[s][1], d_k = shapes[s][2], d_v = shapes[s][3];
                    int causal = variant & 1;
#line 1858 "book/D-cpu.nw"
                    size_t n1 = n_q * d_k, n2 = n_k * d_k, n3 = n_k * d_v, no = n_q * d_v;
                    float *f = malloc((n1 + n2 + n3 + no + 2 * (n1 + n2 + n3) + n2) * sizeof *f);
                    float *q = f, *k = q + n1, *v = k + n2, *dout = v + n3;
                    float *g1 = dout + no, *g2 = g1 + n1 + n2 + n3, *g3 = g2 + n1 + n2 + n3;
                    fill(&r, f, n1 + n2 + n3 + no, 1);
                    /* 显式掩码（variant 2、3）：大约五分之一的位置不许看，第 2 行整行不许看 */
                    unsigned char *mask = NULL;
                    if (variant >> 1) {
                        mask = malloc(n_q * n_k);
                        for (size_t x = 0; x < n_q * n_k; x++)
                            mask[x] = (x * 7 + x / n_k) % 5 != 0 && x / n_k != 2;
                    }
#line 1793 "book/D-cpu.nw"
                    all_ok &= attn_sdpa_backward_reference(q, k, v, n_q, n_k, d_k, d_v, 0.0f, mask,
                                                           causal, dout, g1, g1 + n1, g1 + n1 + n2) == ATTN_OK;
                    all_ok &= attn_flash_backward(q, k, v, n_q, n_k, d_k, d_v, 1.0f / sqrtf((float)d_k),
                                                  mask, causal, dout, g2, g2 + n1, g2 + n1 + n2, 1) == ATTN_OK;
                    double top = 0.0;
                    for (size_t x = 0; x < n1 + n2 + n3; x++)
                        top = fmax(top, fabs(g1[x]));
                    for (size_t x = 0; x < n1 + n2 + n3; x++)
                        worst = fmax(worst, fabs(g1[x] - g2[x]) / fmax(top, 1e-30));
                    /* 只要 dk：和全要时的 dk 一样 */
                    all_ok &= attn_flash_backward(q, k, v, n_q, n_k, d_k, d_v, 1.0f / sqrtf((float)d_k),
                                                  mask, causal, dout, NULL, g3, NULL, 1) == ATTN_OK;
                    partial_same &= memcmp(g3, g2 + n1, n2 * sizeof *g3) == 0;
                    free(f);
                    free(mask);
                }
            printf("  %s：梯度的最大相对差 %.2g\n", attn_isa_name(isa), worst);
            CHECK(all_ok);
            CHECK(partial_same);
            CHECK(worst < 2e-5);
        }
        CHECK_OK(attn_isa_force(-1));
    }
    check_section("attn_sdpa_backward 在不太小的问题上走快速实现");
    {
        size_t n_q = 130, n_k = 200, d = 16, n1 = n_q * d, n2 = n_k * d, n3 = n_k * d;
        float *f = malloc((n1 + n2 + n3 + n1 + 2 * (n1 + n2 + n3)) * sizeof *f);
        float *q = f, *k = q + n1, *v = k + n2, *dout = v + n3, *a = dout + n1, *b = a + n1 + n2 + n3;
        attn_rng r;
        attn_rng_seed(&r, 8);
        fill(&r, f, n1 + n2 + n3 + n1, 1);
        CHECK(130 * 200 >= 32 * 32);
        CHECK_OK(attn_sdpa_backward(q, k, v, n_q, n_k, d, d, 0.0f, NULL, 1, dout, a, a + n1, a + n1 + n2));
        CHECK(attn_flash_backward(q, k, v, n_q, n_k, d, d, 0.25f, NULL, 1, dout, b, b + n1, b + n1 + n2, 1) == ATTN_OK);
        CHECK(memcmp(a, b, (n1 + n2 + n3) * sizeof *a) == 0);
        free(f);
    }
    check_section("快速的反向传播：两个线程");
    {
        size_t n_q = 500, n_k = 450, d = 32, n1 = n_q * d, n2 = n_k * d, n3 = n_k * d;
        float *f = malloc((n1 + n2 + n3 + n1 + 3 * (n1 + n2 + n3)) * sizeof *f);
        float *q = f, *k = q + n1, *v = k + n2, *dout = v + n3;
        float *a = dout + n1, *b = a + n1 + n2 + n3, *c = b + n1 + n2 + n3;
        attn_rng r;
        attn_rng_seed(&r, 5);
        fill(&r, f, n1 + n2 + n3 + n1, 1);
        CHECK(attn_flash_backward(q, k, v, n_q, n_k, d, d, 0.25f, NULL, 1, dout, a, a + n1, a + n1 + n2, 1) == ATTN_OK);
        CHECK(attn_flash_backward(q, k, v, n_q, n_k, d, d, 0.25f, NULL, 1, dout, b, b + n1, b + n1 + n2, 2) == ATTN_OK);
        CHECK(attn_flash_backward(q, k, v, n_q, n_k, d, d, 0.25f, NULL, 1, dout, c, c + n1, c + n1 + n2, 2) == ATTN_OK);
        CHECK(memcmp(b, c, (n1 + n2 + n3) * sizeof *b) == 0);
        CHECK(memcmp(a + n1, b + n1, (n2 + n3) * sizeof *a) == 0);   /* dK、dV 不随线程数变 */
        CHECK_ARRAY_NEAR(a, b, n1, 1e-5);
        free(f);
    }
    check_section("快速的反向传播：太大的输入交给参考版本");
    {
        float q[2] = {1e30f, 1e30f}, k[2] = {1e30f, -1e30f}, v[2] = {1, 2}, dout[2] = {1, 1};
        float dq[2], dv[2];
        CHECK(attn_flash_backward(q, k, v, 2, 2, 1, 1, 1.0f, NULL, 0, dout, dq, NULL, dv, 1) == -1);
        CHECK_OK(attn_sdpa_backward(q, k, v, 2, 2, 1, 1, 1.0f, NULL, 0, dout, dq, NULL, dv));
        CHECK(!isnan(dq[0]) && !isnan(dv[0]) && !isnan(dv[1]));
    }
#line 3501 "book/D-cpu.nw"
    check_section("训练 3 步：1 个线程和 2 个线程的参数一位不差");
    #ifdef _OPENMP
    {
        attn_gpt_config c = {0};
        c.vocab = 300; c.n_ctx = 48; c.d_model = 64; c.n_layers = 2; c.n_heads = 4; c.d_head = 16;
        c.d_ff = 256; c.biases = 1; c.layer_norms = 1; c.learned_positions = 1; c.tied = 1;
        enum { SEQ = 8, N = 48 };
        float *params[2] = {NULL, NULL};
        for (int run = 0; run < 2; run++) {
            omp_set_num_threads(run + 1);
            attn_gpt m, g;
            CHECK_OK(attn_gpt_init(&m, &c, 9));
            size_t n = m.n_params;
            float *gb = calloc(n, sizeof *gb), *m1 = calloc(n, sizeof *m1), *m2 = calloc(n, sizeof *m2);
            CHECK_OK(attn_gpt_bind(&g, &c, gb, n));
            int tok[SEQ * N], tgt[SEQ * N];
            attn_rng r;
            attn_rng_seed(&r, 77);
            for (unsigned long t = 1; t <= 3; t++) {
                for (int i = 0; i < SEQ * N; i++) {
                    tok[i] = (int)(attn_rng_next(&r) % 300);
                    tgt[i] = (int)(attn_rng_next(&r) % 300);
                }
                float loss;
                memset(gb, 0, n * sizeof *gb);
                CHECK_OK(attn_gpt_loss_grad_batch(&m, tok, tgt, SEQ, N, &loss, &g, NULL, 0));
                CHECK_OK(attn_gpt_adamw_step(&m, &g, m1, m2, t, 1e-3f, 0.9f, 0.999f, 1e-8f, 0.01f));
            }
            params[run] = malloc(n * sizeof(float));
            memcpy(params[run], m.params, n * sizeof(float));
            CHECK(memcmp(params[run], m.params, n * sizeof(float)) == 0);
            if (run == 1)
                CHECK(memcmp(params[0], params[1], n * sizeof(float)) == 0);
            attn_gpt_free(&g);
            attn_gpt_free(&m);
            free(gb); free(m1); free(m2);
        }
        free(params[0]);
        free(params[1]);
        omp_set_num_threads(1);
    }
    #else
    printf("  跳过：这个构建没有 OpenMP，只有一个线程\n");
    #endif
#line 3548 "book/D-cpu.nw"
    check_section("层规范化的前向、反向和 AdamW：1 个、2 个线程和第 11、12 章的循环一位不差");
    {
        enum { N = 1024, D = 103, P = 100003 };     /* N·D 超过 65536，会分给线程；D 不是 16 的倍数 */
        attn_rng r;
        attn_rng_seed(&r, 41);
        float *x = malloc(N * D * sizeof *x), *dy = malloc(N * D * sizeof *dy);
        float gm[D], g0[D], b0[D], g1[D], b1[D], g2[D], b2[D];
        float *dx1 = malloc(N * D * sizeof *dx1), *dx2 = malloc(N * D * sizeof *dx2);
        float *y1 = malloc(N * D * sizeof *y1), *y2 = malloc(N * D * sizeof *y2);
        fill(&r, x, N * D, 2);
        fill(&r, dy, N * D, 1);
        fill(&r, gm, D, 1);
        fill(&r, g0, D, 1);                  /* dγ、dβ 是“加上”：从非零的数开始 */
        fill(&r, b0, D, 1);
        /* 参照：每次 64 行（64·D 不到 65536，走第 12 章的循环），dγ、dβ 仍按行的顺序加 */
        memcpy(g1, g0, sizeof g0);
        memcpy(b1, b0, sizeof b0);
        for (size_t i0 = 0; i0 < N; i0 += 64)
            CHECK_OK(attn_layernorm_backward(x + i0 * D, gm, dy + i0 * D, 64, D, 1e-5f,
                                             dx1 + i0 * D, g1, b1));
        for (size_t i0 = 0; i0 < N; i0 += 64)
            CHECK_OK(attn_layernorm(x + i0 * D, gm, b0, y1 + i0 * D, 64, D, 1e-5f));
        float *p = malloc(3 * P * sizeof *p), *q = malloc(3 * P * sizeof *q), *gp = malloc(P * sizeof *gp);
        fill(&r, p, 3 * P, 1);
        for (size_t i = P; i < 3 * P; i++)
            p[i] = i < 2 * P ? p[i] * 0.1f : p[i] * p[i] * 0.01f;   /* m 任意，v 非负 */
        fill(&r, gp, P, 1);
        /* AdamW 的参照：每次 1000 个数（不到 65536，一个线程） */
        memcpy(q, p, 3 * P * sizeof *p);
        for (size_t i0 = 0; i0 < P; i0 += 1000) {
            size_t c = P - i0 < 1000 ? P - i0 : 1000;
            CHECK_OK(attn_adamw_step(q + i0, gp + i0, q + P + i0, q + 2 * P + i0, c, 3, 1e-3f, 0.9f,
                                     0.999f, 1e-8f, 0.1f));
        }
        int same = 1;
        for (int threads = 1; threads <= 2; threads++) {
    #ifdef _OPENMP
            omp_set_num_threads(threads);
    #else
            if (threads == 2)
                break;
    #endif
            memcpy(g2, g0, sizeof g0);
            memcpy(b2, b0, sizeof b0);
            CHECK_OK(attn_layernorm_backward(x, gm, dy, N, D, 1e-5f, dx2, g2, b2));
            same &= memcmp(dx1, dx2, N * D * sizeof *dx1) == 0 && memcmp(g1, g2, sizeof g1) == 0 &&
                    memcmp(b1, b2, sizeof b1) == 0;
            memcpy(dx2, dy, N * D * sizeof *dy);             /* dx 就是 dy，不要 dγ */
            CHECK_OK(attn_layernorm_backward(x, gm, dx2, N, D, 1e-5f, dx2, NULL, b2));
            same &= memcmp(dx1, dx2, N * D * sizeof *dx1) == 0;
            CHECK_OK(attn_layernorm(x, gm, b0, y2, N, D, 1e-5f));
            same &= memcmp(y1, y2, N * D * sizeof *y1) == 0;
            float *s = malloc(3 * P * sizeof *s);
            memcpy(s, p, 3 * P * sizeof *p);
            CHECK_OK(attn_adamw_step(s, gp, s + P, s + 2 * P, P, 3, 1e-3f, 0.9f, 0.999f, 1e-8f, 0.1f));
            same &= memcmp(q, s, 3 * P * sizeof *q) == 0;
            free(s);
            printf("  %d 个线程：%s\n", threads, same ? "一位不差" : "有差别");
        }
    #ifdef _OPENMP
        omp_set_num_threads(1);
    #else
        printf("  跳过 2 个线程：这个构建没有 OpenMP\n");
    #endif
        CHECK(same);
        CHECK(attn_layernorm_backward_fast(x, gm, dy, 64, D, 1e-5f, dx2, g2, b2) == -1);   /* 太小 */
        free(x); free(dy); free(dx1); free(dx2); free(y1); free(y2); free(p); free(q); free(gp);
    }
#line 3619 "book/D-cpu.nw"
    check_section("第 12 章的任务训练 300 步：AVX2 和 AVX-512 一位不差；通用的那份 2000 步后仍然学会");
    {
        float *bits[ATTN_ISA_COUNT] = {NULL};
        for (int isa = 0; isa < ATTN_ISA_COUNT; isa++) {
            if (!attn_isa_available(isa)) {
                printf("  跳过 %s：这台机器或这个构建没有它\n", attn_isa_name(isa));
                continue;
            }
            CHECK_OK(attn_isa_force(isa));
            fluffy_trainer T;
            CHECK_OK(fluffy_init(&T, 1));
            int steps = isa == ATTN_ISA_PORTABLE && !check_light("通用指令集上训练 2000 步") ? 2000 : 300;
            for (int s = 0; s < steps; s++)
                fluffy_step(&T, NULL);
            if (steps == 2000) {
                float loss, acc;
                fluffy_eval(&T.m, &loss, &acc);
                printf("  %s：2000 步后检验损失 %.4f，准确率 %.3f\n", attn_isa_name(isa), loss, acc);
                CHECK_NEAR(acc, 1.0, 0);
                CHECK(loss < 0.02);
                double col, tex, low;
                fluffy_colour_share(&T.m, 0, fluffy_colour_head(&T.m, 0), &col, &tex, &low);
                printf("  第 0 层最看重颜色的头：颜色 %.2f，质地 %.2f\n", col, tex);
                CHECK(col > 0.4 && col > 1.5 * tex);
            } else {
                bits[isa] = malloc(T.m.n_params * sizeof(float));
                memcpy(bits[isa], T.m.params, T.m.n_params * sizeof(float));
            }
            if (isa == ATTN_ISA_AVX512 && bits[ATTN_ISA_AVX2] != NULL && bits[isa] != NULL)
                CHECK(memcmp(bits[ATTN_ISA_AVX2], bits[isa], T.m.n_params * sizeof(float)) == 0);
            fluffy_free(&T);
        }
        if (bits[ATTN_ISA_AVX2] == NULL || bits[ATTN_ISA_AVX512] == NULL)
            printf("  这台机器没有 AVX2 和 AVX-512 两种指令集，比不了\n");
        for (int isa = 0; isa < ATTN_ISA_COUNT; isa++)
            free(bits[isa]);
        CHECK_OK(attn_isa_force(-1));
    }
#line 3691 "book/D-cpu.nw"
    return check_summary("ch12-fast");
}
