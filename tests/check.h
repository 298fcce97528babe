/* tests/check.h — the book's tiny assert harness (plain C, no framework).
 *
 * Every check records a pass or a failure and carries on, so one run reports all failures.
 * A failure names the file and line (with the #line directives of notangle -L, that is the
 * line of the book's .nw source) and the values involved. check_summary() prints the count
 * and returns the process exit status: 0 when nothing failed, 1 otherwise.
 */
#ifndef ATTN_CHECK_H
#define ATTN_CHECK_H

#include <stddef.h>

void check_section(const char *title);
int  check_true(int ok, const char *expr, const char *file, int line);
int  check_near(double got, double want, double tol,
                const char *expr, const char *file, int line);
int  check_rel(double got, double want, double rel_tol,
               const char *expr, const char *file, int line);
int  check_int(long long got, long long want, const char *expr, const char *file, int line);
int  check_status(int got, int want, const char *expr, const char *file, int line);
int  check_array_near(const float *got, const float *want, size_t n, double tol,
                      const char *expr, const char *file, int line);
int  check_str(const char *got, const char *want, const char *expr, const char *file, int line);
int  check_summary(const char *suite);

/* A long statistical or training run may be left out of a light run (ATTN_TEST_LIGHT=1, set by
 * the Valgrind configuration, where it would take half an hour): check_light("…") then prints
 * that it is skipped and returns 1. The ordinary build, ASan and clang run everything
 * (but see check_optimized). */
int  check_light(const char *what);

/* A check of a chaotic outcome (which seeds of a training run learn) holds for the bits of an
 * optimized build only: without optimization GCC does not contract a*b + c into one FMA in the
 * fast kernels (compiled with -ffp-contract=fast), every rounding moves and the runs take other
 * paths. check_optimized("…") skips such a check in an unoptimized (Debug, ASan) build, says so
 * and returns 1. */
int  check_optimized(const char *what);

/* The macros only add the expression text, __FILE__ and __LINE__; control flow stays visible. */
#define CHECK(cond)                 check_true(!!(cond), #cond, __FILE__, __LINE__)
#define CHECK_NEAR(got, want, tol)  check_near((double)(got), (double)(want), (double)(tol), #got, __FILE__, __LINE__)
#define CHECK_REL(got, want, rel)   check_rel((double)(got), (double)(want), (double)(rel), #got, __FILE__, __LINE__)
#define CHECK_INT(got, want)        check_int((long long)(got), (long long)(want), #got, __FILE__, __LINE__)
#define CHECK_OK(call)              check_status((call), 0, #call, __FILE__, __LINE__)
#define CHECK_STATUS(call, want)    check_status((call), (want), #call, __FILE__, __LINE__)
#define CHECK_ARRAY_NEAR(got, want, n, tol) \
    check_array_near((got), (want), (n), (double)(tol), #got, __FILE__, __LINE__)
#define CHECK_STR(got, want)        check_str((got), (want), #got, __FILE__, __LINE__)

#endif
