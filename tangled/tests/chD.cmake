attn_program_test(NAME chD-bench-bad LABEL chD EXIT 2 EXPECT "用法" COMMAND attn-bench --bogus)
attn_program_test(NAME chD-bench-isa LABEL chD EXIT 2 EXPECT "用法" COMMAND attn-bench --isa sse9)
attn_program_test(NAME chD-bench-peak LABEL chD EXPECT "\"peak\": \"portable\", \"lanes\": 4"
                  COMMAND attn-bench --peak --isa portable --repeat 1)
attn_program_test(NAME chD-bench-portable LABEL chD EXPECT "\"isa\": \"portable\""
                  COMMAND attn-bench --n 64 --d 16 --repeat 1 --isa portable)
attn_program_test(NAME chD-bench-mha LABEL chD EXPECT "\"impl\": \"mha\", \"isa\": \"[a-z0-9]+\", \"n\": 64, \"d_model\": 32"
                  COMMAND attn-bench --mha --n 64 --d 16 --heads 2 --repeat 1)
attn_program_test(NAME chD-bench-impl LABEL chD EXIT 2 EXPECT "用法" COMMAND attn-bench --impl slow)
# 训练一步的各部分：只核对各部分的运算量和输出的形状，不看时间
attn_program_test(NAME chD-bench-train-profile LABEL chD
                  EXPECT "\"part\": \"output-forward\", \"seconds\": [0-9.]+, \"share\": -?[0-9.]+, \"flops\": 25600,"
                         "\"part\": \"linear-forward\", \"seconds\": [0-9.]+, \"share\": -?[0-9.]+, \"flops\": 98304,"
                         "\"part\": \"linear-backward\", \"seconds\": [0-9.]+, \"share\": -?[0-9.]+, \"flops\": 196608,"
                         "\"part\": \"attention-backward\", \"seconds\": [0-9.]+, \"share\": -?[0-9.]+, \"flops\": 9216,"
                         "\"part\": \"other\""
                         "\"part\": \"step\", \"isa\": \"[a-z0-9]+\", \"threads\": 2, \"layers\": 1, \"heads\": 2, \"d_head\": 8, \"n\": 8, \"batch\": 2, \"vocab\": 50,.*\"flops\": 385536,"
                  COMMAND attn-bench --train-profile --layers 1 --heads 2 --d 8 --n 8 --batch 2 --vocab 50
                          --threads 2 --repeat 1)
attn_program_test(NAME chD-bench-train-profile-bad LABEL chD EXIT 2 EXPECT "用法"
                  COMMAND attn-bench --train-profile --vocab 1)
attn_program_test(NAME chD-bench-zero LABEL chD EXIT 2 EXPECT "用法" COMMAND attn-bench --n 0)
# 构建出的库里的峰值循环只在优化的构建里才全在寄存器里（-O0 时累加器放在栈上）
if(CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo|MinSizeRel)$")
  set(chD_peak_library $<TARGET_FILE:attn_static>)
else()
  set(chD_peak_library "")
endif()
add_test(NAME chD-fp-contract COMMAND ${PROJECT_SOURCE_DIR}/tangled/tests/fp_contract.sh ${PROJECT_SOURCE_DIR}/tangled
                                     ${chD_peak_library})
set_tests_properties(chD-fp-contract PROPERTIES LABELS chD SKIP_RETURN_CODE 77)
