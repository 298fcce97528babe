# attn-poet 的边界：--resume 时不能再给训练的设置；--start 不能比整首诗长；检验集不能是空的
attn_program_test(NAME ch13-train-resume-settings LABEL ch13 EXIT 2
                  EXPECT "--resume 时模型的形状和训练的设置都来自检查点，不能再给 --lr"
                  COMMAND attn-poet train --resume ${PROJECT_BINARY_DIR}/none.safetensors --lr 0.5 --batch 2 --clip 0)
attn_program_test(NAME ch13-write-start-long LABEL ch13 EXIT 2
                  EXPECT "--start 有 26 个字，比一整首五言绝句（24 个字）还长"
                  COMMAND attn-poet write --start 白日依山尽，黄河入海流。欲穷千里目，更上一层楼。白日)
attn_program_test(NAME ch13-write-start-whole LABEL ch13 EXPECT "^白日依山尽，黄河入海流。" "欲穷千里目，更上一层楼。\n$"
                  COMMAND attn-poet write --start 白日依山尽，黄河入海流。欲穷千里目，更上一层楼。)
attn_program_test(NAME ch13-train-empty-valid LABEL ch13 EXIT 1 EXPECT "valid.txt 只有 0 个字，检验至少要两个"
                  REJECT "nan"
                  COMMAND sh -c "d=$0/test-empty-valid && mkdir -p $d && cp $0/vocab.json $d/ && head -n 300 $0/train.txt > $d/train.txt && : > $d/valid.txt && exec $1 train --data $d --steps 2 --layers 1 --width 8 --heads 2 --ctx 8"
                          ${PROJECT_BINARY_DIR}/poems $<TARGET_FILE:attn-poet>)
set_tests_properties(ch13-train-empty-valid PROPERTIES REQUIRED_FILES ${PROJECT_BINARY_DIR}/poems/prepare.json)
# 第 13 章：attn-poet 的用法；选项不对时退出状态 2，文件不对时退出状态 1，都有说明
attn_program_test(NAME ch13-help LABEL ch13 EXPECT "prepare" "train" "eval" "write" COMMAND attn-poet --help)
attn_program_test(NAME ch13-no-command LABEL ch13 EXIT 2 EXPECT "用法" COMMAND attn-poet)
attn_program_test(NAME ch13-bad-command LABEL ch13 EXIT 2 EXPECT "没有子命令 'poem'" COMMAND attn-poet poem)
# 缺省的短训练（正文“训练出来的模型”一节）：2200 步，学习率最大 6e-3，4 层
attn_program_test(NAME ch13-train-help LABEL ch13 EXPECT "--steps N" "--resume FILE" "缺省 2200" "缺省 6e-3"
                  "缺省 4、128、4、128" COMMAND attn-poet train --help)
attn_program_test(NAME ch13-train-zero LABEL ch13 EXIT 2 EXPECT "选项的值不合法：0" "用法"
                  COMMAND attn-poet train --steps 0)
attn_program_test(NAME ch13-train-equals LABEL ch13 EXIT 2 EXPECT "选项的值不合法：--lr=-1"
                  COMMAND attn-poet train --lr=-1)
attn_program_test(NAME ch13-train-unknown LABEL ch13 EXIT 2 EXPECT "不认识的选项，或者选项缺少值：--stesp"
                  COMMAND attn-poet train --stesp 5)
attn_program_test(NAME ch13-train-heads LABEL ch13 EXIT 2 EXPECT "--width 要能被 --heads 整除"
                  COMMAND attn-poet train --width 100 --heads 3)
attn_program_test(NAME ch13-write-form LABEL ch13 EXIT 2 EXPECT "选项的值不合法：五言" COMMAND attn-poet write --form 五言)
attn_program_test(NAME ch13-write-nan LABEL ch13 EXIT 2 EXPECT "选项的值不合法：nan"
                  COMMAND attn-poet write --temperature nan)
attn_program_test(NAME ch13-write-both LABEL ch13 EXIT 2 EXPECT "--free 和 --form 只能给一个"
                  COMMAND attn-poet write --free --form 七言绝句)
# 温度 1e-40、不限 top-k：和温度 0 写出同一首（先减去最大的分数再除以温度，不会溢出成均匀地取）
attn_program_test(NAME ch13-write-tiny-temperature LABEL ch13
                  EXPECT "\"text\": \"一夜月明秋，孤灯照残烛。独立寒窗下，空山寂寥处。\""
                  COMMAND attn-poet write --temperature 1e-40 --top-k 0 --seed 3 --json)
attn_program_test(NAME ch13-write-top-p LABEL ch13 EXIT 2 EXPECT "选项的值不合法：0"
                  COMMAND attn-poet write --top-p 0)
attn_program_test(NAME ch13-write-penalty LABEL ch13 EXIT 2 EXPECT "选项的值不合法：0.5"
                  COMMAND attn-poet write --repetition-penalty 0.5)
attn_program_test(NAME ch13-write-no-rhyme-table LABEL ch13 EXIT 1 EXPECT "/nonexistent.tsv：打不开"
                  COMMAND attn-poet write --rhyme /nonexistent.tsv)
# 第一句末尾是句号：不合五言绝句的格式
attn_program_test(NAME ch13-write-start-stop LABEL ch13 EXIT 1 EXPECT "开头的第 6 个字"
                  COMMAND attn-poet write --start 白日依山尽。)
attn_program_test(NAME ch13-eval-missing LABEL ch13 EXIT 1 EXPECT "attn-poet eval：/nonexistent.safetensors：打不开"
                  COMMAND attn-poet eval --checkpoint /nonexistent.safetensors)
