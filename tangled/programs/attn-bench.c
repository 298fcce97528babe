#line 2447 "book/D-cpu.nw"
/* attn-bench — 测量注意力的速度，每次测量打印一行 JSON。 */
#include "attn.h"
#include "attn_core.h"   /* attn_flash_bytes、attn_flash_scores：库内部的计数 */
#include "internal.h"    /* --train-profile：训练用的那些不检查参数的函数 */
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

#line 2524 "book/D-cpu.nw"
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

#line 2643 "book/D-cpu.nw"
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

#line 2602 "book/D-cpu.nw"
/* 指令集 isa、threads 个线程的峰值，FLOP/s */
static double bench_isa_peak(int isa, size_t threads, size_t repeat)
{
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
    return best;
}

/* only：只测这一种指令集；-1 表示每种能用的都测 */
static void bench_peak(size_t threads, size_t repeat, int only)
{
    if (threads == 1 && only < 0)
        bench_chain(repeat);
    for (int isa = ATTN_ISA_COUNT - 1; isa >= 0; isa--) {
        if (!attn_isa_available(isa) || (only >= 0 && isa != only))
            continue;
        double best = bench_isa_peak(isa, threads, repeat);
        printf("{\"peak\": \"%s\", \"lanes\": %d, \"threads\": %zu, \"gflops\": %.2f}\n",
               attn_isa_name(isa), attn_isa_lanes(isa), threads, best * 1e-9);
    }
}

#line 2098 "book/D-cpu.nw"
typedef struct {
    attn_gpt m, g;                       /* 模型和同形的梯度 */
    float *m1, *m2;                      /* AdamW 的两个矩 */
    int *tokens, *targets;               /* 一批词：R = batch·n 个 */
    size_t L, H, dh, n, batch, R, d, hd, ff, V;
    float *a, *b, *c;                    /* R×max(d, hd, ff) */
    float *q, *k, *v, *o, *dq, *dk, *dv; /* R×hd，按头排开 */
    float *logits, *dl, *wt, *dwt;       /* R×V、R×V、d×V、d×V */
    void *work;                          /* attn_gpt_loss_grad_batch 的工作区 */
    size_t work_bytes;
} bench_model;

/* 第 c 个线性层（q、k、v、o、up、down）的输入、输出宽度 */
static void bench_linear_shape(const bench_model *M, int c, size_t *in, size_t *out)
{
    const size_t ins[6] = {M->d, M->d, M->d, M->hd, M->d, M->ff};
    const size_t outs[6] = {M->hd, M->hd, M->hd, M->d, M->ff, M->d};
    *in = ins[c];
    *out = outs[c];
}

static void bench_model_free(bench_model *M)
{
    attn_gpt_free(&M->m);
    attn_gpt_free(&M->g);
    float *f[] = {M->m1, M->m2, M->a, M->b, M->c, M->q, M->k, M->v, M->o, M->dq, M->dk, M->dv,
                  M->logits, M->dl, M->wt, M->dwt};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        free(f[i]);
    free(M->tokens);
    free(M->targets);
    free(M->work);
}

