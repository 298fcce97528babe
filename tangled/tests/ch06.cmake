# 第 6 章练习的参考答案
attn_program_test(NAME ch06-ex-align LABEL ch06
                  EXPECT "I +0\\.8339 0\\.0415" "saw +0\\.0363 0\\.0363 0\\.7286 0\\.1626"
                  COMMAND attn-ch06 align --strength 6)
attn_program_test(NAME ch06-ex-align-weak LABEL ch06
                  EXPECT "I +0\\.4046 0\\.1488 0\\.1488 0\\.1488 0\\.1488"
                  COMMAND attn-ch06 align --strength 2)
attn_program_test(NAME ch06-ex-pad-mask LABEL ch06
                  EXPECT "I 对 我 的权重: 0\\.8339" "pad 的权重之和: 0\\.0000"
                  COMMAND attn-ch06 pad --pad 2)
attn_program_test(NAME ch06-ex-pad-nomask LABEL ch06
                  EXPECT "I 对 我 的权重: 0\\.7700" "pad 的权重之和: 0\\.0767"
                  COMMAND attn-ch06 pad --pad 2 --no-mask)
attn_program_test(NAME ch06-ex-pad-ten LABEL ch06
                  EXPECT "I 对 我 的权重: 0\\.5893" "pad 的权重之和: 0\\.2934"
                  COMMAND attn-ch06 pad --pad 10 --no-mask)
attn_program_test(NAME ch06-ex-causal-off LABEL ch06
                  EXPECT "她 0\\.8339"
                  COMMAND attn-ch06 causal)
attn_program_test(NAME ch06-ex-causal-on LABEL ch06
                  EXPECT "我 0\\.2500" "了 0\\.2500" "她 0\\.0000"
                  COMMAND attn-ch06 causal --causal)
attn_program_test(NAME ch06-ex-order LABEL ch06
                  EXPECT "yesterday -> 昨天（第 1 列，权重 0\\.8339），"
                         "yesterday .*输出 \\(0\\.0415, 0\\.0415, 0\\.8339, 0\\.0415, 0\\.0415\\)"
                         "I -> 我（第 0 列，权重 0\\.8339），输出 \\(0\\.8339, 0\\.0415,"
                         "her -> 她（第 4 列，权重 0\\.8339），输出 \\(0\\.0415, 0\\.8339,"
                         "saw -> 看见.*输出 \\(0\\.0363, 0\\.0363, 0\\.0363, 0\\.7286, 0\\.1626\\)"
                  COMMAND attn-ch06 order)
attn_program_test(NAME ch06-ex-order-swap LABEL ch06
                  EXPECT "yesterday -> 昨天（第 0 列，权重 0\\.8339），"
                         "yesterday .*输出 \\(0\\.0415, 0\\.0415, 0\\.8339, 0\\.0415, 0\\.0415\\)"
                         "I -> 我（第 1 列"
                  COMMAND attn-ch06 order --swap)
attn_program_test(NAME ch06-ex-reuse LABEL ch06
                  EXPECT "只算一次: 94371840" "每步重算: 2831155200"
                  COMMAND attn-ch06 reuse --src 30 --tgt 30)
attn_program_test(NAME ch06-ex-reuse-long LABEL ch06
                  EXPECT "只算一次: 94371840" "每步重算: 5662310400"
                  COMMAND attn-ch06 reuse --src 30 --tgt 60)
# 错误的输入：打印用法，退出状态 2
attn_program_test(NAME ch06-bad-option LABEL ch06 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch06 align --strenght 6)
attn_program_test(NAME ch06-bad-number LABEL ch06 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch06 pad --pad -1)
attn_program_test(NAME ch06-bad-range LABEL ch06 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch06 pad --pad 101)
attn_program_test(NAME ch06-bad-reuse LABEL ch06 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch06 reuse --src 0)
attn_program_test(NAME ch06-unknown-exercise LABEL ch06 EXIT 2 EXPECT "没有名为"
                  COMMAND attn-ch06 translate)
attn_program_test(NAME ch06-help LABEL ch06 EXPECT "align" "pad" "causal" "order" "reuse"
                  COMMAND attn-ch06 --help)
