#!/usr/bin/env bash
# tests/pdf_check.sh BOOK_DIR — check the PDF book as a printed book:
#   every font embedded (pdffonts); each chapter's title extractable as text (pdftotext);
#   a table of contents and the two indexes; bookmarks for every chapter (qpdf);
#   no missing glyphs and no line wider than the page by more than 3pt (XeLaTeX log).
set -uo pipefail
dir=$1
pdf=$dir/attn-book.pdf log=$dir/attn-book.log
src=$(cd "$(dirname "$0")/.." && pwd)
status=0
bad() { echo "pdf-check: $*" >&2; status=1; }
[ -f "$pdf" ] || { echo "pdf-check: $pdf not found" >&2; exit 1; }

fonts=$(pdffonts "$pdf" | tail -n +3)
[ -n "$fonts" ] || bad "pdffonts lists no fonts"
not_embedded=$(echo "$fonts" | awk '{ if ($(NF-4) != "yes") print }')
[ -z "$not_embedded" ] || bad "fonts not embedded:\n$not_embedded"

text=$(pdftotext -enc UTF-8 "$pdf" -)
titles=0
for nw in "$src"/book/*.nw; do
  title=$(grep -m1 '^# ' "$nw" | sed -e 's/^# //' -e 's/ *{[#.][^{}]*}$//' -e 's/\$[^$]*\$//g' -e 's/`//g')
  key=$(echo "$title" | cut -c1-6)            # the first characters, before any formula
  if ! grep -qF -- "$key" <<<"$text"; then bad "chapter title not found as text: $title"; fi
  titles=$((titles + 1))
done
for word in 目录 代码块索引 标识符索引; do
  grep -qF "$word" <<<"$text" || bad "'$word' not found in the PDF text"
done

# bookmarks: one for every chapter and every section (## heading), plus the two indexes
sections=$(cat "$src"/book/*.nw | grep -c '^## ')
outlines=$(qpdf --json --json-key=outlines "$pdf" | grep -c '"title"')
[ "$outlines" -ge $((titles + sections)) ] ||
  bad "only $outlines bookmarks for $titles chapters and $sections sections"

if grep -q 'Missing character' "$log"; then bad "missing glyphs:"; grep 'Missing character' "$log" | sort -u | head >&2; fi
wide=$(grep -o 'Overfull \\hbox ([0-9.]*pt too wide)' "$log" | grep -o '[0-9.]*pt' | tr -d pt |
       awk '$1 > 3' | wc -l)
[ "$wide" -eq 0 ] || { bad "$wide lines stick out of the text block by more than 3pt:"; grep -A2 'Overfull \\hbox' "$log" | head -20 >&2; }

pages=$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')
echo "pdf-check: $pages pages, $titles chapters, $outlines bookmarks, fonts embedded, status $status"
exit $status
