/*
 * libcuda_standin.c — a STAND-IN for the NVIDIA CUDA driver library (libcuda.so.1), built by the
 * test suite for machines without an NVIDIA GPU; never shipped, never installed. It answers the
 * device probe of doctor and archcheck and the CUDA backend's calls: devices and their
 * attributes, contexts, "device" memory kept in host memory (so copies and fills go through the
 * real backend code), streams and events that are done when enqueued, and modules and launches
 * that are only recorded — no kernel ever runs here. Behaviour, from the environment (read at
 * each call):
 *
 *   GPUPORT_STANDIN_GPUS          the devices, ';'-separated, each "name|cc|memory MiB|SMs|uuid",
 *                                 e.g. "NVIDIA H100 80GB HBM3|9.0|81559|132|GPU-1234" (unset or
 *                                 empty: no device)
 *   GPUPORT_STANDIN_CUDA_VERSION  cuDriverGetVersion, 1000*major + 10*minor (default 12040)
 *   GPUPORT_STANDIN_CUINIT        cuInit's result (default 0 with devices, 100 NO_DEVICE without;
 *                                 35 driver too old, 803, 804...)
 *   GPUPORT_STANDIN_REJECT_FIRST_MODULE  when 1, the first module load fails with INVALID_IMAGE
 *                                 (200), as a driver refusing a cached binary does
 *
 * The other attributes are an H200's (clocks 1980 / 2619 MHz, a 6144-bit bus, 50 MiB of L2, 48 KiB
 * of shared memory per block, 232,448 opt-in); device i sits at PCI 0000:(3b + i):00.0. Calls
 * before a successful cuInit return 3 (NOT_INITIALIZED), as the real driver does. A launch's
 * parameter list must end with NULL, as gpuport's does, for the stand-in to record it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#endif

#include "standin_gpus.h"

/* The entry points are the driver's: no header of ours declares them, and a prototype each would
 * only repeat the definitions below. */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"

typedef int CUresult;
typedef uint64_t CUdeviceptr;

#if defined(_WIN32)
#define GP_STANDIN_API __declspec(dllexport)
#else
#define GP_STANDIN_API __attribute__((visibility("default")))
#endif

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

/* A monotonic clock in milliseconds, for the events' timings. */
static double now_ms(void)
{
#ifdef _WIN32
    LARGE_INTEGER t, f;
    QueryPerformanceCounter(&t);
    QueryPerformanceFrequency(&f);
    return (double)t.QuadPart * 1e3 / (double)f.QuadPart;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
#endif
}

static int initialized; /* the stand-in's state, as in the real driver */

static CUresult gp_check_init(void)
{
    return initialized ? 0 : 3; /* CUDA_ERROR_NOT_INITIALIZED */
}

static CUresult gp_check_device(int dev)
{
    if (!initialized) return 3;
    return dev >= 0 && dev < gp_standin_gpu_count() ? 0 : 101; /* INVALID_DEVICE */
}

GP_STANDIN_API CUresult cuInit(unsigned flags)
{
    if (flags != 0) return 1; /* CUDA_ERROR_INVALID_VALUE */
    CUresult r = env_int("GPUPORT_STANDIN_CUINIT", gp_standin_gpu_count() > 0 ? 0 : 100);
    initialized = r == 0;
    return r;
}

GP_STANDIN_API CUresult cuDriverGetVersion(int *v)
{
    if (!v) return 1;
    *v = env_int("GPUPORT_STANDIN_CUDA_VERSION", 12040);
    return 0;
}

/* NVRTC 13 opens libcuda.so.1 itself and asks for the driver's private export tables; a library
 * without this entry point crashes it. The stand-in has none to give. */
GP_STANDIN_API CUresult cuGetExportTable(const void **table, const void *id)
{
    (void)id;
    if (table) *table = NULL;
    return 801; /* CUDA_ERROR_NOT_SUPPORTED */
}

