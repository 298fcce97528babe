#!/usr/bin/env bash
# tools/setup.sh — the README's first command: install what is missing, then build everything.
#
# 1. Installs the Debian packages the project needs, only those not installed yet, and says
#    which (it asks for nothing when all are there, so it is safe to run again).
# 2. Configures and builds with CMake in build/: the library (libattn.a, libattn.so), the
#    exercise programs, the tests, the figures, the HTML book, the PDF book and the EPUB.
# 3. Prints where the PDF and the HTML are.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake pkgconf      # C compiler, CMake and CTest, pkg-config
  noweb                              # notangle, noroots and the weave front end
  pandoc python3                     # Markdown -> HTML, LaTeX and EPUB; the weave backend
  citation-style-language-styles     # the GB/T 7714-2015 numeric style of the bibliography (参考文献)
  epubcheck                          # checking the EPUB
  python3-torch python3-numpy libopenblas0-pthread  # the PyTorch comparisons (chapters 9, 12 and 13)
  libcjson-dev libopencc-dev opencc  # chapter 13: reading the poems' JSON, traditional -> simplified
  texlive-xetex texlive-lang-chinese texlive-latex-recommended texlive-latex-extra
  texlive-fonts-recommended lmodern  # XeLaTeX, ctex, fvextra and the Latin Modern fonts
  fonts-noto-cjk fonts-dejavu-core   # Noto CJK (Chinese text), DejaVu Sans Mono (code)
  gnuplot-nox graphviz               # figures
  latexmk                            # runs XeLaTeX as often as the cross-references need
  poppler-utils qpdf                 # pdffonts, pdftotext, pdftoppm, bookmarks: checking the PDF
  chromium                           # the browser test of the HTML book
  clang libclang-rt-14-dev libomp-14-dev valgrind  # hardening: clang, libFuzzer, OpenMP, memcheck
  wasi-libc lld-14 libclang-rt-14-dev-wasm32       # libattn as WebAssembly: the HTML book's live figures
)

missing=()
for p in "${packages[@]}"; do
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done
# node and npm drive the browser test (playwright-core from npm). A machine may already have
# them from elsewhere (a nodejs build that bundles npm conflicts with Debian's npm), so here the
# commands count, not the package names.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup: all ${#packages[@]} Debian packages are installed"
fi

# playwright-core, pinned by tests/browser/package-lock.json; it drives Debian's chromium
if [ ! -d tests/browser/node_modules/playwright-core ]; then
  echo "setup: installing playwright-core for the browser test (npm ci)"
  npm ci --prefix tests/browser --no-audit --no-fund
fi

# the complete Tang poems for chapter 13: chinese-poetry, pinned with its integrity hash by
# corpus/package-lock.json (an 85 MB download, unpacked once into corpus/node_modules); and
# pinyin-pro, pinned the same way, whose finals give chapter 13's rhyme table
if [ ! -f corpus/node_modules/chinese-poetry/dist/quantangshi/poet.tang.0.json ] ||
   [ ! -f corpus/node_modules/pinyin-pro/package.json ]; then
  echo "setup: fetching the complete Tang poems and pinyin-pro for chapter 13 (npm ci --prefix corpus)"
  npm ci --prefix corpus --no-audit --no-fund
fi

jobs=$(nproc 2>/dev/null || echo 2)
# ATTN_SETUP_CMAKE_ARGS: more configure options (.ci/run turns warnings into errors with it)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DATTN_BUILD_BOOK=ON ${ATTN_SETUP_CMAKE_ARGS:-}
# everything, and the EPUB (a target of its own, which a plain build leaves alone)
cmake --build build -j "$jobs" --target all epub

echo
echo "setup: done."
echo "  PDF:   $(pwd)/build/book/attn-book.pdf"
echo "  HTML:  $(pwd)/build/book/html/index.html"
echo "  EPUB:  $(pwd)/build/book/attn-book.epub"
echo "  tests: ctest --test-dir build -j$(nproc) --output-on-failure"
