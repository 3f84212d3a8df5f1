# compare.cmake — build rules of the compare room. The shared readers in src/formats include
# their own headers and src/util ones as "formats/x.h" / "util/x.h"; gpuport_formats gets no
# include path of its own from the top-level list, so it is given here (harmless if repeated).
target_include_directories(gpuport_formats PRIVATE ${PROJECT_SOURCE_DIR}/src)
# The comparison's inner loops are written in lanes for the vectorizer, which -O2 leaves mostly
# unused; -O3 on this one file is what makes `gpuport compare` memory-bound.
if(NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
  set_source_files_properties(${PROJECT_SOURCE_DIR}/src/compare/metrics.c PROPERTIES COMPILE_OPTIONS "-O3")
endif()
