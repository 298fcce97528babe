#line 561 "book/09-fast.nw"
attn_program_test(NAME ch09-bench-bad LABEL ch09 EXIT 2 EXPECT "用法" COMMAND attn-bench --bogus)
attn_program_test(NAME ch09-bench-tiny LABEL ch09 EXPECT "\"gflops\"" COMMAND attn-bench --n 64 --d 16 --repeat 1)
