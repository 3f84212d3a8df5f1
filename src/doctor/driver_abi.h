/* driver_abi.h — our own declarations of the few NVIDIA driver entry points doctor calls
 * (libcuda.so.1 and libnvidia-ml.so.1, loaded with dlopen; no SDK header needed to build).
 * The types match the driver ABI: CUresult and nvmlReturn_t are ints, CUdevice an int,
 * nvmlDevice_t an opaque pointer. */
#ifndef GP_DOCTOR_DRIVER_ABI_H
#define GP_DOCTOR_DRIVER_ABI_H

#include <stddef.h>

typedef int gp_cu_result;
typedef int gp_cu_device;
enum {
    GP_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    GP_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    GP_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};
typedef gp_cu_result (*gp_cuInit_fn)(unsigned flags);
typedef gp_cu_result (*gp_cuDriverGetVersion_fn)(int *version);
typedef gp_cu_result (*gp_cuDeviceGetCount_fn)(int *count);
typedef gp_cu_result (*gp_cuDeviceGet_fn)(gp_cu_device *dev, int ordinal);
typedef gp_cu_result (*gp_cuDeviceGetName_fn)(char *name, int len, gp_cu_device dev);
typedef gp_cu_result (*gp_cuDeviceGetAttribute_fn)(int *v, int attrib, gp_cu_device dev);
typedef gp_cu_result (*gp_cuDeviceTotalMem_fn)(size_t *bytes, gp_cu_device dev);
typedef gp_cu_result (*gp_cuGetErrorName_fn)(gp_cu_result r, const char **s);

typedef int gp_nvml_return;
typedef struct gp_nvml_device_st *gp_nvml_device;
typedef struct gp_nvml_memory {
    unsigned long long total, free, used;
} gp_nvml_memory;
enum {
    GP_NVML_SUCCESS = 0,
    GP_NVML_ERROR_DRIVER_NOT_LOADED = 9,
    GP_NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
};
typedef gp_nvml_return (*gp_nvmlInit_fn)(void);
typedef gp_nvml_return (*gp_nvmlShutdown_fn)(void);
typedef const char *(*gp_nvmlErrorString_fn)(gp_nvml_return r);
typedef gp_nvml_return (*gp_nvmlSystemGetDriverVersion_fn)(char *v, unsigned len);
typedef gp_nvml_return (*gp_nvmlSystemGetCudaDriverVersion_fn)(int *v);
typedef gp_nvml_return (*gp_nvmlDeviceGetCount_fn)(unsigned *count);
typedef gp_nvml_return (*gp_nvmlDeviceGetHandleByIndex_fn)(unsigned i, gp_nvml_device *d);
typedef gp_nvml_return (*gp_nvmlDeviceGetString_fn)(gp_nvml_device d, char *s, unsigned len);
typedef gp_nvml_return (*gp_nvmlDeviceGetCudaComputeCapability_fn)(gp_nvml_device d, int *major,
                                                                   int *minor);
typedef gp_nvml_return (*gp_nvmlDeviceGetMemoryInfo_fn)(gp_nvml_device d, gp_nvml_memory *m);

#endif
