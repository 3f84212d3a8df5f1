/*
 * device.h — every OpenCL platform and device of the machine, with the facts gpuport reports
 * and uses (memory, compute units, group limits, unified memory, fp64/fp16). Enumeration is a
 * plain function over a gp_cl_api; the backend keeps the list in its registry.
 */
#ifndef GP_RUNTIME_OPENCL_DEVICE_H
#define GP_RUNTIME_OPENCL_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuport/gpuport.h"
#include "runtime/opencl/cl_api.h"

typedef struct gp_cl_device_info {
    cl_platform_id platform;
    cl_device_id device;
    unsigned platform_index; /* position of the platform in clGetPlatformIDs */
    char platform_name[128];
    char platform_vendor[128];
    char platform_version[256];
    char name[256];
    char vendor[128];
    char driver_version[128];
    char device_version[128]; /* "OpenCL 3.0 PoCL ..." */
    char c_version[64];       /* "OpenCL C 1.2 ..." */
    cl_device_type type;
    uint64_t global_mem_bytes;
    uint64_t max_alloc_bytes;
    uint64_t local_mem_bytes;
    uint32_t compute_units;
    uint32_t clock_mhz;
    size_t max_group_size;
    uint32_t max_dims;
    size_t max_item_sizes[3];
    uint32_t simd_width; /* NVIDIA warp, AMD wavefront, a CPU's float vector width; 0 unknown */
    bool unified_memory; /* CL_DEVICE_HOST_UNIFIED_MEMORY */
    bool fp64;           /* cl_khr_fp64 (or a double fp config) */
    bool atomic64;       /* cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics */
    bool fp16;           /* cl_khr_fp16 */
    bool available;
    bool compiler_available;
} gp_cl_device_info;

/* Why an enumeration found nothing usable. */
typedef enum gp_cl_enum_result {
    GP_CL_ENUM_OK = 0,
    GP_CL_ENUM_NO_PLATFORM, /* the loader found no driver */
    GP_CL_ENUM_NO_DEVICE,   /* platforms, but no device in any */
    GP_CL_ENUM_ERROR,       /* an OpenCL call failed */
} gp_cl_enum_result;

/* Lists every device of every platform in platform order (devices of all types). On success
 * *out is a heap array of *count entries (free() it). When nothing is found returns
 * GP_CL_ENUM_NO_PLATFORM or GP_CL_ENUM_NO_DEVICE with *count 0 and the reason in `why`
 * (including the ICD vendor folder that was searched); GP_CL_ENUM_ERROR names the failing
 * code in `why` and stores it in *cl_err (optional). Thread-safe as far as the driver is. */
gp_cl_enum_result gp_cl_devices_enumerate(const gp_cl_api *api, gp_cl_device_info **out,
                                          size_t *count, char *why, size_t whylen, cl_int *cl_err);

/* Fills one entry from its handles (used by the enumeration; exposed for tests). CL_SUCCESS or
 * the first failing clGetDeviceInfo code. */
cl_int gp_cl_device_info_query(const gp_cl_api *api, cl_platform_id platform, cl_device_id device,
                               gp_cl_device_info *info);

/* True when the space-separated `extensions` list holds `name` as a whole word. */
bool gp_cl_has_extension(const char *extensions, const char *name);

#endif
