# tools/live.cmake — the live figures of the HTML book: libattn compiled to WebAssembly and run in
# the page. Included by tools/book.cmake.
#
#   attn.wasm      the library's C sources (tangled/src) built by clang for wasm32-wasi with
#                  wasi-libc: no OpenMP, no CPU dispatch (the x86 parts are behind
#                  #if defined(__x86_64__)), exports every attn_ function plus malloc and free
#   attn-wasm.js   the same bytes as base64 in a script: Chromium does not let a page fetch()
#                  a file:// URL, and the book must work opened from the files
#   live-data.js   the inputs of each live figure, printed by the chapters' figures/live-chNN.c
#                  programs (linked with the native library); their "checks" (an input and the
#                  numbers the native library computes for it) go to build/book/live-expected.json
#                  for the browser test (tests/browser/check.mjs with live-lib.mjs)
#   live.js, live.css   the figures' code and style (tools/), copied beside the pages
# Without clang's wasm32 target, lld and wasi-libc (tools/setup.sh installs them) the pages get the
# scripts but no attn-wasm.js, and every live figure keeps its static picture.
set(LIVE_DIR ${BOOK_DIR}/live)
file(MAKE_DIRECTORY ${LIVE_DIR})

# ---------------------------------------------------------------- the WebAssembly toolchain
find_program(ATTN_WASM_CC NAMES clang clang-14)
set(ATTN_WASM_OK OFF)
if(ATTN_WASM_CC)
  file(WRITE ${LIVE_DIR}/probe.c "#include <stdlib.h>\n#include <math.h>\nfloat f(float x){return expf(x)+(float)(size_t)malloc(4);}\n")
  execute_process(COMMAND ${ATTN_WASM_CC} --target=wasm32-wasi -O2 -nostartfiles -Wl,--no-entry
                          -Wl,--export=f -o ${LIVE_DIR}/probe.wasm ${LIVE_DIR}/probe.c -lm
                  RESULT_VARIABLE probe_status OUTPUT_QUIET ERROR_VARIABLE probe_error)
  if(probe_status EQUAL 0)
    set(ATTN_WASM_OK ON)
  endif()
endif()

set(LIVE_ASSETS)
if(ATTN_WASM_OK)
  # every function attn.h declares is exported (the page calls them by name)
  file(READ ${PROJECT_SOURCE_DIR}/tangled/include/attn.h header)
  string(REGEX MATCHALL "[ *]attn_[a-z0-9_]+\\(" decls "${header}")
  set(exports)
  foreach(d ${decls})
    string(REGEX REPLACE "^[ *](attn_[a-z0-9_]+)\\($" "\\1" fn "${d}")
    list(APPEND exports "-Wl,--export=${fn}")
  endforeach()
  list(REMOVE_DUPLICATES exports)
  file(GLOB wasm_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tangled/src/*.c)
  file(GLOB wasm_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tangled/src/*.h)
  add_custom_command(OUTPUT ${LIVE_DIR}/attn.wasm
    COMMAND ${ATTN_WASM_CC} --target=wasm32-wasi -O2 -I${PROJECT_SOURCE_DIR}/tangled/include
            -I${PROJECT_SOURCE_DIR}/tangled/src -nostartfiles -Wl,--no-entry ${exports}
            -Wl,--export=malloc -Wl,--export=free -o ${LIVE_DIR}/attn.wasm ${wasm_sources} -lm
    DEPENDS ${wasm_sources} ${wasm_headers} ${PROJECT_SOURCE_DIR}/tangled/include/attn.h
    COMMENT "clang: libattn for WebAssembly (attn.wasm)"
    VERBATIM)
  add_custom_command(OUTPUT ${HTML_DIR}/attn-wasm.js ${HTML_DIR}/attn.wasm
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/live.py wasm ${LIVE_DIR}/attn.wasm ${HTML_DIR}/attn-wasm.js
    COMMAND ${CMAKE_COMMAND} -E copy ${LIVE_DIR}/attn.wasm ${HTML_DIR}/attn.wasm
    DEPENDS ${LIVE_DIR}/attn.wasm ${PROJECT_SOURCE_DIR}/tools/live.py
    COMMENT "live figures: attn-wasm.js (the library as base64)")
  list(APPEND LIVE_ASSETS ${HTML_DIR}/attn-wasm.js)
  message(STATUS "live figures: libattn for WebAssembly with ${ATTN_WASM_CC}")
else()
  # the pages still load attn-wasm.js: without the library it says so, and the figures stay static
  file(WRITE ${LIVE_DIR}/attn-wasm-none.js "// no WebAssembly toolchain at build time: the figures stay static\nvar ATTN_WASM_BASE64 = null;\n")
  configure_file(${LIVE_DIR}/attn-wasm-none.js ${HTML_DIR}/attn-wasm.js COPYONLY)
  message(STATUS "live figures: skipped, clang cannot build for wasm32-wasi "
                 "(Debian: wasi-libc lld-14 libclang-rt-14-dev-wasm32; tools/setup.sh installs them); "
                 "the pages keep their static figures")
endif()

# ---------------------------------------------------------------- the figures' data and checks
file(GLOB live_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tangled/figures/live-*.c)
# the JSON writer that every data program uses (chapter 2), compiled once
add_library(live_json OBJECT ${PROJECT_SOURCE_DIR}/tangled/figures/live_json.c)
target_compile_options(live_json PRIVATE ${ATTN_WARNINGS})
set(live_json)
foreach(src ${live_sources})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src} $<TARGET_OBJECTS:live_json>)
  target_link_libraries(${name} PRIVATE attn_static)
  target_compile_options(${name} PRIVATE ${ATTN_WARNINGS})
  attn_data_program(${name})       # (tools/book.cmake: rerun only when the program changes)
  add_custom_command(OUTPUT ${LIVE_DIR}/${name}.json
    COMMAND ${ATTN_DATA_PROGRAM} > ${LIVE_DIR}/${name}.json
    DEPENDS ${ATTN_DATA_PROGRAM}
    COMMENT "live figure data ${name}.json")
  list(APPEND live_json ${LIVE_DIR}/${name}.json)
endforeach()
add_custom_command(OUTPUT ${HTML_DIR}/live-data.js ${BOOK_DIR}/live-expected.json
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/live.py data
          ${HTML_DIR}/live-data.js ${BOOK_DIR}/live-expected.json ${live_json}
  DEPENDS ${live_json} ${PROJECT_SOURCE_DIR}/tools/live.py
  COMMENT "live figures: live-data.js and live-expected.json")
foreach(f live.js live.css)
  add_custom_command(OUTPUT ${HTML_DIR}/${f}
    COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/tools/${f} ${HTML_DIR}/${f}
    DEPENDS ${PROJECT_SOURCE_DIR}/tools/${f})
  list(APPEND LIVE_ASSETS ${HTML_DIR}/${f})
endforeach()
list(APPEND LIVE_ASSETS ${HTML_DIR}/live-data.js)
add_custom_target(live-figures ALL DEPENDS ${LIVE_ASSETS})

# the live figures are checked by the browser test (tests/browser/check.mjs), on the pages it loads
# anyway: each figure driven, its numbers against the native library (tests/browser/live-lib.mjs);
# tests/browser/live.mjs runs the same checks alone and can photograph the figures
if(ATTN_WASM_OK AND TEST browser)
  set_property(TEST browser APPEND PROPERTY ENVIRONMENT "ATTN_LIVE_EXPECTED=${BOOK_DIR}/live-expected.json")
endif()