static const struct {
    int code;
    const char *name, *text;
} errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {35, "CUDA_ERROR_INSUFFICIENT_DRIVER",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
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

GP_STANDIN_API CUresult cuGetErrorName(CUresult r, const char **s)
{
    int i = error_index(r);
    if (!s || i < 0) return 1;
    *s = errors[i].name;
    return 0;
}

GP_STANDIN_API CUresult cuGetErrorString(CUresult r, const char **s)
{
    int i = error_index(r);
    if (!s || i < 0) return 1;
    *s = errors[i].text;
    return 0;
}

/* ---- devices: the list of GPUPORT_STANDIN_GPUS --------------------------------------------- */
GP_STANDIN_API CUresult cuDeviceGetCount(int *n)
{
    if (!n) return 1;
    if (gp_check_init()) return gp_check_init();
    *n = gp_standin_gpu_count();
    return 0;
}

GP_STANDIN_API CUresult cuDeviceGet(int *dev, int ordinal)
{
    if (!dev) return 1;
    CUresult r = gp_check_device(ordinal);
    if (r == 0) *dev = ordinal;
    return r;
}

GP_STANDIN_API CUresult cuDeviceGetName(char *name, int len, int dev)
{
    gp_standin_gpu g;
    if (!name || len <= 0) return 1;
    CUresult r = gp_check_device(dev);
    if (r) return r;
    gp_standin_gpu_get(dev, &g);
    snprintf(name, (size_t)len, "%s", g.name);
    return 0;
}

GP_STANDIN_API CUresult cuDeviceGetAttribute(int *value, int attr, int dev)
{
    gp_standin_gpu g;
    if (!value) return 1;
    CUresult r = gp_check_device(dev);
    if (r) return r;
    gp_standin_gpu_get(dev, &g);
    switch (attr) {
    case 1: /* MAX_THREADS_PER_BLOCK */
    case 2: /* MAX_BLOCK_DIM_X */
    case 3: /* MAX_BLOCK_DIM_Y */
        *value = 1024;
        break;
    case 4: /* MAX_BLOCK_DIM_Z */
        *value = 64;
        break;
    case 5: /* MAX_GRID_DIM_X */
        *value = 2147483647;
        break;
    case 6: /* MAX_GRID_DIM_Y */
    case 7: /* MAX_GRID_DIM_Z */
        *value = 65535;
        break;
    case 8: /* MAX_SHARED_MEMORY_PER_BLOCK */
        *value = 49152;
        break;
    case 10: /* WARP_SIZE */
        *value = 32;
        break;
    case 13: /* CLOCK_RATE, kHz */
        *value = 1980000;
        break;
    case 16: /* MULTIPROCESSOR_COUNT */
        *value = g.sms;
        break;
    case 19: /* CAN_MAP_HOST_MEMORY */
    case 41: /* UNIFIED_ADDRESSING */
        *value = 1;
        break;
    case 36: /* MEMORY_CLOCK_RATE, kHz */
        *value = 2619000;
        break;
    case 37: /* GLOBAL_MEMORY_BUS_WIDTH, bits */
        *value = 6144;
        break;
    case 38: /* L2_CACHE_SIZE, bytes */
        *value = 50 << 20;
        break;
    case 33: /* PCI_BUS_ID: device i at 0000:(0x3b + i):00.0 */
        *value = 0x3b + dev;
        break;
    case 75: /* COMPUTE_CAPABILITY_MAJOR */
        *value = g.cc_major;
        break;
    case 76: /* COMPUTE_CAPABILITY_MINOR */
        *value = g.cc_minor;
        break;
    case 97: /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
        *value = 232448;
        break;
    default:
        *value = 0;
        break;
    }
    return 0;
}

GP_STANDIN_API CUresult cuDeviceTotalMem_v2(size_t *bytes, int dev)
{
    gp_standin_gpu g;
    if (!bytes) return 1;
    CUresult r = gp_check_device(dev);
    if (r) return r;
    gp_standin_gpu_get(dev, &g);
    *bytes = (size_t)g.memory_mib << 20;
    return 0;
}

/* ---- contexts: one token per device ---------------------------------------------------- */
static char contexts[16];
static void *current_ctx;
static int current_device;

GP_STANDIN_API CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
    CUresult r = gp_check_device(dev);
    if (r == 0) *ctx = &contexts[dev & 15];
    return r;
}

GP_STANDIN_API CUresult cuDevicePrimaryCtxRelease_v2(int dev)
{
    return gp_check_device(dev);
}

GP_STANDIN_API CUresult cuCtxPushCurrent_v2(void *ctx)
{
    current_ctx = ctx;
    if (ctx) current_device = (int)((char *)ctx - contexts);
    return gp_check_init();
}

