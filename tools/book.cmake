# tools/book.cmake — figures (data from the library, drawn by gnuplot or Graphviz) and the
# book (weave -> pandoc -> HTML pages and XeLaTeX PDF). Included by CMakeLists.txt when
# ATTN_BUILD_BOOK is on.
#
# The steps are cut so that an edit redoes only what it changes:
#   data-programs  a copy of each data program, rewritten only when its bytes change
#   figure-data  each figure's data program writes NAME.dat only when the numbers change
#   figures      gnuplot / Graphviz, only for figures whose data or script changed
#   book-jobs    tools/weave.py prepare: reads all chapters (cheap; cross-references need the
#                whole book) and rewrites a chapter's pandoc job only when it changes
#   html-chNN    pandoc for one chapter's HTML page of the reader's edition (html-src-chNN: its
#                companion page in html/source/, html-src-index the chunk and identifier indexes)
#   html         all pages, the contents pages and the search index
#   pdf          pandoc for each chapter's LaTeX, then latexmk (XeLaTeX) for the source companion
#                attn-book-source.pdf, then for the reader's edition attn-book.pdf
#   epub         pandoc for the whole book as EPUB 3 (attn-book.epub), then its links mended
# A step whose output would come out the same leaves the file alone, so make stops there.
find_program(PANDOC pandoc REQUIRED)
find_program(XELATEX xelatex REQUIRED)
find_program(LATEXMK latexmk REQUIRED)
find_program(GNUPLOT gnuplot REQUIRED)
find_program(DOT dot REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(BOOK_DIR ${PROJECT_BINARY_DIR}/book)
set(FIG_DIR ${BOOK_DIR}/figures)
set(HTML_DIR ${BOOK_DIR}/html)
set(JOB_DIR ${BOOK_DIR}/jobs)
file(MAKE_DIRECTORY ${FIG_DIR} ${HTML_DIR}/figures ${JOB_DIR} ${BOOK_DIR}/chapters)

# the version and date on the title page: the last commit (and whether the tree has changes)
set(ATTN_BOOK_VERSION ${PROJECT_VERSION})
set(ATTN_BOOK_EPOCH 0)            # no git: no date, unless SOURCE_DATE_EPOCH gives one
if(DEFINED ENV{SOURCE_DATE_EPOCH} AND "$ENV{SOURCE_DATE_EPOCH}" MATCHES "^[0-9]+$")
  set(ATTN_BOOK_EPOCH $ENV{SOURCE_DATE_EPOCH})
endif()
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE describe
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_status)
  if(git_status EQUAL 0 AND describe)
    set(ATTN_BOOK_VERSION "${PROJECT_VERSION} (${describe})")
  endif()
  execute_process(COMMAND ${GIT_EXECUTABLE} log -1 --format=%ct
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} OUTPUT_VARIABLE epoch
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_status)
  if(git_status EQUAL 0 AND epoch MATCHES "^[0-9]+$")
    set(ATTN_BOOK_EPOCH ${epoch})
  endif()
endif()

# ---------------------------------------------------------------- figures
# A data program is run from a copy of it that is rewritten only when the program's bytes change
# (the target data-programs, built first): an edit that leaves the machine code alone, such as a
# comment in a library source, relinks the program but reruns nothing after it.
# attn_data_program(TARGET) sets ATTN_DATA_PROGRAM to the copy, and collects its stamp.
set(ATTN_DATA_PROGRAM_STAMPS)
function(attn_data_program target)
  set(copy ${BOOK_DIR}/bin/${target})
  add_custom_command(OUTPUT ${copy}.stamp
    BYPRODUCTS ${copy}
    COMMAND ${CMAKE_COMMAND} -E copy_if_different $<TARGET_FILE:${target}> ${copy}
    COMMAND ${CMAKE_COMMAND} -E touch ${copy}.stamp
    DEPENDS ${target}
    COMMENT "data program ${target}")
  set(ATTN_DATA_PROGRAM_STAMPS ${ATTN_DATA_PROGRAM_STAMPS} ${copy}.stamp PARENT_SCOPE)
  set(ATTN_DATA_PROGRAM ${copy} PARENT_SCOPE)
endfunction()
file(MAKE_DIRECTORY ${BOOK_DIR}/bin)

