attn_program_test(NAME ch03-softmax LABEL ch03 EXPECT "= \\(0.2689, 0.7311\\)"
                  COMMAND attn-ch03 softmax --a 1000 --b 1001)
attn_program_test(NAME ch03-softmax-naive LABEL ch03 EXPECT "= \\(-?nan, -?nan\\)"
                  COMMAND attn-ch03 softmax --a 1000 --b 1001 --naive)
attn_program_test(NAME ch03-softmax-shift LABEL ch03 EXPECT "= \\(0.2689, 0.7311\\)"
                  COMMAND attn-ch03 softmax --a 0 --b 1)
attn_program_test(NAME ch03-thinking-64 LABEL ch03 EXPECT "分数 14 和 12" "权重 0.880797.* 和 0.119"
                  COMMAND attn-ch03 thinking --s1 112 --s2 96 --dk 64)
attn_program_test(NAME ch03-thinking-16 LABEL ch03 EXPECT "分数 28 和 24" "权重 0.98201.* 和 0.018"
                  COMMAND attn-ch03 thinking --s1 112 --s2 96 --dk 16)
attn_program_test(NAME ch03-thinking-1 LABEL ch03 EXPECT "权重 0.99999988 和 1.1[0-9]e-07"
                  COMMAND attn-ch03 thinking --s1 112 --s2 96 --dk 1)
attn_program_test(NAME ch03-fluffy LABEL ch03 EXPECT "fluffy \\+ blue: 0.947" "forest → verdant: 0.826"
                  COMMAND attn-ch03 fluffy --s 3 --c 2)
attn_program_test(NAME ch03-fluffy-s0 LABEL ch03 EXPECT "fluffy \\+ blue: 0.455" "forest → verdant: 0.286"
                  COMMAND attn-ch03 fluffy --s 0 --c 2)
attn_program_test(NAME ch03-fluffy-c0 LABEL ch03 EXPECT "fluffy \\+ blue: 0.661" "creature → verdant: 0.330"
                  COMMAND attn-ch03 fluffy --s 3 --c 0)
attn_program_test(NAME ch03-parens-10 LABEL ch03 EXPECT "正确.*\\(6.698, 3.302\\)，行和 10。" "错误.*行和 1。"
                  COMMAND attn-ch03 parens --vscale 10)
attn_program_test(NAME ch03-parens-100 LABEL ch03 EXPECT "正确.*\\(66.98, 33.02\\)，行和 100。" "错误.*\\(1, [0-9.e-]+\\)，行和 1。"
                  COMMAND attn-ch03 parens --vscale 100)
attn_program_test(NAME ch03-bad-option LABEL ch03 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch03 fluffy --t 1)
attn_program_test(NAME ch03-bad-value LABEL ch03 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch03 thinking --dk -4)
attn_program_test(NAME ch03-help LABEL ch03 EXPECT "--vscale"
                  COMMAND attn-ch03 parens --help)
# PyTorch 的 softmax 与注意力（没有 torch 时失败）
if(NOT ATTN_SANITIZE)   # Python loads libattn.so, built without the sanitizer runtime it needs
add_test(NAME ch03-torch-attention
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/tests/ch03_torch_attention.py
                 $<TARGET_FILE:attn_shared>)
set_tests_properties(ch03-torch-attention PROPERTIES LABELS ch03)
endif()
