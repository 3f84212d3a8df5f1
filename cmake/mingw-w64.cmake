# mingw-w64.cmake — cross-building gpuport for 64-bit Windows with MinGW-w64 from Linux:
#   scripts/mingw-deps.sh                         (cJSON and cmocka for Windows, once)
#   cmake -S . -B build-mingw -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake
# The compiler is the win32 thread model (gpuport's own layer does threads, so no winpthread DLL
# is needed). The libraries Debian has no Windows package for come from GPUPORT_MINGW_PREFIX
# (default: <source>/build-mingw-deps, where scripts/mingw-deps.sh puts them). When Wine is
# installed, ctest runs every test program under it (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(GP_MINGW_TRIPLE x86_64-w64-mingw32)

find_program(CMAKE_C_COMPILER NAMES ${GP_MINGW_TRIPLE}-gcc-win32 ${GP_MINGW_TRIPLE}-gcc REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${GP_MINGW_TRIPLE}-windres)
find_program(CMAKE_AR NAMES ${GP_MINGW_TRIPLE}-gcc-ar-win32 ${GP_MINGW_TRIPLE}-ar)
find_program(CMAKE_RANLIB NAMES ${GP_MINGW_TRIPLE}-gcc-ranlib-win32 ${GP_MINGW_TRIPLE}-ranlib)

if(NOT GPUPORT_MINGW_PREFIX)
  if(DEFINED ENV{GPUPORT_MINGW_PREFIX})
    set(GPUPORT_MINGW_PREFIX $ENV{GPUPORT_MINGW_PREFIX})
  else()
    get_filename_component(GPUPORT_MINGW_PREFIX ${CMAKE_CURRENT_LIST_DIR}/../build-mingw-deps ABSOLUTE)
  endif()
endif()
set(GPUPORT_MINGW_PREFIX ${GPUPORT_MINGW_PREFIX} CACHE PATH "Windows builds of cJSON and cmocka")
# try_compile projects see the toolchain file again: hand the prefix on to them
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES GPUPORT_MINGW_PREFIX)

set(CMAKE_FIND_ROOT_PATH /usr/${GP_MINGW_TRIPLE} ${GPUPORT_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config looks only at the Windows libraries, never at the build machine's
set(ENV{PKG_CONFIG_LIBDIR} ${GPUPORT_MINGW_PREFIX}/lib/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")

# Debian's wine64 package puts the loader outside PATH
find_program(GP_WINE NAMES wine64 wine PATHS /usr/lib/wine /usr/lib64/wine NO_CMAKE_FIND_ROOT_PATH)
if(GP_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${GP_WINE})
endif()
# zlib and the compiler's runtime linked in, so the programs need no MinGW DLL beside them
set(ZLIB_USE_STATIC_LIBS ON)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static-libgcc")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc")
