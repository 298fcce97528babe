#line 1304 "book/09-fast.nw"
/* examples/ch09.h：第 9 章的例子，测试（本章和附录 D 的）与图的数据程序共用。 */
#ifndef ATTN_EXAMPLES_CH09_H
#define ATTN_EXAMPLES_CH09_H

#include "attn.h"
#include "../src/flash_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#line 1333 "book/09-fast.nw"
/* 确定的伪随机数，落在 [-1, 1) */
static inline float ch09_rand(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 8388608.0f - 1.0f;
}

static inline void ch09_fill(float *x, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        x[i] = ch09_rand(&seed);
}

/* 要 t 个线程时实际有几个：没有 OpenMP 的构建只有一个线程，也只分配一份工作区 */
static inline size_t ch09_threads(size_t t)
{
#ifdef _OPENMP
    return t;
#else
    (void)t;
    return 1;
#endif
}

#line 1362 "book/09-fast.nw"
/* worst[0]、worst[1] 记下输出和权重与参考实现的最大差；三次调用都成功、
   并且不要权重时的输出和要权重时一位不差，返回 1 */
static inline int ch09_compare(size_t n_q, size_t n_k, size_t d_k, size_t d_v, int causal, int use_mask,
                               unsigned seed, double worst[2])
{
    float *q = malloc(n_q * d_k * sizeof *q), *k = malloc(n_k * d_k * sizeof *k);
    float *v = malloc(n_k * d_v * sizeof *v);
    float *o1 = malloc(n_q * d_v * sizeof *o1), *o2 = malloc(n_q * d_v * sizeof *o2);
    float *o3 = malloc(n_q * d_v * sizeof *o3);
    float *w1 = malloc(n_q * n_k * sizeof *w1), *w2 = malloc(n_q * n_k * sizeof *w2);
    unsigned char *mask = malloc(n_q * n_k);
    int ok = q && k && v && o1 && o2 && o3 && w1 && w2 && mask;
    if (ok) {
        ch09_fill(q, n_q * d_k, 1 + seed);
        ch09_fill(k, n_k * d_k, 100 + seed);
        ch09_fill(v, n_k * d_v, 200 + seed);
        for (size_t x = 0; x < n_q * n_k; x++)
            mask[x] = (x * 7 + x / n_k) % 5 != 0 && x / n_k != 2;
        const unsigned char *m = use_mask ? mask : NULL;
        ok = attn_sdpa_reference(q, k, v, n_q, n_k, d_k, d_v, 0.0f, m, causal, o1, w1) == ATTN_OK &&
             attn_sdpa_ex(q, k, v, n_q, n_k, d_k, d_v, 0.0f, m, causal, o2, w2,
                          &(attn_sdpa_options){1, 2}) == ATTN_OK &&
             attn_sdpa_ex(q, k, v, n_q, n_k, d_k, d_v, 0.0f, m, causal, o3, NULL,
                          &(attn_sdpa_options){1, 1}) == ATTN_OK;
        for (size_t x = 0; ok && x < n_q * d_v; x++)
            worst[0] = fmax(worst[0], fabs(o1[x] - o2[x]));
        for (size_t x = 0; ok && x < n_q * n_k; x++)
            worst[1] = fmax(worst[1], fabs(w1[x] - w2[x]));
        ok = ok && memcmp(o2, o3, n_q * d_v * sizeof *o2) == 0;
    }
    free(q); free(k); free(v); free(o1); free(o2); free(o3); free(w1); free(w2); free(mask);
    return ok;
}

#line 2303 "book/09-fast.nw"
/* 分块的图 与测试共用：n 个查询、n 个键、因果时，按 flash_block 的循环把每个 (查询块, 键块)
   分成三类：0 整块跳过，1 整块看得见，2 在对角线上（处理了，块里有被掩码的分数）。
   visit(i0, rows, j0, cols, 类别, arg) 对每一块调用一次；返回按块数出的分数个数。 */
