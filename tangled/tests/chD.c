#line 3265 "book/D-cpu.nw"
#include "attn.h"
#include "attn_core.h"
#include "check.h"
#include "fastexp.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#include "../examples/ch09.h"

/* 寄存器块 tile_w4（x86-64 上还有 tile_w8、tile_w16） */
#define FLASH_BODY "flash_vec.h"
#include "flash_widths.h"

int main(void)
{
#line 3055 "book/D-cpu.nw"
    check_section("三种宽度的寄存器块：累加器和寄存器的个数");
    {
        CHECK_INT(6 * 16 / 8, 12);          /* AVX2：12 个累加器 */
        CHECK_INT(12 + 2 + 1, 15);          /* 15 ≤ 16 个 ymm */
        CHECK_INT(12 * 32 / 16, 24);        /* AVX-512：24 个累加器 */
        CHECK_INT(24 + 2 + 1, 27);          /* 27 ≤ 32 个 zmm */
        CHECK_INT(2 + 12, 14);              /* 每一步读 14 次，做 24 次乘加 */
        CHECK_INT(6 * 8 / 4, 12);           /* 通用：12 个 xmm 累加器 */
        CHECK_INT(16 * 2, 32);              /* 一条 AVX-512 FMA 做 32 次运算 */
        CHECK_INT(8 * 2, 16);               /* 一条 AVX2 FMA 做 16 次运算 */
        CHECK_INT(2 * 4, 8);                /* 两个单元 × 4 个周期：在路上要 8 条 */
    }
#line 3073 "book/D-cpu.nw"
    check_section("通用宽度的寄存器块：6 行 × 8 列，12 个累加器");
    {
        CHECK_INT(6 * 8 / 4, 12);          /* 12 个 4 路向量的累加器 */
        CHECK_INT(12 + 2 + 1, 15);         /* 加上 b 的一行、复制的 a：15 ≤ 16 个 xmm */
        CHECK_INT(2 + 6, 8);               /* 每一步读 8 次，做 12 次向量乘加 */
        enum { R = 6, C = 8, K = 5 };
        float a[R * K], at[K * R], b[K * C], c[R * C], want[R * C];
        for (int i = 0; i < R * K; i++)
            a[i] = (float)(i % 7 - 3);
        for (int r = 0; r < R; r++)
            for (int t = 0; t < K; t++)
                at[t * R + r] = a[r * K + t];
        for (int i = 0; i < K * C; i++)
            b[i] = (float)(i % 5 - 2);
        for (int r = 0; r < R; r++)
            for (int x = 0; x < C; x++) {
                want[r * C + x] = 0;
                for (int t = 0; t < K; t++)
                    want[r * C + x] += a[r * K + t] * b[t * C + x];
            }
        tile_w4(a, K, 1, b, C, c, C, K, 0);            /* a 按行读 */
        CHECK(memcmp(c, want, sizeof c) == 0);
        memset(c, 0, sizeof c);
        tile_w4(at, 1, R, b, C, c, C, K, 0);           /* a 按列读：at 是 a 的转置 */
        CHECK(memcmp(c, want, sizeof c) == 0);
        tile_w4(a, K, 1, b, C, c, C, K, 1);            /* 在 c 上再加一遍 */
        int twice = 1;
        for (int i = 0; i < R * C; i++)
            twice &= c[i] == 2 * want[i];
        CHECK(twice);
    }
#line 3107 "book/D-cpu.nw"
    check_section("每一种指令集都和参考实现对答案");
    {
        size_t shapes[][4] = {   /* n_q, n_k, d_k, d_v */
            {1, 1, 1, 1}, {3, 5, 2, 3}, {65, 63, 17, 33}, {200, 130, 8, 20}, {400, 389, 3, 48},
            {300, 300, 64, 64}, {97, 200, 32, 32}, {200, 300, 16, 16},
        };
        int tested = 0;
        for (int isa = 0; isa < ATTN_ISA_COUNT; isa++) {
            if (!attn_isa_available(isa)) {
                printf("  跳过 %s：这台机器或这个构建没有它\n", attn_isa_name(isa));
                CHECK_STATUS(attn_isa_force(isa), ATTN_EINVAL);
                continue;
            }
            CHECK_OK(attn_isa_force(isa));
            CHECK_INT(attn_isa_current(), isa);
            double worst[2] = {0.0, 0.0};
            int all_ok = 1;
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (int variant = 0; variant < 4; variant++)
                    all_ok &= ch09_compare(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3],
                                           variant & 1, variant >> 1, (unsigned)s, worst);
            printf("  %s（%d 个 float 一个向量）：输出最大差 %.2g，权重最大差 %.2g\n", attn_isa_name(isa),
                   attn_isa_lanes(isa), worst[0], worst[1]);
            CHECK(all_ok);
            CHECK(worst[0] < 1e-5);
            CHECK(worst[1] < 1e-5);
            tested++;
        }
        CHECK_OK(attn_isa_force(-1));
        CHECK(tested >= 1);                                   /* 通用的那一份总能用 */
        CHECK(attn_isa_available(ATTN_ISA_PORTABLE));
        CHECK_STATUS(attn_isa_force(7), ATTN_EINVAL);
        CHECK(strcmp(attn_isa_name(7), "unknown") == 0);
        CHECK_INT(attn_isa_lanes(ATTN_ISA_AVX512), 16);
        CHECK_INT(attn_isa_lanes(7), 0);
    }
