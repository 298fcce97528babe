#!/usr/bin/env bash
# tests/subdir_consumer.sh SOURCE_DIR WORK_DIR — a reader's project adds libattn with
# add_subdirectory (tests/consumer_subdir): it configures with no clash of target names, builds
# only the library beside its own programs, and the programs run (shared and static).
set -euo pipefail
src=$(cd "$1" && pwd)
work=$2
rm -rf "$work"
mkdir -p "$work"
cmake -S "$src/tests/consumer_subdir" -B "$work" -DATTN_SOURCE_DIR="$src" \
      -DCMAKE_BUILD_TYPE=Release ${CC:+-DCMAKE_C_COMPILER="$CC"} > "$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work" -j "${ATTN_JOBS:-2}" > "$work/build.log" || { tail -50 "$work/build.log"; exit 1; }
"$work/consumer"
"$work/consumer_static"
echo "subdirectory-consumer: add_subdirectory works, shared and static"
