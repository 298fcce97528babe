#line 1182 "book/09-fast.nw"
/* attn-membw — 一个核顺序读内存能多快：对越来越大的缓冲区反复求和，每种大小打印一行“字节数 GB/s”。 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double membw_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* n 个 32 位整数的和：整数加法可以调换次序，编译器把它向量化 */
#define MEMBW_SUM_BODY                                                         \
    uint32_t s = 0;                                                            \
    for (size_t i = 0; i < n; i++)                                             \
        s += x[i];                                                             \
    return s;

#if defined(__x86_64__) && defined(__GNUC__)
/* 有 AVX-512 时用 64 字节的向量读，否则一级、二级缓存的速度量不出来（受限的是读的指令，不是缓存） */
__attribute__((target("avx512f,avx512bw"))) static uint32_t membw_sum_wide(const uint32_t *x, size_t n)
{
    MEMBW_SUM_BODY
}
#endif

static uint32_t membw_sum(const uint32_t *x, size_t n)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
        return membw_sum_wide(x, n);
#endif
    MEMBW_SUM_BODY
}

int main(int argc, char **argv)
{
    char *end = NULL;
    unsigned long mib = argc > 1 ? strtoul(argv[1], &end, 10) : 256;
    if (argc > 2 || (argc > 1 && (*end != '\0' || mib == 0 || mib > 4096))) {
        fprintf(stderr, "用法: attn-membw [最大的缓冲区，MiB，1..4096，缺省 256]\n");
        return 2;
    }
    size_t most = (size_t)mib << 20;
    uint32_t *buf = malloc(most);
    if (buf == NULL) {
        fprintf(stderr, "attn-membw: 内存不够\n");
        return 1;
    }
    for (size_t i = 0; i < most / sizeof *buf; i++)
        buf[i] = (uint32_t)i;
    volatile uint32_t sink = 0;
    printf("# bytes GB/s\n");
    for (size_t bytes = (size_t)16 << 10; bytes <= most; bytes *= 2) {
        size_t n = bytes / sizeof *buf, reps = 1;
        double best = 0;
        sink += membw_sum(buf, n);                       /* 先读一遍，放进缓存 */
        for (int trial = 0; trial < 20; trial++) {
            double t0 = membw_now();
            for (size_t r = 0; r < reps; r++)
                sink += membw_sum(buf, n);
            double t = membw_now() - t0;
            if (t < 0.005) {                             /* 太短：重复的次数加倍，这一次不算 */
                reps *= 2;
                trial--;
                continue;
            }
            double gbs = (double)bytes * (double)reps / t * 1e-9;
            best = gbs > best ? gbs : best;
        }
        printf("%zu %.1f\n", bytes, best);
    }
    free(buf);
    return sink == 1 && most == 0;          /* 用一下 sink：读内存的和不能被优化掉 */
}
