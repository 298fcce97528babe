#!/usr/bin/env bash
# tests/pdf_check.sh BOOK_DIR — check the two PDF editions as printed books. The source companion
# (attn-book-source.pdf, the whole literate program):
#   every font embedded (pdffonts); each chapter's title extractable as text (pdftotext);
#   a table of contents and the two indexes; bookmarks for every chapter (qpdf);
#   no missing glyphs and no line wider than the page by more than 3pt (XeLaTeX log);
#   metadata (title, author, date) and a title page with subtitle, version and date;
#   page labels that match the printed folios (roman front matter, the body from arabic 1);
#   running heads in the case the headings are written; the indexes' own heads;
#   bookmarks without TeX; no chunk header alone at the foot of a page and no lone last line
#   of code at the top of one; figures drawn at the text width; indexes in two columns.
# The reader's edition (attn-book.pdf), after it: the same fonts, metadata, page labels and edges of
#   chunks; the reader's chapters and none of appendices B–D; no back matter (后记), no test chunk,
#   no chunk or identifier index; every page in the companion it cites known; no near-blank page
#   inside a chapter; at most 320 pages; no code line that wraps (↪: it lists them by chunk).
#   It reports each chapter's pages.
set -uo pipefail
export LC_ALL=C.UTF-8
dir=$1
pdf=$dir/attn-book-source.pdf log=$dir/attn-book-source.log chapters=$dir/chapters-source
src=$(cd "$(dirname "$0")/.." && pwd)
status=0
bad() { echo "pdf-check: $*" >&2; status=1; }
# layout goals not met yet (issue: two editions): reported on every run, not yet failing (the
# companion's chunk headers at a page's foot; the reader's wrapped code lines, which
# tools/weave.py widecode lists from the sources)
note() { echo "pdf-check: not yet met: $*" >&2; }
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
    grep -q '^\\nwbackmatter$' "$chapters/$stem.tex" || bad "$stem: the back matter is not set as back matter (\\nwbackmatter)"
  fi
  if grep -q '^:::[[:space:]]*{[^}]*\.misconception' "$nw"; then
    grep -q 'begin{nwmisconception}' "$chapters/$stem.tex" || bad "$stem: its 常见误解 boxes are not boxes"
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
[ "$title" = "注意力机制：从第一性原理到 C 代码（源码卷）" ] || bad "PDF title is '$title'"
grep -q '^Author: *[^ ]' <<<"$info" || bad "PDF has no author"
grep -q '^CreationDate: *[^ ]' <<<"$info" || bad "PDF has no date"

