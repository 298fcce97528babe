#!/usr/bin/env bash
# tests/fuzz/run.sh FUZZER RUNS [NAME] — run the libFuzzer target for a fixed number of inputs,
# starting from the corpus kept in the repository (tests/fuzz/corpus, or tests/fuzz/corpus-NAME;
# read but never written: new inputs go to a temporary folder). Exits non-zero on any crash or
# contract violation.
set -euo pipefail
fuzzer=$1 runs=$2
corpus=$(cd "$(dirname "$0")" && pwd)/corpus${3:+-$3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$fuzzer" -runs="$runs" -seed=1 -max_len=4096 -print_final_stats=1 "$tmp" "$corpus" 2>&1 | tail -n 12