GP_STANDIN_API CUresult cuCtxPopCurrent_v2(void **ctx)
{
    if (ctx) *ctx = current_ctx;
    current_ctx = NULL;
    return gp_check_init();
}

GP_STANDIN_API CUresult cuCtxSynchronize(void)
{
    return gp_check_init();
}

/* ---- memory: device memory is host memory here --------------------------------------- */
GP_STANDIN_API CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    gp_standin_gpu g;
    if (gp_check_init()) return gp_check_init();
    if (!gp_standin_gpu_get(current_device, &g)) return 201; /* INVALID_CONTEXT */
    *total = (size_t)g.memory_mib << 20;
    *free_bytes = *total - *total / 64;
    return 0;
}

GP_STANDIN_API CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
    if (gp_check_init()) return gp_check_init();
    if (bytes == 0) return 1;
    void *m = malloc(bytes);
    if (!m) return 2;
    *p = (CUdeviceptr)(uintptr_t)m;
    return 0;
}

GP_STANDIN_API CUresult cuMemFree_v2(CUdeviceptr p)
{
    free((void *)(uintptr_t)p);
    return gp_check_init();
}

GP_STANDIN_API CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    if (gp_check_init()) return gp_check_init();
    *p = malloc(bytes);
    return *p ? 0 : 2;
}

GP_STANDIN_API CUresult cuMemFreeHost(void *p)
{
    free(p);
    return gp_check_init();
}

GP_STANDIN_API CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n)
{
    memcpy((void *)(uintptr_t)d, s, n);
    return gp_check_init();
}

GP_STANDIN_API CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n)
{
    memcpy(d, (const void *)(uintptr_t)s, n);
    return gp_check_init();
}

GP_STANDIN_API CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n)
{
    memmove((void *)(uintptr_t)d, (const void *)(uintptr_t)s, n);
    return gp_check_init();
}

GP_STANDIN_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, void *st)
{
    (void)st;
    return cuMemcpyHtoD_v2(d, s, n);
}

GP_STANDIN_API CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr s, size_t n, void *st)
{
    (void)st;
    return cuMemcpyDtoH_v2(d, s, n);
}

GP_STANDIN_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, void *st)
{
    (void)st;
    return cuMemcpyDtoD_v2(d, s, n);
}

GP_STANDIN_API CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, void *st)
{
    (void)st;
    memset((void *)(uintptr_t)d, v, n);
    return gp_check_init();
}

GP_STANDIN_API CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, void *st)
{
    (void)st;
    uint16_t *p = (uint16_t *)(uintptr_t)d;
    for (size_t i = 0; i < n; i++)
        p[i] = v;
    return gp_check_init();
}

GP_STANDIN_API CUresult cuMemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned v, size_t width,
                                           size_t height, void *st)
{
    (void)st;
    for (size_t row = 0; row < height; row++) {
        uint32_t *p = (uint32_t *)(uintptr_t)(d + row * pitch);
        for (size_t i = 0; i < width; i++)
            p[i] = v;
    }
    return gp_check_init();
}

GP_STANDIN_API CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, void *st)
{
    (void)st;
    uint32_t *p = (uint32_t *)(uintptr_t)d;
    for (size_t i = 0; i < n; i++)
        p[i] = v;
    return gp_check_init();
}

/* ---- streams and events: everything is already done when enqueued ------------------- */
/* The order of work between streams, as the calls asked for it: the stream of the last launch,
 * the last event recorded and its stream, the last wait's stream and event. */
static void *stream_log[5];

GP_STANDIN_API CUresult cuStreamCreate(void **s, unsigned flags)
{
    (void)flags;
    if (gp_check_init()) return gp_check_init();
    *s = malloc(1);
    return *s ? 0 : 2;
}

GP_STANDIN_API CUresult cuStreamDestroy_v2(void *s)
{
    free(s);
    return gp_check_init();
}

GP_STANDIN_API CUresult cuStreamSynchronize(void *s)
{
    (void)s;
    return gp_check_init();
}

GP_STANDIN_API CUresult cuStreamWaitEvent(void *s, void *e, unsigned flags)
{
    (void)flags;
    stream_log[3] = s;
    stream_log[4] = e;
    return gp_check_init();
}

GP_STANDIN_API CUresult cuEventCreate(void **e, unsigned flags)
{
    (void)flags;
    if (gp_check_init()) return gp_check_init();
    *e = calloc(1, sizeof(double));
    return *e ? 0 : 2;
}

