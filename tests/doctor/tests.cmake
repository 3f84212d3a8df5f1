# doctor's tests need the stand-in driver libraries (tests/standins/).
include(${CMAKE_CURRENT_LIST_DIR}/../standins/standins.cmake)
