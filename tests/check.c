/* tests/check.c — implementation of the assert harness declared in check.h. */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
static const char *section = "";

void check_section(const char *title)
{
    section = title ? title : "";
}

static int record(int ok, const char *file, int line, const char *expr)
{
    if (ok) {
        passed++;
        return 1;
    }
    failed++;
    fprintf(stderr, "%s:%d: 检查失败 [%s] %s\n", file, line, section, expr);
    return 0;
}

int check_true(int ok, const char *expr, const char *file, int line)
{
    return record(ok, file, line, expr);
}

int check_near(double got, double want, double tol, const char *expr, const char *file, int line)
{
    /* NaN never passes: the comparison below is false for it */
    int ok = fabs(got - want) <= tol;
    if (!record(ok, file, line, expr))
        fprintf(stderr, "    得到 %.9g，期望 %.9g，容差 %.3g（差 %.3g）\n", got, want, tol, got - want);
    return ok;
}

int check_rel(double got, double want, double rel_tol, const char *expr, const char *file, int line)
{
    int ok = fabs(got - want) <= rel_tol * fabs(want);
    if (!record(ok, file, line, expr))
        fprintf(stderr, "    得到 %.12g，期望 %.12g，相对容差 %.3g\n", got, want, rel_tol);
    return ok;
}

int check_int(long long got, long long want, const char *expr, const char *file, int line)
{
    int ok = got == want;
    if (!record(ok, file, line, expr))
        fprintf(stderr, "    得到 %lld，期望 %lld\n", got, want);
    return ok;
}

int check_status(int got, int want, const char *expr, const char *file, int line)
{
    int ok = got == want;
    if (!record(ok, file, line, expr))
        fprintf(stderr, "    返回状态 %d，期望 %d\n", got, want);
    return ok;
}

int check_array_near(const float *got, const float *want, size_t n, double tol,
                     const char *expr, const char *file, int line)
{
    for (size_t i = 0; i < n; i++) {
        if (!(fabs((double)got[i] - (double)want[i]) <= tol)) {
            record(0, file, line, expr);
            fprintf(stderr, "    第 %zu 个元素：得到 %.9g，期望 %.9g，容差 %.3g\n",
                    i, (double)got[i], (double)want[i], tol);
            return 0;
        }
    }
    return record(1, file, line, expr);
}

int check_str(const char *got, const char *want, const char *expr, const char *file, int line)
{
    int ok = got && want && strcmp(got, want) == 0;
    if (!record(ok, file, line, expr))
        fprintf(stderr, "    得到 \"%s\"，期望 \"%s\"\n", got ? got : "(null)", want ? want : "(null)");
    return ok;
}

int check_light(const char *what)
{
    const char *light = getenv("ATTN_TEST_LIGHT");
    if (light == NULL || *light == '\0' || *light == '0')
        return 0;
    printf("  跳过（轻量运行，ATTN_TEST_LIGHT）：%s\n", what);
    return 1;
}

int check_optimized(const char *what)
{
#ifdef __OPTIMIZE__
    (void)what;
    return 0;
#else
    printf("  跳过（未优化的构建：快速核里的乘加没有合成 FMA，舍入处处不同）：%s\n", what);
    return 1;
#endif
}

int check_summary(const char *suite)
{
    printf("%s: %d 项检查通过，%d 项失败\n", suite, passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}
