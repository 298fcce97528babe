#line 1969 "book/09-fast.nw"
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

#line 2018 "book/09-fast.nw"
/* 分块的图 的块：按类别计数 */
static void ch09_count_tile(size_t i0, size_t rows, size_t j0, size_t cols, int kind, void *arg)
{
    (void)i0; (void)rows; (void)j0; (void)cols;
    ((size_t *)arg)[kind]++;
}

#line 1984 "book/09-fast.nw"
int main(void)
{
#line 1398 "book/09-fast.nw"
    check_section("运算量：一个头 4n²d；按手册估计的峰值");
    {
        double n = 2048, d = 64;
        CHECK_NEAR(4 * n * n * d, 1073741824.0, 0);
        CHECK_NEAR(8 * 4 * n * n * d, 8589934592.0, 0);
        CHECK_INT(4 * (int)d, 256);
        CHECK_INT(2 * 16 * 2, 64);                 /* 两个乘加单元 × 16 个 float × 2 次运算 */
        CHECK_NEAR(64 * 2.596, 166, 0.5);
        CHECK(252.9 > 64 * 2.596);                 /* 量出的峰值高过这个估计 */
        CHECK_NEAR(252.9 / 64, 3.95, 0.005);       /* 按每周期 64 次折算的频率 */
        CHECK_NEAR(100 * 3.5 / 252.9, 1.4, 0.05);  /* 参考实现：峰值的 1.4% */
        CHECK_NEAR(64 * 3.5 / 252.9, 0.9, 0.05);   /* 每周期不到一次运算 */
    }
#line 1414 "book/09-fast.nw"
    check_section("参考实现的速度：每 0.507 纳秒一次加法、2 次运算");
    {
        double ns = 0.507, ghz = 252.9 / 64;
        /* perf：attn_problem_reference 占 93.16%，其中点积的循环 48.57%、加权求和 51.38%；softmax 4.06%，expf 1.99% */
        CHECK_NEAR(93.16 * 48.57 / 100, 45, 0.5);
        CHECK_NEAR(93.16 * 51.38 / 100, 48, 0.5);
        CHECK_NEAR(4.06 + 1.99, 6, 0.5);
        CHECK_NEAR(ns * ghz, 2.0, 0.05);           /* 一次加法约 2 个时钟周期 */
        CHECK_NEAR(2 / ns, 3.9, 0.05);             /* 这条链最多 3.9 GFLOP/s */
        CHECK_NEAR(8589934592.0 / 2.4627 * 1e-9, 3.5, 0.05);   /* 参考实现量得的 */
        CHECK_NEAR(100 * (8589934592.0 / 2.4627 * 1e-9) / (2 / ns), 88, 0.5);
        CHECK_INT(2048 * 64 * sizeof(float), 512 * 1024);      /* K 或 V：512 KiB，放得进 1 MiB 的二级缓存 */
        CHECK_NEAR(4 / ns, 7.9, 0.05);             /* 链每秒读的字节：不到 8 GB */
    }
#line 1431 "book/09-fast.nw"
    check_section("存储的层次：每一级缓存的大小和读的速度（测量记录）");
    {
        CHECK_INT(ch09_membw(0)[0], 16 * 1024);                  /* 放得进 48 KiB 的一级缓存 */
        CHECK_NEAR(ch09_membw(0)[1], 190.5, 0);
        CHECK_INT(ch09_membw(4)[0], 256 * 1024);                 /* 一级之外、1 MiB 的二级之内 */
        CHECK_NEAR(ch09_membw(4)[1], 135.5, 0);
        CHECK_INT(ch09_membw(9)[0], 8 << 20);                    /* 二级之外、32 MiB 的三级之内 */
        CHECK_NEAR(ch09_membw(9)[1], 104.7, 0);
        CHECK_INT(ch09_membw(14)[0], 256 << 20);                 /* 哪一级缓存也放不下 */
        CHECK_NEAR(ch09_membw(14)[1], 27.8, 0);
        CHECK_NEAR(190.5 / 27.8, 7, 0.5);                        /* 一级缓存比内存快约 7 倍 */
        CHECK(7.9 < 135.5 / 10);                                 /* 参考实现那条链读得不到二级缓存的十分之一 */
        for (size_t i = 1; i < CH09_MEMBW_ROWS; i++)             /* 每一行是上一行的两倍大 */
            CHECK_NEAR(ch09_membw(i)[0], 2 * ch09_membw(i - 1)[0], 0);
    }
#line 1449 "book/09-fast.nw"
    check_section("参考实现和教科书写法搬动的字节；快速路径读 K、V 的字节");
    {
        size_t n = 2048, d = 64;
        CHECK_INT(2 * n * d * sizeof(float), 1 << 20);                     /* 一个头的 K、V：1 MiB */
        CHECK_INT(n * (2 * n * d * sizeof(float)), (size_t)2 << 30);       /* 每个查询读一遍：2 GiB */
        CHECK_INT(n * n * sizeof(float), 16 << 20);                        /* S：16 MiB */
        CHECK_INT(4 * (n * n * sizeof(float)), 64 << 20);                  /* S、P 各写一遍读一遍 */
        CHECK_INT((size_t)16384 * 16384 * sizeof(float), (size_t)1 << 30);
        size_t blocks = (n + FQ - 1) / FQ;                                  /* 每个查询块读一遍 K、V */
        CHECK_INT(blocks, 11);
        CHECK_INT(blocks * (2 * n * d * sizeof(float)), 11 << 20);
        CHECK_NEAR(2048.0 / 11, 186, 0.5);
    }
#line 1465 "book/09-fast.nw"
    check_section("A100：片上 SRAM 与教科书写法的算术强度");
    {
        CHECK_INT(192 * 108, 20736);                             /* KB：约 20 MB 的 SRAM */
        CHECK(19.0 / 2.0 > 9 && 19.0 / 1.5 < 13);                /* 快一个数量级 */
        CHECK_NEAR(log10(40e9 / 20736e3), 3.3, 0.05);            /* 小三个数量级 */
        CHECK_NEAR(log10(80e9 / 20736e3), 3.6, 0.05);
        CHECK_NEAR(312e12 / 2.0e12, 156, 0);
        CHECK_NEAR(312e12 / 1.5e12, 208, 0);
        double n = 2048, d = 64, elems = 4 * n * n + 4 * n * d;  /* 读 Q、K，写读 S，写读 P，读 V，写 O */
        CHECK_NEAR(elems, 17301504, 0);
        CHECK_NEAR(2 * elems / 1e6, 34.6, 0.05);                 /* 半精度，MB */
        CHECK_NEAR(4 * n * n * d / (2 * elems), 31, 0.05);       /* 每个字节 31 次运算 */
        double d2m = d * d / (192.0 * 1024 / 2);                 /* d²/M，M = 192 KB 的半精度数 */
        CHECK_NEAR(192.0 * 1024 / 2, 1e5, 2e3);
        CHECK_NEAR(d2m, 0.04, 0.002);
        CHECK(1 / d2m > 20 && 1 / d2m < 30);                     /* 二十多倍 */
        CHECK_INT(32 * 64, 2048);                                /* 32 个 zmm，各 64 字节 */
        double t_move = 2 * elems / 2.0e12, t_math = 4 * n * n * d / 312e12;
        CHECK_NEAR(t_move * 1e6, 17, 0.5);                       /* 微秒 */
        CHECK_NEAR(t_math * 1e6, 3.4, 0.05);
        CHECK(1 - t_math / t_move > 0.8);                        /* 至少八成的时间在等数据 */
    }
#line 1490 "book/09-fast.nw"
    check_section("误解“FlashAttention 减少了计算量”：不带掩码时一个分数也不少算");
    {
        CHECK_INT(attn_flash_scores(2048, 2048, 0), 2048 * 2048);
        CHECK_INT(attn_flash_scores(1000, 700, 0), 1000 * 700);
        CHECK_INT(attn_flash_scores(3, 5, 0), 15);
    }
#line 1499 "book/09-fast.nw"
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
#line 1563 "book/09-fast.nw"
    check_section("缓存块：分数块 72 KiB，FQ、FK 是三种寄存器块的倍数");
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
#line 1577 "book/09-fast.nw"
    check_section("一个线程的工作区 223 488 字节，与序列长度无关");
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
#line 1596 "book/09-fast.nw"
    check_section("d_k 很长时分段累加：工作区不随 d_k 变大，结果与参考实现一致");
    {
        size_t big = (size_t)1 << 22;
        CHECK_INT(192 * 512 + 96 * 512 + 96 * 32 + 192 * 32 + 96 * 192 + 3 * 192, 175680);
        CHECK_INT(attn_flash_bytes(512, 16, 1), 175680 * sizeof(float));
        CHECK_INT(attn_flash_bytes(big, 16, 1), 175680 * sizeof(float));
        CHECK(175680 * sizeof(float) < ((size_t)1 << 20));            /* 不到 1 MiB */
        CHECK(attn_flash_bytes(big, 16, 1) < 2 * big * sizeof(float));  /* 比一个查询加一个键还小 */
        CHECK_NEAR((192.0 + 96.0) * (double)big * sizeof(float) / (double)(1 << 30), 4.5, 1e-9);
        size_t shapes[][4] = {{200, 100, 1100, 20}, {1, 2, 1025, 3}, {7, 97, 513, 40}, {65, 30, 1024, 8}};
        double worst[2] = {0.0, 0.0};
        int all_ok = 1;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int variant = 0; variant < 4; variant++)   /* 有无因果 × 有无显式掩码 */
                all_ok &= ch09_compare(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3],
                                       variant & 1, variant >> 1, 40 + (unsigned)s, worst);
        all_ok &= ch09_compare(1, 2, (size_t)1 << 20, 4, 0, 0, 50, worst);
        printf("  d_k 分段：输出最大差 %.2g，权重最大差 %.2g\n", worst[0], worst[1]);
        CHECK(all_ok);
        CHECK(worst[0] < 1e-5);
        CHECK(worst[1] < 1e-5);
        CHECK(worst[0] > 0);
    }