static inline size_t flash_tiles(size_t n, void (*visit)(size_t, size_t, size_t, size_t, int, void *),
                          void *arg)
{
    size_t scores = 0;
    for (size_t i0 = 0; i0 < n; i0 += FQ) {
        size_t rows = n - i0 < FQ ? n - i0 : FQ;
        size_t j_end = flash_key_end(n, n, 1, i0, rows);
        for (size_t j0 = 0; j0 < n; j0 += FK) {
            size_t cols = n - j0 < FK ? n - j0 : FK;
            int kind = j0 >= j_end ? 0 : j0 + cols - 1 <= i0 ? 1 : 2;   /* 第一行 i0 看到键 i0 为止 */
            if (kind != 0)
                scores += rows * cols;
            if (visit != NULL)
                visit(i0, rows, j0, cols, kind, arg);
        }
    }
    return scores;
}

#line 2438 "book/09-fast.nw"
/* 速度的图：attn-bench 的测量记录（GFLOP/s，d = 64，4 个头，每点取多次测量中最好的）。
   机器：Intel Xeon（KVM 虚拟机），2 核，AVX-512；测量时机器空闲。
   每行：n，参考实现，快速路径 1 线程，1 线程因果，2 线程；负数表示没有测（参考实现太慢）。 */
enum { CH09_SPEED_ROWS = 6 };

static inline const double *ch09_speed(size_t r)
{
    static const double rows[CH09_SPEED_ROWS][5] = {
        {256, 2.31, 93.92, 100.24, 143.76},
        {512, 2.33, 108.60, 185.49, 212.27},
        {1024, 2.23, 118.97, 216.05, 203.00},
        {2048, -1, 112.63, 229.22, 227.33},
        {4096, -1, 123.52, 239.40, 244.65},
        {8192, -1, 125.63, 246.39, 246.86},
    };
    return rows[r];
}

#line 2400 "book/09-fast.nw"
/* 阶梯：compare.py --ladder 的一次测量记录（n = 2048，d = 64，8 个头；AMD EPYC 虚拟机，负载约 19）。
   每行：秒，GFLOP/s，这一级的峰值（GFLOP/s；参考实现是那条加法链）。 */
enum { CH09_LADDER_ROWS = 5 };

static inline const double *ch09_ladder(size_t r)
{
    static const double rows[CH09_LADDER_ROWS][3] = {
        {2.5093, 3.42, 4.11},     /* 参考实现 */
        {0.3927, 21.87, 58.95},   /* 逐行块：整行分数，向量化的循环 */
        {0.4120, 20.85, 58.95},   /* 加上分块和在线 softmax（正文的内核） */
        {0.0480, 179.0, 255.45},  /* 加上 16 个 float 的向量和多项式的指数（附录 D） */
        {0.0328, 261.86, 304.25}, /* 加上第二个线程 */
    };
    return rows[r];
}

#line 1265 "book/09-fast.nw"
/* 读内存的图：attn-membw 的一次测量记录（AMD EPYC 虚拟机，一个核，AVX-512 的 64 字节向量）。
   每行：缓冲区的字节数，GB/s。 */
enum { CH09_MEMBW_ROWS = 15 };

static inline const double *ch09_membw(size_t r)
{
    static const double rows[CH09_MEMBW_ROWS][2] = {
        {16384, 190.5}, {32768, 171.7}, {65536, 135.0}, {131072, 135.9}, {262144, 135.5},
        {524288, 126.6}, {1048576, 128.3}, {2097152, 108.3}, {4194304, 102.0}, {8388608, 104.7},
        {16777216, 100.5}, {33554432, 27.1}, {67108864, 26.6}, {134217728, 26.7}, {268435456, 27.8},
    };
    return rows[r];
}

#line 2369 "book/09-fast.nw"
/* 对角线的图 与测试共用：n_q = n_k 时，对角线上的键块（键 96..191）对第一个查询块（查询 0..191），
   通用宽度的寄存器块是 6 个键 × 8 个查询。返回键 96 + c、查询 x 的类别：
   2 = 看得见；1 = 看不见，但它所在的寄存器块照算；0 = 整个寄存器块看不见，不算 */
static inline int ch09_diag_class(size_t c, size_t x)
{
    size_t j0 = 96, i0 = 0, tile_c = c / 6 * 6, last = x / 8 * 8 + 7;   /* 块里最后一个查询 */
    if (j0 + tile_c > i0 + last)
        return 0;
    return j0 + c <= i0 + x ? 2 : 1;
}

#line 1329 "book/09-fast.nw"
#endif