/* 建模型、分配并填好缓冲区；失败时返回 ATTN_ENOMEM 或 ATTN_EINVAL */
static int bench_model_init(bench_model *M, size_t L, size_t H, size_t dh, size_t n, size_t batch,
                            size_t V)
{
    memset(M, 0, sizeof *M);
    attn_gpt_config cfg = {.d_model = H * dh, .n_heads = H, .d_head = dh, .n_layers = L,
                           .d_ff = 4 * H * dh, .vocab = V, .n_ctx = n, .biases = 1,
                           .layer_norms = 1, .learned_positions = 1, .tied = 1};
    M->L = L; M->H = H; M->dh = dh; M->n = n; M->batch = batch; M->R = batch * n;
    M->d = H * dh; M->hd = H * dh; M->ff = 4 * H * dh; M->V = V;
    M->work_bytes = attn_gpt_train_bytes(&cfg, batch, n);
    if (M->work_bytes == 0 || M->R > SIZE_MAX / sizeof(float) / (M->ff + V))
        return ATTN_EINVAL;
    int st = attn_gpt_init(&M->m, &cfg, 1);
    if (st != ATTN_OK || (st = attn_gpt_init(&M->g, &cfg, 2)) != ATTN_OK)
        return st;
    size_t P = M->m.n_params, wide = M->R * M->ff, heads = M->R * M->hd;
    float **big[] = {&M->a, &M->b, &M->c}, **hs[] = {&M->q, &M->k, &M->v, &M->o, &M->dq,
                                                    &M->dk, &M->dv};
    for (size_t i = 0; i < 3; i++)
        *big[i] = malloc(wide * sizeof(float));
    for (size_t i = 0; i < 7; i++)
        *hs[i] = malloc(heads * sizeof(float));
    M->m1 = calloc(P, sizeof(float));
    M->m2 = calloc(P, sizeof(float));
    M->logits = malloc(M->R * V * sizeof(float));
    M->dl = malloc(M->R * V * sizeof(float));
    M->wt = malloc(M->d * V * sizeof(float));
    M->dwt = malloc(M->d * V * sizeof(float));
    M->tokens = malloc(M->R * sizeof(int));
    M->targets = malloc(M->R * sizeof(int));
    M->work = malloc(M->work_bytes);
    if (!M->a || !M->b || !M->c || !M->q || !M->k || !M->v || !M->o || !M->dq || !M->dk ||
        !M->dv || !M->m1 || !M->m2 || !M->logits || !M->dl || !M->wt || !M->dwt || !M->tokens ||
        !M->targets || !M->work)
        return ATTN_ENOMEM;
    bench_fill(M->a, wide, 11);
    bench_fill(M->b, wide, 12);
    bench_fill(M->q, heads, 13);
    bench_fill(M->k, heads, 14);
    bench_fill(M->v, heads, 15);
    bench_fill(M->o, heads, 16);
    memset(M->g.params, 0, P * sizeof(float));
    unsigned seed = 17;
    for (size_t i = 0; i < M->R; i++) {
        seed = seed * 1664525u + 1013904223u;
        M->tokens[i] = (int)((seed >> 8) % V);
        M->targets[i] = (int)((seed >> 4) % V);
    }
    return ATTN_OK;
}

#line 2191 "book/D-cpu.nw"
/* 输出层的前向：wteᵀ，logits = af·wteᵀ */
static double bench_output_forward(bench_model *M)
{
    size_t R = M->R, d = M->d, V = M->V;
    for (size_t v = 0; v < V; v++)
        for (size_t j = 0; j < d; j++)
            M->wt[j * V + v] = M->m.wte[v * d + j];
    attn_matmul_kernel(M->a, M->wt, M->logits, R, d, V);
    return 2.0 * (double)R * (double)d * (double)V;
}

/* 交叉熵和 dlogits（训练时就地写在 logits 上，这里写进 dl，logits 留给下一遍） */
static double bench_cross_entropy(bench_model *M)
{
    float loss;
    attn_cross_entropy(M->logits, M->targets, M->R, M->V, &loss, M->dl);
    return 0.0;
}

/* 输出层的反向：两个乘积，wte 的梯度加回去 */
static double bench_output_backward(bench_model *M)
{
    size_t R = M->R, d = M->d, V = M->V;
    memset(M->dwt, 0, d * V * sizeof *M->dwt);
    attn_linear_backward_kernel(M->a, M->wt, M->dl, R, d, V, M->c, M->dwt, NULL);
    for (size_t v = 0; v < V; v++)
        for (size_t j = 0; j < d; j++)
            M->g.wte[v * d + j] += M->dwt[j * V + v];
    return 4.0 * (double)R * (double)d * (double)V;
}

/* 各层的六个线性层：backward 为 0 时前向（y = x·w + b），否则反向 */
static double bench_linears(bench_model *M, int backward)
{
    double flops = 0.0;
    for (size_t l = 0; l < M->L; l++) {
        const attn_gpt_layer *W = &M->m.layers[l];
        attn_gpt_layer *G = &M->g.layers[l];
        const float *w[6] = {W->w_q, W->w_k, W->w_v, W->w_o, W->w_up, W->w_down};
        const float *bias[6] = {W->b_q, W->b_k, W->b_v, W->b_o, W->b_up, W->b_down};
        float *gw[6] = {G->w_q, G->w_k, G->w_v, G->w_o, G->w_up, G->w_down};
        float *gb[6] = {G->b_q, G->b_k, G->b_v, G->b_o, G->b_up, G->b_down};
        for (int c = 0; c < 6; c++) {
            size_t in, out;
            bench_linear_shape(M, c, &in, &out);
            if (backward) {
                attn_linear_backward_kernel(M->a, w[c], M->b, M->R, in, out, M->c, gw[c], gb[c]);
            } else {
                attn_matmul_kernel(M->a, w[c], M->c, M->R, in, out);
                for (size_t i = 0; i < M->R; i++)
                    for (size_t j = 0; j < out; j++)
                        M->c[i * out + j] += bias[c][j];
            }
            flops += (backward ? 4.0 : 2.0) * (double)M->R * (double)in * (double)out;
        }
    }
    return flops;
}

