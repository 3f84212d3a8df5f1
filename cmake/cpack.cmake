# cpack.cmake — the Debian packages, split as Debian splits a library (`cpack -G DEB` in a build
# configured with -DCMAKE_INSTALL_PREFIX=/usr; scripts/package-deb.sh does both):
#   libgpuport0     the shared library (component runtime)
#   libgpuport-dev  headers, the static library, the CMake package and gpuport.pc (dev)
#   gpuport         the command-line tool (cli)
# Depends: come from dpkg-shlibdeps for the binaries; -dev depends on the exact library version.
set(CPACK_PACKAGE_NAME gpuport)
set(CPACK_PACKAGE_VENDOR "gpuport")
set(CPACK_PACKAGE_CONTACT "gpuport maintainers <maintainers@gpuport.invalid>")
# (no CPACK_PACKAGE_DESCRIPTION_SUMMARY: CPackDeb would put the same first line, the synopsis,
# on every package; each description below starts with its own)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_COMPONENTS_ALL runtime dev cli)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(gp_deb_version "${PROJECT_VERSION}-1")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libgpuport${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
  "portable GPU runtime (shared library)\nlibgpuport runs one kernel source on CUDA, Metal, OpenCL and the CPU, picks the\nbest device and records why each other one was skipped. GPU runtimes are loaded at\nrun time: this package needs none of them.")
# a shlibs file, so that packages built against this one get a versioned Depends:
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libgpuport-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libgpuport${PROJECT_VERSION_MAJOR} (= ${gp_deb_version})")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "libssl-dev, pkg-config | pkgconf, cmake")
set(CPACK_DEBIAN_DEV_DESCRIPTION
  "portable GPU runtime (development files)\nHeaders, the static library, the CMake package (find_package(gpuport)) and the\npkg-config file of libgpuport. Linking the static library also needs libssl-dev.")

set(CPACK_DEBIAN_CLI_PACKAGE_NAME gpuport)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_CLI_DESCRIPTION
  "GPU portability toolkit: doctor, audit, compare, freeze, archcheck, bench, translate\nThe gpuport command: what this machine's GPUs can do and how to fix what is broken,\nwhat in a code base is tied to CUDA, whether two runs' results agree, and more.")
include(CPack)

# The licence: every Debian package (prefix /usr) carries it as /usr/share/doc/<package>/copyright,
# in the machine-readable format, its text that of LICENSE (MIT, which Debian calls Expat); any
# other install has LICENSE in share/doc/gpuport.
if(GPUPORT_INSTALL AND NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)
elseif(GPUPORT_INSTALL)
  file(READ ${PROJECT_SOURCE_DIR}/LICENSE gp_license)
  # the permission notice: LICENSE less its title and copyright lines, each line indented by one
  # space and an empty line written " ." as the format asks
  string(REGEX REPLACE "^MIT License\n\nCopyright[^\n]*\n\n" "" gp_license "${gp_license}")
  string(REGEX REPLACE "\n+$" "" gp_license "${gp_license}")
  string(REPLACE "\n\n" "\n.\n" gp_license "${gp_license}")
  string(REPLACE "\n" "\n " gp_license "${gp_license}")
  file(WRITE ${PROJECT_BINARY_DIR}/debian/copyright
    "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
    "Upstream-Name: gpuport\n\n"
    "Files: *\nCopyright: the gpuport authors\nLicense: Expat\n ${gp_license}\n")
  foreach(c RUNTIME DEV CLI)
    string(TOLOWER ${c} gp_component)
    install(FILES ${PROJECT_BINARY_DIR}/debian/copyright
      DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${CPACK_DEBIAN_${c}_PACKAGE_NAME} COMPONENT ${gp_component})
  endforeach()
endif()
