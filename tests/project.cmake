# tests/project.cmake — project-level checks, labelled "project".

# libattn installs, and a reader's program finds it by find_package(attn) and by pkg-config;
# attn.h compiles as C++.
add_test(NAME install-consumer
         COMMAND ${PROJECT_SOURCE_DIR}/tests/install_consumer.sh ${PROJECT_BINARY_DIR})
set_tests_properties(install-consumer PROPERTIES LABELS project)
