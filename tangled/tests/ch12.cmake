# 第 12 章练习的参考答案
attn_program_test(NAME ch12-ex-ce LABEL ch12 EXPECT "损失 1000\\.0000" "梯度 1\\.0000 -1\\.0000"
                  COMMAND attn-ch12 ce)
attn_program_test(NAME ch12-ex-ce-uniform LABEL ch12
                  EXPECT "损失 1\\.3863" "梯度 -0\\.7500 0\\.2500 0\\.2500 0\\.2500"
                  COMMAND attn-ch12 ce --logits 0,0,0,0 --target 0)
attn_program_test(NAME ch12-ex-ce-bad LABEL ch12 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch12 ce --logits 1,2 --target 2)
attn_program_test(NAME ch12-ex-softmax-grad LABEL ch12
                  EXPECT "p = 0\\.2447 0\\.0900 0\\.6652" "dp·p = 0\\.2447"
                         "ds = 0\\.1848 -0\\.0220 -0\\.1628" "ds 之和 0\\.0000"
                  COMMAND attn-ch12 softmax-grad)
attn_program_test(NAME ch12-ex-softmax-grad-ones LABEL ch12
                  EXPECT "ds = -?0\\.0000 -?0\\.0000 -?0\\.0000"
                  COMMAND attn-ch12 softmax-grad --dp 1,1,1)
attn_program_test(NAME ch12-ex-softmax-grad-bad LABEL ch12 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch12 softmax-grad --dp 1,0)
attn_program_test(NAME ch12-ex-gelu-grad LABEL ch12
                  EXPECT "gelu'\\(x\\) = 0\\.5000，中心差分 0\\.5000" COMMAND attn-ch12 gelu-grad)
attn_program_test(NAME ch12-ex-gelu-grad-min LABEL ch12
                  EXPECT "gelu'\\(x\\) = -?0\\.00[0-9]+，中心差分 -?0\\.00" COMMAND attn-ch12 gelu-grad --x -0.75)
attn_program_test(NAME ch12-ex-gelu-grad-neg LABEL ch12
                  EXPECT "gelu'\\(x\\) = -0\\.0[0-9]+，中心差分 -0\\.0" COMMAND attn-ch12 gelu-grad --x -3)
attn_program_test(NAME ch12-ex-bad LABEL ch12 EXIT 2 EXPECT "用法" COMMAND attn-ch12 nosuch)
# attn-train：默认运行学会任务；错误的用法
attn_program_test(NAME ch12-train-default LABEL ch12
                  EXPECT "步数 2000，检验损失 3\\.3856 → 0\\.0[01][0-9]+，准确率 1\\.000"
                  COMMAND attn-train)
attn_program_test(NAME ch12-train-json LABEL ch12
                  EXPECT "^\\{\"step\": 0, \"loss\": 3\\.385[0-9]+, \"accuracy\": 0\\.0000\\}"
                         "\\{\"step\": 20, \"loss\": [0-9.]+, \"accuracy\": [0-9.]+\\}\n$"
                  COMMAND attn-train --steps 20 --json)
attn_program_test(NAME ch12-train-threads LABEL ch12
                  EXPECT "步数 200，检验损失 3\\.3856 → [0-9.]+，准确率 [0-9.]+"
                  COMMAND attn-train --threads 2 --steps 200)
attn_program_test(NAME ch12-train-heads1 LABEL ch12
                  EXPECT "检验损失 3\\.3856 → 0\\.0[01][0-9]+，准确率 1\\.000" COMMAND attn-train --heads 1)
attn_program_test(NAME ch12-train-heads4 LABEL ch12
                  EXPECT "检验损失 3\\.3856 → 0\\.0[01][0-9]+，准确率 1\\.000" COMMAND attn-train --heads 4)
# 缩放实验的选项：宽 64、一个头、不缩放；宽度不对
attn_program_test(NAME ch12-train-noscale LABEL ch12 EXPECT "步数 0，检验损失 3\\.4[0-9]+"
                  COMMAND attn-train --width 64 --heads 1 --no-scale --steps 0)
foreach(bad "--width;7" "--width;300" "--width;64;--heads;3" "--width;16;--heads;32" "--width")
  string(MAKE_C_IDENTIFIER "${bad}" id)
  attn_program_test(NAME ch12-train-shape${id} LABEL ch12 EXIT 2 EXPECT "用法"
                    COMMAND attn-train ${bad})
endforeach()
foreach(bad 0 3 64)
  attn_program_test(NAME ch12-train-heads-bad-${bad} LABEL ch12 EXIT 2 EXPECT "用法"
                    COMMAND attn-train --heads ${bad})
endforeach()
attn_program_test(NAME ch12-train-save LABEL ch12
                  COMMAND attn-train --steps 0 --save ${CMAKE_CURRENT_BINARY_DIR}/ch12-init.bin)
foreach(bad "--bogus" "--steps" "--steps;-1" "--steps;x" "--seed" "--threads;0"
            "--threads;17" "--save")
  string(MAKE_C_IDENTIFIER "${bad}" id)
  attn_program_test(NAME ch12-train-usage${id} LABEL ch12 EXIT 2 EXPECT "用法"
                    COMMAND attn-train ${bad})
endforeach()
attn_program_test(NAME ch12-train-save-fails LABEL ch12 EXIT 1 EXPECT "写不进"
                  COMMAND attn-train --steps 0 --save /nonexistent/dir/x.bin)
# 与 PyTorch 对照：20 步的损失相对差不超过 1e-3（没有 torch 时失败）
add_test(NAME ch12-torch-agreement
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/bench/train_compare.py
                 --train $<TARGET_FILE:attn-train> --steps 20 --max-diff 1e-3)
set_tests_properties(ch12-torch-agreement PROPERTIES LABELS ch12)
attn_program_test(NAME ch12-bench-backward LABEL ch12 EXPECT "\"impl\": \"fast-backward\"" "\"n\": 200"
                  COMMAND attn-bench --backward --n 200 --d 16 --heads 2 --repeat 1)
attn_program_test(NAME ch12-bench-backward-ref LABEL ch12 EXPECT "\"impl\": \"reference-backward\""
                  COMMAND attn-bench --backward --impl reference --n 50 --d 8 --repeat 1)
