#!/usr/bin/env bash
# tests/reproducible_html.sh BUILD_DIR — the HTML book is reproducible. The build's own weave is
# the first of two; this test makes the second one and compares, without redoing what is pure:
#   1. weave.py prepares every page's pandoc job again, with another Python hash seed; each job
#      must equal, byte for byte, the job the build ran (BUILD_DIR/book/jobs/*.html.json), and
#      each built page must carry the digest of that very job (so it was made from it);
#   2. pandoc runs again on five of those jobs (the preface, chapter 1 — formulas, code chunks,
#      a figure, tables —, 参考文献 — citeproc —, and of the source companion the index page and
#      chapter 1) and the contents steps of both editions again;
#      each result must equal the built file byte for byte;
#   3. gnuplot redraws every figure's SVG from the build's data, Graphviz every diagram, and each
#      must equal the built SVG.
set -euo pipefail
build=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=0
jobs=$build/book/jobs html=$build/book/html
[ -f "$html/index.html" ] || { echo "reproducible-html: $html not built" >&2; exit 1; }
fail() { echo "reproducible-html: $*" >&2; exit 1; }

# 1. the jobs, prepared a second time
PYTHONHASHSEED=12345 python3 tools/weave.py prepare "$tmp/jobs" book/*.nw
n=0
for job in "$tmp"/jobs/*.html.json; do
  name=$(basename "$job")
  cmp -s "$job" "$jobs/$name" || fail "the job $name differs from the build's (a second weave differs)"
  n=$((n + 1))
done
[ "$n" -eq "$(ls "$jobs"/*.html.json | wc -l)" ] || fail "the build has $(ls "$jobs"/*.html.json | wc -l) page jobs, a second weave $n"
python3 - "$tmp/jobs" "$jobs" <<'EOF' || fail "a built page was not made from its job"
import json, sys
from pathlib import Path
sys.path.insert(0, "tools")
import weave
fresh, built = Path(sys.argv[1]), Path(sys.argv[2])
for job in sorted(fresh.glob("*.html.json")):
    if job.name in ("contents.html.json", "source-contents.html.json"):
        continue
    stamp = built / (job.name + ".digest")
    want = weave.job_digest(json.loads(job.read_text(encoding="utf-8")))
    if not stamp.exists() or stamp.read_text() != want:
        sys.exit(f"reproducible-html: {job.name}: the built page's digest is not the job's")
EOF

# 2. pandoc again, on a few pages of both editions; then the contents steps, over those pages and
# the build's others (the reader's pages in html/, the source companion's in html/source/)
mkdir -p "$tmp/html/source"
out_of() {   # the page a job makes: source-NAME.html.json -> source/NAME.html
  local name; name=$(basename "$1" .json)
  case $name in source-*) echo "source/${name#source-}" ;; *) echo "$name" ;; esac
}
sample=("$tmp"/jobs/00-*.html.json "$tmp"/jobs/01-*.html.json "$tmp/jobs/references.html.json"
        "$tmp/jobs/source-book-index.html.json" "$tmp"/jobs/source-01-*.html.json)
for job in "${sample[@]}"; do
  python3 tools/weave.py run "$job" "$tmp/html/$(out_of "$job")" &
done
wait
for job in "${sample[@]}"; do
  page=$(out_of "$job")
  cmp -s "$tmp/html/$page" "$html/$page" || fail "$page differs from the build's"
done
for f in "$html"/*.html "$html"/source/*.html; do
  rel=${f#"$html"/}
  [ -e "$tmp/html/$rel" ] || cp "$f" "$tmp/html/$rel"
done
rm -f "$tmp/html/index.html" "$tmp/html/source/index.html"
python3 tools/weave.py contents "$tmp/jobs/contents.html.json" "$tmp/html"
python3 tools/weave.py contents "$tmp/jobs/source-contents.html.json" "$tmp/html"
for f in index.html source/index.html search-index.js book.css search.js book.js; do
  cmp -s "$tmp/html/$f" "$html/$f" || fail "$f differs from the build's"
done

# 3. the figures: SVG only (the PDF versions carry a creation time)
mkdir -p "$tmp/figures"
figs=0
for gp in figures/*.gp; do
  name=$(basename "$gp" .gp)
  data=$build/book/figures/$name.dat
  [ -f "$data" ] || data="-"
  PLOT_FORMATS=svg tools/plot.sh "$gp" "$data" "$tmp/figures/$name" > /dev/null
  cmp -s "$tmp/figures/$name.svg" "$html/figures/$name.svg" || fail "figure $name.svg differs when drawn again"
  figs=$((figs + 1))
done
for d in figures/*.dot; do
  name=$(basename "$d" .dot)
  dot -Tsvg:cairo -o "$tmp/figures/$name.svg" "$d"
  cmp -s "$tmp/figures/$name.svg" "$html/figures/$name.svg" || fail "figure $name.svg differs when drawn again"
  figs=$((figs + 1))
done
echo "reproducible-html: $n page jobs, ${#sample[@]} pages, the contents and search index, $figs figures: identical in two builds"
