# tools/book.cmake — figures (data from the library, drawn by gnuplot or Graphviz) and the
# book (weave -> pandoc -> HTML pages and XeLaTeX PDF). Included by CMakeLists.txt.
find_program(PANDOC pandoc REQUIRED)
find_program(XELATEX xelatex REQUIRED)
find_program(GNUPLOT gnuplot REQUIRED)
find_program(DOT dot REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(BOOK_DIR ${PROJECT_BINARY_DIR}/book)
set(FIG_DIR ${BOOK_DIR}/figures)
file(MAKE_DIRECTORY ${FIG_DIR} ${BOOK_DIR}/html/figures)
set(ATTN_FIGURES)

# figures/NAME.gp draws NAME; when tangled/figures/NAME.c exists, its output is the data.
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
    set(data ${FIG_DIR}/${name}.dat)
    add_custom_command(OUTPUT ${data}
      COMMAND fig-${name} > ${data}.tmp
      COMMAND ${CMAKE_COMMAND} -E rename ${data}.tmp ${data}
      DEPENDS fig-${name}
      COMMENT "figure data ${name}.dat")
    list(APPEND deps ${data})
  endif()
  add_custom_command(OUTPUT ${FIG_DIR}/${name}.svg ${FIG_DIR}/${name}.pdf
    COMMAND ${PROJECT_SOURCE_DIR}/tools/plot.sh ${gp} ${data} ${FIG_DIR}/${name}
    DEPENDS ${deps}
    COMMENT "figure ${name} (gnuplot)")
  list(APPEND ATTN_FIGURES ${FIG_DIR}/${name}.svg ${FIG_DIR}/${name}.pdf)
endforeach()

# figures/NAME.dot: diagrams drawn by Graphviz
file(GLOB FIG_DOTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/figures/*.dot)
foreach(dotfile ${FIG_DOTS})
  get_filename_component(name ${dotfile} NAME_WE)
  add_custom_command(OUTPUT ${FIG_DIR}/${name}.svg ${FIG_DIR}/${name}.pdf
    COMMAND ${DOT} -Tsvg -o ${FIG_DIR}/${name}.svg ${dotfile}
    COMMAND ${DOT} -Tpdf -o ${FIG_DIR}/${name}.pdf ${dotfile}
    DEPENDS ${dotfile}
    COMMENT "figure ${name} (graphviz)")
  list(APPEND ATTN_FIGURES ${FIG_DIR}/${name}.svg ${FIG_DIR}/${name}.pdf)
endforeach()
add_custom_target(figures ALL DEPENDS ${ATTN_FIGURES})

# weave: all chapters at once, so cross-references work across chapters
set(WEAVE_TOOLS ${PROJECT_SOURCE_DIR}/tools/weave.py ${PROJECT_SOURCE_DIR}/tools/book.html
                ${PROJECT_SOURCE_DIR}/tools/book.css ${PROJECT_SOURCE_DIR}/tools/preamble.tex
                ${PROJECT_SOURCE_DIR}/tools/search.js)
set(NW_ABS)
foreach(f ${ATTN_NW_FILES})
  list(APPEND NW_ABS ${PROJECT_SOURCE_DIR}/${f})
endforeach()
add_custom_command(OUTPUT ${BOOK_DIR}/html/index.html ${BOOK_DIR}/attn-book.tex
  COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=0
          ${Python3_EXECUTABLE} tools/weave.py --html ${BOOK_DIR}/html --latex ${BOOK_DIR}/attn-book.tex
          ${ATTN_NW_FILES}
  COMMAND ${CMAKE_COMMAND} -E copy_directory ${FIG_DIR} ${BOOK_DIR}/html/figures
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  DEPENDS ${NW_ABS} ${WEAVE_TOOLS} ${ATTN_FIGURES}
  COMMENT "weaving the book (noweb markup -> Pandoc Markdown -> HTML, LaTeX)")
add_custom_target(weave ALL DEPENDS ${BOOK_DIR}/html/index.html ${BOOK_DIR}/attn-book.tex)
# the figure rules run in the figures target first; weave and pdf then find them up to date
# (a rule shared by two targets that build in parallel would otherwise run twice at once)
add_dependencies(weave figures)

add_custom_command(OUTPUT ${BOOK_DIR}/attn-book.pdf
  COMMAND ${PROJECT_SOURCE_DIR}/tools/latex.sh ${BOOK_DIR}/attn-book.tex
  WORKING_DIRECTORY ${BOOK_DIR}
  DEPENDS ${BOOK_DIR}/attn-book.tex ${ATTN_FIGURES} ${PROJECT_SOURCE_DIR}/tools/latex.sh
  COMMENT "typesetting attn-book.pdf (XeLaTeX)")
add_custom_target(pdf ALL DEPENDS ${BOOK_DIR}/attn-book.pdf)
add_dependencies(pdf weave)

install(FILES ${BOOK_DIR}/attn-book.pdf DESTINATION ${CMAKE_INSTALL_DOCDIR} OPTIONAL)
install(DIRECTORY ${BOOK_DIR}/html DESTINATION ${CMAKE_INSTALL_DOCDIR} OPTIONAL)