static double bench_linear_forward(bench_model *M) { return bench_linears(M, 0); }
static double bench_linear_backward(bench_model *M) { return bench_linears(M, 1); }

/* 2L + 1 个层规范化，前向和反向 */
static double bench_layernorms(bench_model *M)
{
    for (size_t i = 0; i <= 2 * M->L; i++) {
        const attn_gpt_layer *W = &M->m.layers[i / 2 < M->L ? i / 2 : 0];
        attn_gpt_layer *G = &M->g.layers[i / 2 < M->L ? i / 2 : 0];
        const float *gamma = i == 2 * M->L ? M->m.lnf_g : i % 2 ? W->ln2_g : W->ln1_g;
        const float *beta = i == 2 * M->L ? M->m.lnf_b : i % 2 ? W->ln2_b : W->ln1_b;
        float *dg = i == 2 * M->L ? M->g.lnf_g : i % 2 ? G->ln2_g : G->ln1_g;
        float *db = i == 2 * M->L ? M->g.lnf_b : i % 2 ? G->ln2_b : G->ln1_b;
        attn_layernorm_kernel(M->a, gamma, beta, M->c, M->R, M->d, 1e-5f);
        attn_layernorm_backward_kernel(M->a, gamma, M->b, M->R, M->d, 1e-5f, M->c, dg, db);
    }
    return 0.0;
}

/* 各层的 GELU，前向（先复制一份 h）和反向 */
static double bench_gelus(bench_model *M)
{
    size_t count = M->R * M->ff;
    for (size_t l = 0; l < M->L; l++) {
        memcpy(M->c, M->a, count * sizeof *M->c);
        attn_gelu_kernel(M->c, count);
        attn_gelu_backward_kernel(M->a, M->b, M->c, count);
    }
    return 0.0;
}

/* 看得见的 (查询, 键) 对的个数 × 块数 × 层数 */
static double bench_pairs(const bench_model *M)
{
    return (double)M->n * (double)(M->n + 1) / 2.0 * (double)(M->batch * M->H) * (double)M->L;
}

/* 各层的因果注意力，前向：n_seq·H 块一次交出，和第 11 章的 gpt_attention 一样 */
static double bench_attention_forward(bench_model *M)
{
    size_t blocks = M->batch * M->H, len = M->n * M->dh;
    attn_problem p = {
        .q = M->q, .k = M->k, .v = M->v, .out = M->o, .heads = blocks, .n_q = M->n, .n_k = M->n,
        .d_k = M->dh, .d_v = M->dh, .ld_q = M->dh, .ld_k = M->dh, .ld_v = M->dh, .ld_out = M->dh,
        .head_q = len, .head_k = len, .head_v = len, .head_out = len,
        .scale = 1.0f / sqrtf((float)M->dh), .causal = 1, .threads = blocks > 1 ? 0 : 1,
    };
    for (size_t l = 0; l < M->L; l++)
        attn_problem_solve(&p);
    return 4.0 * (double)M->dh * bench_pairs(M);
}

/* 各层的因果注意力，反向：每块一次 attn_sdpa_backward，和第 12 章的 train_attention_backward 一样分给线程 */
static double bench_attention_backward(bench_model *M)
{
    size_t blocks = M->batch * M->H, len = M->n * M->dh;
    float scale = 1.0f / sqrtf((float)M->dh);
    for (size_t l = 0; l < M->L; l++) {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) if(blocks * len * M->n >= 1048576)
#endif
        for (size_t b = 0; b < blocks; b++) {
            size_t o = b * len;
            attn_sdpa_backward(M->q + o, M->k + o, M->v + o, M->n, M->n, M->dh, M->dh, scale, NULL,
                               1, M->o + o, M->dq + o, M->dk + o, M->dv + o);
        }
    }
    return 8.0 * (double)M->dh * bench_pairs(M);
}

static double bench_adamw(bench_model *M)
{
    attn_gpt_adamw_step(&M->m, &M->g, M->m1, M->m2, 1, 1e-6f, 0.9f, 0.95f, 1e-8f, 0.1f);
    return 0.0;
}

