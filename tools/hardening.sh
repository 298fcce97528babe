#!/usr/bin/env bash
# tools/hardening.sh — build and test the library in the hardening configurations of
# CMakePresets.json: AddressSanitizer + UndefinedBehaviorSanitizer, Valgrind memcheck, and clang
# with warnings as errors, and the libFuzzer target for a fixed number of inputs. Each has its own build folder (build-asan, ...). Run by .ci/run after
# the README's two commands.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for preset in asan valgrind clang fuzz; do
  echo "== hardening: $preset"
  cmake --preset "$preset" > /dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset"
done
