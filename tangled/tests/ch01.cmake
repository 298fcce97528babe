# 第 1 章练习的参考答案
attn_program_test(NAME ch01-ex-xor-point LABEL ch01
                  EXPECT "h = \\(1, 0\\)" "y = 1\n"
                  COMMAND attn-ch01 xor --x1 0.5 --x2 0.5)
attn_program_test(NAME ch01-ex-xor-linear LABEL ch01
                  EXPECT "x = \\(0, 0\\).*y = 2\n" "x = \\(1, 0\\).*y = 1\n" "x = \\(1, 1\\).*y = 0\n"
                  COMMAND attn-ch01 xor --table --linear)
attn_program_test(NAME ch01-ex-xor-table LABEL ch01
                  EXPECT "x = \\(0, 0\\).*y = 0\n" "x = \\(0, 1\\).*y = 1\n" "x = \\(1, 1\\).*y = 0\n"
                  COMMAND attn-ch01 xor --table)
attn_program_test(NAME ch01-ex-relu-fit-16 LABEL ch01
                  EXPECT "段数 16：\\[0, π\\] 上的最大误差 0\\.0048"
                  COMMAND attn-ch01 relu-fit --pieces 16)
attn_program_test(NAME ch01-ex-relu-fit-at LABEL ch01
                  EXPECT "误差 -3\\.06"
                  COMMAND attn-ch01 relu-fit --pieces 8 --at 6.2832)
attn_program_test(NAME ch01-ex-relu-fit-left LABEL ch01
                  EXPECT "x = -1\\.0000：网络 0\\.0000，sin x = -0\\.8415，误差 0\\.8415"
                  COMMAND attn-ch01 relu-fit --pieces 8 --at -1)
attn_program_test(NAME ch01-ex-linear-neuron LABEL ch01
                  EXPECT "d_in = 3，d_out = 1" "y = 5\n"
                  COMMAND attn-ch01 linear --x 1,2,3 --w 0.5,-1,2 --b 0.5)
attn_program_test(NAME ch01-ex-linear-transposed LABEL ch01
                  EXPECT "d_out = 2" "y = 6 15\n"
                  COMMAND attn-ch01 linear --x 1,1,1 --w 1,4,2,5,3,6)
attn_program_test(NAME ch01-ex-linear-untransposed LABEL ch01
                  EXPECT "y = 9 12\n"
                  COMMAND attn-ch01 linear --x 1,1,1 --w 1,2,3,4,5,6)
# PyTorch 的 nn.Linear：weight 转置后就是本书的 W（没有 torch 时失败）
add_test(NAME ch01-torch-linear
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/tests/ch01_torch_linear.py
                 $<TARGET_FILE:attn-ch01>)
set_tests_properties(ch01-torch-linear PROPERTIES LABELS ch01)
if(NOT ATTN_SANITIZE)   # Python loads libattn.so, built without the sanitizer runtime it needs
add_test(NAME ch01-torch-relu
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/tests/ch01_torch_relu.py
                 $<TARGET_FILE:attn_shared>)
set_tests_properties(ch01-torch-relu PROPERTIES LABELS ch01)
endif()
# 错误的输入：打印用法，退出状态 2
attn_program_test(NAME ch01-bad-option LABEL ch01 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch01 xor --x3 1)
attn_program_test(NAME ch01-bad-number LABEL ch01 EXIT 2 EXPECT "不合法" "用法"
                  COMMAND attn-ch01 xor --x1 abc)
attn_program_test(NAME ch01-missing-value LABEL ch01 EXIT 2 EXPECT "缺少值"
                  COMMAND attn-ch01 relu-fit --pieces)
attn_program_test(NAME ch01-bad-pieces LABEL ch01 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch01 relu-fit --pieces 0)
attn_program_test(NAME ch01-linear-bad-shape LABEL ch01 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch01 linear --x 1,2 --w 1,2,3)
attn_program_test(NAME ch01-linear-bad-bias LABEL ch01 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch01 linear --x 1,2 --w 1,2 --b 1,2)
attn_program_test(NAME ch01-linear-bad-number LABEL ch01 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch01 linear --x 1,zwei)
attn_program_test(NAME ch01-unknown-exercise LABEL ch01 EXIT 2 EXPECT "没有名为"
                  COMMAND attn-ch01 nope)
attn_program_test(NAME ch01-help LABEL ch01 EXPECT "xor" "relu-fit" "linear"
                  COMMAND attn-ch01 --help)
attn_program_test(NAME ch01-help-exercise LABEL ch01 EXPECT "用法: linear"
                  COMMAND attn-ch01 linear --help)
