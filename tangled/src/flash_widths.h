#line 78 "book/D-cpu.nw"
/* src/flash_widths.h — 把 FLASH_BODY 按每种向量宽度各包含一次。
   每一次定义：FW（一个向量装几个 float）、FR（寄存器块的行数，列数是 2·FW）、
   FP（一个查询块的行数补到它的倍数：FR 与 2·FW 的最小公倍数）、
   FNAME(f)（给名字加上宽度的后缀）、FTARGET（这一份用的指令集）。 */

/* 通用：4 个 float，任何机器都能编译（x86-64 上是 SSE2，WebAssembly 上是标量或 SIMD128） */
#define FW 4
#define FR 6
#define FP 24
#define FNAME(f) f##_w4
#define FTARGET
#include FLASH_BODY
#line 102 "book/D-cpu.nw"
#undef FW
#undef FR
#undef FP
#undef FNAME
#undef FTARGET
#undef vf
#undef vi

#line 520 "book/D-cpu.nw"
#if defined(__x86_64__) && defined(__GNUC__)
/* AVX2 加 FMA：8 个 float，16 个 ymm 寄存器 */
#define FW 8
#define FR 6
#define FP 48
#define FNAME(f) f##_w8
#define FTARGET __attribute__((target("avx2,fma")))
#include FLASH_BODY
#line 102 "book/D-cpu.nw"
#undef FW
#undef FR
#undef FP
#undef FNAME
#undef FTARGET
#undef vf
#undef vi

#line 530 "book/D-cpu.nw"
/* AVX-512：16 个 float，32 个 zmm 寄存器 */
#define FW 16
#define FR 12
#define FP 96
#define FNAME(f) f##_w16
#define FTARGET __attribute__((target("avx512f,avx512vl,avx2,fma")))
#include FLASH_BODY
#line 102 "book/D-cpu.nw"
#undef FW
#undef FR
#undef FP
#undef FNAME
#undef FTARGET
#undef vf
#undef vi

#line 539 "book/D-cpu.nw"
/* 三份里属于指令集 isa 的那一份：flash_block_w16、_w8 或 _w4；这个构建里没有的是 NULL */
#define ATTN_FOR_ISA(isa, f) ((isa) == ATTN_ISA_AVX512 ? f##_w16 : (isa) == ATTN_ISA_AVX2 ? f##_w8 \
                              : (isa) == ATTN_ISA_PORTABLE ? f##_w4 : NULL)
#endif

#line 94 "book/D-cpu.nw"
/* 属于指令集 isa 的那一份：ATTN_FOR_ISA(isa, flash_block) 是 flash_block_w4，这个构建里没有的是 NULL。
   附录 D 加上更宽的几份时，也给出自己的 ATTN_FOR_ISA。 */
#ifndef ATTN_FOR_ISA
#define ATTN_FOR_ISA(isa, f) ((isa) == ATTN_ISA_PORTABLE ? f##_w4 : NULL)
#endif
