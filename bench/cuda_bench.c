/*
 * cuda_bench.c — the CUDA backend measured against the driver API in the same process, on a
 * machine with an NVIDIA GPU (exit 77 without one):
 *   1. launch + synchronize of an empty kernel: gpuport (gp_kernel_launch + gp_queue_finish)
 *      against cuLaunchKernel + cuStreamSynchronize, interleaved rounds, medians;
 *   2. a device-to-device copy kernel written in the dialect (gp_copy_f32_x4: four floats per
 * work-item) against the peak bandwidth from the driver's attributes and against cuMemcpyDtoDAsync;
 *   3. pinned host <-> device copies through gpuport against a cuMemcpyHtoDAsync /
 *      cuMemcpyDtoHAsync loop on the same sizes.
 * Usage: cuda_bench [--quick] [--peak-gbs N] (N: the datasheet peak, GB/s, printed beside the
 * attribute-derived one). Only the public API and libcuda.so.1 (opened here) are used.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpuport/gpuport.h"

/* ---- the driver, directly ------------------------------------------------------------------ */
typedef int CUresult;
typedef uint64_t CUdeviceptr;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;

static struct {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGet)(int *, int);
    CUresult (*DeviceGetAttribute)(int *, int, int);
    CUresult (*PrimaryCtxRetain)(CUcontext *, int);
    CUresult (*CtxPushCurrent)(CUcontext);
    CUresult (*CtxPopCurrent)(CUcontext *);
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*StreamSynchronize)(CUstream);
    CUresult (*ModuleLoadData)(CUmodule *, const void *);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void **, void **);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemHostAlloc)(void **, size_t, unsigned);
    CUresult (*MemFreeHost)(void *);
    CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
    CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
} cu;

