# package.cmake — how other projects find libgpuport, included by the top CMakeLists:
# - installed: the libraries, headers, a CMake package and a pkg-config file, all relocatable
#   (paths relative to where they lie, so an install moved elsewhere still works);
# - the build tree: the same CMake package written into the build folder (gpuport_DIR=<build>);
# - as a subproject the targets gpuport::gpuport and gpuport::gpuport_static exist already.
# Install components (the Debian packages of cpack.cmake): runtime (the shared library), dev
# (headers, the static library, the package files), cli (the gpuport command).
set(GP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpuport)

# The shared library needs nothing of the program that links it; the static one needs what
# libgpuport itself links (found by the package's `static` component, never otherwise).
export(TARGETS gpuport NAMESPACE gpuport:: FILE ${PROJECT_BINARY_DIR}/gpuportTargets.cmake)
export(TARGETS gpuport_static NAMESPACE gpuport:: FILE ${PROJECT_BINARY_DIR}/gpuportStaticTargets.cmake)
set(GP_PACKAGE_KIND "build tree")
configure_file(${PROJECT_SOURCE_DIR}/cmake/gpuportConfig.cmake.in ${PROJECT_BINARY_DIR}/gpuportConfig.cmake @ONLY)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpuportConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)

# pkg-config: prefix relative to the .pc file's own folder (pkg-config and pkgconf both define
# ${pcfiledir}), unless the library folder was given as an absolute path outside the prefix.
set(GP_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(GP_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH gp_up "/p/${GP_PC_DIR}" "/p")
  string(REGEX REPLACE "/$" "" gp_up "${gp_up}")
  set(GP_PC_PREFIX "\${pcfiledir}/${gp_up}")
endif()
set(GP_PC_LIBS_PRIVATE "-lcrypto")
if(CMAKE_DL_LIBS)
  string(APPEND GP_PC_LIBS_PRIVATE " -l${CMAKE_DL_LIBS}")
endif()
if(APPLE)
  string(APPEND GP_PC_LIBS_PRIVATE " -framework Foundation -framework Metal")
else()
  string(APPEND GP_PC_LIBS_PRIVATE " -lpthread -lm")
endif()
# Outside /usr the dynamic loader does not look in the install's library folder: the .pc adds a
# run-time search path there (-Wl,-rpath,${libdir}: where the .pc file lies now, so a moved
# install still works), and a program linked with `pkg-config --libs gpuport` runs as it is.
set(GP_PC_RPATH "")
if(NOT WIN32 AND NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(GP_PC_RPATH " -Wl,-rpath,\${libdir}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/gpuport.pc.in ${PROJECT_BINARY_DIR}/gpuport.pc @ONLY)

if(NOT GPUPORT_INSTALL)
  return()
endif()
install(TARGETS gpuport EXPORT gpuportTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
install(TARGETS gpuport_static EXPORT gpuportStaticTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
install(DIRECTORY include/gpuport DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
install(EXPORT gpuportTargets NAMESPACE gpuport:: DESTINATION ${GP_CMAKE_DIR} COMPONENT dev)
install(EXPORT gpuportStaticTargets NAMESPACE gpuport:: DESTINATION ${GP_CMAKE_DIR} COMPONENT dev)
set(GP_PACKAGE_KIND "installed package")
configure_file(${PROJECT_SOURCE_DIR}/cmake/gpuportConfig.cmake.in
  ${PROJECT_BINARY_DIR}/install/gpuportConfig.cmake @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/install/gpuportConfig.cmake
  ${PROJECT_BINARY_DIR}/gpuportConfigVersion.cmake DESTINATION ${GP_CMAKE_DIR} COMPONENT dev)
install(FILES ${PROJECT_BINARY_DIR}/gpuport.pc DESTINATION ${GP_PC_DIR} COMPONENT dev)
if(GPUPORT_CLI)
  install(TARGETS gpuport_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
endif()
