# archcheck.cmake — build rules of the archcheck room. The shared readers in src/formats include
# their headers as "formats/x.h"; gpuport_formats gets that include path here (harmless if
# another room gives it too).
target_include_directories(gpuport_formats PRIVATE ${PROJECT_SOURCE_DIR}/src)
