# tests/project.cmake — project-level checks, labelled "project".

# libattn installs, and a reader's program finds it by find_package(attn) and by pkg-config;
# attn.h compiles as C++.
# (not in sanitizer builds: the consumer is built without the sanitizer runtime)
if(NOT ATTN_SANITIZE)
  add_test(NAME install-consumer
           COMMAND ${PROJECT_SOURCE_DIR}/tests/install_consumer.sh ${PROJECT_BINARY_DIR})
  set_tests_properties(install-consumer PROPERTIES LABELS project ENVIRONMENT "CC=${CMAKE_C_COMPILER}")
  # a reader's project that adds this source tree with add_subdirectory: no clash of target names,
  # only the library is built (tests/consumer_subdir; compiles the library once more, about a minute)
  add_test(NAME subdirectory-consumer
           COMMAND ${PROJECT_SOURCE_DIR}/tests/subdir_consumer.sh ${PROJECT_SOURCE_DIR}
                   ${PROJECT_BINARY_DIR}/subdirectory-consumer)
  set_tests_properties(subdirectory-consumer PROPERTIES LABELS project TIMEOUT 900
                       ENVIRONMENT "CC=${CMAKE_C_COMPILER}")
endif()

if(ATTN_BUILD_BOOK)
  # the PDF as a printed book: fonts, text, contents, bookmarks, indexes, nothing off the page
  add_test(NAME pdf-check COMMAND ${PROJECT_SOURCE_DIR}/tests/pdf_check.sh ${PROJECT_BINARY_DIR}/book)
  set_tests_properties(pdf-check PROPERTIES LABELS book)
  # the HTML in a real browser (Debian's Chromium, driven by playwright-core from npm)
  find_program(NODE node)
  add_test(NAME browser COMMAND ${NODE} ${PROJECT_SOURCE_DIR}/tests/browser/check.mjs
                                ${PROJECT_BINARY_DIR}/book/html ${PROJECT_BINARY_DIR}/screenshots)
  set_tests_properties(browser PROPERTIES LABELS book)
  # two builds of the HTML book from the same sources are byte-identical
  add_test(NAME reproducible-html COMMAND ${PROJECT_SOURCE_DIR}/tests/reproducible_html.sh ${PROJECT_BINARY_DIR})
  set_tests_properties(reproducible-html PROPERTIES LABELS book)
  # the EPUB passes Debian's epubcheck (EPUB 3) with no errors, and has what the book needs
  add_test(NAME epub-check COMMAND ${PROJECT_SOURCE_DIR}/tests/epub_check.py ${PROJECT_BINARY_DIR}/book/attn-book.epub ${PROJECT_SOURCE_DIR})
  set_tests_properties(epub-check PROPERTIES LABELS book)
endif()

# the book's machinery on a small book of its own (tests/weave/book): back matter, test references,
# 常见误解 boxes, citations, and the errors a chapter can make (a missing key, an unclosed box)
find_program(ATTN_PANDOC pandoc)
find_program(ATTN_PYTHON3 python3)
if(ATTN_PANDOC AND ATTN_PYTHON3 AND EXISTS /usr/lib/noweb/markup)
  add_test(NAME weave-fixture COMMAND ${ATTN_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/weave_fixture.py)
  set_tests_properties(weave-fixture PROPERTIES LABELS book)
endif()
# the reading path of each chapter is explanation and the code it teaches (WRITING.md, 正文与后记)
if(ATTN_PYTHON3)
  add_test(NAME reading-path COMMAND ${ATTN_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/reading_path.py ${PROJECT_SOURCE_DIR})
  set_tests_properties(reading-path PROPERTIES LABELS book)
  # no code line of the reader's edition is wider than the page (WRITING.md, 代码的宽度)
  file(GLOB _attn_chapters ${PROJECT_SOURCE_DIR}/book/*.nw)
  add_test(NAME widecode COMMAND ${ATTN_PYTHON3} ${PROJECT_SOURCE_DIR}/tools/weave.py widecode ${_attn_chapters})
  set_tests_properties(widecode PROPERTIES LABELS book)
endif()

# libFuzzer target: attn_sdpa and attn_mha against a double-precision reference of the contract
# (clang only: cmake --preset fuzz)
option(ATTN_FUZZ "Build the libFuzzer target (needs clang)" OFF)
set(ATTN_FUZZ_RUNS 200000 CACHE STRING "Inputs the fuzz test tries")
if(ATTN_FUZZ)
  add_executable(fuzz_attention ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_attention.c ${ATTN_SOURCES})
  target_include_directories(fuzz_attention PRIVATE ${PROJECT_SOURCE_DIR}/tangled/include
                                                    ${PROJECT_SOURCE_DIR}/tangled/src)
  target_compile_options(fuzz_attention PRIVATE -g -fsanitize=fuzzer,address,undefined ${ATTN_WARNINGS})
  target_link_options(fuzz_attention PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_attention PRIVATE m)
  add_test(NAME fuzz COMMAND ${PROJECT_SOURCE_DIR}/tests/fuzz/run.sh $<TARGET_FILE:fuzz_attention> ${ATTN_FUZZ_RUNS})
  set_tests_properties(fuzz PROPERTIES LABELS fuzz)
endif()

# every chapter builds on earlier chapters only: book/00 … book/NN alone tangles, compiles and
# passes the tests of chapters ≤ NN (needs notangle and a C compiler; takes about a minute)
find_program(ATTN_NOTANGLE notangle)
if(ATTN_NOTANGLE)
  add_test(NAME chapter-prefixes COMMAND ${PROJECT_SOURCE_DIR}/tests/prefix.sh ${PROJECT_SOURCE_DIR})
  set_tests_properties(chapter-prefixes PROPERTIES LABELS project
                       ENVIRONMENT "CC=${CMAKE_C_COMPILER}" TIMEOUT 600)
endif()

# libattn.so exports exactly the functions declared in attn.h, nothing internal
add_test(NAME shared-exports COMMAND ${PROJECT_SOURCE_DIR}/tests/exports.sh $<TARGET_FILE:attn_shared>
                                     ${PROJECT_SOURCE_DIR}/tangled/include/attn.h)
set_tests_properties(shared-exports PROPERTIES LABELS project ENVIRONMENT "CC=${CMAKE_C_COMPILER}")