#line 1622 "book/09-fast.nw"
    check_section("因果时整块跳过：n = 2048 算 54.6% 的分数；n_q ≠ n_k 的两个例子");
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
#line 1642 "book/09-fast.nw"
    check_section("分块的图：n = 768 时的块");
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
#line 1662 "book/09-fast.nw"
    check_section("对角线上的键块：整块跳过、整块可见、对角线穿过的寄存器块");
    {
        int skipped = 0, full = 0, diagonal = 0, whole = 1;
        for (size_t c = 0; c < 96; c += 6)
            for (size_t x = 0; x < 192; x += 8) {
                if (ch09_diag_class(c, x) == 0) {
                    for (size_t r = 0; r < 6; r++)            /* 整块都是 0 */
                        for (size_t y = 0; y < 8; y++)
                            whole &= ch09_diag_class(c + r, x + y) == 0;
                    skipped++;
                } else if (ch09_diag_class(c + 5, x) == 2) {
                    full++;                                  /* 最后一个键对第一个查询也看得见 */
                } else {
                    diagonal++;
                }
            }
        CHECK(whole);
        CHECK_INT(16 * 24, 384);
        CHECK_INT(skipped, 276);
        CHECK_INT(full, 84);
        CHECK_INT(diagonal, 24);
        CHECK_INT(FQ, 192);
        CHECK_INT(FK, 96);
    }
