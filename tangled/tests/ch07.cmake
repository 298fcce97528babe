# PyTorch 的对应函数（后记“与 PyTorch 对照”；没有 torch 时失败）
if(NOT ATTN_SANITIZE)   # Python loads libattn.so, built without the sanitizer runtime it needs
add_test(NAME ch07-torch-mha
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/tests/ch07_torch_mha.py $<TARGET_FILE:attn_shared>)
set_tests_properties(ch07-torch-mha PROPERTIES LABELS ch07)
endif()
attn_program_test(NAME ch07-params LABEL ch07
  EXPECT "多头注意力的参数: 1048576" "切开 X 的模型的参数: 360448"
  COMMAND attn-ch07 params --d-model 512 --heads 8)
attn_program_test(NAME ch07-params-one-head LABEL ch07
  EXPECT "多头注意力的参数: 1048576" "切开 X 的模型的参数: 1048576"
  COMMAND attn-ch07 params --heads 1)
attn_program_test(NAME ch07-params-64-heads LABEL ch07
  EXPECT "多头注意力的参数: 1048576" "切开 X 的模型的参数: 274432"
  COMMAND attn-ch07 params --heads 64)
attn_program_test(NAME ch07-factor LABEL ch07
  EXPECT "完整的值矩阵: 150994944" "value-down 加 value-up: 3145728" "比值: 48.00"
  COMMAND attn-ch07 factor --d-model 12288 --d-head 128)
attn_program_test(NAME ch07-factor-64 LABEL ch07
  EXPECT "value-down 加 value-up: 1572864" "比值: 96.00"
  COMMAND attn-ch07 factor --d-head 64)
attn_program_test(NAME ch07-rank LABEL ch07
  EXPECT "值矩阵的秩 = 3"
  COMMAND attn-ch07 rank --d-head 3)
attn_program_test(NAME ch07-rank-10 LABEL ch07
  EXPECT "值矩阵的秩 = 8"
  COMMAND attn-ch07 rank --d-head 10)
attn_program_test(NAME ch07-pattern LABEL ch07
  EXPECT "fluffy +0.3320" "blue +0.3320" "verdant +0.3320" "roamed +0.0008"
  COMMAND attn-ch07 pattern --head 1 --token 7)
attn_program_test(NAME ch07-pattern-flat LABEL ch07
  EXPECT "fluffy +0.1250" "forest +0.1250"
  COMMAND attn-ch07 pattern --head 1 --token 7 --strength 0)
attn_program_test(NAME ch07-bad-option LABEL ch07 EXIT 2
  EXPECT "用法"
  COMMAND attn-ch07 params --heads x)
attn_program_test(NAME ch07-bad-heads LABEL ch07 EXIT 2
  EXPECT "用法"
  COMMAND attn-ch07 params --heads 7)
attn_program_test(NAME ch07-bad-exercise LABEL ch07 EXIT 2
  EXPECT "用法"
  COMMAND attn-ch07 nosuch)
