#line 810 "book/C-programs.nw"
/* attn-train：在“fluffy blue creature”小语言上训练第 11 章的小 GPT */
#define _POSIX_C_SOURCE 200809L
#include "attn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../src/fluffy_task.h"

static int usage(void)
{
    fprintf(stderr, "用法：attn-train [--steps N] [--seed S] [--threads T] [--heads H] [--width D] "
                    "[--no-scale] [--save FILE] [--json] [--trace]\n");
    return 2;
}

static int parse_u(const char *s, unsigned long long *out)
{
    char *end;
    if (s == NULL || *s == '\0' || *s == '-')
        return 0;
    *out = strtoull(s, &end, 10);
    return *end == '\0';
}

int main(int argc, char **argv)
{
    unsigned long long steps = 2000, seed = 1, threads = 1, heads = 2, width = 32;
    const char *save = NULL;
    int json = 0, trace = 0, no_scale = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--steps") == 0) {
            if (!parse_u(i + 1 < argc ? argv[++i] : NULL, &steps) || steps > 1000000) return usage();
        } else if (strcmp(argv[i], "--seed") == 0) {
            if (!parse_u(i + 1 < argc ? argv[++i] : NULL, &seed)) return usage();
        } else if (strcmp(argv[i], "--threads") == 0) {
            if (!parse_u(i + 1 < argc ? argv[++i] : NULL, &threads) || threads < 1 ||
                threads > FL_MAX_THREADS) return usage();
        } else if (strcmp(argv[i], "--heads") == 0) {
            if (!parse_u(i + 1 < argc ? argv[++i] : NULL, &heads) || heads == 0) return usage();
        } else if (strcmp(argv[i], "--width") == 0) {
            if (!parse_u(i + 1 < argc ? argv[++i] : NULL, &width) || width < 8 || width > 256)
                return usage();
        } else if (strcmp(argv[i], "--no-scale") == 0) {
            no_scale = 1;
        } else if (strcmp(argv[i], "--save") == 0) {
            if (++i >= argc) return usage();
            save = argv[i];
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--trace") == 0) {
            trace = 1;
        } else {
            return usage();
        }
    }
    if (heads > width || width % heads != 0)         /* 每个头 width/heads 维 */
        return usage();
    fluffy_trainer T;
    fluffy_shape shape = {(int)heads, width, no_scale ? 1.0f : 0.0f, 0.0f};
    if (fluffy_init_shape(&T, seed, (int)threads, &shape) != ATTN_OK) {
        fprintf(stderr, "attn-train：内存不足\n");
        return 1;
    }
    int tty = isatty(2);
    float loss = 0, acc = 0, first = 0;
    double busy = 0;                   /* 训练步本身用的秒数（不含检验） */
    for (unsigned long long s = 0; s <= steps; s++) {
        if (s % 100 == 0 || s == steps) {
            fluffy_eval_scaled(&T.m, T.scale, &loss, &acc);
            if (s == 0) first = loss;
            if (json)
                printf("{\"step\": %llu, \"loss\": %.6f, \"accuracy\": %.4f}\n", s, loss, acc);
            if (tty)
                fprintf(stderr, "\r步 %llu/%llu  检验损失 %.4f  准确率 %.3f ", s, steps, loss, acc);
        }
        if (s < steps) {
            int batch[FL_BATCH * FL_LEN];
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            float l = fluffy_step(&T, batch);
            if (isnan(l)) {
                fprintf(stderr, "\nattn-train：第 %llu 步发散（logits 不再是有限数）\n", s + 1);
                fluffy_free(&T);
                return 1;
            }
            clock_gettime(CLOCK_MONOTONIC, &t1);
            busy += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
            if (trace) {
                printf("trace %llu %.9g", s + 1, l);
                for (int b = 0; b < FL_BATCH * FL_LEN; b++) printf(" %d", batch[b]);
                printf("\n");
            }
        }
    }
    if (tty) fputc('\n', stderr);
    if (trace)
        printf("train-seconds %.6f tokens %llu\n", busy,
               steps * (unsigned long long)(FL_BATCH * (FL_LEN - 1)));
    if (!json)
        printf("步数 %llu，检验损失 %.4f → %.4f，准确率 %.3f\n", steps, first, loss, acc);
    if (save != NULL) {
        FILE *f = fopen(save, "wb");
        if (f == NULL || fwrite(T.m.params, sizeof(float), T.m.n_params, f) != T.m.n_params ||
            fclose(f) != 0) {
            fprintf(stderr, "attn-train：写不进 %s\n", save);
            fluffy_free(&T);
            return 1;
        }
    }
    fluffy_free(&T);
    return 0;
}
