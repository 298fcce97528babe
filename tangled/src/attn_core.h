#line 669 "book/03-attention.nw"
/* src/attn_core.h — 一个注意力问题的描述，库里的各个实现共用，不对外公开。 */
#ifndef ATTN_CORE_H
#define ATTN_CORE_H

#include <stddef.h>

/* heads 个头的缩放点积注意力。头 h 的查询 i 是 q + h·head_q + i·ld_q 处的 d_k 个 float，
   键、值和输出同理；weights 为 NULL 或 [heads][n_q][n_k]，mask 为 NULL 或 [n_q][n_k]，各头共用。 */
typedef struct attn_problem {
    const float *q, *k, *v;
    float *out, *weights;
    size_t heads, n_q, n_k, d_k, d_v;
    size_t ld_q, ld_k, ld_v, ld_out;           /* 行距，单位是 float */
    size_t head_q, head_k, head_v, head_out;   /* 相邻两个头的距离，单位是 float */
    float scale;                               /* 已经检查过：有限的正数 */
    const unsigned char *mask;
    int causal;
    int threads;                               /* 线程数；0 表示 OpenMP 的默认值 */
    void *scratch;    /* NULL，或 attn_problem_scratch_bytes 个字节、按 64 字节对齐的工作区 */
} attn_problem;

/* 检查 attn_sdpa 的参数，写成一个头、行距等于宽度的问题 */
int attn_problem_init(attn_problem *prob, const float *q, const float *k, const float *v,
                      size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                      float scale, const unsigned char *mask, int causal,
                      float *out, float *weights);
/* 参考实现 */
int attn_problem_reference(const attn_problem *prob);
/* out 或 weights 与某个输入重叠，或两者彼此重叠时返回 1 */
int attn_problem_overlaps(const attn_problem *prob);
/* 用最快的可用实现；输出与输入重叠时 ATTN_EINVAL */
int attn_problem_solve(const attn_problem *prob);
/* 同上，不查重叠：库里的调用者自己保证（第 5 章起的 KV 缓存用它） */
int attn_problem_run(const attn_problem *prob);
/* attn_problem_solve 要的工作区字节数；调用者给了 scratch，实现就不再自己分配 */
size_t attn_problem_scratch_bytes(const attn_problem *prob);

#line 712 "book/03-attention.nw"
/* 后面的章节在这里声明别的实现 */
#line 822 "book/09-fast.nw"
/* 第 9 章的快速实现：分块、在线 softmax、多线程 */
int attn_flash(const attn_problem *prob);
/* 阶梯的第二级：键块取整个 n_k（没有在线 softmax），一个线程，正文的循环 */
int attn_flash_rows(const attn_problem *prob);
/* 同上，另把每行最后的最大分数 m 和指数和 l 写进 row_m、row_l（各 [heads][n_q]） */
int attn_flash_with_stats(const attn_problem *prob, float *row_m, float *row_l);
/* 快速实现的三种指令集（第 9 章只有通用的一种，附录 D 加上另外两种） */
enum { ATTN_ISA_PORTABLE, ATTN_ISA_AVX2, ATTN_ISA_AVX512, ATTN_ISA_COUNT };
/* "portable"、"avx2"、"avx512"；其他的数是 "unknown" */
const char *attn_isa_name(int isa);
/* 一个向量装几个 float：4、8、16；其他的数是 0 */
int attn_isa_lanes(int isa);
/* 这个构建、这个 CPU 能用它时返回 1 */
int attn_isa_available(int isa);
/* 正在用的指令集：能用的最宽的一种（附录 D：环境变量 ATTN_ISA 可以指定一种能用的） */
int attn_isa_current(void);
/* 指定以后用哪一种（测试用）；-1 表示恢复自动选择；不能用的是 ATTN_EINVAL */
int attn_isa_force(int isa);
/* 所有分数都远在 float 的范围之内、输入都是有限数时返回 1 */
int attn_flash_applies(const attn_problem *prob);
/* 快速实现自己分配的字节数（每个线程一块工作区）；参数不合法或溢出时为 0 */
size_t attn_flash_bytes(size_t d_k, size_t d_v, int threads);
/* 快速实现实际算的分数个数（因果时整块跳过看不见的键）；n_q·n_k 溢出时为 0 */
size_t attn_flash_scores(size_t n_q, size_t n_k, int causal);
#line 434 "book/12-learning.nw"
/* 第 12 章：注意力的反向传播，用前向（attn_sdpa）留下的注意力模式 p[n_q×n_k]
   和输出 out[n_q×d_v]。q、k、v、尺寸、scale 与前向相同；
   写入 dq[n_q×d_k]、dk[n_k×d_k]、dv[n_k×d_v]（都不能为 NULL）。
   指针为 NULL、尺寸为 0、scale 不合法、输出与输入或彼此重叠：ATTN_EINVAL。 */
int attn_sdpa_backward_keep_p(const float *q, const float *k, const float *v,
                              const float *p, const float *out, const float *dout,
                              size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                              float scale, float *dq, float *dk, float *dv);
#line 2125 "book/12-learning.nw"
/* 第 12 章：attn_sdpa_backward 的参考版本（不走快速实现），参数与返回值和它相同 */
int attn_sdpa_backward_reference(const float *q, const float *k, const float *v,
                                 size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                                 float scale, const unsigned char *mask, int causal,
                                 const float *dout, float *dq, float *dk, float *dv);
#line 776 "book/D-cpu.nw"
/* 附录 D：threads 个线程各做 iters 轮只有乘加的循环，返回一共做了多少次浮点运算；不能用时为 0 */
double attn_isa_peak_flops(int isa, int threads, size_t iters);
#line 1155 "book/D-cpu.nw"
/* 附录 D：attn_sdpa_backward 的快速实现，threads 个线程（0 表示 OpenMP 的默认值）。
   scale 已经确定（不是 0）。输入太大、有无穷大或 NaN、或内存不够时返回 -1，调用者改用参考版本。 */
int attn_flash_backward(const float *q, const float *k, const float *v,
                        size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                        float scale, const unsigned char *mask, int causal,
                        const float *dout, float *dq, float *dk, float *dv, int threads);
/* 它要分配的字节数；溢出或参数不合法时为 0 */
size_t attn_flash_backward_bytes(size_t n_q, size_t n_k, size_t d_k, size_t d_v, int threads);
/* 同上，只是前向已经跑过：o[n_q][d_v] 是它的输出，row_m、row_l 是 attn_flash_with_stats 写下的每行的 m、l。
   结果与 attn_flash_backward 一位不差。 */
int attn_flash_backward_saved(const float *q, const float *k, const float *v, const float *o,
                              const float *row_m, const float *row_l,
                              size_t n_q, size_t n_k, size_t d_k, size_t d_v,
                              float scale, const unsigned char *mask, int causal,
                              const float *dout, float *dq, float *dk, float *dv, int threads);

#line 708 "book/03-attention.nw"
#endif