#line 1689 "book/09-fast.nw"
    check_section("误解“因果掩码让时间正好减半”：方阵时总多于一半，n 越大越接近一半");
    {
        double prev = 1.0;
        for (size_t n = 768; n <= 16384; n *= 2) {
            double share = (double)attn_flash_scores(n, n, 1) / ((double)n * (double)n);
            CHECK(share > 0.5 && share < prev);
            prev = share;
        }
        CHECK_NEAR(attn_flash_scores(2048, 2048, 1) / (2048.0 * 2048.0), 0.546, 5e-4);
        CHECK_NEAR(attn_flash_scores(4096, 4096, 1) / (4096.0 * 4096.0), 0.523, 5e-4);
        CHECK_INT(attn_flash_scores(1, 1000, 1), 1000);   /* 一次一个查询：每个键都看得见 */
    }
#line 1704 "book/09-fast.nw"
    check_section("一个线程和两个线程一位不差；多头等于逐个头的参考实现");
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
#line 1725 "book/09-fast.nw"
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
#line 1738 "book/09-fast.nw"
    check_section("attn_sdpa_ex 的参数检查：不合法时 ATTN_EINVAL，不碰输出");
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
#line 1756 "book/09-fast.nw"
    check_section("快速路径与参考实现一致：输入在 [-1, 1) 里，差不超过 1e-5");
    {
        size_t shapes[][4] = {   /* n_q, n_k, d_k, d_v */
            {1, 1, 1, 1}, {3, 5, 2, 3}, {64, 64, 16, 16}, {65, 63, 17, 33}, {192, 64, 64, 64},
            {130, 200, 64, 64}, {200, 130, 8, 20}, {7, 300, 32, 1}, {400, 389, 3, 48},
        };
        double worst[2] = {0.0, 0.0};
        int all_ok = 1;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int variant = 0; variant < 4; variant++)   /* 有无因果 × 有无显式掩码 */
                all_ok &= ch09_compare(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3],
                                       variant & 1, variant >> 1, (unsigned)s, worst);
        printf("  %s：输出最大差 %.2g，权重最大差 %.2g\n", attn_isa_name(attn_isa_current()), worst[0], worst[1]);
        CHECK(all_ok);
        CHECK(worst[0] < 1e-5);
        CHECK(worst[1] < 1e-5);
        CHECK(worst[0] > 0);
    }
