# tests.cmake — the audit tests' own pieces: vector_check (see test_vector_paths.sh), built here
# against the library for the host; the shell test builds its other variants itself.
add_executable(audit_vector_check ${CMAKE_CURRENT_LIST_DIR}/vector_check.c)
target_compile_options(audit_vector_check PRIVATE ${GP_WARN})
target_link_libraries(audit_vector_check PRIVATE gpuport_tools)
