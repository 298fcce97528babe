# 每个程序的 --help：用法印到标准输出，退出码 0（练习程序的每个练习也一样）
# （sh 脚本里不写分号：CMake 会把它当成列表的分隔符）
set(attn_help_programs attn-params ch08 attn-bench ch09 attn-train ch12 attn-ex-answers exercises)
foreach(ch 01 02 03 04 05 06 07 08 10 11 12)
  list(APPEND attn_help_programs attn-ch${ch} ch${ch})
endforeach()
list(LENGTH attn_help_programs attn_help_n)
math(EXPR attn_help_last "${attn_help_n} - 1")
foreach(i RANGE 0 ${attn_help_last} 2)
  math(EXPR j "${i} + 1")
  list(GET attn_help_programs ${i} prog)
  list(GET attn_help_programs ${j} label)
  if(NOT TARGET ${prog})
    continue()
  endif()
  add_test(NAME ${prog}-help COMMAND sh -c "
    out=$(\"$0\" --help 2>/dev/null) || exit 1
    printf '%s\\n' \"$out\" | grep -q '用法' || exit 1
    printf '%s\\n' \"$0\" | grep -q 'attn-ch[0-9]' || exit 0
    for ex in $(printf '%s\\n' \"$out\" | sed -n 's/^  \\([a-z0-9-]*\\) .*/\\1/p')
    do
      echo \"$ex --help\"
      sub=$(\"$0\" \"$ex\" --help 2>/dev/null) || exit 1
      printf '%s\\n' \"$sub\" | grep -q '用法' || exit 1
    done" $<TARGET_FILE:${prog}>)
  set_tests_properties(${prog}-help PROPERTIES LABELS ${label})
endforeach()
