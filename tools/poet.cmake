# tools/poet.cmake — chapter 13 (a GPT trained on the complete Tang poems): the program attn-poet
# and what it needs. Included by CMakeLists.txt after the programs, tests and book.
#
#   attn_poet        tangled/programs/poet/*.c as a static library: the corpus (libcjson, OpenCC),
#                    the vocabulary, safetensors checkpoints, the training step, sampling and the
#                    attention statistics; attn-poet, chapter 13's tests and figures link it
#   poems            runs attn-poet prepare once: corpus/node_modules/chinese-poetry (tools/setup.sh
#                    fetches it with npm ci) -> build/poems/{train,valid}.txt, vocab.json, prepare.json
#   ch13             tangled/tests/poet.c, labelled ch13 (not tests/ch13.c: tests/prefix.sh compiles
#                    tests/chNN.c against the library alone, and these tests need libcjson and OpenCC)
#   fuzz-checkpoint  with ATTN_FUZZ: tests/fuzz/fuzz_checkpoint.c, the checkpoint reader under libFuzzer
# The shipped checkpoint is models/poems.safetensors with its training log models/poems.log.
# CMakeLists.txt found libcjson and OpenCC (PkgConfig::ATTN_CJSON, PkgConfig::ATTN_OPENCC) and
# includes this file only with ATTN_WITH_POET.

set(POET_CORPUS ${PROJECT_SOURCE_DIR}/corpus/node_modules/chinese-poetry/dist/quantangshi)
set(POET_DATA ${PROJECT_BINARY_DIR}/poems)
set(POET_CHECKPOINT ${PROJECT_SOURCE_DIR}/models/poems.safetensors)
set(POET_LOG ${PROJECT_SOURCE_DIR}/models/poems.log)
set(POET_MODELS ${PROJECT_SOURCE_DIR}/models)   # also the checkpoints saved at steps 250, 1000 and 3000
set(POET_PATHS POET_DEFAULT_CORPUS="${POET_CORPUS}" POET_DEFAULT_DATA="${POET_DATA}"
               POET_DEFAULT_CHECKPOINT="${POET_CHECKPOINT}" POET_DEFAULT_LOG="${POET_LOG}"
               POET_DEFAULT_MODELS="${POET_MODELS}")

