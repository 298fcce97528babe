#!/usr/bin/env bash
# tools/latex.sh BOOK.tex — typeset the book with latexmk (XeLaTeX, then xdvipdfmx). latexmk
# runs XeLaTeX again only while the cross-references, contents and page labels still change.
# On an error it prints the end of the log and fails.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: tools/latex.sh BOOK.tex" >&2; exit 2; }
tex=$1 base=${1%.tex}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-0}
if ! latexmk -xelatex -interaction=nonstopmode -halt-on-error -file-line-error \
       "$tex" > "$base.latexmk.out" 2>&1; then
  grep -n -A5 '^!\|:[0-9]*: ' "$base.log" >&2 || tail -n 40 "$base.latexmk.out" >&2
  echo "latex: latexmk failed; the whole log is $base.log" >&2
  exit 1
fi
runs=$(grep -c "^Run number [0-9]* of rule 'xelatex'" "$base.latexmk.out" || true)
echo "latex: $(basename "$base").pdf, $runs XeLaTeX run(s)"
if grep -q 'Missing character' "$base.log"; then
  grep 'Missing character' "$base.log" | sort | uniq -c >&2
  echo "latex: some characters have no glyph in the chosen fonts" >&2
fi
