/*
 * cuda_api.h — our own declarations of the CUDA driver API and NVRTC entry points gpuport uses,
 * so that the build never needs the CUDA toolkit: both libraries are opened with dlopen at run
 * time (loader.c) and called through the tables below. Only the `_v2` entry points are used where
 * the driver has them; the values are the ABI's (they never change within a major version).
 */
#ifndef GP_RUNTIME_CUDA_API_H
#define GP_RUNTIME_CUDA_API_H

#include <stddef.h>
#include <stdint.h>

/* ---- driver API types ---------------------------------------------------------------------- */
typedef int CUresult; /* an enum in the ABI; int keeps unknown future codes representable */
typedef int CUdevice;
typedef uint64_t CUdeviceptr; /* unsigned long long on every 64-bit platform */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

enum {
    GP_CU_SUCCESS = 0,
    GP_CU_ERROR_INVALID_VALUE = 1,
    GP_CU_ERROR_OUT_OF_MEMORY = 2,
    GP_CU_ERROR_NOT_INITIALIZED = 3,
    GP_CU_ERROR_STUB_LIBRARY = 34,
    GP_CU_ERROR_INSUFFICIENT_DRIVER = 35, /* the runtime API's name; cuInit reports it too */
    GP_CU_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36,
    GP_CU_ERROR_NO_DEVICE = 100,
    GP_CU_ERROR_INVALID_IMAGE = 200,
    GP_CU_ERROR_NO_BINARY_FOR_GPU = 209,
    GP_CU_ERROR_INVALID_PTX = 218,
    GP_CU_ERROR_UNSUPPORTED_PTX_VERSION = 222,
    GP_CU_ERROR_NOT_FOUND = 500,
    GP_CU_ERROR_NOT_READY = 600,
    GP_CU_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    GP_CU_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
};

