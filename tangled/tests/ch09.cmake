attn_program_test(NAME ch09-bench-bad LABEL ch09 EXIT 2 EXPECT "用法" COMMAND attn-bench --bogus)
attn_program_test(NAME ch09-bench-isa LABEL ch09 EXIT 2 EXPECT "用法" COMMAND attn-bench --isa sse9)
attn_program_test(NAME ch09-bench-peak LABEL ch09 EXPECT "\"peak\": \"portable\", \"lanes\": 4"
                  COMMAND attn-bench --peak --isa portable --repeat 1)
attn_program_test(NAME ch09-bench-portable LABEL ch09 EXPECT "\"isa\": \"portable\""
                  COMMAND attn-bench --n 64 --d 16 --repeat 1 --isa portable)
attn_program_test(NAME ch09-bench-mha LABEL ch09 EXPECT "\"impl\": \"mha\", \"isa\": \"[a-z0-9]+\", \"n\": 64, \"d_model\": 32"
                  COMMAND attn-bench --mha --n 64 --d 16 --heads 2 --repeat 1)
attn_program_test(NAME ch09-bench-impl LABEL ch09 EXIT 2 EXPECT "用法" COMMAND attn-bench --impl slow)
attn_program_test(NAME ch09-bench-zero LABEL ch09 EXIT 2 EXPECT "用法" COMMAND attn-bench --n 0)
attn_program_test(NAME ch09-bench-tiny LABEL ch09 EXPECT "\"gflops\"" "\"extra_bytes\": 131328"
                  COMMAND attn-bench --n 64 --d 16 --repeat 1)
attn_program_test(NAME ch09-bench-ref LABEL ch09 EXPECT "\"impl\": \"reference\"" "\"extra_bytes\": 256"
                  "\"scores\": 2080" COMMAND attn-bench --n 64 --d 16 --repeat 1 --impl reference --causal)
attn_program_test(NAME ch09-ex-bytes LABEL ch09 EXPECT "\"extra_bytes\": 370944"
                  COMMAND attn-bench --n 64 --d 128 --repeat 1)
if(OpenMP_C_FOUND)
  attn_program_test(NAME ch09-ex-bytes2 LABEL ch09 EXPECT "\"extra_bytes\": 741888"
                    COMMAND attn-bench --n 64 --d 128 --repeat 1 --threads 2)
endif()
attn_program_test(NAME ch09-ex-causal LABEL ch09 EXPECT "\"scores\": 8777728"
                  COMMAND attn-bench --n 4096 --d 16 --repeat 1 --causal)
