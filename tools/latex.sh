#!/usr/bin/env bash
# tools/latex.sh BOOK.tex — run XeLaTeX until cross-references settle (at most 3 runs).
# On an error it prints the end of the log and fails.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: tools/latex.sh BOOK.tex" >&2; exit 2; }
tex=$1 base=${1%.tex}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-0}
for run in 1 2 3; do
  if ! xelatex -interaction=nonstopmode -halt-on-error "$tex" > "$base.xelatex.out" 2>&1; then
    grep -n -A5 '^!' "$base.log" >&2 || tail -n 40 "$base.xelatex.out" >&2
    echo "latex: xelatex failed; the whole log is $base.log" >&2
    exit 1
  fi
  grep -q 'Rerun to get' "$base.log" || break
done
if grep -q 'Missing character' "$base.log"; then
  grep 'Missing character' "$base.log" | sort | uniq -c >&2
  echo "latex: some characters have no glyph in the chosen fonts" >&2
fi
