attn_program_test(NAME ch10-permute LABEL ch10
    EXPECT "最大差值: [0-9.]+e-0[67]\n" "输出跟着换位置: 是"
    COMMAND attn-ch10 permute)
attn_program_test(NAME ch10-permute-causal LABEL ch10
    EXPECT "最大差值: [1-9][0-9]+\n" "输出跟着换位置: 否"
    COMMAND attn-ch10 permute --causal)
attn_program_test(NAME ch10-permute-positions LABEL ch10
    EXPECT "最大差值: [1-9][0-9]+\n" "输出跟着换位置: 否"
    COMMAND attn-ch10 permute --positions)
attn_program_test(NAME ch10-sinusoid LABEL ch10
    EXPECT "PE\\(2\\) = 0\\.9093 -0\\.4161 0\\.0200 0\\.9998"
           "第 0 对: 频率 1\\.000000, 波长 6\\.2832"
           "第 1 对: 频率 0\\.010000, 波长 628\\.3185"
    COMMAND attn-ch10 sinusoid --d 4 --p 2)
attn_program_test(NAME ch10-sinusoid-p1 LABEL ch10
    EXPECT "PE\\(1\\) = 0\\.8415 0\\.5403 0\\.0100 0\\.9999\n"
    COMMAND attn-ch10 sinusoid --d 4 --p 1)
attn_program_test(NAME ch10-sinusoid-d64 LABEL ch10
    EXPECT "第 31 对: 频率 0\\.000133, 波长 47117\\.2428"
    COMMAND attn-ch10 sinusoid --d 64 --p 0)
# 只算要打印的那一行：位置 10^6、d = 1024 也只是一行（算 10^6 + 1 行要 4 GB）
attn_program_test(NAME ch10-sinusoid-far LABEL ch10
    EXPECT "PE\\(1000000\\) = -0\\.3500 0\\.9368 "
    COMMAND attn-ch10 sinusoid --d 1024 --p 1000000)
set_tests_properties(ch10-sinusoid-far PROPERTIES TIMEOUT 20)
attn_program_test(NAME ch10-rope LABEL ch10
    EXPECT "分数: 0\\.5403"
    COMMAND attn-ch10 rope --i 2 --j 1)
attn_program_test(NAME ch10-rope-far LABEL ch10
    EXPECT "分数: 0\\.5403"
    COMMAND attn-ch10 rope --i 7 --j 6)
attn_program_test(NAME ch10-rope-swap LABEL ch10
    EXPECT "分数: 0\\.5403"
    COMMAND attn-ch10 rope --i 1 --j 2)
attn_program_test(NAME ch10-rope-k01 LABEL ch10
    EXPECT "分数: 0\\.8415"
    COMMAND attn-ch10 rope --i 2 --j 1 --k0 0 --k1 1)
attn_program_test(NAME ch10-rope-k01-swap LABEL ch10
    EXPECT "分数: -0\\.8415"
    COMMAND attn-ch10 rope --i 1 --j 2 --k0 0 --k1 1)
attn_program_test(NAME ch10-cache LABEL ch10
    EXPECT "最大差值: 0\n"
    COMMAND attn-ch10 cache --tokens 6)
attn_program_test(NAME ch10-cache-wrong LABEL ch10
    EXPECT "最大差值: 0\\.4[56][0-9]*\n"
    COMMAND attn-ch10 cache --tokens 6 --wrong)
attn_program_test(NAME ch10-bad-odd-d LABEL ch10 EXIT 2 EXPECT "用法"
    COMMAND attn-ch10 sinusoid --d 3)
attn_program_test(NAME ch10-bad-option LABEL ch10 EXIT 2 EXPECT "用法"
    COMMAND attn-ch10 rope --i x)
attn_program_test(NAME ch10-bad-tokens LABEL ch10 EXIT 2 EXPECT "用法"
    COMMAND attn-ch10 cache --tokens 0)
attn_program_test(NAME ch10-bad-exercise LABEL ch10 EXIT 2 EXPECT "用法"
    COMMAND attn-ch10 nothing)