static int load_driver(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("/usr/lib/wsl/lib/libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) return -1;
    const struct {
        void **slot;
        const char *name;
    } syms[] = {
        {(void **)&cu.Init, "cuInit"},
        {(void **)&cu.DeviceGet, "cuDeviceGet"},
        {(void **)&cu.DeviceGetAttribute, "cuDeviceGetAttribute"},
        {(void **)&cu.PrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
        {(void **)&cu.CtxPushCurrent, "cuCtxPushCurrent_v2"},
        {(void **)&cu.CtxPopCurrent, "cuCtxPopCurrent_v2"},
        {(void **)&cu.StreamCreate, "cuStreamCreate"},
        {(void **)&cu.StreamSynchronize, "cuStreamSynchronize"},
        {(void **)&cu.ModuleLoadData, "cuModuleLoadData"},
        {(void **)&cu.ModuleGetFunction, "cuModuleGetFunction"},
        {(void **)&cu.LaunchKernel, "cuLaunchKernel"},
        {(void **)&cu.MemAlloc, "cuMemAlloc_v2"},
        {(void **)&cu.MemFree, "cuMemFree_v2"},
        {(void **)&cu.MemHostAlloc, "cuMemHostAlloc"},
        {(void **)&cu.MemFreeHost, "cuMemFreeHost"},
        {(void **)&cu.MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"},
        {(void **)&cu.MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"},
        {(void **)&cu.MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        void *p = dlsym(h, syms[i].name);
        if (!p) return -1;
        memcpy(syms[i].slot, &p, sizeof p);
    }
    return cu.Init(0) == 0 ? 0 : -1;
}

/* The same empty kernel as the built-in gp_empty (one int parameter, no work), as PTX that every
 * CUDA 11+ driver JIT-compiles for the device. */
static const char empty_ptx[] = ".version 7.0\n"
                                ".target sm_75\n"
                                ".address_size 64\n"
                                ".visible .entry gp_empty(.param .u32 unused)\n"
                                "{\n"
                                "    ret;\n"
                                "}\n";

#define CK(call)                                                                                   \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != 0) {                                                                             \
            fprintf(stderr, "%s failed: CUresult %d\n", #call, r_);                                \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#define GK(call)                                                                                   \
    do {                                                                                           \
        gp_status s_ = (call);                                                                     \
        if (s_ != GP_OK) {                                                                         \
            fprintf(stderr, "%s failed: %s: %s\n", #call, gp_status_name(s_), gp_last_error());    \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- 1. launch + synchronize ----------------------------------------------------------------- */
static void bench_launch(gp_device *dev, gp_queue *q, CUstream s, int rounds, int per_round)
{
    gp_program *prog;
    gp_kernel *k;
    GK(gp_program_create_builtin(dev, "basic", &prog));
    GK(gp_kernel_create(prog, "gp_empty", &k));
    CUmodule mod;
    CUfunction f;
    CK(cu.ModuleLoadData(&mod, empty_ptx));
    CK(cu.ModuleGetFunction(&f, mod, "gp_empty"));
    int unused = 0;
    gp_arg args[] = {gp_arg_value(&unused, sizeof unused)};
    void *params[] = {&unused, NULL}; /* NULL-terminated, as gpuport passes them */
    size_t one = 1;
    size_t n = (size_t)rounds * per_round;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    /* Warm-up of both paths, then interleaved rounds so drift hits both alike. */
    for (int i = 0; i < 200; i++) {
        GK(gp_kernel_launch(q, k, 1, &one, &one, 1, args));
        GK(gp_queue_finish(q));
        CK(cu.LaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
        CK(cu.StreamSynchronize(s));
    }
    size_t ia = 0, ib = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < per_round; i++) {
            double t0 = now_s();
            GK(gp_kernel_launch(q, k, 1, &one, &one, 1, args));
            GK(gp_queue_finish(q));
            a[ia++] = now_s() - t0;
        }
        for (int i = 0; i < per_round; i++) {
            double t0 = now_s();
            CK(cu.LaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
            CK(cu.StreamSynchronize(s));
            b[ib++] = now_s() - t0;
        }
    }
    double ma = median(a, n) * 1e6, mb = median(b, n) * 1e6;
    printf("launch+sync, empty kernel, median of %zu: gpuport %.2f us, driver API %.2f us, "
           "difference %+.2f us (target: within 1 us)\n",
           n, ma, mb, ma - mb);
    free(a);
    free(b);
    gp_kernel_release(k);
    gp_program_release(prog);
}

/* ---- 2. device-to-device copy kernel --------------------------------------------------------- */
static void bench_copy(gp_device *dev, gp_queue *q, CUstream s, size_t bytes, int iters,
                       double peak_attr, double peak_sheet)
{
    size_t n = bytes / sizeof(float);
    gp_buffer *src, *dst;
    GK(gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes, &src));
    GK(gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes, &dst));
    float one = 1.0f;
    GK(gp_buffer_fill(src, 0, &one, sizeof one, bytes));
    gp_program *prog;
    gp_kernel *k;
    GK(gp_program_create_builtin(dev, "basic", &prog));
    GK(gp_kernel_create(prog, "gp_copy_f32_x4", &k));
    int ni = (int)n;
    gp_arg args[] = {gp_arg_buffer(dst), gp_arg_buffer(src), gp_arg_value(&ni, sizeof ni)};
    size_t global = (n + 3) / 4, group = 256;
    for (int i = 0; i < 3; i++)
        GK(gp_kernel_launch(q, k, 1, &global, &group, 3, args));
    gp_event *e0, *e1;
    GK(gp_event_record(q, &e0));
    for (int i = 0; i < iters; i++)
        GK(gp_kernel_launch(q, k, 1, &global, &group, 3, args));
    GK(gp_event_record(q, &e1));
    double ms;
    GK(gp_event_elapsed_ms(e0, e1, &ms));
    double gbs = 2.0 * (double)bytes * iters / (ms * 1e-3) / 1e9;
    /* The same bytes moved by the driver's own copy, timed the same way (wall clock). */
    CUdeviceptr ds, dd;
    CK(cu.MemAlloc(&ds, bytes));
    CK(cu.MemAlloc(&dd, bytes));
    CK(cu.MemcpyDtoDAsync(dd, ds, bytes, s));
    CK(cu.StreamSynchronize(s));
    double t0 = now_s();
    for (int i = 0; i < iters; i++)
        CK(cu.MemcpyDtoDAsync(dd, ds, bytes, s));
    CK(cu.StreamSynchronize(s));
    double drv = 2.0 * (double)bytes * iters / (now_s() - t0) / 1e9;
    printf("d2d copy kernel (dialect gp_copy_f32_x4, %zu MiB, %d launches): %.0f GB/s read+write; "
           "%.1f%% of the peak from driver attributes (%.0f GB/s)",
           bytes >> 20, iters, gbs, 100.0 * gbs / peak_attr, peak_attr);
    if (peak_sheet > 0)
        printf("; %.1f%% of the datasheet peak (%.0f GB/s)", 100.0 * gbs / peak_sheet, peak_sheet);
    printf("; cuMemcpyDtoDAsync: %.0f GB/s\n", drv);
    /* The kernel really copied: check a few values. */
    float probe[4] = {0};
    GK(gp_buffer_read(dst, bytes - sizeof probe, probe, sizeof probe));
    if (probe[0] != 1.0f || probe[3] != 1.0f) {
        fprintf(stderr, "the copy kernel produced wrong data\n");
        exit(1);
    }
    cu.MemFree(ds);
    cu.MemFree(dd);
    gp_event_release(e0);
    gp_event_release(e1);
    gp_kernel_release(k);
    gp_program_release(prog);
    gp_buffer_release(src);
    gp_buffer_release(dst);
}

/* ---- 3. pinned host <-> device copies ------------------------------------------------------- */
static void bench_pinned(gp_device *dev, gp_queue *q, CUstream s, size_t bytes, int iters)
{
    gp_buffer *pinned, *devbuf;
    GK(gp_buffer_create(dev, GP_BUFFER_PINNED, bytes, &pinned));
    GK(gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes, &devbuf));
    void *host;
    GK(gp_buffer_map(pinned, &host));
    memset(host, 1, bytes);
    double t0 = now_s();
    for (int i = 0; i < iters; i++)
        GK(gp_buffer_write_async(q, devbuf, 0, host, bytes));
    GK(gp_queue_finish(q));
    double gp_h2d = (double)bytes * iters / (now_s() - t0) / 1e9;
    t0 = now_s();
    for (int i = 0; i < iters; i++)
        GK(gp_buffer_read_async(q, devbuf, 0, host, bytes));
    GK(gp_queue_finish(q));
    double gp_d2h = (double)bytes * iters / (now_s() - t0) / 1e9;

    void *h;
    CUdeviceptr d;
    CK(cu.MemHostAlloc(&h, bytes, 0x1 /* PORTABLE */));
    CK(cu.MemAlloc(&d, bytes));
    memset(h, 1, bytes);
    CK(cu.MemcpyHtoDAsync(d, h, bytes, s));
    CK(cu.StreamSynchronize(s));
    t0 = now_s();
    for (int i = 0; i < iters; i++)
        CK(cu.MemcpyHtoDAsync(d, h, bytes, s));
    CK(cu.StreamSynchronize(s));
    double cu_h2d = (double)bytes * iters / (now_s() - t0) / 1e9;
    t0 = now_s();
    for (int i = 0; i < iters; i++)
        CK(cu.MemcpyDtoHAsync(h, d, bytes, s));
    CK(cu.StreamSynchronize(s));
    double cu_d2h = (double)bytes * iters / (now_s() - t0) / 1e9;
    printf("pinned copies (%zu MiB x %d): host->device gpuport %.1f GB/s, cuMemcpyHtoDAsync "
           "%.1f GB/s (%.1f%%); device->host gpuport %.1f GB/s, cuMemcpyDtoHAsync %.1f GB/s "
           "(%.1f%%)\n",
           bytes >> 20, iters, gp_h2d, cu_h2d, 100.0 * gp_h2d / cu_h2d, gp_d2h, cu_d2h,
           100.0 * gp_d2h / cu_d2h);
    cu.MemFreeHost(h);
    cu.MemFree(d);
    gp_buffer_unmap(pinned);
    gp_buffer_release(pinned);
    gp_buffer_release(devbuf);
}

int main(int argc, char **argv)
{
    int quick = 0;
    double peak_sheet = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--peak-gbs") == 0 && i + 1 < argc)
            peak_sheet = atof(argv[++i]);
        else {
            fprintf(stderr, "usage: cuda_bench [--quick] [--peak-gbs N]\n");
            return 2;
        }
    }
    gp_device *dev;
    if (load_driver() != 0 || gp_device_open("cuda", &dev) != GP_OK) {
        printf("SKIP: no usable CUDA device here, so nothing is measured: %s\n",
               gp_last_error()[0] ? gp_last_error() : "libcuda.so.1 not found or cuInit failed");
        return 77;
    }
    gp_device_info info;
    GK(gp_device_get_info(dev, &info));
    int mem_khz = 0, bus_bits = 0;
    CK(cu.DeviceGetAttribute(&mem_khz, 36, info.index));
    CK(cu.DeviceGetAttribute(&bus_bits, 37, info.index));
    double peak_attr = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    printf("device: %s (%s, compute capability %d.%d), %s\n", info.name, info.arch,
           info.compute_capability_major, info.compute_capability_minor, info.driver_version);

    /* The driver path runs in the same primary context gpuport uses, on its own stream. */
    int cudev;
    CUcontext ctx;
    CUstream s;
    CK(cu.DeviceGet(&cudev, info.index));
    CK(cu.PrimaryCtxRetain(&ctx, cudev));
    CK(cu.CtxPushCurrent(ctx));
    CK(cu.StreamCreate(&s, 0x1 /* NON_BLOCKING, as gpuport's queues */));
    gp_queue *q;
    GK(gp_queue_create(dev, &q));

    bench_launch(dev, q, s, quick ? 5 : 20, quick ? 200 : 500);
    bench_copy(dev, q, s, (size_t)(quick ? 256 : 1024) << 20, quick ? 10 : 50, peak_attr,
               peak_sheet);
    bench_pinned(dev, q, s, (size_t)256 << 20, quick ? 4 : 16);

    gp_queue_release(q);
    gp_device_release(dev);
    return 0;
}
