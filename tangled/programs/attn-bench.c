#line 2003 "book/D-cpu.nw"
/* attn-bench — 测量注意力的速度，每次测量打印一行 JSON。 */
#include "attn.h"
#include "attn_core.h"   /* attn_flash_bytes、attn_flash_scores：库内部的计数 */
#include "cli.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static double bench_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void bench_fill(float *x, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (float)(seed >> 8) / 8388608.0f - 1.0f;
    }
}

#line 2075 "book/D-cpu.nw"
static int bench_run(int is_ref, int is_rows, const float *q, const float *k, const float *v, float *out,
                     size_t heads, size_t n, size_t d, int causal, int threads)
{
    if (is_rows) {
        attn_problem prob;
        int st = attn_problem_init(&prob, q, k, v, n, n, d, d, 0.0f, NULL, causal, out, NULL);
        prob.heads = heads;
        prob.head_q = prob.head_k = prob.head_v = prob.head_out = n * d;
        return st != ATTN_OK ? st : attn_flash_rows(&prob);
    }
    if (!is_ref)
        return attn_sdpa_ex(q, k, v, n, n, d, d, 0.0f, NULL, causal, out, NULL, &(attn_sdpa_options){heads, threads});
    for (size_t h = 0; h < heads; h++) {
        int st = attn_sdpa_reference(q + h * n * d, k + h * n * d, v + h * n * d, n, n, d, d, 0.0f,
                           NULL, causal, out + h * n * d, NULL);
        if (st != ATTN_OK)
            return st;
    }
    return ATTN_OK;
}

#line 2187 "book/D-cpu.nw"
static void bench_chain(size_t repeat)
{
    volatile double step_in = 1e-9;   /* volatile：编译器不知道它的值，没法把链预先算出来 */
    double step = step_in, best = 0.0, t = 0.0;
    size_t iters = 1000;
    for (size_t r = 0; r <= repeat; r++) {
        do {                                            /* 第一遍加倍，直到一次至少 0.2 秒 */
            if (r == 0)
                iters *= 2;
            double x = 0.0, t0 = bench_now();
            for (size_t i = 0; i < iters; i++)
                x += step;
            t = bench_now() - t0;
            volatile double sink = x;
            (void)sink;
        } while (r == 0 && t < 0.2 && iters < ((size_t)1 << 40));
        if (r > 0 && (best == 0.0 || t / (double)iters < best))
            best = t / (double)iters;
    }
    printf("{\"peak\": \"chain\", \"lanes\": 1, \"threads\": 1, \"gflops\": %.2f, \"ns_per_add\": %.3f}\n",
           2.0 / best * 1e-9, best * 1e9);
}

#line 2153 "book/D-cpu.nw"
/* only：只测这一种指令集；-1 表示每种能用的都测 */
static void bench_peak(size_t threads, size_t repeat, int only)
{
    if (threads == 1 && only < 0)
        bench_chain(repeat);
    for (int isa = ATTN_ISA_COUNT - 1; isa >= 0; isa--) {
        if (!attn_isa_available(isa) || (only >= 0 && isa != only))
            continue;
        size_t iters = 1000;
        double best = 0.0, t = 0.0;
        while (t < 0.2 && iters < ((size_t)1 << 40)) {        /* 加倍，直到一次至少 0.2 秒 */
            iters *= 2;
            double t0 = bench_now();
            attn_isa_peak_flops(isa, (int)threads, iters);
            t = bench_now() - t0;
        }
        for (size_t r = 0; r < repeat; r++) {
            double t0 = bench_now();
            double flops = attn_isa_peak_flops(isa, (int)threads, iters);
            t = bench_now() - t0;
            if (flops / t > best)
                best = flops / t;
        }
        printf("{\"peak\": \"%s\", \"lanes\": %d, \"threads\": %zu, \"gflops\": %.2f}\n",
               attn_isa_name(isa), attn_isa_lanes(isa), threads, best * 1e-9);
    }
}

