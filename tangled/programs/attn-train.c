#line 952 "book/C-programs.nw"
/* attn-train：在“fluffy blue creature”小语言上训练第 11 章的小 GPT */
#define _POSIX_C_SOURCE 200809L
#include "attn.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "../examples/fluffy_task.h"

static int usage_error(const char *why)
{
    fprintf(stderr, "attn-train: %s\n用法: attn-train [--steps N] [--seed S] [--threads T] "
                    "[--heads H] [--width D] [--no-scale] [--save FILE] [--json] [--trace]"
                    "（详见 --help）\n", why);
    return 2;
}

#line 1052 "book/C-programs.nw"
/* 第 s + 1 步；发散时返回 1 */
static int train_step(fluffy_trainer *T, size_t s, int trace, double *busy)
{
    int batch[FL_BATCH * FL_LEN];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    float l = fluffy_step(T, batch);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (isnan(l)) {
        fprintf(stderr, "\nattn-train：第 %zu 步发散（logits 不再是有限数）\n", s + 1);
        return 1;
    }
    *busy += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (trace) {
        printf("trace %zu %.9g", s + 1, l);
        for (int b = 0; b < FL_BATCH * FL_LEN; b++) printf(" %d", batch[b]);
        printf("\n");
    }
    return 0;
}

#line 978 "book/C-programs.nw"
int main(int argc, char **argv)
{
#line 1021 "book/C-programs.nw"
    size_t steps = 2000, seed = 1, threads = 1, heads = 2, width = 32;
    const char *save = NULL;
    int json = 0, trace = 0, no_scale = 0;
    const struct cli_option opts[] = {
        {"steps", CLI_SIZE, &steps, "训练的步数（默认 2000）"},
        {"seed", CLI_SIZE, &seed, "种子（默认 1）"},
        {"threads", CLI_SIZE, &threads, "线程数，1 到 16（默认 1）"},
        {"heads", CLI_SIZE, &heads, "每层的头数，能整除宽度（默认 2）"},
        {"width", CLI_SIZE, &width, "模型的宽度 d_model，8 到 256（默认 32）"},
        {"no-scale", CLI_FLAG, &no_scale, "注意力不除以 sqrt(d_head)"},
        {"save", CLI_STRING, &save, "训练结束后把参数（float）写进这个文件"},
        {"json", CLI_FLAG, &json, "每次检验打印一行 JSON"},
        {"trace", CLI_FLAG, &trace, "每一步打印这一批的词和训练损失"},
    };
    int r = cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0]);
    if (r <= 0)
        return r < 0 ? 0 : 2;
    if (threads < 1 || threads > 16)
        return usage_error("--threads 要在 1 到 16 之间");
    if (width < 8 || width > 256)
        return usage_error("--width 要在 8 到 256 之间");
    if (heads == 0 || heads > width || width % heads != 0)
        return usage_error("--heads 要能整除 --width");
    #ifdef _OPENMP
    omp_set_num_threads((int)threads);
    #endif
#line 981 "book/C-programs.nw"
    fluffy_trainer T;
    fluffy_shape shape = {(int)heads, width, no_scale ? 1.0f : 0.0f, 0.0f};
    int st = fluffy_init_shape(&T, seed, &shape);
    if (st != ATTN_OK) {
        fprintf(stderr, "attn-train: %s\n", attn_strerror(st));
        fluffy_free(&T);
        return 1;
    }
    int tty = isatty(2);
    float loss = 0, acc = 0, first = 0;
    double busy = 0;                   /* 训练步本身用的秒数（不含检验） */
    for (size_t s = 0; s <= steps; s++) {
        if (s % 100 == 0 || s == steps) {
            fluffy_eval_scaled(&T.m, T.scale, &loss, &acc);
            if (s == 0) first = loss;
            if (json)
                printf("{\"step\": %zu, \"loss\": %.6f, \"accuracy\": %.4f}\n", s, loss, acc);
            if (tty)
                fprintf(stderr, "\r步 %zu/%zu  检验损失 %.4f  准确率 %.3f ", s, steps, loss, acc);
        }
        if (s < steps && train_step(&T, s, trace, &busy) != 0) {
            fluffy_free(&T);
            return 1;
        }
    }
    if (tty) fputc('\n', stderr);
    if (trace)
        printf("train-seconds %.6f tokens %zu\n", busy, steps * (size_t)(FL_BATCH * (FL_LEN - 1)));
    if (!json)
        printf("步数 %zu，检验损失 %.4f → %.4f，准确率 %.3f\n", steps, first, loss, acc);
#line 1075 "book/C-programs.nw"
    if (save != NULL) {
        FILE *f = fopen(save, "wb");
        int ok = f != NULL && fwrite(T.m.params, sizeof(float), T.m.n_params, f) == T.m.n_params;
        if (f != NULL && fclose(f) != 0)
            ok = 0;
        if (!ok) {
            fprintf(stderr, "attn-train：写不进 %s\n", save);
            fluffy_free(&T);
            return 1;
        }
    }
#line 1012 "book/C-programs.nw"
    fluffy_free(&T);
    return 0;
}