GP_STANDIN_API CUresult cuEventDestroy_v2(void *e)
{
    free(e);
    return gp_check_init();
}

GP_STANDIN_API CUresult cuEventRecord(void *e, void *s)
{
    stream_log[1] = e;
    stream_log[2] = s;
    *(double *)e = now_ms();
    return gp_check_init();
}

GP_STANDIN_API CUresult cuEventQuery(void *e)
{
    (void)e;
    return gp_check_init();
}

GP_STANDIN_API CUresult cuEventSynchronize(void *e)
{
    (void)e;
    return gp_check_init();
}

GP_STANDIN_API CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b)
{
    *ms = (float)(*(double *)b - *(double *)a);
    return gp_check_init();
}

/* ---- modules and launches: recorded, never run --------------------------------------- */
typedef struct standin_module {
    char *image;
    size_t size;
} standin_module;

GP_STANDIN_API CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *o,
                                           void **v)
{
    (void)n, (void)o, (void)v;
    if (gp_check_init()) return gp_check_init();
    static int loads;
    if (loads++ == 0 && env_int("GPUPORT_STANDIN_REJECT_FIRST_MODULE", 0)) return 200;
    const char *img = image;
    size_t size;
    if (memcmp(img, "\177ELF", 4) == 0)
        size = 1 << 20; /* bounded scan below; the stand-in trusts the backend's cubin */
    else if (strstr(img, ".entry"))
        size = strlen(img);
    else
        return 200; /* CUDA_ERROR_INVALID_IMAGE */
    standin_module *mod = calloc(1, sizeof *mod);
    if (!mod) return 2;
    /* The driver copies the image; so does the stand-in (the caller may free its buffer). */
    if (memcmp(img, "\177ELF", 4) == 0) {
        mod->image = strdup("ELF image");
        mod->size = 0;
    } else {
        mod->image = strdup(img);
        mod->size = size;
    }
    if (!mod->image) {
        free(mod);
        return 2;
    }
    *m = mod;
    return 0;
}

GP_STANDIN_API CUresult cuModuleLoadData(void **m, const void *image)
{
    return cuModuleLoadDataEx(m, image, 0, NULL, NULL);
}

GP_STANDIN_API CUresult cuModuleUnload(void *m)
{
    standin_module *mod = m;
    free(mod->image);
    free(mod);
    return gp_check_init();
}

GP_STANDIN_API CUresult cuModuleGetFunction(void **f, void *m, const char *name)
{
    standin_module *mod = m;
    char pat[300];
    snprintf(pat, sizeof pat, ".entry %s(", name);
    /* PTX is searched for the entry; a cubin is not parsed here, so every name is found. */
    if (mod->size > 0 && !strstr(mod->image, pat)) return 500;
    *f = mod;
    return gp_check_init();
}

GP_STANDIN_API CUresult cuFuncGetAttribute(int *value, int attr, void *f)
{
    (void)f;
    *value = attr == 0 ? 1024 : 0;
    return gp_check_init();
}

static unsigned last_launch[7];
static int launches;
static unsigned char last_params[16][16]; /* the first 16 bytes behind each params[i] */

GP_STANDIN_API CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                       unsigned by, unsigned bz, unsigned shared, void *s,
                                       void **params, void **extra)
{
    (void)f, (void)extra;
    stream_log[0] = s;
    for (int i = 0; i < 16 && params && params[i]; i++)
        memcpy(last_params[i], params[i], 8);
    unsigned v[7] = {gx, gy, gz, bx, by, bz, shared};
    memcpy(last_launch, v, sizeof v);
    launches++;
    return gp_check_init();
}

/* For tests: how many launches were made, the last grid, group and shared size, and the first
 * 8 bytes behind parameter `i` of the last launch. */
GP_STANDIN_API int gp_standin_cuda_last_launch(unsigned out[7])
{
    memcpy(out, last_launch, sizeof last_launch);
    return launches;
}

GP_STANDIN_API const void *gp_standin_cuda_last_param(int i)
{
    return i >= 0 && i < 16 ? last_params[i] : NULL;
}

/* For tests: the stream log above (launch stream, recorded event, its stream, waiting stream,
 * awaited event). */
GP_STANDIN_API void gp_standin_cuda_stream_log(void *out[5])
{
    memcpy(out, stream_log, sizeof stream_log);
}