# the title page: title, subtitle, version, date
p1=$(page 1)
for want in 注意力机制 从第一性原理到 源码卷 版本 年; do
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
    FOOT) note "page $p ends with a chunk header" ;;
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
if grep -h 'includegraphics' "$chapters"/*.tex "$dir"/chapters/*.tex | grep -v 'width=1\\textwidth' | grep -q .; then
  bad "a figure is scaled below the text width in the PDF"
fi

# tables: captions numbered like the figures (表 N.M), columns of numbers flush right
bad_caps=$(grep -h '\\begin{longtable}' -A3 "$chapters"/*.tex | grep '\\caption{' | grep -v '\\caption{表 [0-9A-Z]*\.[0-9]*' || true)
[ -z "$bad_caps" ] || bad "table captions without a number: $bad_caps"
grep -q '\\begin{longtable}\[\]{@{}l*r' "$chapters/03-attention.tex" ||
  bad "chapter 3's tables of numbers are not set flush right"

# the indexes: two columns, no bullets, Chinese names sorted by pinyin (把 ba < 测 ce < 除 chu)
grep -q '\\begin{nwindex}' "$chapters/indexes.tex" || bad "indexes are not set in two columns"
grep -q '\\begin{itemize}' "$chapters/indexes.tex" && bad "indexes are bulleted lists"
order=$(grep -o '〈\(把负数置零\|测试：一个神经元算出 5\|除以总和\)〉' "$dir/jobs/source-indexes.latex.json" | sed 's/[〈〉]//g' | tr '\n' ' ')
[ "$order" = "把负数置零 测试：一个神经元算出 5 除以总和 " ] || bad "chunk index not in pinyin order: $order"

# chunks that only the tests use are set smaller (\nwtestchunk: \footnotesize instead of \small)
grep -q '\\nwtestchunk' "$chapters/03-attention.tex" || bad "chapter 3's test chunks are not marked to be set smaller"
grep -q '\\nwtestchunk' "$chapters/03-attention.tex" &&
  grep '{src/softmax.c}' "$chapters/03-attention.tex" | grep -q '\\nwtestchunk' &&
  bad "a library chunk of chapter 3 is set small like a test chunk"

echo "pdf-check: 源码卷 $pages pages, $titles chapters, $outlines bookmarks, fonts embedded"
source_pages=$pages

# ---------------------------------------------------------------- the reader's edition
pdf=$dir/attn-book.pdf log=$dir/attn-book.log
[ -f "$pdf" ] || { echo "pdf-check: $pdf not found" >&2; exit 1; }
pdftotext -enc UTF-8 -layout "$pdf" "$tmp/reader.txt"
text=$(cat "$tmp/reader.txt")
fonts=$(pdffonts "$pdf" | tail -n +3)
not_embedded=$(echo "$fonts" | awk '{ if ($(NF-4) != "yes") print }')
[ -z "$not_embedded" ] || bad "读本: fonts not embedded:\n$not_embedded"
info=$(pdfinfo "$pdf")
title=$(awk -F': *' '/^Title:/ { print $2 }' <<<"$info")
[ "$title" = "注意力机制：从第一性原理到 C 代码" ] || bad "读本: PDF title is '$title'"
pages=$(awk '/^Pages:/ { print $2 }' <<<"$info")
p1=$(awk 'BEGIN { RS = "\f" } NR == 1' "$tmp/reader.txt")
for want in 注意力机制 从第一性原理到 读本 版本; do
  grep -qF "$want" <<<"$p1" || bad "读本: the title page lacks '$want'"
done
rtitles=0
for nw in "$src"/book/*.nw; do
  title=$(grep -m1 '^# ' "$nw" | sed -e 's/^# //' -e 's/ *{[#.][^{}]*}$//' -e 's/\$[^$]*\$//g' -e 's/`//g')
  key=$(echo "$title" | cut -c1-6)
  case $(basename "$nw") in
    [B-D]-*) ;;      # (appendices B–D: checked by their bookmarks below)
    *) grep -qF -- "$key" <<<"$text" || bad "读本: chapter title not found as text: $title"; rtitles=$((rtitles + 1)) ;;
  esac
done
for word in 目录 参考文献 第一部分 第二部分 选读; do
  grep -qF "$word" <<<"$text" || bad "读本: '$word' not found in the PDF text"
done
# what only the companion prints: back matter, test chunks, the indexes of chunks and identifiers
# (a 后记 rule or a 后记 section heading; the word in a sentence is the prose's business)
if grep -qE '^[[:space:]]*后记([[:space:]]+[0-9A-Z]+\.[0-9]+.*)?[[:space:]]*$' <<<"$text"; then bad "读本: back matter (后记) is printed"; fi
for word in 代码块索引 标识符索引 '〈测试：'; do
  if grep -qF -- "$word" <<<"$text"; then bad "读本: '$word' is printed: $(grep -F -- "$word" <<<"$text" | head -3)"; fi
done
if grep -qE '≡[[:space:]]*测试[[:space:]]' <<<"$text"; then bad "读本: a test chunk is printed"; fi
grep -qF 源码卷第 <<<"$text" || bad "读本: no page of the companion is cited (源码卷第 N 页)"
if grep -qE '源码卷第[[:space:]]*\?\?' <<<"$text"; then bad "读本: a page in the companion is unknown (源码卷第 ?? 页)"; fi
if grep -q 'Missing character' "$log"; then bad "读本: missing glyphs"; fi
wide=$(grep -o 'Overfull \\hbox ([0-9.]*pt too wide)' "$log" | grep -o '[0-9.]*pt' | tr -d pt | awk '$1 > 3' | wc -l)
[ "$wide" -eq 0 ] || bad "读本: $wide lines stick out of the text block by more than 3pt"
# page labels: roman front matter, then arabic from 1
labels=$(qpdf --json --json-key=pagelabels "$pdf" | tr -d ' \n' |
         grep -o '"index":[0-9]*,"label":{"/S":"/[A-Za-z]","/St":[0-9]*' | sed -E 's/.*"\/S":"\/(.)".*/\1/' | tr -d '\n')
