# Fetch the pinned tree-sitter-python sdist (and the parser.h of its
# generation) with pip, hash-checked, and build the generated parser as a
# static library: target `ts_python_grammar`.
set(_req "${CMAKE_CURRENT_LIST_DIR}/grammar-requirements.txt")
set(_dl "${CMAKE_BINARY_DIR}/_deps/grammar")
set(_src "${_dl}/tree_sitter_python-0.23.6")
set(_hdr "${_dl}/tree-sitter-0.23.2/tree_sitter/core/lib/src")
if(NOT EXISTS "${_src}/src/parser.c" OR NOT EXISTS "${_hdr}/parser.h")
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  file(MAKE_DIRECTORY "${_dl}")
  message(STATUS "Fetching the tree-sitter Python grammar (pinned in ${_req})")
  execute_process(
    COMMAND ${Python3_EXECUTABLE} -m pip download --quiet --no-deps
            --no-binary :all: --require-hashes -r "${_req}" -d "${_dl}"
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "could not fetch the grammar sources pinned in ${_req}: ${_err}")
  endif()
  foreach(_tarball tree_sitter_python-0.23.6.tar.gz tree-sitter-0.23.2.tar.gz)
    file(ARCHIVE_EXTRACT INPUT "${_dl}/${_tarball}" DESTINATION "${_dl}")
  endforeach()
endif()
# The generated parser and scanner include tree_sitter/{parser,array,alloc,ts_assert}.h.
file(COPY "${_hdr}/parser.h" "${_hdr}/array.h" "${_hdr}/alloc.h" "${_hdr}/ts_assert.h" DESTINATION "${_dl}/include/tree_sitter")
add_library(ts_python_grammar STATIC "${_src}/src/parser.c" "${_src}/src/scanner.c")
target_include_directories(ts_python_grammar BEFORE PRIVATE "${_dl}/include" "${_src}/src")
set_target_properties(ts_python_grammar PROPERTIES POSITION_INDEPENDENT_CODE ON C_STANDARD 11)
target_compile_options(ts_python_grammar PRIVATE -w)
