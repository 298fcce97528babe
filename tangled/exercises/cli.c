#line 76 "book/C-programs.nw"
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cli_usage(FILE *f, const char *exercise, const struct cli_option *opts, size_t n_opts)
{
    fprintf(f, "用法: %s", exercise);
    for (size_t i = 0; i < n_opts; i++)
        fprintf(f, opts[i].kind == CLI_FLAG ? " [--%s]" : " [--%s 值]", opts[i].name);
    fputc('\n', f);
    for (size_t i = 0; i < n_opts; i++)
        fprintf(f, "  --%-12s %s\n", opts[i].name, opts[i].help);
}

#line 155 "book/C-programs.nw"
static int cli_read_value(const struct cli_option *o, const char *s)
{
    char *end = NULL;
    errno = 0;
    switch (o->kind) {
    case CLI_FLOAT: {
        float v = strtof(s, &end);
        if (end == s || *end != '\0' || errno != 0 || !isfinite(v))
            return 0;
        *(float *)o->value = v;
        return 1;
    }
    case CLI_SIZE: {
        if (strchr(s, '-'))
            return 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || *end != '\0' || errno != 0 || v > 1000000ULL)
            return 0;
        *(size_t *)o->value = (size_t)v;
        return 1;
    }
    case CLI_STRING:
        *(const char **)o->value = s;
        return 1;
    case CLI_FLAG:
        break;
    }
    return 0;
}

#line 96 "book/C-programs.nw"
int cli_parse(int argc, char **argv, const struct cli_option *opts, size_t n_opts)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            cli_usage(stdout, argv[0], opts, n_opts);
            return -1;
        }
        const struct cli_option *o = NULL;
        if (strncmp(argv[i], "--", 2) == 0)
            for (size_t j = 0; j < n_opts; j++)
                if (strcmp(argv[i] + 2, opts[j].name) == 0)
                    o = &opts[j];
        if (o == NULL) {
            fprintf(stderr, "%s: 不认识的参数 '%s'\n", argv[0], argv[i]);
            cli_usage(stderr, argv[0], opts, n_opts);
            return 0;
        }
        if (o->kind == CLI_FLAG) {
            *(int *)o->value = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: 选项 --%s 缺少值\n", argv[0], o->name);
            cli_usage(stderr, argv[0], opts, n_opts);
            return 0;
        }
        if (!cli_read_value(o, argv[++i])) {
            fprintf(stderr, "%s: 选项 --%s 的值 '%s' 不合法\n", argv[0], o->name, argv[i]);
            cli_usage(stderr, argv[0], opts, n_opts);
            return 0;
        }
    }
    return 1;
}

int cli_dispatch(int argc, char **argv, const char *program,
                 const struct cli_exercise *ex, size_t n_ex)
{
    if (argc >= 2)
        for (size_t i = 0; i < n_ex; i++)
            if (strcmp(argv[1], ex[i].name) == 0)
                return ex[i].run(argc - 1, argv + 1);
    int asked = argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
    FILE *f = asked ? stdout : stderr;
    if (argc >= 2 && !asked)
        fprintf(f, "%s: 没有名为 '%s' 的练习\n", program, argv[1]);
    fprintf(f, "用法: %s <练习> [选项]   （每个练习的选项见 %s <练习> --help）\n练习:\n",
            program, program);
    for (size_t i = 0; i < n_ex; i++)
        fprintf(f, "  %-14s %s\n", ex[i].name, ex[i].help);
    return asked ? 0 : 2;
}

#line 545 "book/C-programs.nw"
size_t cli_parse_list(const char *s, float *out, size_t max)
{
    size_t n = 0;
    while (s != NULL && *s != '\0' && n < max) {
        char *end;
        float v = strtof(s, &end);
        if (end == s || (*end != ',' && *end != '\0') || !isfinite(v))
            return 0;
        out[n++] = v;
        s = *end == ',' ? end + 1 : end;
        if (*end == ',' && *s == '\0')
            return 0;
    }
    return s != NULL && *s == '\0' ? n : 0;
}
