#line 899 "book/02-similarity.nw"
# attn_program_test(NAME n LABEL chNN [EXIT code] [EXPECT 正则…] [REJECT 正则] COMMAND 程序 参数…)
string(ASCII 31 ATTN_US)
set(ATTN_RUNNER ${PROJECT_BINARY_DIR}/attn_run_program.cmake)
file(WRITE ${ATTN_RUNNER} [=[
string(ASCII 31 US)
string(REPLACE "${US}" ";" args "${ARGS}")
execute_process(COMMAND ${PROGRAM} ${args} RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")
if(NOT "${status}" STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit status ${status}, expected ${EXIT}")
endif()
if(EXPECT)
  string(REPLACE "${US}" ";" expect "${EXPECT}")
  foreach(re ${expect})
    if(NOT all MATCHES "${re}")
      message(FATAL_ERROR "output does not match: ${re}")
    endif()
  endforeach()
endif()
if(REJECT AND all MATCHES "${REJECT}")
  message(FATAL_ERROR "output matches what it must not: ${REJECT}")
endif()
]=])
function(attn_program_test)
  cmake_parse_arguments(T "" "NAME;LABEL;EXIT;REJECT" "EXPECT;COMMAND" ${ARGN})
  if(NOT DEFINED T_EXIT)
    set(T_EXIT 0)
  endif()
  list(POP_FRONT T_COMMAND prog)
  if(TARGET ${prog})
    set(prog $<TARGET_FILE:${prog}>)
  endif()
  string(REPLACE ";" "${ATTN_US}" args "${T_COMMAND}")
  string(REPLACE ";" "${ATTN_US}" expect "${T_EXPECT}")
  add_test(NAME ${T_NAME}
           COMMAND ${CMAKE_COMMAND} "-DPROGRAM=${prog}" "-DARGS=${args}" "-DEXIT=${T_EXIT}"
                   "-DEXPECT=${expect}" "-DREJECT=${T_REJECT}" -P ${ATTN_RUNNER})
  set_tests_properties(${T_NAME} PROPERTIES LABELS ${T_LABEL})
endfunction()
#line 864 "book/02-similarity.nw"
attn_program_test(NAME ch02-pair LABEL ch02 EXPECT "点积 3.0000" "余弦 0.9487" "距离 1.0000"
                  COMMAND attn-ch02 pair --a 猫 --b 狗)
attn_program_test(NAME ch02-pair-longer LABEL ch02 EXPECT "点积 6.0000" "余弦 0.9487" "距离 1.0000"
                  COMMAND attn-ch02 pair --a 猫 --bx 2 --by -2)
attn_program_test(NAME ch02-nearest-dot LABEL ch02 EXPECT "最相关的字：鹿（8.0000）"
                  COMMAND attn-ch02 nearest --a 豹 --by dot)
attn_program_test(NAME ch02-nearest-cosine LABEL ch02 EXPECT "最相关的字：猫（0.9899）"
                  COMMAND attn-ch02 nearest --a 豹 --by cosine)
attn_program_test(NAME ch02-nearest-distance LABEL ch02 EXPECT "最相关的字：猫（1.0000）"
                  COMMAND attn-ch02 nearest --a 豹 --by distance)
attn_program_test(NAME ch02-ops-1024 LABEL ch02 EXPECT "距离的平方 3071 次" "点积 2047 次"
                  COMMAND attn-ch02 ops --d 1024)
attn_program_test(NAME ch02-ops-4096 LABEL ch02 EXPECT "距离的平方 12287 次" "点积 8191 次"
                  COMMAND attn-ch02 ops --d 4096)
attn_program_test(NAME ch02-lookup LABEL ch02 EXPECT "权重之和：1。" "查到的值：8。"
                  COMMAND attn-ch02 lookup --apple 0.6 --banana 0.4 --chair 0)
attn_program_test(NAME ch02-lookup-unnormalised LABEL ch02 EXPECT "权重之和：2。" "查到的值：15。"
                  COMMAND attn-ch02 lookup --apple 1 --banana 1 --chair 0)
attn_program_test(NAME ch02-naive-1 LABEL ch02 EXPECT "猫: 猫 0.4795 狗 0.4556 桌 0.0649"
                  COMMAND attn-ch02 naive --temp 1)
attn_program_test(NAME ch02-naive-5 LABEL ch02 EXPECT "猫: 猫 0.5638 狗 0.4362 桌 0.0000"
                  COMMAND attn-ch02 naive --temp 5)
attn_program_test(NAME ch02-bad-option LABEL ch02 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch02 pair --c 1)
attn_program_test(NAME ch02-bad-word LABEL ch02 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch02 nearest --a 龙)
attn_program_test(NAME ch02-bad-exercise LABEL ch02 EXIT 2 EXPECT "用法"
                  COMMAND attn-ch02 nothing)
