# tests.cmake — the archcheck tests' own pieces: a stand-in CUDA driver (libcuda.so.1) for the
# --device test, since no GPU is here. It lands in archcheck-standin/ of the build folder.
add_library(archcheck_standin_cuda SHARED ${CMAKE_CURRENT_LIST_DIR}/standin_libcuda.c)
set_target_properties(archcheck_standin_cuda PROPERTIES OUTPUT_NAME cuda VERSION 1 SOVERSION 1
  LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/archcheck-standin)