/* 整个一步：清零梯度，前向和反向，AdamW；运算量是各部分数得清的那些之和 */
static double bench_step(bench_model *M)
{
    float loss;
    memset(M->g.params, 0, M->g.n_params * sizeof(float));
    attn_gpt_loss_grad_batch(&M->m, M->tokens, M->targets, M->batch, M->n, &loss, &M->g,
                             M->work, M->work_bytes);
    return bench_adamw(M);
}

#line 2342 "book/D-cpu.nw"
typedef double bench_part_fn(bench_model *);

/* fn 最快的一遍的秒数；运算量写进 *flops */
static double bench_time(bench_part_fn *fn, bench_model *M, size_t repeat, double *flops)
{
    double best = 0.0;
    for (size_t r = 0; r <= repeat; r++) {
        double t0 = bench_now();
        *flops = fn(M);
        double t = bench_now() - t0;
        if (r == 1 || (r > 1 && t < best))
            best = t;
    }
    return best;
}

static int bench_train_profile(size_t L, size_t H, size_t dh, size_t n, size_t batch, size_t V,
                               size_t threads, size_t repeat)
{
    static const struct {
        const char *name;
        bench_part_fn *fn;
    } parts[] = {
        {"output-forward", bench_output_forward},
        {"cross-entropy", bench_cross_entropy},
        {"output-backward", bench_output_backward},
        {"linear-forward", bench_linear_forward},
        {"linear-backward", bench_linear_backward},
        {"layernorm", bench_layernorms},
        {"gelu", bench_gelus},
        {"attention-forward", bench_attention_forward},
        {"attention-backward", bench_attention_backward},
        {"adamw", bench_adamw},
    };
    bench_model M;
    int st = bench_model_init(&M, L, H, dh, n, batch, V);
    if (st != ATTN_OK) {
        fprintf(stderr, "attn-bench: %s\n", attn_strerror(st));
        bench_model_free(&M);
        return st == ATTN_ENOMEM ? 1 : 2;
    }
#ifdef _OPENMP
    omp_set_num_threads((int)threads);
#endif
    int isa = attn_isa_current();
    double peak = bench_isa_peak(isa, threads, repeat), flops, all = 0.0, sum = 0.0;
    double step = bench_time(bench_step, &M, repeat, &flops);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        double t = bench_time(parts[i].fn, &M, repeat, &flops);
        all += flops;
        sum += t;
        printf("{\"part\": \"%s\", \"seconds\": %.6f, \"share\": %.3f, \"flops\": %.0f", parts[i].name,
               t, t / step, flops);
        if (flops > 0.0)
            printf(", \"gflops\": %.2f, \"peak_share\": %.3f", flops / t * 1e-9, flops / t / peak);
        printf("}\n");
    }
    printf("{\"part\": \"other\", \"seconds\": %.6f, \"share\": %.3f}\n", step - sum,
           (step - sum) / step);
    printf("{\"part\": \"step\", \"isa\": \"%s\", \"threads\": %zu, \"layers\": %zu, \"heads\": %zu, "
           "\"d_head\": %zu, \"n\": %zu, \"batch\": %zu, \"vocab\": %zu, \"seconds\": %.6f, "
           "\"tokens_per_s\": %.0f, \"flops\": %.0f, \"gflops\": %.2f, \"peak_gflops\": %.2f, "
           "\"peak_share\": %.3f}\n", attn_isa_name(isa), threads, L, H, dh, n, batch, V, step,
           (double)M.R / step, all, all / step * 1e-9, peak * 1e-9, all / step / peak);
    bench_model_free(&M);
    return 0;
}

