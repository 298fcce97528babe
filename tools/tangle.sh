#!/usr/bin/env bash
# tools/tangle.sh — tangle book/*.nw into tangled/ with noweb's own notangle -L.
#
#   tools/tangle.sh            write tangled/, touching only files whose content changed
#   tools/tangle.sh --build    the same, run by the build: exit 3 when a file was added to or
#                              removed from tangled/ (the build must re-read its file lists)
#   tools/tangle.sh --check    tangle into a temporary folder and compare with tangled/;
#                              exit 1 on any difference, notangle warning or unknown root
#
# Every root chunk must be a file path under one of the folders below; a root that is not
# (a chunk defined but never used, a misspelt name) is an error, never silently dropped.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=write
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  --build) mode=build ;;
  *) echo "usage: tools/tangle.sh [--check | --build]" >&2; exit 2 ;;
esac

command -v notangle >/dev/null || { echo "tangle: notangle (Debian package noweb) not found" >&2; exit 2; }
# notangle is a small script: noweb's markup reads the .nw files, its nt writes one root. Reading
# the book once and running nt for each root gives notangle's output without re-reading the whole
# book a hundred times.
nwlib=$(sed -n 's/^LIB=//p' "$(command -v notangle)")
[ -x "$nwlib/markup" ] && [ -x "$nwlib/nt" ] ||
  { echo "tangle: noweb's markup and nt not found (LIB=$nwlib in notangle)" >&2; exit 2; }

shopt -s nullglob
sources=(book/*.nw)
[ ${#sources[@]} -gt 0 ] || { echo "tangle: no book/*.nw" >&2; exit 2; }

# merge_line_directives PLAIN LINES: the text of PLAIN (notangle, indentation kept) with the #line
# directives of LINES (notangle -L) in front of the lines they describe. notangle -L ends a line
# where a nested chunk starts, leaving its indentation alone on a line; such whitespace-only pieces
# are skipped. Whitespace-only lines become empty lines.
merge_line_directives() {
  awk '
    NR == FNR { plain[++np] = $0; next }
    /^#line [0-9]+ "/ { pending = $0 "\n"; next }   # only the last one before a line counts
    {
      a = $0; sub(/^[ \t]+/, "", a)
      if (pi < np) {
        b = plain[pi + 1]; sub(/^[ \t]+/, "", b)
        if (a == b) {
          printf "%s", pending; pending = ""
          pi++
          line = plain[pi]; if (line ~ /^[ \t]*$/) line = ""
          print line
          next
        }
      }
      if (a == "") next
      bad = 1; exit 1
    }
    END {
      if (bad || pi != np) exit 1
      printf "%s", pending
    }' "$1" "$2"
}

root_pattern='^(include|src|tests|exercises|examples|programs|figures|bench)/[A-Za-z0-9_./-]+\.(c|h|cmake|gp|dot|py|sh|txt|js)$'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# noroots prints each root as <<name>>
mapfile -t roots < <(noroots "${sources[@]}" | sed -e 's/^<<//' -e 's/>>$//')
# what notangle runs: markup | nt for the plain text, markup -t | nt -t -L for the #line version
"$nwlib/markup" "${sources[@]}" > "$work/.markup" || exit 2
"$nwlib/markup" -t "${sources[@]}" > "$work/.markup-t" || exit 2
for root in "${roots[@]}"; do
  if ! [[ $root =~ $root_pattern ]]; then
    echo "tangle: root chunk <<$root>> is not a file that any rule tangles (defined but never used?)" >&2
    status=1
    continue
  fi
  mkdir -p "$work/$(dirname "$root")"
  # notangle without -L keeps the indentation of nested chunks; C sources also get the #line
  # directives of notangle -L (which keeps every line in its .nw column instead), merged in
  if ! "$nwlib/nt" -R"$root" < "$work/.markup" > "$work/.plain" 2> "$work/.err"; then
    cat "$work/.err" >&2; status=1
  fi
  if [ -s "$work/.err" ]; then
    sed "s|^|tangle: $root: |" "$work/.err" >&2; status=1
  fi
  case $root in
    *.c|*.h)
      "$nwlib/nt" -t -L -R"$root" < "$work/.markup-t" > "$work/.lines" 2>/dev/null || status=1
      merge_line_directives "$work/.plain" "$work/.lines" > "$work/$root" ||
        { echo "tangle: $root: cannot place the #line directives (text after a chunk reference?)" >&2; status=1; }
      ;;
    *)
      # scripts and CMake fragments: no #line directives (a shell or Python script starts with #!)
      sed -e 's/^[[:space:]]*$//' "$work/.plain" > "$work/$root"
      case $(head -c 2 "$work/$root") in '#!') chmod +x "$work/$root" ;; esac
      ;;
  esac
done
rm -f "$work/.err" "$work/.plain" "$work/.lines" "$work/.markup" "$work/.markup-t"
[ $status -eq 0 ] || exit $status

if [ $mode = check ]; then
  if ! diff -r -u tangled "$work" > "$work.diff" 2>&1; then
    echo "tangle: tangled/ differs from a fresh tangle of book/*.nw:" >&2
    head -n 60 "$work.diff" >&2
    rm -f "$work.diff"
    exit 1
  fi
  rm -f "$work.diff"
  while IFS= read -r -d '' f; do
    rel=${f#"$work"/}
    if { [ -x "$f" ] && [ ! -x "tangled/$rel" ]; } || { [ ! -x "$f" ] && [ -x "tangled/$rel" ]; }; then
      echo "tangle: tangled/$rel: executable bit differs from a fresh tangle" >&2
      exit 1
    fi
  done < <(find "$work" -type f -print0)
  echo "tangle: tangled/ matches book/ (${#roots[@]} files)"
  exit 0
fi

# write mode: copy only what changed, so that make recompiles only what changed
mkdir -p tangled
listed=0     # files added to or removed from tangled/
while IFS= read -r -d '' f; do
  rel=${f#"$work"/}
  [ -e "tangled/$rel" ] || listed=$((listed + 1))
  if ! cmp -s "$f" "tangled/$rel"; then
    mkdir -p "tangled/$(dirname "$rel")"
    cp "$f" "tangled/$rel"
    echo "tangle: wrote tangled/$rel"
  fi
  if [ -x "$f" ]; then chmod +x "tangled/$rel"; else chmod -x "tangled/$rel"; fi
done < <(find "$work" -type f -print0)
# remove files that no root produces any more
while IFS= read -r -d '' f; do
  rel=${f#tangled/}
  if [ ! -e "$work/$rel" ]; then
    rm -f "$f"; echo "tangle: removed tangled/$rel"; listed=$((listed + 1))
  fi
done < <(find tangled -type f -print0)
find tangled -mindepth 1 -type d -empty -delete
if [ $mode = build ] && [ $listed -gt 0 ]; then
  echo "tangle: tangled/ gained or lost files; run the build again (it re-reads its lists of sources)" >&2
  exit 3
fi
exit 0
