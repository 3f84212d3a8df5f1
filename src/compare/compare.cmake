# compare.cmake — build rules of the compare room. The shared readers in src/formats include
# their own headers and src/util ones as "formats/x.h" / "util/x.h"; gpuport_formats gets no
# include path of its own from the top-level list, so it is given here (harmless if repeated).
target_include_directories(gpuport_formats PRIVATE ${PROJECT_SOURCE_DIR}/src)
