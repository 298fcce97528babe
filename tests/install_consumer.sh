#!/usr/bin/env bash
# tests/install_consumer.sh BUILD_DIR — install libattn into a temporary prefix and build a
# reader's program against it three ways: find_package(attn), pkg-config, and C++ (attn.h).
# The version asked for is the one attn.h carries, and pkg-config and attn_version() agree with it.
# Without pkg-config or a C++ compiler (a machine with only cc and CMake) those two ways are skipped,
# with a line saying so.
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" --component Unspecified > "$tmp/install.log"
if grep -n '^#line' "$prefix/include/attn.h"; then
  echo "install-consumer: the installed attn.h still has #line directives"; exit 1
fi
cmp -s <(grep -v '^#line' "$here/../tangled/include/attn.h") "$prefix/include/attn.h" ||
  { echo "install-consumer: the installed attn.h is not tangled/include/attn.h without #line"; exit 1; }
export LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

version=$(sed -n 's/^#define ATTN_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' "$prefix/include/attn.h" | paste -sd.)
echo "attn.h: version $version"

echo "== find_package(attn $version EXACT)"
cmake -S "$here/consumer" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" -DATTN_EXPECTED_VERSION="$version" \
      ${CC:+-DCMAKE_C_COMPILER="$CC"} > "$tmp/cm.log" || { cat "$tmp/cm.log"; exit 1; }
cmake --build "$tmp/cm" > "$tmp/cm-build.log"
"$tmp/cm/consumer"
"$tmp/cm/consumer_static"

# the static library's own dependencies: the OpenMP runtime through find_dependency, no paths
if grep -n -E '/libgomp|/libomp|/libpthread' "$prefix"/lib/cmake/attn/*.cmake "$prefix"/lib/pkgconfig/attn.pc; then
  echo "install-consumer: the installed package names a runtime library by its path"; exit 1
fi

if ! command -v pkg-config >/dev/null; then
  echo "install-consumer: find_package works; pkg-config and C++ skipped (no pkg-config)"
  exit 0
fi
echo "== pkg-config attn"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion attn)" = "$version" ] ||
  { echo "install-consumer: attn.pc says $(pkg-config --modversion attn), attn.h $version"; exit 1; }
pc=$(pkg-config --cflags --libs attn)
echo "pkg-config: $pc"
"${CC:-cc}" -std=c11 -Wall -Wextra -Werror -o "$tmp/pc" "$here/consumer/main.c" $pc -lm
"$tmp/pc"
pcs=$(pkg-config --static --cflags --libs attn)
echo "pkg-config --static: $pcs"
# libattn.a itself, and what --static says it needs (-lm, -fopenmp)
"${CC:-cc}" -std=c11 -Wall -Wextra -Werror -o "$tmp/pcs" "$here/consumer/main.c" "$prefix/lib/libattn.a" \
  $(pkg-config --static --cflags --libs attn | sed 's/-lattn\b//')
"$tmp/pcs"

echo "== attn.h as C++"
if command -v c++ >/dev/null; then
  c++ -std=c++11 -Wall -Wextra -Werror -o "$tmp/cxx" "$here/consumer/header.cpp" $pc
  "$tmp/cxx"
else
  echo "install-consumer: find_package and pkg-config work; C++ skipped (no c++)"
  exit 0
fi
echo "install-consumer: all three ways work"