#line 1812 "book/09-fast.nw"
    check_section("n_q = 200、n_k = 130 的因果：前 70 行看不见任何键，输出和权重是零");
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
#line 1777 "book/09-fast.nw"
    check_section("逐行块（键块取整个 n_k）：和参考实现对答案；n = 2048 时分数块 1.5 MiB");
    {
        CHECK_INT((size_t)2048 * 192 * sizeof(float), 3 << 19);          /* 1.5 MiB */
        CHECK((size_t)2048 * 192 * sizeof(float) > ((size_t)1 << 20));   /* 大过 1 MiB 的二级缓存 */
        enum { H = 2, NQ = 300, NK = 250, D = 20 };
        float *q = malloc(H * NQ * D * sizeof *q), *k = malloc(H * NK * D * sizeof *k);
        float *v = malloc(H * NK * D * sizeof *v), *o1 = malloc(H * NQ * D * sizeof *o1);
        float *o2 = malloc(H * NQ * D * sizeof *o2);
        CHECK(q && k && v && o1 && o2);
        if (q && k && v && o1 && o2) {
            ch09_fill(q, H * NQ * D, 7);
            ch09_fill(k, H * NK * D, 8);
            ch09_fill(v, H * NK * D, 9);
            for (int causal = 0; causal < 2; causal++) {
                attn_problem prob;
                CHECK_INT(attn_problem_init(&prob, q, k, v, NQ, NK, D, D, 0.0f, NULL, causal, o2, NULL), ATTN_OK);
                prob.heads = H;
                prob.head_q = prob.head_out = NQ * D;
                prob.head_k = prob.head_v = NK * D;
                CHECK_INT(attn_flash_rows(&prob), ATTN_OK);
                double worst = 0;
                for (int h = 0; h < H; h++) {
                    CHECK_INT(attn_sdpa_reference(q + h * NQ * D, k + h * NK * D, v + h * NK * D, NQ, NK, D, D, 0.0f,
                                                  NULL, causal, o1 + h * NQ * D, NULL), ATTN_OK);
                }
                for (int x = 0; x < H * NQ * D; x++)
                    worst = fmax(worst, fabs(o1[x] - o2[x]));
                CHECK(worst < 1e-5);
            }
        }
        free(q); free(k); free(v); free(o1); free(o2);
    }
#line 1841 "book/09-fast.nw"
    check_section("attn-bench 的小例子：工作区 131 328 字节，参考实现 256 字节、2080 个分数");
    {
        CHECK_INT((192 + 96) * 16 + (96 + 192) * 32 + 96 * 192 + 3 * 192, 32832);
        CHECK_INT(attn_flash_bytes(16, 16, 1), 131328);
        CHECK_INT(64 * sizeof(float), 256);
        CHECK_INT(64 * 65 / 2, 2080);
    }
