# tests/run_program.cmake — run one program and check its exit status and output.
#   cmake -DPROGRAM=p -DARGS="a%%b" -DEXIT=0 -DEXPECT="re1%%re2" [-DREJECT=re] -P run_program.cmake
# Every EXPECT regular expression must match the combined stdout and stderr; REJECT must not.
string(REPLACE "%%" ";" args "${ARGS}")
execute_process(COMMAND ${PROGRAM} ${args} RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")
if(NOT "${status}" STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit status ${status}, expected ${EXIT}")
endif()
if(EXPECT)
  string(REPLACE "%%" ";" expect "${EXPECT}")
  foreach(re ${expect})
    if(NOT all MATCHES "${re}")
      message(FATAL_ERROR "output does not match: ${re}")
    endif()
  endforeach()
endif()
if(REJECT AND all MATCHES "${REJECT}")
  message(FATAL_ERROR "output matches what it must not: ${REJECT}")
endif()