#line 2484 "book/D-cpu.nw"
int main(int argc, char **argv)
{
#line 906 "book/C-programs.nw"
    size_t n = 1024, d = 64, heads = 1, threads = 1, repeat = 3;
    int causal = 0, peak = 0, backward = 0, mha = 0, train_profile = 0;
    size_t layers = 6, batch = 16, vocab = 5792;   /* --train-profile 的模型：缺省是第 13 章的 */
    const char *impl = "fast", *isa = "auto";
    struct cli_option opts[] = {
        {"peak", CLI_FLAG, &peak, "只测每种指令集的乘加峰值"},
        {"train-profile", CLI_FLAG, &train_profile,
         "训练一步的各部分各花多少时间（附录 D）：模型是 layers 层、heads 个头、每头 d 维、上下文 n"},
        {"layers", CLI_SIZE, &layers, "--train-profile 的层数"},
        {"batch", CLI_SIZE, &batch, "--train-profile 一批几段"},
        {"vocab", CLI_SIZE, &vocab, "--train-profile 的词表大小"},
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
        threads == 0 || threads > 256 || repeat == 0 || layers == 0 || batch == 0 || vocab < 2 ||
        (train_profile && (layers > 1024 || batch > 65536 || vocab > 16777216 || n > 65536 ||
                           d > 4096 || heads > 4096))) {
        fprintf(stderr, "attn-bench: 选项的值不合法\n"
                "用法: attn-bench [--n N] [--d D] [--heads H] [--threads T] [--causal]"
                " [--impl reference|rows|fast] [--repeat R] [--isa I] [--peak] [--backward] [--mha]"
                " [--train-profile [--layers L] [--batch B] [--vocab V]]\n");
        return 2;
    }
#line 2495 "book/D-cpu.nw"
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
    if (train_profile)
        return bench_train_profile(layers, heads, d, n, batch, vocab, threads, repeat);
    if (mha) {
#line 2672 "book/D-cpu.nw"
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
#line 2512 "book/D-cpu.nw"
    }
    if (backward) {
#line 1689 "book/D-cpu.nw"
        {
            size_t count = heads * n * d;
            float *q = malloc(count * sizeof *q), *k = malloc(count * sizeof *k);
            float *v = malloc(count * sizeof *v), *dout = malloc(count * sizeof *dout);
            float *g = malloc(3 * count * sizeof *g), *fo = malloc((count + 2 * heads * n) * sizeof *fo);
            if (q == NULL || k == NULL || v == NULL || dout == NULL || g == NULL || fo == NULL) {
                fprintf(stderr, "attn-bench: 内存不够\n");
                return 1;
            }
            bench_fill(q, count, 1);
            bench_fill(k, count, 2);
            bench_fill(v, count, 3);
            bench_fill(dout, count, 4);
            double best = 0.0, best_saved = 0.0, scale = 1.0 / sqrt((double)d);
            float *fm = fo + count, *fl = fm + heads * n;     /* 前向的 o、每行的 m、l */
            for (size_t h = 0; !is_ref && h < heads; h++) {
                attn_problem fp = {
                    .q = q + h * n * d, .k = k + h * n * d, .v = v + h * n * d, .out = fo + h * n * d,
                    .heads = 1, .n_q = n, .n_k = n, .d_k = d, .d_v = d, .ld_q = d, .ld_k = d, .ld_v = d,
                    .ld_out = d, .scale = (float)scale, .causal = causal, .threads = (int)threads,
                };
                if (attn_flash_with_stats(&fp, fm + h * n, fl + h * n) != ATTN_OK) {
                    fprintf(stderr, "attn-bench: 前向失败\n");
                    return 1;
                }
            }
            for (size_t r = 0; !is_ref && r < repeat; r++) {
                double t0 = bench_now();
                for (size_t h = 0; h < heads; h++) {
                    size_t o = h * n * d;
                    if (attn_flash_backward_saved(q + o, k + o, v + o, fo + o, fm + h * n, fl + h * n, n, n,
                                                  d, d, (float)scale, NULL, causal, dout + o, g + o,
                                                  g + count + o, g + 2 * count + o, (int)threads) != ATTN_OK) {
                        fprintf(stderr, "attn-bench: 反向传播失败\n");
                        return 1;
                    }
                }
                double t = bench_now() - t0;
                if (r == 0 || t < best_saved)
                    best_saved = t;
            }
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
                   "\"extra_bytes\": %zu", impl, attn_isa_name(attn_isa_current()), n, d, heads,
                   is_ref ? (size_t)1 : threads, causal, best, flops / best * 1e-9,
                   is_ref ? 2 * n * sizeof(double) : attn_flash_backward_bytes(n, n, d, d, (int)threads));
            if (!is_ref)
                printf(", \"saved_seconds\": %.6f, \"saved_gflops\": %.2f", best_saved,
                       flops / best_saved * 1e-9);
            printf("}\n");
            free(q); free(k); free(v); free(dout); free(g); free(fo);
            return 0;
        }
#line 2515 "book/D-cpu.nw"
        fprintf(stderr, "attn-bench: 这一版的库还没有反向传播\n");
        return 2;
    }
#line 2547 "book/D-cpu.nw"
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
#line 2489 "book/D-cpu.nw"
}
