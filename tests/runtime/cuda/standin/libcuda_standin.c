/*
 * libcuda_standin.c — a STAND-IN for the NVIDIA driver library (built as libcuda.so.1 by the test
 * suite), so that the CUDA backend's paths that need no real GPU can run on any machine: library
 * found, cuInit failing with a chosen code, driver version, device count and attributes, and
 * device memory kept in host memory so copies and fills go through the real backend code.
 * Modules and launches are only recorded: no kernel ever runs here (a launch's parameter list
 * must end with NULL, as gpuport's does, for the stand-in to record it). Behaviour, from the
 * environment (read at each call):
 *   GP_STANDIN_CUDA_INIT     cuInit's result (default 0; 35 driver too old, 100 no device...)
 *   GP_STANDIN_CUDA_VERSION  cuDriverGetVersion (default 13000)
 *   GP_STANDIN_CUDA_DEVICES  device count (default 1)
 *   GP_STANDIN_CUDA_CC       compute capability "major.minor" (default "9.0")
 *   GP_STANDIN_CUDA_REJECT_FIRST  when 1, the first module load fails with INVALID_IMAGE (200),
 *                                 as a driver refusing a cached binary does
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef uint64_t CUdeviceptr;

#define GP_STANDIN_API __attribute__((visibility("default")))

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

static int initialized;

static CUresult check_init(void)
{
    return initialized ? 0 : 3; /* CUDA_ERROR_NOT_INITIALIZED */
}

static CUresult check_device(int dev)
{
    if (!initialized) return 3;
    return dev >= 0 && dev < env_int("GP_STANDIN_CUDA_DEVICES", 1) ? 0 : 101;
}

GP_STANDIN_API CUresult cuInit(unsigned flags)
{
    if (flags != 0) return 1;
    CUresult r = env_int("GP_STANDIN_CUDA_INIT", 0);
    if (r == 0 && env_int("GP_STANDIN_CUDA_DEVICES", 1) == 0) r = 100;
    initialized = r == 0;
    return r;
}

GP_STANDIN_API CUresult cuDriverGetVersion(int *v)
{
    if (!v) return 1;
    *v = env_int("GP_STANDIN_CUDA_VERSION", 13000);
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

GP_STANDIN_API CUresult cuGetErrorName(CUresult r, const char **name)
{
    *name = r == 0 ? "CUDA_SUCCESS" : "CUDA_ERROR_STANDIN";
    return 0;
}

GP_STANDIN_API CUresult cuGetErrorString(CUresult r, const char **text)
{
    *text = r == 0 ? "no error" : "stand-in error";
    return 0;
}

GP_STANDIN_API CUresult cuDeviceGetCount(int *n)
{
    if (!n) return 1;
    if (check_init()) return check_init();
    *n = env_int("GP_STANDIN_CUDA_DEVICES", 1);
    return 0;
}

GP_STANDIN_API CUresult cuDeviceGet(int *dev, int ordinal)
{
    CUresult r = check_device(ordinal);
    if (r == 0) *dev = ordinal;
    return r;
}

GP_STANDIN_API CUresult cuDeviceGetName(char *name, int len, int dev)
{
    CUresult r = check_device(dev);
    if (r == 0) snprintf(name, (size_t)len, "gpuport stand-in GPU %d", dev);
    return r;
}

GP_STANDIN_API CUresult cuDeviceGetAttribute(int *value, int attr, int dev)
{
    CUresult r = check_device(dev);
    if (r) return r;
    const char *cc = getenv("GP_STANDIN_CUDA_CC");
    int major = 9, minor = 0;
    if (cc && *cc) sscanf(cc, "%d.%d", &major, &minor);
    switch (attr) {
    case 1:
        *value = 1024;
        break; /* MAX_THREADS_PER_BLOCK */
    case 2:
    case 3:
        *value = 1024;
        break; /* MAX_BLOCK_DIM_X/Y */
    case 4:
        *value = 64;
        break; /* MAX_BLOCK_DIM_Z */
    case 5:
        *value = 2147483647;
        break; /* MAX_GRID_DIM_X */
    case 6:
    case 7:
        *value = 65535;
        break; /* MAX_GRID_DIM_Y/Z */
    case 8:
        *value = 49152;
        break; /* MAX_SHARED_MEMORY_PER_BLOCK */
    case 10:
        *value = 32;
        break; /* WARP_SIZE */
    case 13:
        *value = 1980000;
        break; /* CLOCK_RATE kHz */
    case 16:
        *value = 132;
        break; /* MULTIPROCESSOR_COUNT */
    case 19:
    case 41:
        *value = 1;
        break; /* CAN_MAP_HOST_MEMORY, UNIFIED_ADDRESSING */
    case 36:
        *value = 2619000;
        break; /* MEMORY_CLOCK_RATE kHz */
    case 37:
        *value = 6144;
        break; /* GLOBAL_MEMORY_BUS_WIDTH bits */
    case 75:
        *value = major;
        break;
    case 76:
        *value = minor;
        break;
    case 97:
        *value = 232448;
        break; /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
    default:
        *value = 0;
        break;
    }
    return 0;
}

GP_STANDIN_API CUresult cuDeviceTotalMem_v2(size_t *bytes, int dev)
{
    CUresult r = check_device(dev);
    if (r == 0) *bytes = (size_t)80 << 30;
    return r;
}

/* ---- contexts: one token per device ---------------------------------------------------- */
static char contexts[16];
static void *current_ctx;

GP_STANDIN_API CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
    CUresult r = check_device(dev);
    if (r == 0) *ctx = &contexts[dev & 15];
    return r;
}

