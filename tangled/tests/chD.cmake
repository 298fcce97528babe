attn_program_test(NAME chD-bench-bad LABEL chD EXIT 2 EXPECT "用法" COMMAND attn-bench --bogus)
attn_program_test(NAME chD-bench-isa LABEL chD EXIT 2 EXPECT "用法" COMMAND attn-bench --isa sse9)
attn_program_test(NAME chD-bench-peak LABEL chD EXPECT "\"peak\": \"portable\", \"lanes\": 4"
                  COMMAND attn-bench --peak --isa portable --repeat 1)
attn_program_test(NAME chD-bench-portable LABEL chD EXPECT "\"isa\": \"portable\""
                  COMMAND attn-bench --n 64 --d 16 --repeat 1 --isa portable)
attn_program_test(NAME chD-bench-mha LABEL chD EXPECT "\"impl\": \"mha\", \"isa\": \"[a-z0-9]+\", \"n\": 64, \"d_model\": 32"
                  COMMAND attn-bench --mha --n 64 --d 16 --heads 2 --repeat 1)
attn_program_test(NAME chD-bench-impl LABEL chD EXIT 2 EXPECT "用法" COMMAND attn-bench --impl slow)
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