#line 3146 "book/D-cpu.nw"
    check_section("多项式 exp：[-80, 0] 上相对误差小于 3e-7，exp(0) = 1，exp(-inf) = 0");
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
#line 3166 "book/D-cpu.nw"
    check_section("AVX-512 与 AVX2 的峰值之比：删掉的一条链，和它对应的频率");
    {
        double p512 = 176.3, p256 = 103.8;   /* 第 9 章那台机器上量出的，一个核 */
        CHECK_NEAR(p512 / p256, 1.70, 0.005);
        float x = 0.999999f, y = 1e-6f;      /* 从 1 出发的链在 float 里永远是 1 */
        CHECK(fmaf(1.0f, x, y) == 1.0f);
        CHECK(1.0f * x + y == 1.0f);
        CHECK_NEAR(1e-6 / (1 - 0.999999), 1, 1e-9);
        double real256 = p256 * 11 / 12;     /* 实际执行的是 11 条链 */
        CHECK_NEAR(real256, 95.2, 0.051);   /* 95.15 */
        CHECK_NEAR(p512 / real256, 1.85, 0.005);
        CHECK_NEAR(p512 / 32, 5.5, 0.05);    /* 只有一个 512 位单元时要的频率 */
        CHECK_NEAR(real256 / 32, 3.0, 0.05);
        CHECK_NEAR(p512 / 64, 2.75, 0.005);  /* GHz：每周期两条 512 位乘加，64 次运算 */
        CHECK_NEAR(real256 / 32, 2.97, 0.005);
        CHECK(p512 / 64 > 2.3 && real256 / 32 > 2.3);
        CHECK_NEAR(1 - (p512 / 64) / (real256 / 32), 0.07, 0.005);
        CHECK(24 > 2 * 4 && 12 > 2 * 4);     /* 在路上的乘加多于单元数 × 延迟 */
    }
#line 3188 "book/D-cpu.nw"
    check_section("分块的矩阵乘法和第 1 章的循环一位不差");
    {
        CHECK_NEAR(2.0 * 2048 * 512 * 512, 1.07e9, 0.005e9);   /* 一次投影 */
        CHECK_NEAR(4 * 2.0 * 2048 * 512 * 512, 4.3e9, 0.05e9); /* 四次，是 8 个头的注意力的一半 */
        CHECK_NEAR(4 * 2.0 * 2048 * 512 * 512 / 8589934592.0, 0.5, 0);
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
                if (a == NULL || b == NULL || c1 == NULL || c2 == NULL) {
                    same = 0;
                    free(a); free(b); free(c1); free(c2);
                    continue;
                }
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
#line 3235 "book/D-cpu.nw"
    check_section("基准程序一节里由表算出的速率、百分比和比例");
    {
        double fwd = 8589934592.0;                          /* 8 个头的 4n²d */
        double bwd = 2.5 * fwd;                             /* 按 10n²d */
        double mha = 8.0 * 2048 * 512 * 512 + 4.0 * 2048 * 2048 * 512;
        CHECK_REL(fwd / 0.0861 * 1e-9, 99.7, 2e-3);
        CHECK_NEAR(100 * 99.7 / 125.0, 80, 0.5);
        CHECK_NEAR(0.0861 / 0.0467, 1.84, 0.005);           /* AVX2 那一份的时间是 AVX-512 的几倍 */
        CHECK_NEAR(252.9 / 125.0, 2.02, 0.005);
        CHECK_REL(bwd / 0.1674 * 1e-9, 128.3, 2e-3);
        CHECK_REL(bwd / 0.1715 * 1e-9, 125.2, 2e-3);
        CHECK_REL(bwd / 0.1253 * 1e-9, 171.3, 2e-3);
        CHECK_NEAR(100 * 128.3 / 252.9, 51, 0.5);
        CHECK_NEAR(100 * 125.2 / 290.8, 43, 0.5);
        CHECK_NEAR(100 * 171.3 / 252.9, 68, 0.5);
        CHECK_REL(mha / 0.0727 * 1e-9, 177.2, 2e-3);
        CHECK_REL(mha / 0.0714 * 1e-9, 180.4, 2e-3);
        CHECK_NEAR(100 * 177.2 / 252.9, 70, 0.5);
        CHECK_NEAR(0.1674 / 0.1253, 1.34, 0.005);
        CHECK_NEAR(0.1253 / 0.1674, 0.75, 0.005);
        CHECK_NEAR(0.2135 / 0.1674, 1.28, 0.005);
        CHECK_INT((size_t)3 * 8 * 2048 * 2048 * sizeof(float), (size_t)384 << 20);
        CHECK_INT((size_t)16384 * 16384 * sizeof(float), (size_t)1 << 30);
    }
#line 3300 "book/D-cpu.nw"
    /* 第 12 章的训练在附录 D 里的内核，测试接在这里 */
#line 3295 "book/D-cpu.nw"
    return check_summary("chD");
}