#line 1851 "book/09-fast.nw"
    check_section("表里的 GFLOP/s 是运算量除以时间，百分比是它除以峰值");
    {
        double flops = 8589934592.0, peak1 = 252.9, peak2 = 290.8;
        /* 时间只有四位小数，由它算出的速率有千分之几的出入 */
        CHECK_NEAR(flops / 2.4627 * 1e-9, 3.5, 0.05);
        CHECK_REL(flops / 0.0467 * 1e-9, 183.9, 2e-3);
        CHECK_REL(flops / 0.0251 * 1e-9, 341.6, 3e-3);
        CHECK_REL(flops / 0.0474 * 1e-9, 181.2, 2e-3);
        CHECK_REL(flops / 0.0253 * 1e-9, 339.9, 3e-3);
        CHECK_REL(flops / 0.1184 * 1e-9, 72.6, 2e-3);
        CHECK_REL(flops / 0.0858 * 1e-9, 100.1, 2e-3);
        CHECK_REL(flops / 0.0757 * 1e-9, 113.5, 2e-3);
        CHECK_NEAR(100 * 3.5 / peak1, 1, 0.5);
        CHECK_NEAR(100 * 183.9 / peak1, 73, 0.5);
        CHECK_NEAR(100 * 181.2 / peak2, 62, 0.5);
        CHECK_NEAR(100 * 72.6 / peak1, 29, 0.5);
        CHECK_NEAR(100 * 100.1 / peak1, 40, 0.5);
        CHECK_NEAR(100 * 113.5 / peak1, 45, 0.5);
        CHECK_NEAR(100 * (262.1 - 252.9) / 252.9, 4, 0.5);   /* 和负载低时的峰值只差 4% */
    }
#line 1874 "book/09-fast.nw"
    check_section("表里的额外内存");
    {
        CHECK_INT(2048 * sizeof(float), 8 * 1024);
        CHECK_INT((size_t)8 * 2048 * 2048 * sizeof(float), (size_t)128 << 20);
        CHECK_INT((size_t)8 * 128 * 2048 * sizeof(float), (size_t)8 << 20);    /* 每次 128 个查询 */
        CHECK_INT((size_t)2 * 8 * 2048 * 2048 * sizeof(float), (size_t)256 << 20);
        CHECK_INT(attn_flash_bytes(64, 64, 1), 223488);
        CHECK_INT(attn_flash_bytes(64, 64, 2), ch09_threads(2) * 223488);
        CHECK_NEAR(2 * 223488 / 1024.0, 437, 0.5);
        CHECK_INT((size_t)16384 * 16384 * sizeof(float), (size_t)1 << 30);
        CHECK_NEAR(log10((256.0 * 1048576) / 223488), 3.08, 0.01);              /* 三个数量级 */
    }
#line 1889 "book/09-fast.nw"
    check_section("速度的图：哪条线在哪里越过峰值线");
    {
        double peak1 = 176.3, peak2 = 352.3;              /* 图的那台 Intel 机器上量出的峰值 */
        CHECK_NEAR(peak2 / peak1, 2.0, 0.005);
        const double *r256 = ch09_speed(0), *r512 = ch09_speed(1);
        CHECK_INT(r256[0], 256);
        CHECK_INT(r512[0], 512);
        CHECK_NEAR(r256[3], 100.2, 0.05);                 /* 因果：n = 256 时在虚线之下 */
        CHECK_NEAR(r512[3], 185.5, 0.05);                 /* n = 512 时已在它之上 */
        int above = 1, below = 1, two_below = 1;
        double top2 = 0;
        for (size_t r = 0; r < CH09_SPEED_ROWS; r++) {
            const double *row = ch09_speed(r);
            above &= r == 0 ? row[3] < peak1 : row[3] > peak1;
            below &= row[2] < peak1;                      /* 不带掩码的一个线程从不越过 */
            two_below &= row[4] < peak2;                  /* 两个线程从不越过两个核的峰值 */
            top2 = fmax(top2, row[4]);
        }
        CHECK(above);
        CHECK(below);
        CHECK(two_below);
        CHECK_NEAR(top2, 246.9, 0.05);
        /* 对数坐标里 256 与 512 两点的连线穿过 176.3 的地方 */
        double f = log(peak1 / r256[3]) / log(r512[3] / r256[3]);
        CHECK_NEAR(256 * pow(2, f), 483, 1);
        const double *r8192 = ch09_speed(CH09_SPEED_ROWS - 1);
        CHECK_INT(r8192[0], 8192);
        CHECK_NEAR(r8192[2], 125.6, 0.05);
        CHECK_NEAR(100 * r8192[2] / peak1, 71, 0.5);
        for (size_t r = 3; r < CH09_SPEED_ROWS; r++)      /* n ≥ 2048：两个线程约是一个的两倍 */
            CHECK_NEAR(ch09_speed(r)[4] / ch09_speed(r)[2], 2.0, 0.05);
        CHECK_NEAR(4 * 4 * 256.0 * 256 * 64, 6.7e7, 0.05e7);       /* n = 256、4 个头的运算量 */
        CHECK(4 * 4 * 256.0 * 256 * 64 / (r256[2] * 1e9) < 1e-3);  /* 一次调用不到一毫秒 */
    }