[ "$labels" = rD ] || bad "读本: page labels are not 'i, ii, … then 1, 2, …' ($labels)"
# chunk edges and near-blank pages: a page with a few lines (its head counted) that the chapter
# goes on after (the next page has a running head, not a chapter's or part's opening)
awk -v RS='\f' '
  { n = split($0, raw, "\n"); k = 0
    for (i = 1; i <= n; i++) if (raw[i] !~ /^[ \t]*$/) line[++k] = raw[i]
    lines[NR] = k; first[NR] = (k ? line[1] : "")
    if (k && line[k] ~ /≡[ \t]*$/) print "FOOT", NR
    if (k >= 4 && line[2] ~ /（续）/ && line[3] ~ /^[ \t]*};?[ \t]*$/ &&
        line[4] ~ /^[ \t]*(用于|根块|接续|续见|定义)/) print "BRACE", NR }
  END { for (p = 1; p < NR; p++)
          if (lines[p] > 0 && lines[p] <= 8 && first[p + 1] ~ /(^[ \t]*[0-9]+[ \t])|([ \t][0-9]+[ \t]*$)/)
            print "NEARBLANK", p }' "$tmp/reader.txt" > "$tmp/redges"
while read -r kind p; do
  case $kind in
    FOOT) bad "读本: page $p ends with a chunk header" ;;
    BRACE) bad "读本: page $p starts with a lone closing brace" ;;
    NEARBLANK) bad "读本: page $p is near-blank inside a chapter" ;;
  esac
done < "$tmp/redges"
# the page budget: what a student reads in a semester
[ "$pages" -le 320 ] || bad "读本: $pages pages, more than 320"
# each chapter's pages (from the bookmarks: a chapter's first page to the next one's)
python3 - "$pdf" "$src" <<'PYEOF' || bad "读本: its bookmarks list an appendix of the companion, or cannot be read"
import json, re, subprocess, sys
from pathlib import Path
doc = json.loads(subprocess.run(["qpdf", "--json", "--json-key=outlines", "--json-key=pages", sys.argv[1]],
                                capture_output=True, text=True).stdout)
total = len(doc["pages"])
rows = []        # (page, title, is a part) of the preface, parts, chapters, appendices, back pages
def walk(items, depth, parent_part):
    for o in items:
        title, page = o["title"], o.get("destpageposfrom1")
        part = depth == 0 and re.match(r"^第.部分", title) is not None
        if page and (depth == 0 or parent_part):
            rows.append((page, title, part))
        if depth == 0:
            walk(o.get("kids", []), 1, part)
walk(doc["outlines"], 0, False)
rows.sort(key=lambda r: r[0])
out = []
for i, (p, t, part) in enumerate(rows):
    end = rows[i + 1][0] if i + 1 < len(rows) else total + 1
    out.append(f"{end - p:4d}  {'[部分] ' if part else ''}{t}")
print("pdf-check: 读本 pages per chapter (from its bookmarks, a part's title pages apart):\n" + "\n".join(out))
bad = 0
for nw in sorted(Path(sys.argv[2], "book").glob("[B-D]-*.nw")):
    title = re.search(r"^# (.*?)(\s*\{[#.][^{}]*\})?$", nw.read_text(encoding="utf-8"), re.M).group(1)
    if any(t == title or t.endswith(" " + title) for _, t, _ in rows):
        print(f"pdf-check: 读本: appendix {nw.stem} is printed ({title})", file=sys.stderr)
        bad = 1
sys.exit(bad)
PYEOF
# code lines too long for the page wrap (↪): listed by chunk, for the chapters to reformat
wrapped=$(grep -c '↪' <<<"$text" || true)
if [ "$wrapped" -gt 0 ]; then
  bad "读本 has $wrapped wrapped code lines (↪), by chunk:"
  awk '/〈[^〉]*〉[^≡]*≡/ { match($0, /〈[^〉]*〉/); chunk = substr($0, RSTART, RLENGTH) }
       /（续）/ { match($0, /〈[^〉]*〉/); if (RSTART) chunk = substr($0, RSTART, RLENGTH) }
       /↪/ { n[chunk]++ } END { for (c in n) printf "%5d  %s\n", n[c], c }' "$tmp/reader.txt" | sort -rn | head -60
fi
echo "pdf-check: 读本 $pages pages, $rtitles chapters; 源码卷 $source_pages pages; status $status"
exit $status
