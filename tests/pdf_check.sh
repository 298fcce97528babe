#!/usr/bin/env bash
# tests/pdf_check.sh BOOK_DIR — check the PDF book as a printed book:
#   every font embedded (pdffonts); each chapter's title extractable as text (pdftotext);
#   a table of contents and the two indexes; bookmarks for every chapter (qpdf);
#   no missing glyphs and no line wider than the page by more than 3pt (XeLaTeX log);
#   metadata (title, author, date) and a title page with subtitle, version and date;
#   page labels that match the printed folios (roman front matter, the body from arabic 1);
#   running heads in the case the headings are written; the indexes' own heads;
#   bookmarks without TeX; no chunk header alone at the foot of a page and no lone last line
#   of code at the top of one; figures drawn at the text width; indexes in two columns.
set -uo pipefail
export LC_ALL=C.UTF-8
dir=$1
pdf=$dir/attn-book.pdf log=$dir/attn-book.log
src=$(cd "$(dirname "$0")/.." && pwd)
status=0
bad() { echo "pdf-check: $*" >&2; status=1; }
[ -f "$pdf" ] || { echo "pdf-check: $pdf not found" >&2; exit 1; }

# pdffonts and pdftotext (below) are the slow steps: the fonts are listed while the text is extracted
fonts_file=$(mktemp)
pdffonts "$pdf" > "$fonts_file" &
fonts_pid=$!

# the text of the whole book, laid out as printed, extracted once (the slowest step of this check)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pdftotext -enc UTF-8 -layout "$pdf" "$tmp/book.txt"
text=$(cat "$tmp/book.txt")
wait "$fonts_pid" || bad "pdffonts failed"
fonts=$(tail -n +3 "$fonts_file")
rm -f "$fonts_file"
[ -n "$fonts" ] || bad "pdffonts lists no fonts"
not_embedded=$(echo "$fonts" | awk '{ if ($(NF-4) != "yes") print }')
[ -z "$not_embedded" ] || bad "fonts not embedded:\n$not_embedded"
titles=0
for nw in "$src"/book/*.nw; do
  title=$(grep -m1 '^# ' "$nw" | sed -e 's/^# //' -e 's/ *{[#.][^{}]*}$//' -e 's/\$[^$]*\$//g' -e 's/`//g')
  key=$(echo "$title" | cut -c1-6)            # the first characters, before any formula
  if ! grep -qF -- "$key" <<<"$text"; then bad "chapter title not found as text: $title"; fi
  titles=$((titles + 1))
done
for word in 目录 代码块索引 标识符索引 参考文献; do
  grep -qF "$word" <<<"$text" || bad "'$word' not found in the PDF text"
done
# 参考文献: an entry, numbered [k], for every work the chapters cite, before the indexes; a
# chapter's back matter set compactly after its 后记 rule; 常见误解 boxes
# (the works cited: weave.py gives citeproc one citation of each, in the order of the book)
cited=$(grep -o '\[@' "$dir/jobs/references.latex.json" | wc -l)
if [ "$cited" -gt 0 ]; then
  entries=$(grep -c '\\hypertarget{ref-' "$dir/chapters/references.tex" || true)
  [ "$entries" -eq "$cited" ] || bad "参考文献 has $entries entries for $cited cited works"
  # (a heading at the top of a page follows the form feed that pdftotext puts between pages)
  grep -q "^\[$cited\]" <<<"$(sed -n '/^[[:space:]]*参考文献[[:space:]]*$/,$p' "$tmp/book.txt" | sed 's/^[[:space:]]*//')" ||
    bad "参考文献 in the PDF does not number its entries up to [$cited]"
