# 第 12 章：练习的参考答案，attn-train，与 PyTorch 的对照，两个检查编译的测试
attn_program_test(NAME ch12-ex-descent LABEL ch12
                  EXPECT "\n1 0\\.9300 -0\\.7500 " "\n30 0\\.1134 [-0-9.e]+ 0\\.0064"
                  COMMAND attn-ch12 descent)
attn_program_test(NAME ch12-ex-descent-edge LABEL ch12 EXPECT "\n60 [0-9.]+ -?1\\.0000 "
                  COMMAND attn-ch12 descent --lr 0.08 --steps 60)
attn_program_test(NAME ch12-ex-descent-diverge LABEL ch12 EXPECT "\n10 [0-9.]+ 9\\.3132 "
                  COMMAND attn-ch12 descent --lr 0.09 --steps 10)
attn_program_test(NAME ch12-ex-descent-momentum LABEL ch12 EXPECT "\n30 [-0-9.]+ [-0-9.]+ 8\\.3[0-9]*e-06"
                  COMMAND attn-ch12 descent --beta 0.5)
attn_program_test(NAME ch12-ex-descent-adam LABEL ch12
                  EXPECT "\n1 0\\.9000 0\\.9000 " "\n2 0\\.8004 0\\.8004 " "\n3 0\\.7016 0\\.7016 "
                  COMMAND attn-ch12 descent --adam --lr 0.1 --steps 3)
attn_program_test(NAME ch12-ex-descent-flat LABEL ch12 EXPECT "\n1 0\\.0000 0\\.0000 0\n"
                  COMMAND attn-ch12 descent --a 1 --lr 1 --steps 1)
attn_program_test(NAME ch12-ex-descent-bad LABEL ch12 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch12 descent --beta 1)
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
                  EXPECT "检验损失 3\\.3856 → 0\\.0[0-9]+，准确率 1\\.000" COMMAND attn-train --heads 1)
attn_program_test(NAME ch12-train-heads4 LABEL ch12
                  EXPECT "检验损失 3\\.3856 → 0\\.0[0-9]+，准确率 1\\.000" COMMAND attn-train --heads 4)
attn_program_test(NAME ch12-train-noscale LABEL ch12 EXPECT "步数 0，检验损失 3\\.4[0-9]+"
                  COMMAND attn-train --width 64 --heads 1 --no-scale --steps 0)
add_test(NAME ch12-train-help
         COMMAND sh -c "out=$(\"$0\" --help 2>/dev/null) && printf '%s' \"$out\" | grep -q '用法'"
                 $<TARGET_FILE:attn-train>)
set_tests_properties(ch12-train-help PROPERTIES LABELS ch12)
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
attn_program_test(NAME ch12-bench-backward LABEL ch12 EXPECT "\"impl\": \"fast-backward\"" "\"n\": 200"
                  COMMAND attn-bench --backward --n 200 --d 16 --heads 2 --repeat 1)
attn_program_test(NAME ch12-bench-backward-ref LABEL ch12 EXPECT "\"impl\": \"reference-backward\""
                  COMMAND attn-bench --backward --impl reference --n 50 --d 8 --repeat 1)
# 与 PyTorch 对照：20 步的损失相对差不超过 1e-3（没有 torch 时失败）
add_test(NAME ch12-torch-agreement
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/bench/train_compare.py
                 --train $<TARGET_FILE:attn-train> --steps 20 --max-diff 1e-3)
set_tests_properties(ch12-torch-agreement PROPERTIES LABELS ch12)
# Clang 编出的训练源文件里没有 FMA 指令（x86-64；没有 objdump 时失败；
# 没有 Clang 的机器（比如只装了 cc 和 CMake）不加这个测试，配置的最后一行说它跳过了）
find_program(ATTN_CLANG clang)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64" AND NOT ATTN_CLANG)
  list(APPEND ATTN_SKIPPED "the test ch12-no-fma (clang not found)")
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(ch12_fma_book ${PROJECT_SOURCE_DIR}/tangled/src/train.c ${PROJECT_SOURCE_DIR}/tangled/src/backward.c
      ${PROJECT_SOURCE_DIR}/tangled/src/optim.c ${PROJECT_SOURCE_DIR}/tangled/src/matmul_fast.c)
  if(EXISTS ${PROJECT_SOURCE_DIR}/tangled/src/linear_fast.c)
    list(APPEND ch12_fma_book ${PROJECT_SOURCE_DIR}/tangled/src/linear_fast.c)
  endif()
  string(REPLACE ";" " " ch12_fma_book "${ch12_fma_book}")
  # （脚本里不写分号：CMake 会把它当成列表的分隔符）
  add_test(NAME ch12-no-fma COMMAND sh -c "
    d=$(mktemp -d) || exit 1
    trap 'rm -rf \"$d\"' EXIT
    inc='-I${PROJECT_SOURCE_DIR}/tangled/include -I${PROJECT_SOURCE_DIR}/tangled/src'
    bad=0
    check() {
      ${ATTN_CLANG} -std=c11 -O3 $2 $inc -c $1 -o \"$d/x.o\" || exit 1
      n=$(objdump -d \"$d/x.o\" | grep -c -E 'vfn?m(add|sub)[0-9]')
      echo \"$1 $2: $n 条 FMA 指令\"
      [ \"$n\" = 0 ] || bad=1
    }
    for f in ${ch12_fma_book}
    do check $f ''
    done
    for f in train backward optim
    do check ${PROJECT_SOURCE_DIR}/tangled/src/$f.c -mfma
    done
    exit $bad")
  set_tests_properties(ch12-no-fma PROPERTIES LABELS ch12)
endif()
# 不用 OpenMP、带 -Werror：每个 #pragma omp 都要经过 ATTN_OMP
file(GLOB ch12_no_omp CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tangled/src/*.c)
list(APPEND ch12_no_omp ${PROJECT_SOURCE_DIR}/tangled/programs/attn-train.c
     ${PROJECT_SOURCE_DIR}/tangled/tests/ch12.c ${PROJECT_SOURCE_DIR}/tangled/figures/fig12-loss.c
     ${PROJECT_SOURCE_DIR}/tangled/figures/fig12-learned.c ${PROJECT_SOURCE_DIR}/tangled/figures/live-ch12.c)
add_test(NAME ch12-no-openmp
         COMMAND ${CMAKE_C_COMPILER} -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only
                 -I${PROJECT_SOURCE_DIR}/tangled/include -I${PROJECT_SOURCE_DIR}/tangled/src
                 -I${PROJECT_SOURCE_DIR}/tangled/figures -I${PROJECT_SOURCE_DIR}/tangled/exercises
                 -I${PROJECT_SOURCE_DIR}/tests
                 ${ch12_no_omp})
set_tests_properties(ch12-no-openmp PROPERTIES LABELS ch12)
