#!/usr/bin/env bash
# tests/prefix.sh — every chapter builds on earlier chapters only.
#
#   tests/prefix.sh [SOURCE_DIR]
#
# For each chapter N (and then each appendix but the last) this tangles book/00 … book/N with
# noweb into a temporary folder — nothing of later chapters — compiles the library with cc, and
# compiles and runs chapter N's test program (its light run, see tests/check.h). (The tests of
# chapter M < N ran against the library of prefix M, and the ordinary build runs them all against
# the whole book; running each again in every later prefix would make this test quadratic in the
# number of chapters.) A prefix whose library and test are the whole book's is left to the ordinary
# build. A reader who stops after chapter N has a library that builds and passes chapter N's tests.
set -euo pipefail
src=$(cd "${1:-$(dirname "$0")/..}" && pwd)
cc=${CC:-cc}
command -v notangle >/dev/null || { echo "prefix: notangle (Debian package noweb) not found" >&2; exit 2; }
# notangle is a small script that runs noweb's markup and nt from this folder
nwlib=$(sed -n 's/^LIB=//p' "$(command -v notangle)")
[ -x "$nwlib/markup" ] && [ -x "$nwlib/mnt" ] ||
  { echo "prefix: noweb's markup and mnt not found (LIB=$nwlib in notangle)" >&2; exit 2; }

shopt -s nullglob
chapters=("$src"/book/[0-9][0-9]-*.nw)
appendices=("$src"/book/[A-Z]-*.nw)
order=("${chapters[@]}" "${appendices[@]}")
[ ${#order[@]} -ge 2 ] || { echo "prefix: no chapters in $src/book" >&2; exit 2; }

openmp=
if echo 'int main(void){return 0;}' | "$cc" -fopenmp -x c - -o /dev/null 2>/dev/null; then
  openmp=-fopenmp
fi
cflags=(-std=c11 -O1 -w $openmp)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# one prefix: tangle, compile, run (output into the log; non-zero on the first failure)
build_prefix() {
  local dir=$1; shift
  local files=("${@#"$src"/}") root t
  mkdir -p "$dir/obj"
  # every root at once: noweb's markup reads the files once, its mnt writes each root (what the
  # noweb command does); the same text as notangle per root, without #line directives (this mnt
  # does not write them), so a compiler error here names the file in the prefix's folder
  (cd "$src" && noroots "${files[@]}") | sed -e 's/^<<//' -e 's/>>$//' |
    while IFS= read -r root; do mkdir -p "$dir/$(dirname "$root")"; done
  (cd "$src" && "$nwlib/markup" "${files[@]}") | (cd "$dir" && "$nwlib/mnt" -all) || return 1
  # the test programs that the newest file of the prefix defines
  local newest=()
  mapfile -t newest < <(cd "$src" && noroots "${files[-1]}" | sed -n 's|^<<tests/\(ch[^>]*\)\.c>>$|\1|p')
  # a prefix whose library and tests are the whole book's (later files add only tests of their own
  # and programs) is what the ordinary build compiles and tests: nothing is left to check here
  if same_as_book "$dir"; then
    local t all=1
    for t in "${newest[@]}"; do
      { [ -f "$src/tangled/tests/$t.c" ] && same_file "$dir/tests/$t.c" "$src/tangled/tests/$t.c"; } || all=0
    done
    if [ $all = 1 ]; then
      echo "the same library${newest[*]:+ and test} as the whole book's, which the build compiles and tests"
      return 0
    fi
  fi
  local libsrc=("$dir"/src/*.c)
  (cd "$dir/obj" && "$cc" "${cflags[@]}" -I"$dir/include" -I"$dir/src" -c "${libsrc[@]}" "$src/tests/check.c") ||
    return 1
  local ran=()
  for t in "${newest[@]}"; do
    "$cc" "${cflags[@]}" -I"$dir/include" -I"$dir/src" -I"$src/tests" "$dir/tests/$t.c" "$dir"/obj/*.o -lm \
      -o "$dir/$t" || return 1
    # the light run (tests/check.h): the long statistical loops are left to the whole book's tests
    (cd "$dir" && ATTN_TEST_LIGHT=1 "./$t" > "$t.out" 2>&1) ||
      { echo "$t failed:"; grep -v '^ *ok\b' "$dir/$t.out" | tail -n 30; return 1; }
    ran+=("$t")
  done
  echo "library and ${ran[*]:-no test program}"
}

# the same C, whatever the #line directives and the indentation of nested chunks say
normal() { grep -v '^#line' "$1" | sed -e 's/^[[:space:]]*//' -e '/^$/d'; }
same_file() { cmp -s <(normal "$1") <(normal "$2"); }
# the prefix's include/, src/ and examples/ (what the library and the tests include) hold the same
# files, with the same C, as the committed tangled/
same_as_book() {
  local dir=$1 f rel
  [ "$(cd "$dir" && ls include/* src/* examples/* | sort)" = "$(cd "$src/tangled" && ls include/* src/* examples/* | sort)" ] ||
    return 1
  for f in "$dir"/include/* "$dir"/src/* "$dir"/examples/*; do
    rel=${f#"$dir"/}
    same_file "$f" "$src/tangled/$rel" || return 1
  done
}

check_prefix() {
  local n=$1; shift
  local last
  last=$(basename "${@: -1}" .nw)
  if build_prefix "$work/$n" "$@" > "$work/$n.log" 2>&1; then
    echo "prefix ${last}: ok ($(tail -n 1 "$work/$n.log"))"
  else
    echo "prefix ${last}: FAILED"; head -n 40 "$work/$n.log"; return 1
  fi
}

status=0
# the last prefix is the whole book, which the ordinary build and its tests already cover; the
# others run as many at a time as there are processors, a new one starting whenever one ends
slots=$(nproc 2>/dev/null || echo 2)
running=0
for ((i = 1; i < ${#order[@]} - 1; i++)); do
  if [ $running -ge "$slots" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  check_prefix "$i" "${order[@]:0:i+1}" > "$work/$i.result" &
  running=$((running + 1))
done
while [ $running -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
for ((i = 1; i < ${#order[@]} - 1; i++)); do cat "$work/$i.result"; done
exit $status
