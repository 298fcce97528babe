# PyTorch 的对应函数（后记“与 PyTorch 对照”；没有 torch 时失败）
if(NOT ATTN_SANITIZE)   # Python loads libattn.so, built without the sanitizer runtime it needs
add_test(NAME ch05-torch-sdpa
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tangled/tests/ch05_torch_sdpa.py $<TARGET_FILE:attn_shared>)
set_tests_properties(ch05-torch-sdpa PROPERTIES LABELS ch05)
endif()
attn_program_test(NAME ch05-mask-zero-scores LABEL ch05
    EXPECT "权重 *: *0\\.6652 0\\.2447 0\\.0900" "和 *: *1\\.0000"
    COMMAND attn-ch05 mask --method zero-scores)
attn_program_test(NAME ch05-mask-zero-weights LABEL ch05
    EXPECT "权重 *: *0\\.2447 0\\.0900 0\\.0000" "和 *: *0\\.3348"
    COMMAND attn-ch05 mask --method zero-weights)
attn_program_test(NAME ch05-mask-big-negative-all LABEL ch05
    EXPECT "权重 *: *0\\.3333 0\\.3333 0\\.3333" "和 *: *1\\.0000"
    COMMAND attn-ch05 mask --method big-negative --all)
attn_program_test(NAME ch05-mask-naive-inf-all LABEL ch05
    EXPECT "权重 *: *nan nan nan"
    COMMAND attn-ch05 mask --method naive-inf --all)
attn_program_test(NAME ch05-mask-neg-inf-all LABEL ch05
    EXPECT "权重 *: *0\\.0000 0\\.0000 0\\.0000" "和 *: *0\\.0000"
    COMMAND attn-ch05 mask --method neg-inf --all)
attn_program_test(NAME ch05-mask-bad-method LABEL ch05 EXIT 2 EXPECT "用法"
    COMMAND attn-ch05 mask --method minus-one)
attn_program_test(NAME ch05-align-2-5 LABEL ch05
    EXPECT "1 1 1 1 0\n1 1 1 1 1\n" "可见 *: *9"
    COMMAND attn-ch05 align --nq 2 --nk 5)
attn_program_test(NAME ch05-align-4-2 LABEL ch05
    EXPECT "0 0\n0 0\n1 0\n1 1\n" "可见 *: *3"
    COMMAND attn-ch05 align --nq 4 --nk 2)
attn_program_test(NAME ch05-kvcache LABEL ch05
    EXPECT "最大差值 *: *0\n"
    COMMAND attn-ch05 kvcache --tokens 6 --capacity 6)
attn_program_test(NAME ch05-kvcache-full LABEL ch05 EXIT 1
    EXPECT "第 5 个位置.*缓存已满" "cache is full"
    COMMAND attn-ch05 kvcache --tokens 6 --capacity 4)
attn_program_test(NAME ch05-kvcache-count LABEL ch05
    EXPECT "用缓存: 38664142848 次" "不用缓存: 18166107340800 次" "469\\.8 倍"
    COMMAND attn-ch05 kvcache --count)
attn_program_test(NAME ch05-kvcache-count-2048 LABEL ch05
    EXPECT "用缓存: 96655638528 次" "不用缓存: 85829565284352 次" "888\\.0 倍"
    COMMAND attn-ch05 kvcache --count --tokens 2048)
attn_program_test(NAME ch05-kvcache-count-overflow LABEL ch05 EXIT 2 EXPECT "64 位" "用法"
    COMMAND attn-ch05 kvcache --count --tokens 1000000 --d-model 1000000 --layers 1000000)
attn_program_test(NAME ch05-memory LABEL ch05
    EXPECT "268435456 字节"
    COMMAND attn-ch05 memory --n 8192)
attn_program_test(NAME ch05-memory-16k LABEL ch05
    EXPECT "1073741824 字节"
    COMMAND attn-ch05 memory --n 16384)
attn_program_test(NAME ch05-memory-heads LABEL ch05
    EXPECT "103079215104 字节"
    COMMAND attn-ch05 memory --n 16384 --heads 96)
attn_program_test(NAME ch05-bad-option LABEL ch05 EXIT 2 EXPECT "用法"
    COMMAND attn-ch05 align --nq -1)
attn_program_test(NAME ch05-bad-exercise LABEL ch05 EXIT 2 EXPECT "用法"
    COMMAND attn-ch05 nothing)
attn_program_test(NAME ch05-kvcache-help LABEL ch05 EXPECT "--capacity"
    COMMAND attn-ch05 kvcache --help)
