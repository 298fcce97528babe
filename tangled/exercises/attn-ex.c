#line 661 "book/C-programs.nw"
/* attn-ex：检查动手写的练习。 attn-ex list | attn-ex check NAME */
#include "ex.h"

#include <stdio.h>
#include <string.h>

#define EX_ENTRY(name, check, help) int check(void);
#include "ex_registry.h"
#undef EX_ENTRY

static const struct {
    const char *name;
    int (*check)(void);
    const char *help;
} exercises[] = {
#define EX_ENTRY(name, check, help) {name, check, help},
#include "ex_registry.h"
#undef EX_ENTRY
    {NULL, NULL, NULL},
};

static void usage(FILE *f)
{
    fprintf(f, "用法: attn-ex list          列出动手写的练习\n"
               "      attn-ex check NAME    检查 exercises/NAME.c 里你写的函数\n练习:\n");
    for (size_t i = 0; exercises[i].name; i++)
        fprintf(f, "  %-16s %s\n", exercises[i].name, exercises[i].help);
}

int main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        for (size_t i = 0; exercises[i].name; i++)
            printf("%-16s %s\n", exercises[i].name, exercises[i].help);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "check") == 0)
        for (size_t i = 0; exercises[i].name; i++)
            if (strcmp(argv[2], exercises[i].name) == 0) {
                int r = exercises[i].check();
                if (r == EX_PASS) {
                    printf("%s：通过\n", argv[2]);
                    return 0;
                }
                if (r == EX_TODO)
                    printf("%s：还没有写：编辑 exercises/%s.c\n", argv[2], argv[2]);
                else
                    printf("%s：没有通过（差在哪里见上面）\n", argv[2]);
                return 1;
            }
    if (argc == 3 && strcmp(argv[1], "check") == 0)
        fprintf(stderr, "attn-ex: 没有名为 '%s' 的练习\n", argv[2]);
    usage(stderr);
    return 2;
}
