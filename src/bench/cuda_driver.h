/* cuda_driver.h — the few CUDA driver entry points `gpuport bench` needs of its own (device memory
 * for the cuBLAS comparison, which runs beside the runtime, not through it), loaded with dlopen.
 * The peaks come from gp_device_info. The runtime's CUDA backend has its own loader; this one is
 * private to the benchmark on purpose: tools know the runtime only through gpuport.h. */
#ifndef GP_BENCH_CUDA_DRIVER_H
#define GP_BENCH_CUDA_DRIVER_H

#include <stddef.h>
#include <stdint.h>

typedef int gp_cu_result; /* CUresult: 0 = success */
typedef int gp_cu_device;
typedef struct gp_cu_ctx_st *gp_cu_context;
typedef unsigned long long gp_cu_ptr;

typedef struct gp_bench_cuda {
    void *lib;
    gp_cu_result (*cuInit)(unsigned);
    gp_cu_result (*cuDeviceGet)(gp_cu_device *, int);
    gp_cu_result (*cuDeviceGetAttribute)(int *, int, gp_cu_device);
    gp_cu_result (*cuDevicePrimaryCtxRetain)(gp_cu_context *, gp_cu_device);
    gp_cu_result (*cuDevicePrimaryCtxRelease)(gp_cu_device);
    gp_cu_result (*cuCtxPushCurrent)(gp_cu_context);
    gp_cu_result (*cuCtxPopCurrent)(gp_cu_context *);
    gp_cu_result (*cuCtxSynchronize)(void);
    gp_cu_result (*cuMemAlloc)(gp_cu_ptr *, size_t);
    gp_cu_result (*cuMemFree)(gp_cu_ptr);
    gp_cu_result (*cuMemcpyHtoD)(gp_cu_ptr, const void *, size_t);
    gp_cu_result (*cuMemcpyDtoH)(void *, gp_cu_ptr, size_t);
} gp_bench_cuda;

/* Loads libcuda.so.1 and calls cuInit. 0, or -1 with the reason in why. */
int gp_bench_cuda_open(gp_bench_cuda *cu, char *why, size_t whylen);
void gp_bench_cuda_close(gp_bench_cuda *cu);

#endif