#line 2037 "book/D-cpu.nw"
int main(int argc, char **argv)
{
#line 906 "book/C-programs.nw"
    size_t n = 1024, d = 64, heads = 1, threads = 1, repeat = 3;
    int causal = 0, peak = 0, backward = 0, mha = 0;
    const char *impl = "fast", *isa = "auto";
    struct cli_option opts[] = {
        {"peak", CLI_FLAG, &peak, "只测每种指令集的乘加峰值"},
        {"isa", CLI_STRING, &isa, "auto、avx512、avx2 或 portable"},
        {"backward", CLI_FLAG, &backward, "测反向传播（附录 D）"},
        {"mha", CLI_FLAG, &mha, "测 attn_mha：d_model = heads·d 的自注意力"},
        {"n", CLI_SIZE, &n, "序列长度（查询数 = 键数）"},
        {"d", CLI_SIZE, &d, "每个头的维度 d_k = d_v"},
        {"heads", CLI_SIZE, &heads, "头的个数"},
        {"threads", CLI_SIZE, &threads, "线程数（reference 只用 1 个）"},
        {"causal", CLI_FLAG, &causal, "因果掩码"},
        {"impl", CLI_STRING, &impl, "reference、rows 或 fast"},
        {"repeat", CLI_SIZE, &repeat, "重复次数，报告最快的一次"},
    };
    int parsed = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (parsed <= 0)
        return parsed < 0 ? 0 : 2;
    int is_ref = strcmp(impl, "reference") == 0, is_rows = strcmp(impl, "rows") == 0;
    if ((!is_ref && !is_rows && strcmp(impl, "fast") != 0) || n == 0 || d == 0 || heads == 0 ||
        threads == 0 || threads > 256 || repeat == 0) {
        fprintf(stderr, "attn-bench: 选项的值不合法\n"
                "用法: attn-bench [--n N] [--d D] [--heads H] [--threads T] [--causal]"
                " [--impl reference|rows|fast] [--repeat R] [--isa I] [--peak] [--backward] [--mha]\n");
        return 2;
    }
#line 2048 "book/D-cpu.nw"
    int chosen = -1;
    for (int i = 0; i < ATTN_ISA_COUNT; i++)
        if (strcmp(isa, attn_isa_name(i)) == 0)
            chosen = i;
    if ((chosen < 0 && strcmp(isa, "auto") != 0) || attn_isa_force(chosen) != ATTN_OK) {
        fprintf(stderr, "attn-bench: 这台机器不能用指令集 %s\n"
                "用法: attn-bench [--isa auto|avx512|avx2|portable] …\n", isa);
        return 2;
    }
    if (peak) {
        bench_peak(threads, repeat, chosen);
        return 0;
    }
    if (mha) {
#line 2216 "book/D-cpu.nw"
        size_t dm = heads * d;
        if (dm / heads != d || dm > SIZE_MAX / sizeof(float) / n / 4) {
            fprintf(stderr, "attn-bench: 尺寸太大\n");
            return 2;
        }
        float *x = malloc(n * dm * sizeof *x), *y = malloc(n * dm * sizeof *y);
        float *wts = malloc(4 * dm * dm * sizeof *wts);
        if (x == NULL || y == NULL || wts == NULL) {
            fprintf(stderr, "attn-bench: 内存不够\n");
            free(x); free(y); free(wts);
            return 1;
        }
        bench_fill(x, n * dm, 5);
        bench_fill(wts, 4 * dm * dm, 6);
        for (size_t i = 0; i < 4 * dm * dm; i++)
            wts[i] *= 0.05f;
        attn_mha_weights mw = {dm, heads, d, wts, wts + dm * dm, wts + 2 * dm * dm, wts + 3 * dm * dm,
                               NULL, NULL, NULL, NULL};
        #ifdef _OPENMP
        omp_set_num_threads((int)threads);
        #endif
        double best_mha = 0.0;
        int mha_status = ATTN_OK;
        for (size_t r = 0; r < repeat && mha_status == ATTN_OK; r++) {
            double t0 = bench_now();
            mha_status = attn_mha(&mw, x, n, x, n, NULL, causal, y);
            double t = bench_now() - t0;
            if (r == 0 || t < best_mha)
                best_mha = t;
        }
        if (mha_status != ATTN_OK) {
            fprintf(stderr, "attn-bench: %s\n", attn_strerror(mha_status));
            free(x); free(y); free(wts);
            return 1;
        }
        double mflops = 8.0 * (double)n * (double)dm * (double)dm + 4.0 * (double)n * (double)n * (double)dm;
        printf("{\"impl\": \"mha\", \"isa\": \"%s\", \"n\": %zu, \"d_model\": %zu, \"heads\": %zu, "
               "\"threads\": %zu, \"causal\": %d, \"seconds\": %.6f, \"gflops\": %.2f}\n",
               attn_isa_name(attn_isa_current()), n, dm, heads, threads, causal, best_mha,
               mflops / best_mha * 1e-9);
        free(x); free(y); free(wts);
        return 0;
#line 2063 "book/D-cpu.nw"
    }
    if (backward) {
#line 1643 "book/D-cpu.nw"
        {
            size_t count = heads * n * d;
            float *q = malloc(count * sizeof *q), *k = malloc(count * sizeof *k);
            float *v = malloc(count * sizeof *v), *dout = malloc(count * sizeof *dout);
            float *g = malloc(3 * count * sizeof *g);
            if (q == NULL || k == NULL || v == NULL || dout == NULL || g == NULL) {
                fprintf(stderr, "attn-bench: 内存不够\n");
                return 1;
            }
            bench_fill(q, count, 1);
            bench_fill(k, count, 2);
            bench_fill(v, count, 3);
            bench_fill(dout, count, 4);
            double best = 0.0, scale = 1.0 / sqrt((double)d);
            for (size_t r = 0; r < repeat; r++) {
                double t0 = bench_now();
                for (size_t h = 0; h < heads; h++) {
                    size_t o = h * n * d;
                    int st = is_ref
                        ? attn_sdpa_backward_reference(q + o, k + o, v + o, n, n, d, d, (float)scale, NULL,
                                                       causal, dout + o, g + o, g + count + o, g + 2 * count + o)
                        : attn_flash_backward(q + o, k + o, v + o, n, n, d, d, (float)scale, NULL, causal,
                                              dout + o, g + o, g + count + o, g + 2 * count + o, (int)threads);
                    if (st != ATTN_OK) {
                        fprintf(stderr, "attn-bench: 反向传播失败\n");
                        return 1;
                    }
                }
                double t = bench_now() - t0;
                if (r == 0 || t < best)
                    best = t;
            }
            /* 每个头五次矩阵乘法，共 10·n²·d 次浮点运算；因果时也这样数 */
            double flops = 10.0 * (double)n * (double)n * (double)d * (double)heads;
            printf("{\"impl\": \"%s-backward\", \"isa\": \"%s\", \"n\": %zu, \"d\": %zu, \"heads\": %zu, "
                   "\"threads\": %zu, \"causal\": %d, \"seconds\": %.6f, \"gflops\": %.2f, "
                   "\"extra_bytes\": %zu}\n", impl, attn_isa_name(attn_isa_current()), n, d, heads,
                   is_ref ? (size_t)1 : threads, causal, best, flops / best * 1e-9,
                   is_ref ? 2 * n * sizeof(double) : attn_flash_backward_bytes(n, n, d, d, (int)threads));
            free(q); free(k); free(v); free(dout); free(g);
            return 0;
        }
#line 2066 "book/D-cpu.nw"
        fprintf(stderr, "attn-bench: 这一版的库还没有反向传播\n");
        return 2;
    }
#line 2098 "book/D-cpu.nw"
    if (d > SIZE_MAX / n || heads > SIZE_MAX / (n * d) ||
        heads * n * d > SIZE_MAX / sizeof(float)) {
        fprintf(stderr, "attn-bench: 尺寸太大\n");
        return 2;
    }
    size_t count = heads * n * d;
    float *q = malloc(count * sizeof *q), *k = malloc(count * sizeof *k);
    float *v = malloc(count * sizeof *v), *out = malloc(count * sizeof *out);
    if (q == NULL || k == NULL || v == NULL || out == NULL) {
        fprintf(stderr, "attn-bench: 内存不够\n");
        free(q); free(k); free(v); free(out);
        return 1;
    }
    bench_fill(q, count, 1);
    bench_fill(k, count, 2);
    bench_fill(v, count, 3);
    if (is_ref || is_rows)
        threads = 1;
    double best = 0.0;
    int st = ATTN_OK;
    for (size_t r = 0; r < repeat && st == ATTN_OK; r++) {
        double t0 = bench_now();
        st = bench_run(is_ref, is_rows, q, k, v, out, heads, n, d, causal, (int)threads);
        double t = bench_now() - t0;
        if (r == 0 || t < best)
            best = t;
    }
    if (st != ATTN_OK) {
        fprintf(stderr, "attn-bench: %s\n", attn_strerror(st));
        free(q); free(k); free(v); free(out);
        return 1;
    }
    /* 每个头两次矩阵乘法，共 4·n²·d 次浮点运算；因果时也这样数 */
    double flops = 4.0 * (double)n * (double)n * (double)d * (double)heads;
    size_t extra = is_ref ? n * sizeof(float) : attn_flash_bytes(d, d, (int)threads);
    if (is_rows)                     /* 逐行块：另有 n × FQ 个 float 的分数块 */
        extra += n * 192 * sizeof(float);
    /* 每个头算了多少个分数：参考实现跳过每个看不见的键，快速路径整块跳过 */
    size_t scores = is_ref ? (causal ? n * (n + 1) / 2 : n * n) : attn_flash_scores(n, n, causal);
    printf("{\"impl\": \"%s\", \"isa\": \"%s\", \"n\": %zu, \"d\": %zu, \"heads\": %zu, "
           "\"threads\": %zu, \"causal\": %d, \"seconds\": %.6f, \"gflops\": %.2f, "
           "\"extra_bytes\": %zu, \"scores\": %zu}\n",
           impl, is_ref ? "scalar" : is_rows ? "portable" : attn_isa_name(attn_isa_current()), n, d, heads, threads, causal,
           best, flops / best * 1e-9, extra, scores);
    free(q); free(k); free(v); free(out);
    return 0;
#line 2042 "book/D-cpu.nw"
}
