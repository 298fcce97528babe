#!/bin/sh
# tests/fp_contract.sh TANGLED [LIBRARY] — 附录 D“编译器的属性”一节关于合并乘加（FMA）的说法，在这台机器上核对；
# 并看测峰值的循环里每一条链都在（LIBRARY 是构建出的 libattn.a，看的就是真正测量用的代码）。
# 数 objdump -d 里的 vfmadd 指令；不是 x86-64、没有 objdump、也没有 gcc 和 clang 时退出 77（CTest 记为跳过）。
set -eu
src=$1
lib=${2:-}
[ "$(uname -m)" = x86_64 ] || { echo "不是 x86-64：跳过"; exit 77; }
command -v objdump >/dev/null || { echo "没有 objdump：跳过"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'float f(float a, float b, float c) { return a * b + c; }\n' > "$work/f.c"
printf 'float g(float a, float b, float c) { float t = a * b; return t + c; }\n' > "$work/g.c"
printf '#pragma STDC FP_CONTRACT OFF\nfloat f(float a, float b, float c) { return a * b + c; }\n' > "$work/off.c"
inc="-I$src/include -I$src/src"
fail=0
# check 说明 期望（none 或 some） 编译命令……：编译成 $work/x.o，数 vfmadd
check() {
  what=$1 want=$2
  shift 2
  if ! "$@" -c -o "$work/x.o" 2>"$work/err"; then
    echo "编译失败：$*"; cat "$work/err"; fail=1; return
  fi
  n=$(objdump -d "$work/x.o" | grep -c vfmadd || true)
  if { [ "$want" = none ] && [ "$n" -eq 0 ]; } || { [ "$want" = some ] && [ "$n" -gt 0 ]; }; then
    echo "ok    $what（$n 条 vfmadd）"
  else
    echo "不对  $what（$n 条 vfmadd）"; fail=1
  fi
}
# peak_loop 目标文件 说明 函数 寄存器 链数：测峰值的循环里至少有这么多条 FMA，全在寄存器之间（没有内存操作数）
peak_loop() {
  body=$(objdump -d --no-show-raw-insn "$1" | awk -v f="<$3>:" '$2 == f {on = 1; next} on && /^$/ {exit} on')
  n=$(printf '%s\n' "$body" | grep -c "vfmadd.*%$4" || true)
  mem=$(printf '%s\n' "$body" | grep "vfmadd" | grep -c '(' || true)
  if [ "$n" -ge "$5" ] && [ "$mem" -eq 0 ]; then
    echo "ok    $2 的 $3：$n 条 $4 的 FMA，没有一条读内存"
  else
    echo "不对  $2 的 $3：$n 条 $4 的 FMA（要 $5 条以上），$mem 条读内存"; fail=1
  fi
}
ran=0
if command -v gcc >/dev/null; then
  ran=1
  check "gcc -std=c11 默认不合并" none gcc -O2 -mfma -std=c11 "$work/f.c"
  check "gcc -std=gnu11 默认合并" some gcc -O2 -mfma -std=gnu11 "$work/f.c"
  check "gcc -std=gnu11 跨语句也合并" some gcc -O2 -mfma -std=gnu11 "$work/g.c"
  if [ "$(gcc -dumpversion | cut -d. -f1)" -le 13 ]; then
    check "gcc 12、13 把 -ffp-contract=on 当作 off" none gcc -O2 -mfma -std=gnu11 -ffp-contract=on "$work/f.c"
  fi
  check "gcc 不理会 #pragma STDC FP_CONTRACT OFF" some gcc -O2 -mfma -std=gnu11 "$work/off.c"
  check "gcc 不加 -mfma 时没有 FMA 可用" none gcc -O2 -std=gnu11 "$work/f.c"
  check "gcc：matmul_fast.c（-std=c11）没有 FMA" none gcc -O3 -std=c11 $inc "$src/src/matmul_fast.c"
  check "gcc：flash.c（-ffp-contract=fast）有 FMA" some gcc -O3 -std=c11 -ffp-contract=fast -fno-trapping-math $inc "$src/src/flash.c"
  peak_loop "$work/x.o" "gcc 编译的 flash.c" fma_loop_w16 zmm 24
  peak_loop "$work/x.o" "gcc 编译的 flash.c" fma_loop_w8 ymm 12
fi
if command -v clang >/dev/null; then
  ran=1
  check "clang -std=c11 默认合并同一个表达式" some clang -O2 -mfma -std=c11 "$work/f.c"
  check "clang -std=c11 不合并分开的两句" none clang -O2 -mfma -std=c11 "$work/g.c"
  check "clang 听从 #pragma STDC FP_CONTRACT OFF" none clang -O2 -mfma -std=c11 "$work/off.c"
  check "clang -ffp-contract=fast 不理会这个编译指示" some clang -O2 -mfma -std=c11 -ffp-contract=fast "$work/off.c"
  check "clang 不加 -mfma 时没有 FMA 可用" none clang -O2 -std=c11 "$work/f.c"
  check "clang：matmul_fast.c（靠它的编译指示）没有 FMA" none clang -O3 -std=c11 $inc "$src/src/matmul_fast.c"
  check "clang：flash.c（-ffp-contract=fast）有 FMA" some clang -O3 -std=c11 -ffp-contract=fast -fno-trapping-math $inc "$src/src/flash.c"
  peak_loop "$work/x.o" "clang 编译的 flash.c" fma_loop_w16 zmm 24
  peak_loop "$work/x.o" "clang 编译的 flash.c" fma_loop_w8 ymm 12
fi
[ $ran = 1 ] || { echo "没有 gcc，也没有 clang：跳过"; exit 77; }
if [ -n "$lib" ]; then
  peak_loop "$lib" "构建出的库" fma_loop_w16 zmm 24
  peak_loop "$lib" "构建出的库" fma_loop_w8 ymm 12
fi
exit $fail