attn_program_test(NAME ch13-eval-garbage LABEL ch13 EXIT 1 EXPECT "README.md：头部说它有"
                  COMMAND attn-poet eval --checkpoint ${PROJECT_SOURCE_DIR}/README.md)
attn_program_test(NAME ch13-prepare-wrong LABEL ch13 EXIT 1 EXPECT "没有 poet\\.tang\\.\\*\\.json"
                  COMMAND attn-poet prepare --corpus ${PROJECT_SOURCE_DIR}/book --out ${PROJECT_BINARY_DIR}/poems-wrong)
# 第 13 章练习的参考答案
attn_program_test(NAME ch13-ex-min-count LABEL ch13 EXPECT "词表 8618 个词元"
                  COMMAND attn-poet prepare --min-count 1 --out ${PROJECT_BINARY_DIR}/poems-min1)
attn_program_test(NAME ch13-ex-ctx LABEL ch13 EXPECT "模型 1539840 个参数"
                  COMMAND attn-poet train --steps 1 --batch 1 --ctx 40 --eval-chars 64
                          --out ${PROJECT_BINARY_DIR}/poems-ctx40.safetensors)
attn_program_test(NAME ch13-ex-ctx-write LABEL ch13 EXIT 1 EXPECT "上下文只有 40 个位置，放不下一首五言律诗"
                  COMMAND attn-poet write --checkpoint ${PROJECT_BINARY_DIR}/poems-ctx40.safetensors
                          --form 五言律诗)
attn_program_test(NAME ch13-ex-ctx-jue LABEL ch13 EXPECT "\"form\": \"七言绝句\""
                  COMMAND attn-poet write --checkpoint ${PROJECT_BINARY_DIR}/poems-ctx40.safetensors
                          --form 七言绝句 --json)
set_tests_properties(ch13-ex-ctx PROPERTIES FIXTURES_SETUP poems-ctx40)
set_tests_properties(ch13-ex-ctx-write ch13-ex-ctx-jue PROPERTIES FIXTURES_REQUIRED poems-ctx40)
attn_program_test(NAME ch13-ex-order LABEL ch13 EXPECT "11 个预测，平均每个预测 3.1940 奈特"
                  COMMAND attn-poet eval --text "胡风千里惊，汉月五更明。")
attn_program_test(NAME ch13-ex-reversed LABEL ch13 EXPECT "11 个预测，平均每个预测 6.5322 奈特"
                  COMMAND attn-poet eval --text "惊里千风胡，明更五月汉。")
add_test(NAME ch13-torch-open
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/bench/poem_open.py
                 --poet $<TARGET_FILE:attn-poet> --checkpoint ${PROJECT_SOURCE_DIR}/models/poems.safetensors
                 --file ${PROJECT_BINARY_DIR}/poems/valid.txt --chars 4096 --max-diff 1e-5)
set_tests_properties(ch13-torch-open PROPERTIES LABELS ch13 REQUIRED_FILES ${PROJECT_BINARY_DIR}/poems/valid.txt
                     PASS_REGULAR_EXPRESSION "config.json：和检查点的元数据一致（6 层，4 个头，宽 128）")
# 和元数据对不上的 config.json（层数写错）：退出状态 1，说出哪个字段
file(WRITE ${PROJECT_BINARY_DIR}/poems-bad-config.json
     "{\"model_type\": \"gpt2\", \"n_layer\": 5, \"n_head\": 4, \"n_embd\": 128}\n")
attn_program_test(NAME ch13-torch-config-bad LABEL ch13 EXIT 1 EXPECT "对不上：.*n_layer"
                  COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/bench/poem_open.py
                          --poet $<TARGET_FILE:attn-poet> --checkpoint ${PROJECT_SOURCE_DIR}/models/poems.safetensors
                          --config ${PROJECT_BINARY_DIR}/poems-bad-config.json
                          --file ${PROJECT_BINARY_DIR}/poems/valid.txt)
if(ATTN_SANITIZE)   # 不优化的构建：20 步走过同样的代码，200 步要半个多小时
  set(ch13_compare_steps 20)
else()
  set(ch13_compare_steps 200)
endif()
add_test(NAME ch13-torch-train
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/bench/poem_compare.py
                 --poet $<TARGET_FILE:attn-poet> --data ${PROJECT_BINARY_DIR}/poems
                 --steps ${ch13_compare_steps} --batch 8 --lr 1e-3 --threads 1 --max-diff 1e-4)
set_tests_properties(ch13-torch-train PROPERTIES LABELS ch13 REQUIRED_FILES ${PROJECT_BINARY_DIR}/poems/train.txt)
# 训练到一半的检查点写的诗（正文“训练到一半的模型”）
attn_program_test(NAME ch13-stage-250 LABEL ch13 EXPECT "^山春寺，白夜清月。\n$"
                  COMMAND attn-poet write --checkpoint ${PROJECT_SOURCE_DIR}/models/poems-250.safetensors --free --seed 1)
attn_program_test(NAME ch13-stage-1000 LABEL ch13 EXPECT "^江来相回去，酒向春心老。\n$"
                  COMMAND attn-poet write --checkpoint ${PROJECT_SOURCE_DIR}/models/poems-1000.safetensors --free --seed 1)
attn_program_test(NAME ch13-stage-3000 LABEL ch13 EXPECT "^野老愁中醉，花间别后归。\n春来多远梦，明月不知音。\n$"
                  COMMAND attn-poet write --checkpoint ${PROJECT_SOURCE_DIR}/models/poems-3000.safetensors --free --seed 1)