#line 1926 "book/09-fast.nw"
    check_section("阶梯：速率、峰值的百分比、比上一级快多少");
    {
        double flops = 8589934592.0;
        double pct[CH09_LADDER_ROWS] = {83, 37, 35, 70, 86};
        double gain[CH09_LADDER_ROWS] = {0, 6.39, 0.95, 8.58, 1.46};
        for (size_t i = 0; i < CH09_LADDER_ROWS; i++) {
            const double *r = ch09_ladder(i);             /* 秒，GFLOP/s，这一级的峰值 */
            CHECK_NEAR(flops / r[0] * 1e-9, r[1], 0.005 * r[1] + 0.05);
            CHECK_NEAR(100 * r[1] / r[2], pct[i], 0.5);
            if (i > 0)
                CHECK_NEAR(ch09_ladder(i - 1)[0] / r[0], gain[i], 0.005);
        }
        CHECK_NEAR(0.3927 / 0.4120, 1 - 0.05, 0.005);                      /* 第二步慢了 5% */
        CHECK_NEAR(0.4120 / 0.0480, 8.6, 0.05);
        CHECK_NEAR(2 * 255.45 / 304.25, 1.68, 0.005);                      /* 两个核的峰值远不到一个核的两倍 */
        CHECK_INT(1024 * 192 * sizeof(float), 768 * 1024);                 /* 每多 1024 个键，逐行块多 768 KiB */
        CHECK_NEAR(ch09_ladder(0)[0] / ch09_ladder(CH09_LADDER_ROWS - 1)[0], 77, 0.5);
    }
#line 1947 "book/09-fast.nw"
    check_section("测量一节里由表算出的比例");
    {
        double ref = 2.4627, fast = 0.0467, causal = 0.0251;
        double numpy = 0.1184, numpy_rows = 0.0858, torch = 0.0757;
        CHECK_NEAR(ref / fast, 53, 0.5);
        CHECK_NEAR(100 * 3.5 / 252.9, 1.4, 0.05);
        CHECK_NEAR(causal / fast, 0.54, 0.005);
        CHECK_INT(8 * ((2048 + FQ - 1) / FQ), 88);
        CHECK_NEAR(numpy / fast, 2.5, 0.05);
        CHECK_NEAR(numpy_rows / fast, 1.8, 0.05);
        CHECK_NEAR(torch / fast, 1.6, 0.05);
        CHECK_NEAR(numpy / numpy_rows, 1.38, 0.005);      /* 分数留在缓存里，NumPy 只快这么多 */
        CHECK_NEAR(0.1602 / 0.0464, 3.45, 0.005);         /* --untuned 的那次运行 */
        CHECK_NEAR(0.2260 / 0.0464, 4.87, 0.005);
        CHECK_NEAR(183.9 / 252.9, 0.73, 0.005);
        CHECK((size_t)8 * 128 * 2048 * sizeof(float) < ((size_t)32 << 20));   /* 8 MiB 放得进 32 MiB 的三级缓存 */
    }
#line 2068 "book/09-fast.nw"
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
        CHECK_INT(96 % 24, 0);                /* 96 是三种宽度的 FP 的倍数 */
        CHECK_INT(96 % 48, 0);
        CHECK_INT(96 % 96, 0);
    }
#line 2013 "book/09-fast.nw"
    return check_summary("ch09");
}
