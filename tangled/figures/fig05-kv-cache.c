#line 1336 "book/05-mask.nw"
/* 图 5.2 的数据：KV 缓存逐词增长。坐标由这里排好，gnuplot 只管画。六块（以两个空行分开）：
   0 格子 “x y 半宽 半高 值”；1 这一步新追加的行（橙框）；2 空着的位置（虚线框）；
   3 权重条；4 居中的文字 “x y 文字”；5 左对齐的文字。一格是一个分量。 */
#include "attn.h"

#include <stdio.h>

#include "../examples/ch05.h"

/* 一组（一步）的左上角：每行三组，y 轴向上。一组从左到右：K（KVF_DK 格）、空一格、V（KVF_DV 格）、
   空一格、权重条（满长 4 格）和它的数；组宽 GW 格，组高 11 格 */
enum { XV = KVF_DK + 1, XW = XV + KVF_DV + 1, GW = XW + 7 };
static double gx(size_t t) { return (double)(t % 3) * GW; }
static double gy(size_t t) { return -(double)(t / 3) * 11.0; }

/* 第 t 步一行 n 个格子，左端 x0，中心高 y，值 a[0..n) */
static void cells(double x0, double y, const float *a, size_t n)
{
    for (size_t c = 0; c < n; c++)
        printf("%.2f %.2f 0.5 0.45 %.4f\n", x0 + (double)c + 0.5, y, a[c]);
}

static double row_y(size_t t, size_t j) { return gy(t) - 3.4 - (double)j; }

/* 一个框：中心 (x, y)，半宽 hw */
static void box(double x, double y, double hw) { printf("%.2f %.2f %.2f 0.45\n", x, y, hw); }

int main(void)
{
    const double kc = KVF_DK / 2.0, vc = XV + KVF_DV / 2.0;   /* K、V 两列的中心 */
    float q[KVF_N * KVF_DK], k[KVF_N * KVF_DK], v[KVF_N * KVF_DV], w[KVF_N * KVF_N];
    if (kv_figure_steps(q, k, v, w) != ATTN_OK)
        return 1;
    for (size_t t = 0; t < KVF_N; t++) {            /* 0：缓存里的键、值和新查询 */
        cells(gx(t), gy(t) - 1.2, q + t * KVF_DK, KVF_DK);
        for (size_t j = 0; j <= t; j++) {
            cells(gx(t), row_y(t, j), k + j * KVF_DK, KVF_DK);
            cells(gx(t) + XV, row_y(t, j), v + j * KVF_DV, KVF_DV);
        }
    }
    printf("\n\n");
    for (size_t t = 0; t < KVF_N; t++) {            /* 1：新查询和新追加的一行 */
        box(gx(t) + kc, gy(t) - 1.2, kc);
        box(gx(t) + kc, row_y(t, t), kc);
        box(gx(t) + vc, row_y(t, t), KVF_DV / 2.0);
    }
    printf("\n\n");
    for (size_t t = 0; t < KVF_N; t++)              /* 2：还空着的位置 */
        for (size_t j = t + 1; j < KVF_N; j++) {
            box(gx(t) + kc, row_y(t, j), kc);
            box(gx(t) + vc, row_y(t, j), KVF_DV / 2.0);
        }
    printf("\n\n");
    for (size_t t = 0; t < KVF_N; t++)              /* 3：权重条，满长 4 格 */
        for (size_t j = 0; j <= t; j++) {
            double len = 4.0 * w[t * KVF_N + j];
            printf("%.3f %.2f %.3f 0.4\n", gx(t) + XW + len / 2, row_y(t, j), len / 2);
        }
    printf("\n\n");
    for (size_t t = 0; t < KVF_N; t++) {            /* 4：标题和列名 */
        printf("%.2f %.2f \"第 %zu 步：缓存 %zu 行\"\n", gx(t) + (GW - 1) / 2.0, gy(t) + 0.2, t, t + 1);
        printf("%.2f %.2f \"K\"\n", gx(t) + kc, gy(t) - 2.2);
        printf("%.2f %.2f \"V\"\n", gx(t) + vc, gy(t) - 2.2);
        printf("%.2f %.2f \"权重\"\n", gx(t) + XW + 2, gy(t) - 2.2);
    }
    printf("\n\n");
    for (size_t t = 0; t < KVF_N; t++) {            /* 5：查询的名字和每行的权重 */
        printf("%.2f %.2f \"q_%zu\"\n", gx(t) + KVF_DK + 0.3, gy(t) - 1.2, t);
        for (size_t j = 0; j <= t; j++)
            printf("%.2f %.2f \"%.2f\"\n", gx(t) + XW + 0.1, row_y(t, j), w[t * KVF_N + j]);
    }
    return 0;
}