/* CUdevice_attribute values used by gpuport. */
enum {
    GP_CU_ATTR_MAX_THREADS_PER_BLOCK = 1,
    GP_CU_ATTR_MAX_BLOCK_DIM_X = 2,
    GP_CU_ATTR_MAX_BLOCK_DIM_Y = 3,
    GP_CU_ATTR_MAX_BLOCK_DIM_Z = 4,
    GP_CU_ATTR_MAX_GRID_DIM_X = 5,
    GP_CU_ATTR_MAX_GRID_DIM_Y = 6,
    GP_CU_ATTR_MAX_GRID_DIM_Z = 7,
    GP_CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    GP_CU_ATTR_WARP_SIZE = 10,
    GP_CU_ATTR_CLOCK_RATE = 13,
    GP_CU_ATTR_MULTIPROCESSOR_COUNT = 16,
    GP_CU_ATTR_INTEGRATED = 18,
    GP_CU_ATTR_CAN_MAP_HOST_MEMORY = 19,
    GP_CU_ATTR_PCI_BUS_ID = 33,
    GP_CU_ATTR_PCI_DEVICE_ID = 34,
    GP_CU_ATTR_MEMORY_CLOCK_RATE = 36,       /* kHz */
    GP_CU_ATTR_GLOBAL_MEMORY_BUS_WIDTH = 37, /* bits */
    GP_CU_ATTR_L2_CACHE_SIZE = 38,           /* bytes */
    GP_CU_ATTR_UNIFIED_ADDRESSING = 41,
    GP_CU_ATTR_PCI_DOMAIN_ID = 50,
    GP_CU_ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
    GP_CU_ATTR_COMPUTE_CAPABILITY_MINOR = 76,
    GP_CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

/* CUfunction_attribute, CUjit_option and flag values used by gpuport. */
enum {
    GP_CU_FUNC_ATTR_MAX_THREADS_PER_BLOCK = 0,
    GP_CU_FUNC_ATTR_SHARED_SIZE_BYTES = 1,
    GP_CU_JIT_INFO_LOG_BUFFER = 3,
    GP_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    GP_CU_JIT_ERROR_LOG_BUFFER = 5,
    GP_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
    GP_CU_STREAM_NON_BLOCKING = 0x1,
    GP_CU_EVENT_DEFAULT = 0x0,
    GP_CU_EVENT_DISABLE_TIMING = 0x2,
    GP_CU_MEMHOSTALLOC_PORTABLE = 0x1,
    GP_CU_MEMHOSTALLOC_DEVICEMAP = 0x2,
};

/* The driver entry points, resolved by name from libcuda.so.1. Optional ones may be NULL. */
typedef struct gp_cuda_driver_api {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDriverGetVersion)(int *version);
    CUresult (*cuGetErrorName)(CUresult r, const char **name);   /* optional */
    CUresult (*cuGetErrorString)(CUresult r, const char **text); /* optional */
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
    CUresult (*cuDeviceGetName)(char *name, int len, CUdevice dev);
    CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice dev);
    CUresult (*cuDeviceTotalMem_v2)(size_t *bytes, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRelease_v2)(CUdevice dev);
    CUresult (*cuCtxPushCurrent_v2)(CUcontext ctx);
    CUresult (*cuCtxPopCurrent_v2)(CUcontext *ctx);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuMemGetInfo_v2)(size_t *free_bytes, size_t *total_bytes);
    CUresult (*cuMemAlloc_v2)(CUdeviceptr *ptr, size_t bytes);
    CUresult (*cuMemFree_v2)(CUdeviceptr ptr);
    CUresult (*cuMemHostAlloc)(void **ptr, size_t bytes, unsigned flags);
    CUresult (*cuMemFreeHost)(void *ptr);
    CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr dst, const void *src, size_t bytes);
    CUresult (*cuMemcpyDtoH_v2)(void *dst, CUdeviceptr src, size_t bytes);
    CUresult (*cuMemcpyDtoD_v2)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
    CUresult (*cuMemcpyHtoDAsync_v2)(CUdeviceptr dst, const void *src, size_t bytes, CUstream s);
    CUresult (*cuMemcpyDtoHAsync_v2)(void *dst, CUdeviceptr src, size_t bytes, CUstream s);
    CUresult (*cuMemcpyDtoDAsync_v2)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s);
    CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value, size_t count, CUstream s);
    CUresult (*cuMemsetD16Async)(CUdeviceptr dst, unsigned short value, size_t count, CUstream s);
    CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t count, CUstream s);
    CUresult (*cuMemsetD2D32Async)(CUdeviceptr dst, size_t pitch, unsigned value, size_t width,
                                   size_t height, CUstream s);
    CUresult (*cuStreamCreate)(CUstream *s, unsigned flags);
    CUresult (*cuStreamDestroy_v2)(CUstream s);
    CUresult (*cuStreamSynchronize)(CUstream s);
    CUresult (*cuStreamWaitEvent)(CUstream s, CUevent e, unsigned flags);
    CUresult (*cuEventCreate)(CUevent *e, unsigned flags);
    CUresult (*cuEventDestroy_v2)(CUevent e);
    CUresult (*cuEventRecord)(CUevent e, CUstream s);
    CUresult (*cuEventQuery)(CUevent e);
    CUresult (*cuEventSynchronize)(CUevent e);
    /* cuEventElapsedTime_v2 since CUDA 12.8; the plain one before (and still exported). */
    CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
    CUresult (*cuModuleLoadDataEx)(CUmodule *m, const void *image, unsigned n_options, int *options,
                                   void **values);
    CUresult (*cuModuleUnload)(CUmodule m);
    CUresult (*cuModuleGetFunction)(CUfunction *f, CUmodule m, const char *name);
    CUresult (*cuFuncGetAttribute)(int *value, int attribute, CUfunction f);
    CUresult (*cuLaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned shared_bytes, CUstream s,
                               void **params, void **extra);
} gp_cuda_driver_api;

/* ---- NVRTC ---------------------------------------------------------------------------------- */
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

enum {
    GP_NVRTC_SUCCESS = 0,
    GP_NVRTC_ERROR_OUT_OF_MEMORY = 1,
    GP_NVRTC_ERROR_INVALID_OPTION = 5,
    GP_NVRTC_ERROR_COMPILATION = 6,
};

typedef struct gp_nvrtc_api {
    const char *(*nvrtcGetErrorString)(nvrtcResult r);
    nvrtcResult (*nvrtcVersion)(int *major, int *minor);
    nvrtcResult (*nvrtcGetNumSupportedArchs)(int *n);  /* optional: NVRTC 11.2+ */
    nvrtcResult (*nvrtcGetSupportedArchs)(int *archs); /* optional: NVRTC 11.2+ */
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *p, const char *src, const char *name,
                                      int n_headers, const char *const *headers,
                                      const char *const *include_names);
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *p);
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram p, int n_options, const char *const *options);
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram p, size_t *size);
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram p, char *ptx);
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram p, size_t *size); /* optional: 11.1+ */
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram p, char *cubin);      /* optional: 11.1+ */
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram p, size_t *size);
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram p, char *log);
} gp_nvrtc_api;

#endif
