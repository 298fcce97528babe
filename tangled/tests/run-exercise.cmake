#line 899 "book/04-scaling.nw"
# 运行一个练习程序，核对退出状态和输出：
#   cmake -DPROGRAM=p -DARGS=a<US>b -DEXIT=0 -DEXPECT=re1<US>re2 [-DREJECT=re] -P run-exercise.cmake
# <US> 是 ASCII 31。每个 EXPECT 都必须匹配标准输出加标准错误；REJECT 不能匹配。
if(NOT CMAKE_SCRIPT_MODE_FILE)
  return()
endif()
string(ASCII 31 sep)
string(REPLACE "${sep}" ";" args "${ARGS}")
execute_process(COMMAND ${PROGRAM} ${args} RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")
if(NOT "${status}" STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit status ${status}, expected ${EXIT}")
endif()
if(EXPECT)
  string(REPLACE "${sep}" ";" expect "${EXPECT}")
  foreach(re ${expect})
    if(NOT all MATCHES "${re}")
      message(FATAL_ERROR "output does not match: ${re}")
    endif()
  endforeach()
endif()
if(REJECT AND all MATCHES "${REJECT}")
  message(FATAL_ERROR "output matches what it must not: ${REJECT}")
endif()
