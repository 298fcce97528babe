attn_program_test(NAME ch04-variance LABEL ch04
    EXPECT "理论值 256" "不缩放 *: *257\\.00" "缩放后 *: *1\\.0039"
    COMMAND attn-ch04 variance --dk 256)
attn_program_test(NAME ch04-variance-sigma LABEL ch04
    EXPECT "理论值 16 " "缩放后 *: *0\\.06"
    COMMAND attn-ch04 variance --dk 256 --sigma 0.5)
attn_program_test(NAME ch04-sharpness-4 LABEL ch04
    EXPECT "最大权重 *: *0\\.2880" "熵 *: *2\\.7660"
    COMMAND attn-ch04 sharpness --dk 4 --scale 1)
attn_program_test(NAME ch04-sharpness-4-scaled LABEL ch04
    EXPECT "最大权重 *: *0\\.1079" "熵 *: *3\\.6990"
    COMMAND attn-ch04 sharpness --dk 4)
attn_program_test(NAME ch04-sharpness LABEL ch04
    EXPECT "最大权重 *: *0\\.9524" "熵 *: *0\\.1284"
    COMMAND attn-ch04 sharpness --dk 1024 --scale 1)
attn_program_test(NAME ch04-sharpness-scaled LABEL ch04
    EXPECT "最大权重 *: *0\\.1068" "熵 *: *3\\.6775"
    COMMAND attn-ch04 sharpness --dk 1024 --scale 0)
attn_program_test(NAME ch04-overflow-88 LABEL ch04
    EXPECT "朴素 *: *0\\.7311 0\\.2689" "attn_softmax *: *0\\.7311 0\\.2689"
    COMMAND attn-ch04 overflow --score 88)
attn_program_test(NAME ch04-overflow-89 LABEL ch04
    EXPECT "朴素 *: *nan 0\\.0000" "attn_softmax *: *0\\.7311 0\\.2689"
    COMMAND attn-ch04 overflow --score 89)
attn_program_test(NAME ch04-dmodel LABEL ch04
    EXPECT "理论值 *1/8 = 0\\.125"
    COMMAND attn-ch04 dmodel --dmodel 512 --heads 8)
attn_program_test(NAME ch04-dmodel-32 LABEL ch04
    EXPECT "d_head = 16" "理论值 *1/32 = 0\\.031"
    COMMAND attn-ch04 dmodel --dmodel 512 --heads 32)
attn_program_test(NAME ch04-jacobian-1 LABEL ch04
    EXPECT "最大 \\|J\\| *: *0\\.2500"
    COMMAND attn-ch04 jacobian --times 1)
attn_program_test(NAME ch04-jacobian-100 LABEL ch04
    EXPECT "最大 \\|J\\| *: *0\\.0000 *（= 1\\.929e-22）"
    COMMAND attn-ch04 jacobian --times 100)
attn_program_test(NAME ch04-bad-option LABEL ch04 EXIT 2 EXPECT "用法"
    COMMAND attn-ch04 variance --dk)
attn_program_test(NAME ch04-bad-value LABEL ch04 EXIT 2 EXPECT "用法"
    COMMAND attn-ch04 dmodel --dmodel 500 --heads 8)
attn_program_test(NAME ch04-bad-exercise LABEL ch04 EXIT 2 EXPECT "用法"
    COMMAND attn-ch04 no-such-exercise)
