#!/usr/bin/env bash
# tests/reproducible_html.sh BUILD_DIR — weave the HTML book twice from the same sources, with
# the figures of BUILD_DIR, and require the two results to be byte-identical.
set -euo pipefail
build=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=0
for run in a b; do
  python3 tools/weave.py --html "$tmp/$run" book/*.nw
  mkdir -p "$tmp/$run/figures"
  for gp in figures/*.gp; do          # redraw every figure (data from the build's programs)
    name=$(basename "$gp" .gp)
    data=$build/book/figures/$name.dat
    [ -f "$data" ] || data="-"
    tools/plot.sh "$gp" "$data" "$tmp/$run/figures/$name" > /dev/null
    rm -f "$tmp/$run/figures/$name.pdf"
  done
  for d in figures/*.dot; do
    dot -Tsvg -o "$tmp/$run/figures/$(basename "$d" .dot).svg" "$d"
  done
done
if ! diff -r "$tmp/a" "$tmp/b" > "$tmp/diff"; then
  echo "reproducible-html: two builds differ:" >&2
  head -n 40 "$tmp/diff" >&2
  exit 1
fi
# and the HTML of the build itself is what a fresh weave gives
diff -r -x figures -x "*.pdf" "$tmp/a" "$build/book/html" > /dev/null || { echo "reproducible-html: build/book/html differs from a fresh weave" >&2; exit 1; }
echo "reproducible-html: $(find "$tmp/a" -type f | wc -l) files, identical in two builds"
