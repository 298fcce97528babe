#!/usr/bin/env bash
# tools/readme-picture.sh — redraw docs/book-page.png, the picture at the top of README.md:
# the PDF page that holds chapter 3's heat map of the attention pattern of the "fluffy blue
# creature" sentence (found by its caption), rendered by pdftoppm from build/book/attn-book.pdf at twice the size of the page
# as README.md shows it (595 px wide there, 144 dpi here), so that it is sharp on any screen.
# Run after tools/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
pdf=build/book/attn-book.pdf
[ -f "$pdf" ] || { echo "readme-picture: build the book first (tools/setup.sh)" >&2; exit 1; }
pages=$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')
for p in $(seq 1 "$pages"); do
  if pdftotext -f "$p" -l "$p" "$pdf" - | grep -q 'verdant forest” 的注意力权重'; then
    pdftoppm -r 144 -png -singlefile -f "$p" -l "$p" "$pdf" docs/book-page
    echo "readme-picture: page $p -> docs/book-page.png"
    exit 0
  fi
done
echo "readme-picture: no page with the fluffy sentence's heat map" >&2
exit 1
