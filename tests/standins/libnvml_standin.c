/* libnvml_standin.c — a STAND-IN for NVIDIA's management library (libnvidia-ml.so.1), built by
 * the test suite for machines without an NVIDIA GPU. Answers are set by environment variables
 * read at each call:
 *
 *   GPUPORT_STANDIN_GPUS          the devices, as for the libcuda stand-in
 *                                 ("name|cc|memory MiB|SMs|uuid;...")
 *   GPUPORT_STANDIN_NVML_DRIVER   nvmlSystemGetDriverVersion's string (default "550.54.14")
 *   GPUPORT_STANDIN_NVML_CUDA     nvmlSystemGetCudaDriverVersion (default
 *                                 $GPUPORT_STANDIN_CUDA_VERSION, else 12040)
 *   GPUPORT_STANDIN_NVML_INIT     nvmlInit_v2's result (default 0; 9 driver not loaded,
 *                                 18 "Driver/library version mismatch")
 *
 * Entry points: nvmlInit_v2, nvmlShutdown, nvmlErrorString, nvmlSystemGetDriverVersion,
 * nvmlSystemGetCudaDriverVersion, nvmlDeviceGetCount_v2, nvmlDeviceGetHandleByIndex_v2,
 * nvmlDeviceGetName, nvmlDeviceGetUUID, nvmlDeviceGetCudaComputeCapability,
 * nvmlDeviceGetMemoryInfo. Never shipped, never installed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "standin_gpus.h"

typedef int nvmlReturn_t;
typedef struct nvml_device *nvmlDevice_t; /* the stand-in hands out index + 1 as the handle */
typedef struct {
    unsigned long long total, free, used;
} nvmlMemory_t;

nvmlReturn_t nvmlInit_v2(void);
nvmlReturn_t nvmlShutdown(void);
const char *nvmlErrorString(nvmlReturn_t r);
nvmlReturn_t nvmlSystemGetDriverVersion(char *v, unsigned len);
nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v);
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned *n);
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t *d);
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *s, unsigned len);
nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *s, unsigned len);
nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major, int *minor);
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m);

static int started;

nvmlReturn_t nvmlInit_v2(void)
{
    const char *e = getenv("GPUPORT_STANDIN_NVML_INIT");
    int r = e && *e ? atoi(e) : 0;
    started = r == 0;
    return r;
}

nvmlReturn_t nvmlShutdown(void)
{
    if (!started) return 1;
    started = 0;
    return 0;
}

const char *nvmlErrorString(nvmlReturn_t r)
{
    switch (r) {
    case 0:
        return "Success";
    case 1:
        return "Uninitialized";
    case 2:
        return "Invalid Argument";
    case 7:
        return "Insufficient Size";
    case 9:
        return "Driver Not Loaded";
    case 18:
        return "Driver/library version mismatch";
    default:
        return "Unknown Error";
    }
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *v, unsigned len)
{
    if (!started) return 1;
    const char *e = getenv("GPUPORT_STANDIN_NVML_DRIVER");
    if (!e) e = "550.54.14";
    if (!v || strlen(e) + 1 > len) return 7;
    memcpy(v, e, strlen(e) + 1);
    return 0;
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v)
{
    if (!started) return 1;
    if (!v) return 2;
    const char *e = getenv("GPUPORT_STANDIN_NVML_CUDA");
    if (!e || !*e) e = getenv("GPUPORT_STANDIN_CUDA_VERSION");
    *v = e && *e ? atoi(e) : 12040;
    return 0;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned *n)
{
    if (!started) return 1;
    if (!n) return 2;
    *n = (unsigned)gp_standin_gpu_count();
    return 0;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t *d)
{
    if (!started) return 1;
    if (!d || i >= (unsigned)gp_standin_gpu_count()) return 2;
    *d = (nvmlDevice_t)(uintptr_t)(i + 1);
    return 0;
}

static int device_get(nvmlDevice_t d, gp_standin_gpu *g)
{
    uintptr_t i = (uintptr_t)d;
    return started && i >= 1 && gp_standin_gpu_get((int)(i - 1), g);
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *s, unsigned len)
{
    gp_standin_gpu g;
    if (!device_get(d, &g) || !s) return 2;
    if (strlen(g.name) + 1 > len) return 7;
    memcpy(s, g.name, strlen(g.name) + 1);
    return 0;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *s, unsigned len)
{
    gp_standin_gpu g;
    if (!device_get(d, &g) || !s) return 2;
    if (strlen(g.uuid) + 1 > len) return 7;
    memcpy(s, g.uuid, strlen(g.uuid) + 1);
    return 0;
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major, int *minor)
{
    gp_standin_gpu g;
    if (!device_get(d, &g) || !major || !minor) return 2;
    *major = g.cc_major;
    *minor = g.cc_minor;
    return 0;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m)
{
    gp_standin_gpu g;
    if (!device_get(d, &g) || !m) return 2;
    m->total = g.memory_mib * 1024ull * 1024ull;
    m->used = m->total / 100;
    m->free = m->total - m->used;
    return 0;
}
