/* libcuda_standin.c — a STAND-IN for the NVIDIA CUDA driver library (libcuda.so.1), built by
 * the test suite for machines without an NVIDIA GPU. It implements the driver entry points a
 * device probe needs, with answers set by environment variables read at each call:
 *
 *   GPUPORT_STANDIN_GPUS          devices, ';'-separated; each "name|cc|memory MiB|SMs|uuid",
 *                                 e.g. "NVIDIA H100 80GB HBM3|9.0|81559|132|GPU-1234"
 *                                 (unset or empty: no device)
 *   GPUPORT_STANDIN_CUDA_VERSION  cuDriverGetVersion's answer, 1000*major + 10*minor
 *                                 (default 12040)
 *   GPUPORT_STANDIN_CUINIT        cuInit's result code (default 0 with devices, 100
 *                                 CUDA_ERROR_NO_DEVICE without)
 *
 * Entry points: cuInit, cuDriverGetVersion, cuDeviceGetCount, cuDeviceGet, cuDeviceGetName,
 * cuDeviceGetAttribute (compute capability 75/76, multiprocessor count 16), cuDeviceTotalMem_v2,
 * cuGetErrorName, cuGetErrorString. Calls before a successful cuInit return 3
 * (CUDA_ERROR_NOT_INITIALIZED), as the real driver does. Never shipped, never installed. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "standin_gpus.h"

typedef int CUresult;
typedef int CUdevice;

CUresult cuInit(unsigned flags);
CUresult cuDriverGetVersion(int *v);
CUresult cuDeviceGetCount(int *n);
CUresult cuDeviceGet(CUdevice *d, int ordinal);
CUresult cuDeviceGetName(char *name, int len, CUdevice d);
CUresult cuDeviceGetAttribute(int *v, int attrib, CUdevice d);
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d);
CUresult cuGetErrorName(CUresult r, const char **s);
CUresult cuGetErrorString(CUresult r, const char **s);

static int initialised; /* the stand-in's one piece of state, as in the real driver */

static int init_result(void)
{
    const char *e = getenv("GPUPORT_STANDIN_CUINIT");
    if (e && *e) return atoi(e);
    return gp_standin_gpu_count() > 0 ? 0 : 100;
}

CUresult cuInit(unsigned flags)
{
    if (flags != 0) return 1; /* CUDA_ERROR_INVALID_VALUE */
    int r = init_result();
    initialised = r == 0;
    return r;
}

CUresult cuDriverGetVersion(int *v)
{
    if (!v) return 1;
    const char *e = getenv("GPUPORT_STANDIN_CUDA_VERSION");
    *v = e && *e ? atoi(e) : 12040;
    return 0;
}

CUresult cuDeviceGetCount(int *n)
{
    if (!n) return 1;
    if (!initialised) return 3;
    *n = gp_standin_gpu_count();
    return 0;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
    if (!d) return 1;
    if (!initialised) return 3;
    if (ordinal < 0 || ordinal >= gp_standin_gpu_count()) return 101; /* INVALID_DEVICE */
    *d = ordinal;
    return 0;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    gp_standin_gpu g;
    if (!name || len <= 0) return 1;
    if (!initialised) return 3;
    if (!gp_standin_gpu_get(d, &g)) return 101;
    snprintf(name, (size_t)len, "%s", g.name);
    return 0;
}

CUresult cuDeviceGetAttribute(int *v, int attrib, CUdevice d)
{
    gp_standin_gpu g;
    if (!v) return 1;
    if (!initialised) return 3;
    if (!gp_standin_gpu_get(d, &g)) return 101;
    switch (attrib) {
    case 75:
        *v = g.cc_major;
        return 0;
    case 76:
        *v = g.cc_minor;
        return 0;
    case 16:
        *v = g.sms;
        return 0;
    default:
        return 1;
    }
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
    gp_standin_gpu g;
    if (!bytes) return 1;
    if (!initialised) return 3;
    if (!gp_standin_gpu_get(d, &g)) return 101;
    *bytes = (size_t)g.memory_mib * 1024u * 1024u;
    return 0;
}

static const struct {
    int code;
    const char *name, *text;
} errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {35, "CUDA_ERROR_INSUFFICIENT_DRIVER",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY", "system not yet initialized"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
     "system has unsupported display driver / cuda driver combination"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
     "forward compatibility was attempted on non supported HW"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

static int error_index(CUresult r)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == r) return (int)i;
    return -1;
}

CUresult cuGetErrorName(CUresult r, const char **s)
{
    int i = error_index(r);
    if (!s || i < 0) return 1;
    *s = errors[i].name;
    return 0;
}

CUresult cuGetErrorString(CUresult r, const char **s)
{
    int i = error_index(r);
    if (!s || i < 0) return 1;
    *s = errors[i].text;
    return 0;
}
