#!/usr/bin/env bash
# tests/install_consumer.sh BUILD_DIR — install libattn into a temporary prefix and build a
# reader's program against it three ways: find_package(attn), pkg-config, and C++ (attn.h).
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

echo "== find_package(attn)"
cmake -S "$here/consumer" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" > "$tmp/cm.log"
cmake --build "$tmp/cm" > "$tmp/cm-build.log"
"$tmp/cm/consumer"
"$tmp/cm/consumer_static"

echo "== pkg-config attn"
pc=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs attn)
echo "pkg-config: $pc"
cc -std=c11 -Wall -Wextra -Werror -o "$tmp/pc" "$here/consumer/main.c" $pc -lm
"$tmp/pc"

echo "== attn.h as C++"
if command -v c++ >/dev/null; then
  c++ -std=c++11 -Wall -Wextra -Werror -o "$tmp/cxx" "$here/consumer/header.cpp" $pc
  "$tmp/cxx"
else
  echo "no C++ compiler"; exit 1
fi
echo "install-consumer: all three ways work"
