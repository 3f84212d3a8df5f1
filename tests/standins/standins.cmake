# Stand-in driver libraries for machines without the hardware (never installed):
#   <build>/standins/libcuda.so.1, libnvidia-ml.so.1   answers set by GPUPORT_STANDIN_* (see
#                                                      the header comment of each source)
#   <build>/standins-empty/libcuda.so.1, libnvidia-ml.so.1   export none of the entry points
# A Windows build has instead, under the driver's own name:
#   <build>/standins-windows/nvcuda.dll         answers as libcuda.so.1 does
#   <build>/standins-windows-empty/nvcuda.dll   exports none of the entry points
# (a test puts them where NVIDIA's installer does, in a Wine prefix of its own).
# Included from tests/doctor/tests.cmake; the runtime's CUDA backend tests reuse them.
if(NOT TARGET gp_standin_cuda)
  set(GP_STANDIN_DIR ${CMAKE_CURRENT_LIST_DIR})
  function(gp_add_standin target src dir soname)
    add_library(${target} SHARED ${GP_STANDIN_DIR}/${src})
    target_compile_options(${target} PRIVATE ${GP_WARN})
    set_target_properties(${target} PROPERTIES PREFIX "" OUTPUT_NAME ${soname} SUFFIX ""
      LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/${dir}
      C_VISIBILITY_PRESET default)
    if(NOT APPLE)
      target_link_options(${target} PRIVATE "-Wl,-soname,${soname}")
    endif()
  endfunction()
  if(WIN32)
    function(gp_add_standin_dll target src dir name)
      add_library(${target} SHARED ${GP_STANDIN_DIR}/${src})
      target_compile_options(${target} PRIVATE ${GP_WARN})
      set_target_properties(${target} PROPERTIES PREFIX "" OUTPUT_NAME ${name}
        RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/${dir}
        ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/standins-implib)
    endfunction()
    gp_add_standin_dll(gp_standin_cuda libcuda_standin.c standins-windows nvcuda)
    gp_add_standin_dll(gp_standin_empty_cuda empty_standin.c standins-windows-empty nvcuda)
    return()
  endif()
  gp_add_standin(gp_standin_cuda libcuda_standin.c standins libcuda.so.1)
  gp_add_standin(gp_standin_nvml libnvml_standin.c standins libnvidia-ml.so.1)
  gp_add_standin(gp_standin_empty_cuda empty_standin.c standins-empty libcuda.so.1)
  gp_add_standin(gp_standin_empty_nvml empty_standin.c standins-empty libnvidia-ml.so.1)
endif()
