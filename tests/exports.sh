#!/usr/bin/env bash
# tests/exports.sh LIBATTN_SO ATTN_H — libattn.so exports exactly the functions attn.h declares.
set -euo pipefail
so=$1 header=$2
cc=${CC:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# declared: every attn_… name followed by "(" in the preprocessed header (comments gone)
"$cc" -E -P -x c "$header" | grep -o '\battn_[A-Za-z0-9_]*[[:space:]]*(' | tr -d ' (' | sort -u > "$work/declared"
# exported: defined dynamic symbols (functions and data), without the linker's own and without
# names no C program can call (clang exports the ifunc resolver of a target_clones function as
# "flash_block.resolver")
nm -D --defined-only "$so" | awk '$2 ~ /^[TtDdBbRrVvWwi]$/ {print $3}' | sed 's/@.*//' |
  grep -v -x -E '_init|_fini|_edata|_end|__bss_start' | grep -v -F . | sort -u > "$work/exported"
[ -s "$work/declared" ] || { echo "exports: no declarations found in $header" >&2; exit 1; }
if ! diff -u "$work/declared" "$work/exported" > "$work/diff"; then
  echo "exports: libattn.so and attn.h disagree (- only declared, + only exported):"
  tail -n +3 "$work/diff" | grep '^[-+]'
  exit 1
fi
echo "exports: $(wc -l < "$work/declared") functions, all declared in attn.h and nothing else"
