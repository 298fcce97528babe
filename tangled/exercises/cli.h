#line 33 "book/C-programs.nw"
/* exercises/cli.h — 练习程序共用的命令行解析。 */
#ifndef ATTN_CLI_H
#define ATTN_CLI_H

#include <stddef.h>

enum cli_kind { CLI_FLOAT, CLI_SIZE, CLI_FLAG, CLI_STRING };

struct cli_option {
    const char *name;      /* 不带 "--" 的名字 */
    enum cli_kind kind;
    void *value;           /* float *、size_t *、int *、const char ** */
    const char *help;
};

struct cli_exercise {
    const char *name;
    const char *help;
    int (*run)(int argc, char **argv);   /* argv[0] 是练习名 */
};

/* 解析 argv[1..argc-1]。返回 1：解析成功；返回 0：出错，已打印原因和用法；
   返回 -1：遇到 --help，已把用法打印到标准输出。练习据此返回 2 或 0。 */
int cli_parse(int argc, char **argv, const struct cli_option *opts, size_t n_opts);

/* 按第一个参数选出练习并运行它；返回进程的退出状态。 */
int cli_dispatch(int argc, char **argv, const char *program,
                 const struct cli_exercise *ex, size_t n_ex);

/* 把 "a,b,c" 这样用逗号分开的有限数读进 out[max]，返回个数；出错返回 0（第 1、11、12 章的练习用） */
size_t cli_parse_list(const char *s, float *out, size_t max);

#endif
