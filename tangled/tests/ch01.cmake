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
# 错误的输入：打印用法，退出状态 2
attn_program_test(NAME ch01-bad-option LABEL ch01 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch01 xor --x3 1)
attn_program_test(NAME ch01-bad-number LABEL ch01 EXIT 2 EXPECT "不合法" "用法"
                  COMMAND attn-ch01 xor --x1 abc)
attn_program_test(NAME ch01-missing-value LABEL ch01 EXIT 2 EXPECT "缺少值"
                  COMMAND attn-ch01 relu-fit --pieces)
attn_program_test(NAME ch01-bad-pieces LABEL ch01 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch01 relu-fit --pieces 0)
attn_program_test(NAME ch01-unknown-exercise LABEL ch01 EXIT 2 EXPECT "没有名为"
                  COMMAND attn-ch01 nope)
attn_program_test(NAME ch01-help LABEL ch01 EXPECT "xor" "relu-fit"
                  COMMAND attn-ch01 --help)