file(GLOB ATTN_POET_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tangled/programs/poet/*.c)
add_library(attn_poet STATIC ${ATTN_POET_SOURCES})
target_include_directories(attn_poet PUBLIC ${PROJECT_SOURCE_DIR}/tangled/programs/poet)
target_link_libraries(attn_poet PUBLIC attn_static PkgConfig::ATTN_CJSON PkgConfig::ATTN_OPENCC m)
if(OpenMP_C_FOUND)
  target_link_libraries(attn_poet PUBLIC OpenMP::OpenMP_C)
endif()
target_compile_options(attn_poet PRIVATE ${ATTN_WARNINGS})

# the program (tangled/programs/attn-poet.c, made a target by CMakeLists.txt like every program)
target_link_libraries(attn-poet PRIVATE attn_poet)
target_compile_definitions(attn-poet PRIVATE ${POET_PATHS})

# the corpus, prepared once per build tree (a dozen seconds)
if(EXISTS ${POET_CORPUS}/poet.tang.0.json)
  file(GLOB POET_JSON ${POET_CORPUS}/poet.tang.*.json)
  add_custom_command(OUTPUT ${POET_DATA}/prepare.json ${POET_DATA}/train.txt ${POET_DATA}/valid.txt
                            ${POET_DATA}/vocab.json
    COMMAND attn-poet prepare --corpus ${POET_CORPUS} --out ${POET_DATA}
    DEPENDS attn-poet ${POET_JSON}
    COMMENT "attn-poet prepare: the complete Tang poems -> ${POET_DATA}")
  add_custom_target(poems ALL DEPENDS ${POET_DATA}/prepare.json)
  # the rhyme table of chapter 13's poem checker: each character's final by pinyin-pro (pinned by
  # corpus/package-lock.json, installed by tools/setup.sh), written by tangled/programs/poet/rhyme.js
  find_program(POET_NODE node)
  set(POET_PINYIN ${PROJECT_SOURCE_DIR}/corpus/node_modules/pinyin-pro/package.json)
  if(POET_NODE AND EXISTS ${POET_PINYIN})
    add_custom_command(OUTPUT ${POET_DATA}/rhyme.tsv
      COMMAND ${POET_NODE} ${PROJECT_SOURCE_DIR}/tangled/programs/poet/rhyme.js
              ${PROJECT_SOURCE_DIR}/corpus/node_modules ${POET_DATA}/vocab.json ${POET_DATA}/rhyme.tsv
      DEPENDS ${POET_DATA}/vocab.json ${PROJECT_SOURCE_DIR}/tangled/programs/poet/rhyme.js ${POET_PINYIN}
      COMMENT "rhyme.js: the thirteen rhyme groups of the vocabulary -> ${POET_DATA}/rhyme.tsv")
    add_custom_target(poem-rhymes ALL DEPENDS ${POET_DATA}/rhyme.tsv)
  else()
    message(STATUS "chapter 13: node or corpus/node_modules/pinyin-pro not found (tools/setup.sh runs "
                   "npm ci --prefix corpus); the poem checker's tests will say so")
  endif()
else()
  message(STATUS "chapter 13: ${POET_CORPUS} not found (tools/setup.sh runs npm ci --prefix corpus); "
                 "its tests and figures will say so")
  # the book's figures need the prepared corpus: a build that reaches them stops with this message
  add_custom_command(OUTPUT ${POET_DATA}/prepare.json
    COMMAND ${CMAKE_COMMAND} -E echo "chapter 13: the complete Tang poems are missing (${POET_CORPUS});"
            "run tools/setup.sh, or npm ci --prefix corpus, then build again"
    COMMAND ${CMAKE_COMMAND} -E false
    VERBATIM)
endif()

# chapter 13's tests: C tests (tests/poet.c) and the program's (tests/ch13.cmake, included by
# CMakeLists.txt with the other chapters' fragments)
if(ATTN_BUILD_TESTS)
add_executable(test-poet ${PROJECT_SOURCE_DIR}/tangled/tests/poet.c)
target_include_directories(test-poet PRIVATE ${PROJECT_SOURCE_DIR}/tangled/src)
target_link_libraries(test-poet PRIVATE attn_poet attn_check)
target_compile_options(test-poet PRIVATE ${ATTN_WARNINGS})
target_compile_definitions(test-poet PRIVATE ${POET_PATHS})
if(ATTN_VALGRIND)
  add_test(NAME ch13 COMMAND valgrind --error-exitcode=99 --leak-check=full
                             --errors-for-leak-kinds=definite,indirect -q $<TARGET_FILE:test-poet>)
  set_tests_properties(ch13 PROPERTIES ENVIRONMENT ATTN_TEST_LIGHT=1)
else()
  add_test(NAME ch13 COMMAND test-poet)
  if(ATTN_SANITIZE)
    # under the sanitizers (an unoptimised build) the long runs over the whole corpus and the
    # shipped checkpoint would take most of an hour; they are checked by the optimised build
    set_tests_properties(ch13 PROPERTIES ENVIRONMENT ATTN_TEST_LIGHT=1)
  endif()
endif()
set_tests_properties(ch13 PROPERTIES LABELS ch13 REQUIRED_FILES ${POET_DATA}/prepare.json)
endif()

# chapter 13's figures: their data programs (figures/fig13-*.c, figures/live-ch13.c) read the
# prepared corpus and the shipped checkpoint
file(GLOB POET_FIGURE_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tangled/figures/fig13-*.c)
foreach(src ${POET_FIGURE_SOURCES})
  get_filename_component(fig ${src} NAME_WE)
  if(TARGET fig-${fig})
    target_link_libraries(fig-${fig} PRIVATE attn_poet)
    target_compile_definitions(fig-${fig} PRIVATE ${POET_PATHS})
    add_custom_command(OUTPUT ${FIG_DIR}/${fig}.dat.stamp APPEND
                       DEPENDS ${POET_DATA}/prepare.json ${POET_DATA}/rhyme.tsv ${POET_CHECKPOINT})
  endif()
endforeach()
if(TARGET live-ch13)
  target_link_libraries(live-ch13 PRIVATE attn_poet)
  target_compile_definitions(live-ch13 PRIVATE ${POET_PATHS})
  add_custom_command(OUTPUT ${LIVE_DIR}/live-ch13.json APPEND
                     DEPENDS ${POET_DATA}/prepare.json ${POET_DATA}/rhyme.tsv ${POET_CHECKPOINT})
  # the checkpoint itself, as base64 in a script that only chapter 13's live figure loads
  add_custom_command(OUTPUT ${HTML_DIR}/poem-model.js
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/live.py model ${POET_CHECKPOINT}
            ${HTML_DIR}/poem-model.js
    DEPENDS ${POET_CHECKPOINT} ${PROJECT_SOURCE_DIR}/tools/live.py
    COMMENT "live figures: poem-model.js (chapter 13's checkpoint as base64)")
  add_custom_target(poem-model DEPENDS ${HTML_DIR}/poem-model.js)
  add_dependencies(live-figures poem-model)
endif()

# the checkpoint reader under libFuzzer (cmake --preset fuzz)
if(ATTN_FUZZ AND ATTN_BUILD_TESTS)
  add_executable(fuzz_checkpoint ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_checkpoint.c ${ATTN_POET_SOURCES}
                                 ${ATTN_SOURCES})
  target_include_directories(fuzz_checkpoint PRIVATE ${PROJECT_SOURCE_DIR}/tangled/include
                             ${PROJECT_SOURCE_DIR}/tangled/src ${PROJECT_SOURCE_DIR}/tangled/programs/poet)
  target_compile_options(fuzz_checkpoint PRIVATE -g -fsanitize=fuzzer,address,undefined ${ATTN_WARNINGS})
  target_link_options(fuzz_checkpoint PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_checkpoint PRIVATE PkgConfig::ATTN_CJSON PkgConfig::ATTN_OPENCC m)
  add_test(NAME fuzz-checkpoint COMMAND ${PROJECT_SOURCE_DIR}/tests/fuzz/run.sh
                                        $<TARGET_FILE:fuzz_checkpoint> ${ATTN_FUZZ_RUNS} checkpoint)
  set_tests_properties(fuzz-checkpoint PROPERTIES LABELS fuzz)
endif()