# figures/NAME.gp draws NAME; when tangled/figures/NAME.c exists, its output is the data.
set(ATTN_FIGURES)
set(ATTN_FIGURE_DATA)
file(GLOB FIG_SCRIPTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/figures/*.gp)
foreach(gp ${FIG_SCRIPTS})
  get_filename_component(name ${gp} NAME_WE)
  set(data_src ${PROJECT_SOURCE_DIR}/tangled/figures/${name}.c)
  set(deps ${gp} ${PROJECT_SOURCE_DIR}/tools/plot.sh)
  set(data "-")     # no data program: the script reads nothing, or a file of its own
  if(EXISTS ${data_src})
    add_executable(fig-${name} ${data_src})
    target_link_libraries(fig-${name} PRIVATE attn_static)
    target_compile_options(fig-${name} PRIVATE ${ATTN_WARNINGS})
    # like the tests, the book's own figure programs may use the library's private headers
    target_include_directories(fig-${name} PRIVATE ${PROJECT_SOURCE_DIR}/tangled/src)
    set(data ${FIG_DIR}/${name}.dat)
    attn_data_program(fig-${name})
    # NAME.dat is rewritten only when the numbers change, so a library edit that does not
    # change them redraws nothing (the stamp records that the program ran)
    add_custom_command(OUTPUT ${data}.stamp
      BYPRODUCTS ${data}
      COMMAND ${ATTN_DATA_PROGRAM} > ${data}.tmp
      COMMAND ${CMAKE_COMMAND} -E copy_if_different ${data}.tmp ${data}
      COMMAND ${CMAKE_COMMAND} -E remove ${data}.tmp
      COMMAND ${CMAKE_COMMAND} -E touch ${data}.stamp
      DEPENDS ${ATTN_DATA_PROGRAM}
      COMMENT "figure data ${name}.dat")
    list(APPEND ATTN_FIGURE_DATA ${data}.stamp)
    list(APPEND deps ${data})
  endif()
  add_custom_command(OUTPUT ${FIG_DIR}/${name}.svg ${FIG_DIR}/${name}.pdf ${HTML_DIR}/figures/${name}.svg
    COMMAND ${PROJECT_SOURCE_DIR}/tools/plot.sh ${gp} ${data} ${FIG_DIR}/${name}
    COMMAND ${CMAKE_COMMAND} -E copy ${FIG_DIR}/${name}.svg ${HTML_DIR}/figures/${name}.svg
    DEPENDS ${deps}
    COMMENT "figure ${name} (gnuplot)")
  list(APPEND ATTN_FIGURES ${FIG_DIR}/${name}.svg ${FIG_DIR}/${name}.pdf ${HTML_DIR}/figures/${name}.svg)
endforeach()
# (a separate target, built first: the figures target sees each .dat as a plain file whose
# time changes only when its content does)
add_custom_target(figure-data DEPENDS ${ATTN_FIGURE_DATA})

# figures/NAME.dot: diagrams drawn by Graphviz
file(GLOB FIG_DOTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/figures/*.dot)
foreach(dotfile ${FIG_DOTS})
  get_filename_component(name ${dotfile} NAME_WE)
  add_custom_command(OUTPUT ${FIG_DIR}/${name}.svg ${FIG_DIR}/${name}.pdf ${HTML_DIR}/figures/${name}.svg
    # (tests/reproducible_html.sh draws them again the same way)
    # svg:cairo draws the text as outlines, as in the PDF: Chromium places the subscripts of
    # Graphviz's plain SVG text (<SUB> in HTML-like labels) on top of the next line
    COMMAND ${DOT} -Tsvg:cairo -o ${FIG_DIR}/${name}.svg ${dotfile}
    COMMAND ${DOT} -Tpdf -o ${FIG_DIR}/${name}.pdf ${dotfile}
    COMMAND ${CMAKE_COMMAND} -E copy ${FIG_DIR}/${name}.svg ${HTML_DIR}/figures/${name}.svg
    DEPENDS ${dotfile}
    COMMENT "figure ${name} (graphviz)")
  list(APPEND ATTN_FIGURES ${FIG_DIR}/${name}.svg ${FIG_DIR}/${name}.pdf ${HTML_DIR}/figures/${name}.svg)
endforeach()
add_custom_target(figures ALL DEPENDS ${ATTN_FIGURES})
add_dependencies(figures figure-data)

# ---------------------------------------------------------------- weave: the jobs
# Two editions come from the same sources (tools/weave.py says how they differ):
#   读本 (reader's)      attn-book.pdf, the pages in html/, attn-book.epub: the reading path,
#                        exercises and answers, references; no back matter, no appendices B–D
#   源码卷 (companion)   attn-book-source.pdf, the pages in html/source/: the whole literate program
# The reader's PDF prints the companion's page numbers, so the companion is typeset first.
set(WEAVE ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=0 ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/weave.py)
set(NW_ABS)
set(ATTN_CHAPTERS)          # every chapter: the companion's
set(ATTN_READER_CHAPTERS)   # the reader's: all but appendices B–D (weave.py's COMPANION_APPENDICES)
foreach(f ${ATTN_NW_FILES})
  list(APPEND NW_ABS ${PROJECT_SOURCE_DIR}/${f})
  get_filename_component(stem ${f} NAME_WE)
  list(APPEND ATTN_CHAPTERS ${stem})
  if(NOT stem MATCHES "^[B-D]-")
    list(APPEND ATTN_READER_CHAPTERS ${stem})
  endif()
endforeach()
# the pages after the reader's chapters (weave.py's reader_back_pages)
set(ATTN_READER_BACK references glossary subject-index)
set(JOB_FILES ${JOB_DIR}/contents.html.json ${JOB_DIR}/source-contents.html.json
              ${JOB_DIR}/source-book-index.html.json ${JOB_DIR}/source-indexes.latex.json
              ${JOB_DIR}/attn-book.master.json ${JOB_DIR}/attn-book-source.master.json
              ${JOB_DIR}/attn-book.epub.json)
foreach(stem ${ATTN_READER_CHAPTERS} ${ATTN_READER_BACK})
  list(APPEND JOB_FILES ${JOB_DIR}/${stem}.html.json ${JOB_DIR}/${stem}.latex.json)
endforeach()
foreach(stem ${ATTN_CHAPTERS})
  list(APPEND JOB_FILES ${JOB_DIR}/source-${stem}.html.json ${JOB_DIR}/source-${stem}.latex.json)
endforeach()
add_custom_command(OUTPUT ${JOB_DIR}/jobs.stamp
  BYPRODUCTS ${JOB_FILES}
  COMMAND ${WEAVE} prepare ${JOB_DIR} --version "${ATTN_BOOK_VERSION}" --epoch ${ATTN_BOOK_EPOCH} ${ATTN_NW_FILES}
  COMMAND ${CMAKE_COMMAND} -E touch ${JOB_DIR}/jobs.stamp
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  DEPENDS ${NW_ABS} ${PROJECT_SOURCE_DIR}/tools/weave.py ${PROJECT_SOURCE_DIR}/book/references.bib
          ${PROJECT_SOURCE_DIR}/tools/terms.py ${PROJECT_SOURCE_DIR}/book/terms.tsv
  COMMENT "weave: reading the chapters (noweb markup -> one pandoc job per chapter and edition)"
  VERBATIM)
add_custom_target(book-jobs DEPENDS ${JOB_DIR}/jobs.stamp)

# ---------------------------------------------------------------- LaTeX and PDF (before the HTML)
file(MAKE_DIRECTORY ${BOOK_DIR}/chapters-source)
# (参考文献 depends on the entries of book/references.bib too, which its job does not contain)
set(BIB_references ${PROJECT_SOURCE_DIR}/book/references.bib)
set(TEX_READER)
set(TEX_SOURCE)
foreach(stem ${ATTN_READER_CHAPTERS} ${ATTN_READER_BACK})
  add_custom_command(OUTPUT ${BOOK_DIR}/chapters/${stem}.tex
    COMMAND ${WEAVE} run ${JOB_DIR}/${stem}.latex.json ${BOOK_DIR}/chapters/${stem}.tex
    DEPENDS ${JOB_DIR}/${stem}.latex.json ${PROJECT_SOURCE_DIR}/tools/weave.py ${BIB_${stem}}
    COMMENT "pandoc: chapters/${stem}.tex (读本)")
  list(APPEND TEX_READER ${BOOK_DIR}/chapters/${stem}.tex)
endforeach()
foreach(stem ${ATTN_CHAPTERS} indexes)
  add_custom_command(OUTPUT ${BOOK_DIR}/chapters-source/${stem}.tex
    COMMAND ${WEAVE} run ${JOB_DIR}/source-${stem}.latex.json ${BOOK_DIR}/chapters-source/${stem}.tex
    DEPENDS ${JOB_DIR}/source-${stem}.latex.json ${PROJECT_SOURCE_DIR}/tools/weave.py
    COMMENT "pandoc: chapters-source/${stem}.tex (源码卷)")
  list(APPEND TEX_SOURCE ${BOOK_DIR}/chapters-source/${stem}.tex)
endforeach()
foreach(master attn-book attn-book-source)
  add_custom_command(OUTPUT ${BOOK_DIR}/${master}.tex
    COMMAND ${WEAVE} run ${JOB_DIR}/${master}.master.json ${BOOK_DIR}/${master}.tex
    DEPENDS ${JOB_DIR}/${master}.master.json ${PROJECT_SOURCE_DIR}/tools/weave.py
            ${PROJECT_SOURCE_DIR}/tools/preamble.tex
    COMMENT "pandoc: ${master}.tex")
endforeach()
# the companion first (it \input's the reader's 参考文献), then the page of each of its labels for
# the reader's edition, then the reader's edition; each PDF is copied into the site's folder
add_custom_command(OUTPUT ${BOOK_DIR}/attn-book-source.pdf ${HTML_DIR}/attn-book-source.pdf
  BYPRODUCTS ${BOOK_DIR}/attn-book-source.aux
  COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=${ATTN_BOOK_EPOCH}
          ${PROJECT_SOURCE_DIR}/tools/latex.sh ${BOOK_DIR}/attn-book-source.tex
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${BOOK_DIR}/attn-book-source.pdf ${HTML_DIR}/attn-book-source.pdf
  WORKING_DIRECTORY ${BOOK_DIR}
  DEPENDS ${BOOK_DIR}/attn-book-source.tex ${TEX_SOURCE} ${BOOK_DIR}/chapters/references.tex
          ${ATTN_FIGURES} ${PROJECT_SOURCE_DIR}/tools/latex.sh
  COMMENT "latexmk: typesetting attn-book-source.pdf (源码卷, XeLaTeX)")
add_custom_command(OUTPUT ${BOOK_DIR}/source-pages.tex
  COMMAND ${WEAVE} srcpages ${BOOK_DIR}/attn-book-source.aux ${BOOK_DIR}/source-pages.tex
  DEPENDS ${BOOK_DIR}/attn-book-source.pdf ${PROJECT_SOURCE_DIR}/tools/weave.py
  COMMENT "weave: the companion's page numbers for the reader's edition")
add_custom_command(OUTPUT ${BOOK_DIR}/attn-book.pdf ${HTML_DIR}/attn-book.pdf
  COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=${ATTN_BOOK_EPOCH}
          ${PROJECT_SOURCE_DIR}/tools/latex.sh ${BOOK_DIR}/attn-book.tex
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${BOOK_DIR}/attn-book.pdf ${HTML_DIR}/attn-book.pdf
  WORKING_DIRECTORY ${BOOK_DIR}
  DEPENDS ${BOOK_DIR}/attn-book.tex ${TEX_READER} ${BOOK_DIR}/source-pages.tex ${ATTN_FIGURES}
          ${PROJECT_SOURCE_DIR}/tools/latex.sh
  COMMENT "latexmk: typesetting attn-book.pdf (读本, XeLaTeX)")
# the chapters' LaTeX in a target of its own that waits only for the jobs, and comes before the
# HTML: after an edit to the prose, pandoc writes the LaTeX while the build tangles and checks the
# programs and figures, and the HTML pages while XeLaTeX typesets
add_custom_target(latex-chapters ALL DEPENDS ${BOOK_DIR}/attn-book.tex ${BOOK_DIR}/attn-book-source.tex
                                             ${TEX_READER} ${TEX_SOURCE})
add_dependencies(latex-chapters book-jobs)

# ---------------------------------------------------------------- HTML, a target per page
# html-ch03 rebuilds chapter 3's reader's page alone, html-src-ch03 its companion page;
# html-references 参考文献, html-src-index the chunk and identifier indexes
set(HTML_PAGES)
set(HTML_PAGE_TARGETS)
function(attn_html_page job out target)
  add_custom_command(OUTPUT ${out}
    COMMAND ${WEAVE} run ${JOB_DIR}/${job}.html.json ${out}
    DEPENDS ${JOB_DIR}/${job}.html.json ${PROJECT_SOURCE_DIR}/tools/weave.py
            ${PROJECT_SOURCE_DIR}/tools/book.html ${ARGN}
    COMMENT "pandoc: ${job}.html")
  add_custom_target(${target} DEPENDS ${out})
  add_dependencies(${target} book-jobs)
  set(HTML_PAGES ${HTML_PAGES} ${out} PARENT_SCOPE)
  set(HTML_PAGE_TARGETS ${HTML_PAGE_TARGETS} ${target} PARENT_SCOPE)
endfunction()
file(MAKE_DIRECTORY ${HTML_DIR}/source)
foreach(stem ${ATTN_READER_CHAPTERS} ${ATTN_READER_BACK})
  string(REGEX REPLACE "^([0-9A-Z]+)-.*" "\\1" short ${stem})
  set(target html-ch${short})
  if(NOT stem MATCHES "^[0-9A-Z]+-")
    set(target html-${stem})
  endif()
  attn_html_page(${stem} ${HTML_DIR}/${stem}.html ${target} ${BIB_${stem}})
endforeach()
foreach(stem ${ATTN_CHAPTERS} book-index)
  string(REGEX REPLACE "^([0-9A-Z]+)-.*" "\\1" short ${stem})
  set(target html-src-ch${short})
  if(stem STREQUAL "book-index")
    set(target html-src-index)
  endif()
  attn_html_page(source-${stem} ${HTML_DIR}/source/${stem}.html ${target})
endforeach()
add_custom_command(OUTPUT ${HTML_DIR}/index.html ${HTML_DIR}/search-index.js ${HTML_DIR}/source/index.html
  COMMAND ${WEAVE} contents ${JOB_DIR}/contents.html.json ${HTML_DIR}
  COMMAND ${WEAVE} contents ${JOB_DIR}/source-contents.html.json ${HTML_DIR}
  DEPENDS ${HTML_PAGES} ${JOB_DIR}/contents.html.json ${JOB_DIR}/source-contents.html.json
          ${PROJECT_SOURCE_DIR}/tools/weave.py
          ${PROJECT_SOURCE_DIR}/tools/book.html ${PROJECT_SOURCE_DIR}/tools/book.css
          ${PROJECT_SOURCE_DIR}/tools/search.js ${PROJECT_SOURCE_DIR}/tools/book.js
  COMMENT "weave: contents pages and search index")
# the page rules run in their own targets first; html then finds them up to date
# (a rule shared by two targets that build in parallel would otherwise run twice at once)
add_custom_target(html ALL DEPENDS ${HTML_DIR}/index.html)
add_dependencies(html ${HTML_PAGE_TARGETS} figures)

# the live figures: libattn as WebAssembly, their data and scripts (tools/live.cmake)
include(${PROJECT_SOURCE_DIR}/tools/live.cmake)
add_dependencies(html live-figures)
# every data program's copy first (attn_data_program above): the figure and live-figure data
# commands then see each copy as a plain file whose time changes only when its bytes do
add_custom_target(data-programs DEPENDS ${ATTN_DATA_PROGRAM_STAMPS})
add_dependencies(figure-data data-programs)
add_dependencies(live-figures data-programs)

# ---------------------------------------------------------------- the PDF and book targets
add_custom_target(pdf ALL DEPENDS ${BOOK_DIR}/attn-book.pdf ${BOOK_DIR}/attn-book-source.pdf)
add_dependencies(pdf latex-chapters figures)

# ---------------------------------------------------------------- EPUB 3
# the whole book through pandoc at once: about a minute of processor time, most of it pandoc's
# highlighting of the book's code, so it is a target of its own that a plain build leaves alone
# (an edit to the prose is not slowed by it); tools/setup.sh builds it, and
# cmake --build build --target epub rebuilds it. The step is skipped when the job (rewritten only
# when the book changes), the style and the figures are as before.
add_custom_command(OUTPUT ${BOOK_DIR}/attn-book.epub ${HTML_DIR}/attn-book.epub
  COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=${ATTN_BOOK_EPOCH} ${Python3_EXECUTABLE}
          ${PROJECT_SOURCE_DIR}/tools/weave.py run ${JOB_DIR}/attn-book.epub.json ${BOOK_DIR}/attn-book.epub
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${BOOK_DIR}/attn-book.epub ${HTML_DIR}/attn-book.epub
  DEPENDS ${JOB_DIR}/attn-book.epub.json ${PROJECT_SOURCE_DIR}/tools/weave.py ${PROJECT_SOURCE_DIR}/tools/epub.css
          ${ATTN_FIGURES} ${PROJECT_SOURCE_DIR}/book/references.bib
  COMMENT "pandoc: attn-book.epub (EPUB 3)")
add_custom_target(epub DEPENDS ${BOOK_DIR}/attn-book.epub)
add_dependencies(epub book-jobs figures)

add_custom_target(book)
add_dependencies(book html pdf epub)

install(FILES ${BOOK_DIR}/attn-book.pdf ${BOOK_DIR}/attn-book-source.pdf DESTINATION ${CMAKE_INSTALL_DOCDIR} OPTIONAL)
install(FILES ${BOOK_DIR}/attn-book.epub DESTINATION ${CMAKE_INSTALL_DOCDIR} OPTIONAL)
install(DIRECTORY ${HTML_DIR} DESTINATION ${CMAKE_INSTALL_DOCDIR} OPTIONAL)
