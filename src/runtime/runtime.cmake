# runtime.cmake — build rules of the runtime room, included by the top CMakeLists before
# libgpuport is defined: which backends are built (GP_HAVE_BACKEND_<NAME> for registry.c), the
# dialect prelude embedded as text, and the built-in programs (src/runtime/kernels/*.gpk) compiled
# for the CPU backend at build time with the same prelude.

# --- backends: a folder with sources is a backend; Metal only on Apple -----------------------
set(GP_BACKEND_DEFS "")
foreach(b cuda metal opencl cpu)
  file(GLOB bsrc CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/runtime/${b}/*.c
    ${PROJECT_SOURCE_DIR}/src/runtime/${b}/*.m)
  if(b STREQUAL "metal" AND NOT APPLE)
    set(bsrc "")
  endif()
  if(bsrc)
    string(TOUPPER ${b} B)
    list(APPEND GP_BACKEND_DEFS GP_HAVE_BACKEND_${B}=1)
  endif()
endforeach()
set_source_files_properties(${PROJECT_SOURCE_DIR}/src/runtime/registry.c PROPERTIES
  COMPILE_DEFINITIONS "${GP_BACKEND_DEFS}")

# --- C sources of byte arrays, regenerated when their input changes ------------------------
function(gp_embed_bytes out_c symbol input)
  file(READ ${input} hex HEX)
  string(LENGTH "${hex}" hexlen)
  math(EXPR n "${hexlen} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
  file(WRITE ${out_c}.tmp "/* generated from ${input}; do not edit */\n#include <stddef.h>\nconst char ${symbol}[] = {\n${bytes}0};\nconst size_t ${symbol}_len = ${n};\n")
  file(COPY_FILE ${out_c}.tmp ${out_c} ONLY_IF_DIFFERENT)
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${input})
endfunction()

set(GP_GEN ${PROJECT_BINARY_DIR}/generated)
file(MAKE_DIRECTORY ${GP_GEN})
gp_embed_bytes(${GP_GEN}/gp_prelude.c gp_prelude_text ${PROJECT_SOURCE_DIR}/include/gpuport/kernel.h)
list(APPEND GP_RUNTIME_SRCS ${GP_GEN}/gp_prelude.c)
# the checked CPU build's second prelude (the hooks of the instrumented source)
gp_embed_bytes(${GP_GEN}/gp_check_prelude.c gp_check_prelude_text
  ${PROJECT_SOURCE_DIR}/src/runtime/cpu/check/prelude.h)
list(APPEND GP_RUNTIME_SRCS ${GP_GEN}/gp_check_prelude.c)

# --- built-in programs --------------------------------------------------------------------
# Each src/runtime/kernels/<prog>.gpk becomes: its source embedded as text (for the GPU backends)
# and its CPU code compiled into the library with symbols gp__kdesc_gp_builtin_<prog>_<kernel>,
# listed in a generated table (builtin_table.c). Kernel names come from the GP_KERNEL lines.
file(GLOB GP_BUILTIN_GPK CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/runtime/kernels/*.gpk)
list(SORT GP_BUILTIN_GPK)
set(GP_BT_DECLS "")
set(GP_BT_ENTRIES "")
foreach(gpk ${GP_BUILTIN_GPK})
  get_filename_component(prog ${gpk} NAME_WE)
  set(prefix gp_builtin_${prog}_)
  gp_embed_bytes(${GP_GEN}/builtin_src_${prog}.c gp_builtin_src_${prog} ${gpk})
  file(WRITE ${GP_GEN}/builtin_cpu_${prog}.c.tmp
    "/* generated: the CPU code of built-in program ${prog} */\n#define GP_CPU_SYMBOL_PREFIX ${prefix}\n#include \"gpuport/kernel.h\"\n#line 1 \"${prog}.gpk\"\n#include \"${gpk}\"\n")
  file(COPY_FILE ${GP_GEN}/builtin_cpu_${prog}.c.tmp ${GP_GEN}/builtin_cpu_${prog}.c ONLY_IF_DIFFERENT)
  set_source_files_properties(${GP_GEN}/builtin_cpu_${prog}.c PROPERTIES
    COMPILE_OPTIONS "-Wno-missing-prototypes;-Wno-unused-function;-Wno-shadow"
    OBJECT_DEPENDS "${gpk};${PROJECT_SOURCE_DIR}/include/gpuport/kernel.h")
  list(APPEND GP_RUNTIME_SRCS ${GP_GEN}/builtin_src_${prog}.c ${GP_GEN}/builtin_cpu_${prog}.c)
  file(STRINGS ${gpk} klines REGEX "^[ \t]*GP_KERNEL[ \t]*\\([ \t]*[A-Za-z_][A-Za-z_0-9]*")
  set(knames "")
  foreach(l ${klines})
    string(REGEX REPLACE "^[ \t]*GP_KERNEL[ \t]*\\([ \t]*([A-Za-z_][A-Za-z_0-9]*).*" "\\1" k "${l}")
    list(APPEND knames ${k})
  endforeach()
  string(APPEND GP_BT_DECLS "extern const char gp_builtin_src_${prog}[];\n")
  set(kptrs "")
  foreach(k ${knames})
    string(APPEND GP_BT_DECLS "extern const gp_cpu_kernel_desc gp__kdesc_${prefix}${k};\n")
    string(APPEND kptrs "&gp__kdesc_${prefix}${k}, ")
  endforeach()
  list(LENGTH knames nk)
  string(APPEND GP_BT_DECLS "static const gp_cpu_kernel_desc *const gp_bt_k_${prog}[] = {${kptrs}NULL};\n")
  string(APPEND GP_BT_ENTRIES "    {\"${prog}\", gp_builtin_src_${prog}, 0, \"${prog}.gpk\", gp_bt_k_${prog}, ${nk}},\n")
endforeach()
file(WRITE ${GP_GEN}/builtin_table.c.tmp
  "/* generated: the table of built-in programs */\n#include \"runtime/builtin.h\"\n${GP_BT_DECLS}\nstatic const gp_builtin_program gp_bt_table[] = {\n${GP_BT_ENTRIES}    {NULL, NULL, 0, NULL, NULL, 0}};\n\nconst gp_builtin_program *gp_builtin_table(uint32_t *count)\n{\n    *count = (uint32_t)(sizeof gp_bt_table / sizeof gp_bt_table[0]) - 1;\n    return gp_bt_table;\n}\n")
file(COPY_FILE ${GP_GEN}/builtin_table.c.tmp ${GP_GEN}/builtin_table.c ONLY_IF_DIFFERENT)
list(APPEND GP_RUNTIME_SRCS ${GP_GEN}/builtin_table.c)

# --- the CUDA backend: built-in kernels precompiled to PTX where nvcc is found ----------------
include(${PROJECT_SOURCE_DIR}/src/runtime/cuda/cuda.cmake OPTIONAL)
