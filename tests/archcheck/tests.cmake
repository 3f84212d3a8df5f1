# tests.cmake — the archcheck tests' own pieces: the shared stand-in CUDA driver
# (tests/standins/, built into <build>/standins/) for the --device test, since no GPU is here.
include(${PROJECT_SOURCE_DIR}/tests/standins/standins.cmake)