fi
refs_page=$(grep -n '参考文献' "$tmp/book.txt" | tail -1 | cut -d: -f1)
index_page=$(grep -n '代码块索引' "$tmp/book.txt" | tail -1 | cut -d: -f1)
[ -n "$refs_page" ] && [ -n "$index_page" ] && [ "$refs_page" -lt "$index_page" ] || bad "参考文献 does not come before the indexes"
for nw in "$src"/book/*.nw; do
  stem=$(basename "$nw" .nw)
  if grep -q '^##[[:space:]].*{[^}]*\.backmatter' "$nw"; then
    grep -q '^\\nwbackmatter$' "$dir/chapters/$stem.tex" || bad "$stem: the back matter is not set as back matter (\\nwbackmatter)"
  fi
  if grep -q '^:::[[:space:]]*{[^}]*\.misconception' "$nw"; then
    grep -q 'begin{nwmisconception}' "$dir/chapters/$stem.tex" || bad "$stem: its 常见误解 boxes are not boxes"
  fi
done
if grep -q '^##[[:space:]].*{[^}]*\.backmatter' "$src"/book/*.nw; then grep -qF 后记 <<<"$text" || bad "no 后记 in the PDF text"; fi
if grep -q '^:::[[:space:]]*{[^}]*\.misconception' "$src"/book/*.nw; then grep -qF 常见误解 <<<"$text" || bad "no 常见误解 in the PDF text"; fi

# bookmarks: one for every chapter and every section (## heading), 参考文献 and the two indexes
sections=$(cat "$src"/book/*.nw | grep '^## ' | grep -vc '\.unlisted')   # (小结 is unlisted: no bookmark)
outline_json=$(qpdf --json --json-key=outlines "$pdf")   # (read whole: a grep -q that stops early would break qpdf's pipe)
outlines=$(grep -c '"title"' <<<"$outline_json")
[ "$outlines" -ge $((titles + sections + 3)) ] ||
  bad "only $outlines bookmarks for $titles chapters, $sections sections, 参考文献 and two indexes"
grep -qF '"title": "参考文献"' <<<"$outline_json" || bad "参考文献 has no bookmark"

if grep -q 'Missing character' "$log"; then bad "missing glyphs:"; grep 'Missing character' "$log" | sort -u | head >&2; fi
wide=$(grep -o 'Overfull \\hbox ([0-9.]*pt too wide)' "$log" | grep -o '[0-9.]*pt' | tr -d pt |
       awk '$1 > 3' | wc -l)
[ "$wide" -eq 0 ] || { bad "$wide lines stick out of the text block by more than 3pt:"; grep -A2 'Overfull \\hbox' "$log" | head -20 >&2; }

pages=$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')
# the text of every page: page N is $tmp/page.N
awk -v dir="$tmp" 'BEGIN { RS = "\f" } { f = dir "/page." NR; printf "%s", $0 > f; close(f) }' "$tmp/book.txt"
page() { grep -v '^[[:space:]]*$' "$tmp/page.$1" 2>/dev/null; }
# for every page: its running head, and whether it ends with a chunk header (≡) or opens with a
# continued chunk whose only line is a closing brace followed by the chunk's footer
awk -v RS='\f' '
  { n = split($0, raw, "\n"); k = 0
    for (i = 1; i <= n; i++) if (raw[i] !~ /^[ \t]*$/) line[++k] = raw[i]
    if (k == 0) next
    print "HEAD", NR, line[1]
    if (line[k] ~ /≡[ \t]*$/) print "FOOT", NR
    if (k >= 4 && line[2] ~ /（续）/ && line[3] ~ /^[ \t]*};?[ \t]*$/ &&
        line[4] ~ /^[ \t]*(用于|根块|接续|续见|定义)/) print "BRACE", NR }' "$tmp/book.txt" > "$tmp/edges"

# metadata
info=$(pdfinfo "$pdf")
title=$(awk -F': *' '/^Title:/ { print $2 }' <<<"$info")
[ "$title" = "注意力机制：从第一性原理到 C 代码" ] || bad "PDF title is '$title'"
grep -q '^Author: *[^ ]' <<<"$info" || bad "PDF has no author"
grep -q '^CreationDate: *[^ ]' <<<"$info" || bad "PDF has no date"

# the title page: title, subtitle, version, date
p1=$(page 1)
for want in 注意力机制 从第一性原理到 版本 年; do
  grep -qF "$want" <<<"$p1" || bad "title page lacks '$want'"
done

# page labels: roman from the first page, arabic 1 where the body begins, nothing else; and the
# folios printed on those pages say the same
labels=$(qpdf --json --json-key=pagelabels "$pdf" | tr -d ' \n' |
         grep -o '"index":[0-9]*,"label":{"/S":"/[A-Za-z]","/St":[0-9]*' |
         sed -E 's/"index":([0-9]*),"label":\{"\/S":"\/(.)","\/St":([0-9]*)/\1 \2 \3/')
if [ "$(echo "$labels" | awk 'NR==1 { print $1, $2, $3 }')" != "0 r 1" ] || [ "$(echo "$labels" | wc -l)" -ne 2 ] ||
   [ "$(echo "$labels" | awk 'NR==2 { print $2, $3 }')" != "D 1" ]; then
  bad "page labels are not 'i, ii, … then 1, 2, …': $(echo $labels)"
else
  body=$(echo "$labels" | awk 'NR==2 { print $1 + 1 }')     # the page where the body starts
  page "$body" | tail -n 1 | grep -qx '[[:space:]]*1' || bad "page $body is labelled 1 but its folio is not 1"
  page 3 | tail -n 1 | grep -qx '[[:space:]]*iii' || bad "page 3 is labelled iii but its folio is not iii"
  last=$(page "$pages" | head -n 1)
  grep -q "[[:space:]]$((pages - body + 1))\$\|^[[:space:]]*$((pages - body + 1))[[:space:]]" <<<"$last" ||
    bad "the last page's head '$last' does not carry its label $((pages - body + 1))"
fi

# running heads keep the case of the headings: a lowercase word of a heading never appears in
# capitals (ctexbook would print SOFTMAX), unless a heading writes it so (GELU); the indexes
# have heads of their own
heads=$(sed -n 's/^HEAD [0-9]* //p' "$tmp/edges" | tail -n +2)
headings=$(grep -h '^#' "$src"/book/*.nw)
for word in $(grep -o '\b[a-z][a-z_]\{3,\}\b' <<<"$headings" | sort -u); do
  upper=$(tr a-z A-Z <<<"$word")
  grep -qw -- "$upper" <<<"$headings" && continue   # a heading that says GELU itself
  if grep -qw -- "$upper" <<<"$heads"; then bad "running head in capitals: $upper"; fi
done
grep -q softmax <<<"$heads" || bad "no running head says 'softmax'"
grep -q 标识符索引 <<<"$(page "$pages" | head -n 1)" || bad "the last page (identifier index) has no head of its own"

# bookmarks: text, not TeX
raw=$(qpdf --json --json-key=outlines "$pdf" | grep '"title"' | grep -E '\\\\|[{}$^]')
[ -z "$raw" ] || bad "bookmarks with TeX in them:\n$raw"

# code chunks at page edges: no chunk header as the last line of a page, and no page that opens
# with a continued chunk whose only line is a closing brace
while read -r kind p; do
  case $kind in
    FOOT) bad "page $p ends with a chunk header" ;;
    BRACE) bad "page $p starts with a lone closing brace" ;;
  esac
done < "$tmp/edges"

# figures at the text width (16 cm = 453.5 pt) with 10 pt labels; the PDF includes them at that size
for f in "$dir"/figures/*.pdf; do
  case $(basename "$f") in *.dat.pdf) continue ;; esac
  [ -f "${f%.pdf}.dat" ] || [ -f "$src/figures/$(basename "${f%.pdf}").gp" ] || continue
  w=$(pdfinfo "$f" | awk '/^Page size:/ { print int($3) }')
  [ "$w" -ge 440 ] || bad "figure $(basename "$f") is $w pt wide, not the text width"
done
if grep -h 'includegraphics' "$dir"/chapters/*.tex | grep -v 'width=1\\textwidth' | grep -q .; then
  bad "a figure is scaled below the text width in the PDF"
fi

# tables: captions numbered like the figures (表 N.M), columns of numbers flush right
bad_caps=$(grep -h '\\begin{longtable}' -A3 "$dir"/chapters/*.tex | grep '\\caption{' | grep -v '\\caption{表 [0-9A-Z]*\.[0-9]*' || true)
[ -z "$bad_caps" ] || bad "table captions without a number: $bad_caps"
grep -q '\\begin{longtable}\[\]{@{}l*r' "$dir/chapters/03-attention.tex" ||
  bad "chapter 3's tables of numbers are not set flush right"

# the indexes: two columns, no bullets, Chinese names sorted by pinyin (把 ba < 测 ce < 除 chu)
grep -q '\\begin{nwindex}' "$dir/chapters/indexes.tex" || bad "indexes are not set in two columns"
grep -q '\\begin{itemize}' "$dir/chapters/indexes.tex" && bad "indexes are bulleted lists"
order=$(grep -o '〈\(把负数置零\|测试：一个神经元算出 5\|除以总和\)〉' "$dir/jobs/indexes.latex.json" | sed 's/[〈〉]//g' | tr '\n' ' ')
[ "$order" = "把负数置零 测试：一个神经元算出 5 除以总和 " ] || bad "chunk index not in pinyin order: $order"

# chunks that only the tests use are set smaller (\nwtestchunk: \footnotesize instead of \small)
grep -q '\\nwtestchunk' "$dir/chapters/03-attention.tex" || bad "chapter 3's test chunks are not marked to be set smaller"
grep -q '\\nwtestchunk' "$dir/chapters/03-attention.tex" &&
  grep '{src/softmax.c}' "$dir/chapters/03-attention.tex" | grep -q '\\nwtestchunk' &&
  bad "a library chunk of chapter 3 is set small like a test chunk"

echo "pdf-check: $pages pages, $titles chapters, $outlines bookmarks, fonts embedded, status $status"
exit $status
