attn_program_test(NAME ch09-bench-tiny LABEL ch09 EXPECT "\"gflops\"" "\"extra_bytes\": 131328"
                  COMMAND attn-bench --n 64 --d 16 --repeat 1)
attn_program_test(NAME ch09-bench-rows LABEL ch09 EXPECT "\"impl\": \"rows\"" "\"extra_bytes\": 180480"
                  "\"isa\": \"portable\"" COMMAND attn-bench --n 64 --d 16 --repeat 1 --impl rows)
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