GP_STANDIN_API CUresult cuDevicePrimaryCtxRelease_v2(int dev)
{
    return check_device(dev);
}

GP_STANDIN_API CUresult cuCtxPushCurrent_v2(void *ctx)
{
    current_ctx = ctx;
    return check_init();
}

GP_STANDIN_API CUresult cuCtxPopCurrent_v2(void **ctx)
{
    if (ctx) *ctx = current_ctx;
    current_ctx = NULL;
    return check_init();
}

GP_STANDIN_API CUresult cuCtxSynchronize(void)
{
    return check_init();
}

/* ---- memory: device memory is host memory here --------------------------------------- */
GP_STANDIN_API CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    *free_bytes = (size_t)79 << 30;
    *total = (size_t)80 << 30;
    return check_init();
}

GP_STANDIN_API CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
    if (check_init()) return check_init();
    if (bytes == 0) return 1;
    void *m = malloc(bytes);
    if (!m) return 2;
    *p = (CUdeviceptr)(uintptr_t)m;
    return 0;
}

GP_STANDIN_API CUresult cuMemFree_v2(CUdeviceptr p)
{
    free((void *)(uintptr_t)p);
    return check_init();
}

GP_STANDIN_API CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    if (check_init()) return check_init();
    *p = malloc(bytes);
    return *p ? 0 : 2;
}

GP_STANDIN_API CUresult cuMemFreeHost(void *p)
{
    free(p);
    return check_init();
}

GP_STANDIN_API CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n)
{
    memcpy((void *)(uintptr_t)d, s, n);
    return check_init();
}

GP_STANDIN_API CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n)
{
    memcpy(d, (const void *)(uintptr_t)s, n);
    return check_init();
}

GP_STANDIN_API CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n)
{
    memmove((void *)(uintptr_t)d, (const void *)(uintptr_t)s, n);
    return check_init();
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
    return check_init();
}

GP_STANDIN_API CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, void *st)
{
    (void)st;
    uint16_t *p = (uint16_t *)(uintptr_t)d;
    for (size_t i = 0; i < n; i++)
        p[i] = v;
    return check_init();
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
    return check_init();
}

GP_STANDIN_API CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, void *st)
{
    (void)st;
    uint32_t *p = (uint32_t *)(uintptr_t)d;
    for (size_t i = 0; i < n; i++)
        p[i] = v;
    return check_init();
}

/* ---- streams and events: everything is already done when enqueued ------------------- */
GP_STANDIN_API CUresult cuStreamCreate(void **s, unsigned flags)
{
    (void)flags;
    if (check_init()) return check_init();
    *s = malloc(1);
    return *s ? 0 : 2;
}

GP_STANDIN_API CUresult cuStreamDestroy_v2(void *s)
{
    free(s);
    return check_init();
}

GP_STANDIN_API CUresult cuStreamSynchronize(void *s)
{
    (void)s;
    return check_init();
}

GP_STANDIN_API CUresult cuStreamWaitEvent(void *s, void *e, unsigned flags)
{
    (void)s, (void)e, (void)flags;
    return check_init();
}

GP_STANDIN_API CUresult cuEventCreate(void **e, unsigned flags)
{
    (void)flags;
    if (check_init()) return check_init();
    *e = calloc(1, sizeof(double));
    return *e ? 0 : 2;
}

GP_STANDIN_API CUresult cuEventDestroy_v2(void *e)
{
    free(e);
    return check_init();
}

GP_STANDIN_API CUresult cuEventRecord(void *e, void *s)
{
    (void)s;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    *(double *)e = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
    return check_init();
}

GP_STANDIN_API CUresult cuEventQuery(void *e)
{
    (void)e;
    return check_init();
}

GP_STANDIN_API CUresult cuEventSynchronize(void *e)
{
    (void)e;
    return check_init();
}

GP_STANDIN_API CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b)
{
    *ms = (float)(*(double *)b - *(double *)a);
    return check_init();
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
    if (check_init()) return check_init();
    static int loads;
    if (loads++ == 0 && env_int("GP_STANDIN_CUDA_REJECT_FIRST", 0)) return 200;
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
    return check_init();
}

GP_STANDIN_API CUresult cuModuleGetFunction(void **f, void *m, const char *name)
{
    standin_module *mod = m;
    char pat[300];
    snprintf(pat, sizeof pat, ".entry %s(", name);
    /* PTX is searched for the entry; a cubin is not parsed here, so every name is found. */
    if (mod->size > 0 && !strstr(mod->image, pat)) return 500;
    *f = mod;
    return check_init();
}

GP_STANDIN_API CUresult cuFuncGetAttribute(int *value, int attr, void *f)
{
    (void)f;
    *value = attr == 0 ? 1024 : 0;
    return check_init();
}

static unsigned last_launch[7];
static int launches;
static unsigned char last_params[16][16]; /* the first 16 bytes behind each params[i] */

GP_STANDIN_API CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                       unsigned by, unsigned bz, unsigned shared, void *s,
                                       void **params, void **extra)
{
    (void)f, (void)s, (void)extra;
    for (int i = 0; i < 16 && params && params[i]; i++)
        memcpy(last_params[i], params[i], 8);
    unsigned v[7] = {gx, gy, gz, bx, by, bz, shared};
    memcpy(last_launch, v, sizeof v);
    launches++;
    return check_init();
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
