# bench.cmake — the kernels of `gpuport bench` (src/runtime/kernels/bench_*.gpk, also built into
# libgpuport as built-in programs) embedded as text in the tools library: the bench builds them
# for each device through gp_program_create, and takes the built-in copy when the device has no
# compiler (a CPU without cc, a CUDA driver without NVRTC).
foreach(gpk stream sgemm)
  gp_embed_bytes(${GP_GEN}/bench_src_${gpk}.c gp_bench_src_${gpk} ${PROJECT_SOURCE_DIR}/src/runtime/kernels/bench_${gpk}.gpk)
  list(APPEND GP_TOOL_SRCS ${GP_GEN}/bench_src_${gpk}.c)
endforeach()
if(APPLE)
  # mps.m (MPSMatrixMultiplication) is picked up by the room's glob on Apple platforms.
  list(APPEND GP_RUNTIME_EXTRA_LIBS "-framework MetalPerformanceShaders")
endif()
