# PyTorch 的对应函数（后记“与 PyTorch 对照”；没有 torch 时失败）
if(NOT ATTN_SANITIZE)   # Python loads libattn.so, built without the sanitizer runtime it needs
add_test(NAME ch11-torch-ln-gelu
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/tests/ch11_torch_ln_gelu.py $<TARGET_FILE:attn_shared>)
set_tests_properties(ch11-torch-ln-gelu PROPERTIES LABELS ch11)
endif()
# 第 11 章练习的参考答案
attn_program_test(NAME ch11-ex-layernorm LABEL ch11
                  EXPECT "均值 2\\.5000，方差 1\\.2500" "y = -1\\.3416 -0\\.4472 0\\.4472 1\\.3416"
                  COMMAND attn-ch11 layernorm)
attn_program_test(NAME ch11-ex-layernorm-scaled LABEL ch11
                  EXPECT "均值 5\\.0000，方差 5\\.0000" "y = -1\\.3416 -0\\.4472 0\\.4472 1\\.3416"
                  COMMAND attn-ch11 layernorm --values 2,4,6,8)
attn_program_test(NAME ch11-ex-layernorm-shifted LABEL ch11
                  EXPECT "y = -1\\.3416 -0\\.4472 0\\.4472 1\\.3416"
                  COMMAND attn-ch11 layernorm --values 101,102,103,104)
attn_program_test(NAME ch11-ex-layernorm-constant LABEL ch11
                  EXPECT "方差 0\\.0000" "y = 0\\.0000 0\\.0000 0\\.0000 0\\.0000"
                  COMMAND attn-ch11 layernorm --values 5,5,5,5 --eps 1)
attn_program_test(NAME ch11-ex-layernorm-constant-eps LABEL ch11
                  EXPECT "y = 0\\.0000 0\\.0000 0\\.0000 0\\.0000"
                  COMMAND attn-ch11 layernorm --values 5,5,5,5)
attn_program_test(NAME ch11-ex-gelu-neg LABEL ch11
                  EXPECT "GELU -0\\.0036，ReLU 0\\.0000，erf 形式 -0\\.0040"
                  COMMAND attn-ch11 gelu --x -3)
attn_program_test(NAME ch11-ex-gelu-half LABEL ch11
                  EXPECT "GELU 0\\.3457，ReLU 0\\.5000"
                  COMMAND attn-ch11 gelu --x 0.5)
attn_program_test(NAME ch11-ex-params LABEL ch11 EXPECT "每层 12704" "参数块 26496 个"
                  COMMAND attn-ch11 params)
attn_program_test(NAME ch11-ex-params-4 LABEL ch11 EXPECT "参数块 51904 个"
                  COMMAND attn-ch11 params --layers 4)
attn_program_test(NAME ch11-ex-params-ff LABEL ch11 EXPECT "前馈 4192" "参数块 18176 个"
                  COMMAND attn-ch11 params --d-ff 64)
attn_program_test(NAME ch11-ex-next LABEL ch11
                  EXPECT "最可能是 13，概率 0\\.0797" "最多相差 0\\.0e\\+00"
                  COMMAND attn-ch11 next --tokens 3,1,4,1,5)
# 上下文比读的词短：库拒绝，程序说明原因、释放模型、以 1 退出（AddressSanitizer 的构建查得出漏掉的释放）
attn_program_test(NAME ch11-ex-next-short-context LABEL ch11 EXIT 1
                  EXPECT "next: invalid argument"
                  COMMAND attn-ch11 next --tokens 3,1,4,1,5 --ctx 4)
attn_program_test(NAME ch11-ex-generate LABEL ch11
                  EXPECT "提示: 3 1 4 1 5\n" "续写: 13 13 13 13 13 13 13 13 13 13 13\n"
                  COMMAND attn-ch11 generate --tokens 3,1,4,1,5 --n 11)
attn_program_test(NAME ch11-ex-generate-12 LABEL ch11
                  EXPECT "续写: 13 13 13 13 13 13 13 13 13 13 13 13\n"
                  COMMAND attn-ch11 generate --n 12)
attn_program_test(NAME ch11-ex-generate-seed LABEL ch11
                  EXPECT "续写: 5 5 5 5 5 5 5 5 7 7 7\n"
                  COMMAND attn-ch11 generate --seed 7)
attn_program_test(NAME ch11-ex-generate-13 LABEL ch11 EXIT 1
                  EXPECT "generate: cache is full"
                  COMMAND attn-ch11 generate --n 13)
# 错误的输入：打印用法，退出状态 2
attn_program_test(NAME ch11-bad-eps LABEL ch11 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch11 layernorm --values 5,5,5,5 --eps 0)
attn_program_test(NAME ch11-bad-values LABEL ch11 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch11 layernorm --values 1,,2)
attn_program_test(NAME ch11-bad-token LABEL ch11 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch11 next --tokens 3,16)
attn_program_test(NAME ch11-bad-layers LABEL ch11 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch11 params --layers 0)
attn_program_test(NAME ch11-bad-context LABEL ch11 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch11 next --ctx 0)
attn_program_test(NAME ch11-bad-count LABEL ch11 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch11 generate --n 0)
attn_program_test(NAME ch11-bad-option LABEL ch11 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch11 gelu --y 1)
attn_program_test(NAME ch11-unknown-exercise LABEL ch11 EXIT 2 EXPECT "没有名为"
                  COMMAND attn-ch11 block)
attn_program_test(NAME ch11-help LABEL ch11 EXPECT "layernorm" "gelu" "params" "next" "generate"
                  COMMAND attn-ch11 --help)
