attn_program_test(NAME ch02-pair LABEL ch02 EXPECT "点积 3.0000" "余弦 0.9487" "距离 1.0000"
                  COMMAND attn-ch02 pair --a 猫 --b 狗)
attn_program_test(NAME ch02-pair-longer LABEL ch02 EXPECT "点积 9.0000" "余弦 0.9487" "距离 2.2361"
                  COMMAND attn-ch02 pair --a 猫 --bx 3 --by -3)
attn_program_test(NAME ch02-pair-zero LABEL ch02 EXPECT "点积 0.0000" "余弦 无定义" "距离 2.2361"
                  COMMAND attn-ch02 pair --a 猫 --bx 0 --by 0)
attn_program_test(NAME ch02-nearest-dot LABEL ch02 EXPECT "最相关的字：鹿（8.0000）"
                  COMMAND attn-ch02 nearest --a 豹 --by dot)
attn_program_test(NAME ch02-nearest-cosine LABEL ch02 EXPECT "最相关的字：猫（0.9899）"
                  COMMAND attn-ch02 nearest --a 豹 --by cosine)
attn_program_test(NAME ch02-nearest-distance LABEL ch02 EXPECT "最相关的字：猫（1.0000）"
                  COMMAND attn-ch02 nearest --a 豹 --by distance)
attn_program_test(NAME ch02-ops-1024 LABEL ch02 EXPECT "距离的平方 3071 次" "点积 2047 次" "开方占一次距离的 0\\.65%"
                  COMMAND attn-ch02 ops --d 1024)
attn_program_test(NAME ch02-ops-2 LABEL ch02 EXPECT "距离的平方 5 次" "点积 3 次" "开方占一次距离的 80\\.00%"
                  COMMAND attn-ch02 ops --d 2 --sqrt-cost 20)
attn_program_test(NAME ch02-lookup LABEL ch02 EXPECT "权重之和：1。" "查到的值：8。"
                  COMMAND attn-ch02 lookup --apple 0.6 --banana 0.4 --chair 0)
attn_program_test(NAME ch02-lookup-unnormalised LABEL ch02 EXPECT "权重之和：2。" "查到的值：15。"
                  COMMAND attn-ch02 lookup --apple 1 --banana 1 --chair 0)
attn_program_test(NAME ch02-naive-1 LABEL ch02
                  EXPECT "猫: 猫 0.5132 狗 0.4868 桌 0.0000  → \\(1.5132, -1.0000\\)" "桌: 猫 0.0000 狗 0.0000 桌 1.0000"
                  COMMAND attn-ch02 naive --temp 1)
attn_program_test(NAME ch02-naive-5 LABEL ch02 EXPECT "猫: 猫 0.5132 狗 0.4868 桌 0.0000"
                  COMMAND attn-ch02 naive --temp 5)
attn_program_test(NAME ch02-naive-0 LABEL ch02 EXIT 1 EXPECT "invalid argument"
                  COMMAND attn-ch02 naive --temp 0)
attn_program_test(NAME ch02-bad-option LABEL ch02 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch02 pair --c 1)
attn_program_test(NAME ch02-bad-word LABEL ch02 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch02 nearest --a 龙)
attn_program_test(NAME ch02-bad-exercise LABEL ch02 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch02 nothing)
# PyTorch 的 a @ b.T、F.cosine_similarity、torch.cdist（没有 torch 时失败）
if(NOT ATTN_SANITIZE)   # Python loads libattn.so, built without the sanitizer runtime it needs
add_test(NAME ch02-torch-similarity
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/tests/ch02_torch_similarity.py
                 $<TARGET_FILE:attn_shared>)
set_tests_properties(ch02-torch-similarity PROPERTIES LABELS ch02)
endif()
