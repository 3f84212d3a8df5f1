/* cuda_pinned.c — pinned host<->device copies two ways in one program on a CUDA device: gpuport's
 * (exactly what `gpuport bench --only transfer` measures: the mapped memory of a
 * GP_BUFFER_PINNED buffer copied with gp_buffer_write_async/read_async between two events) and a
 * direct loop of cuMemcpyHtoDAsync / cuMemcpyDtoHAsync on page-locked cuMemHostAlloc memory
 * timed with CUDA events (bandwidthTest's method), same sizes, same copies per sample, median of 5.
 * libcuda is loaded with dlopen. Built and run by bench/gpu-bench.sh. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

static struct {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGet)(int *, int);
    CUresult (*PrimaryCtxRetain)(CUcontext *, int);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemHostAlloc)(void **, size_t, unsigned);
    CUresult (*MemFreeHost)(void *);
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*EventCreate)(CUevent *, unsigned);
    CUresult (*EventRecord)(CUevent, CUstream);
    CUresult (*EventSynchronize)(CUevent);
    CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
    CUresult (*HtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*DtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
} cu;

#define CK(x)                                                                                      \
    do {                                                                                           \
        CUresult r_ = (x);                                                                         \
        if (r_) {                                                                                  \
            fprintf(stderr, "cuda_pinned: %s failed (CUresult %d)\n", #x, r_);                     \
            exit(3);                                                                               \
        }                                                                                          \
    } while (0)

static void load(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "cuda_pinned: libcuda.so.1 not found\n");
        exit(2);
    }
    struct {
        void **p;
        const char *n;
    } s[] = {{(void **)&cu.Init, "cuInit"},
             {(void **)&cu.DeviceGet, "cuDeviceGet"},
             {(void **)&cu.PrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
             {(void **)&cu.CtxSetCurrent, "cuCtxSetCurrent"},
             {(void **)&cu.MemAlloc, "cuMemAlloc_v2"},
             {(void **)&cu.MemFree, "cuMemFree_v2"},
             {(void **)&cu.MemHostAlloc, "cuMemHostAlloc"},
             {(void **)&cu.MemFreeHost, "cuMemFreeHost"},
             {(void **)&cu.StreamCreate, "cuStreamCreate"},
             {(void **)&cu.EventCreate, "cuEventCreate"},
             {(void **)&cu.EventRecord, "cuEventRecord"},
             {(void **)&cu.EventSynchronize, "cuEventSynchronize"},
             {(void **)&cu.EventElapsedTime, "cuEventElapsedTime"},
             {(void **)&cu.HtoDAsync, "cuMemcpyHtoDAsync_v2"},
             {(void **)&cu.DtoHAsync, "cuMemcpyDtoHAsync_v2"}};
    for (size_t i = 0; i < sizeof s / sizeof *s; i++)
        if (!(*s[i].p = dlsym(lib, s[i].n))) {
            fprintf(stderr, "cuda_pinned: libcuda.so.1 lacks %s\n", s[i].n);
            exit(2);
        }
}

/* Median GB/s of 5 samples of `reps` async copies between two events (after one warm-up). */
static double direct(bool h2d, CUdeviceptr d, void *h, size_t size, int reps, CUstream st)
{
    CUevent e0, e1;
    CK(cu.EventCreate(&e0, 0));
    CK(cu.EventCreate(&e1, 0));
    double gbs[5];
    for (int s = -1; s < 5; s++) {
        CK(cu.EventRecord(e0, st));
        for (int r = 0; r < reps; r++)
            CK(h2d ? cu.HtoDAsync(d, h, size, st) : cu.DtoHAsync(h, d, size, st));
        CK(cu.EventRecord(e1, st));
        CK(cu.EventSynchronize(e1));
        float ms = 0;
        CK(cu.EventElapsedTime(&ms, e0, e1));
        if (s >= 0) gbs[s] = (double)size * reps / (ms / 1e3) / 1e9;
    }
    return gp_bench_stats_of(gbs, 5).median;
}

static double row(const gp_bench_run *run, const char *name)
{
    for (size_t i = 0; i < run->count; i++)
        if (!strcmp(run->results[i].name, name)) return run->results[i].median;
    return 0;
}

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : "cuda";
    gp_device *dev;
    if (gp_device_open(spec, &dev) != GP_OK) {
        fprintf(stderr, "cuda_pinned: %s\n", gp_last_error());
        return 2;
    }
    gp_bench_options opt;
    memset(&opt, 0, sizeof opt);
    opt.only = GP_BENCH_TRANSFER;
    gp_bench_run run;
    char err[256];
    if (gp_bench_device_run(dev, &opt, &run, err, sizeof err) != 0 || run.failures || run.errors) {
        fprintf(stderr, "cuda_pinned: gpuport bench --only transfer failed\n");
        return 3;
    }
    load();
    CK(cu.Init(0));
    int d;
    CUcontext ctx;
    CUstream st;
    CK(cu.DeviceGet(&d, run.dev.info.index));
    CK(cu.PrimaryCtxRetain(&ctx, d));
    CK(cu.CtxSetCurrent(ctx));
    CK(cu.StreamCreate(&st, 1 /* non-blocking */));
    printf("%s: %s\n%-8s %12s %12s %7s %12s %12s %7s\n", run.dev.info.spec, run.dev.info.name,
           "size", "gpuport h2d", "direct h2d", "ratio", "gpuport d2h", "direct d2h", "ratio");
    for (size_t i = 0; i < run.count; i++) {
        const gp_bench_result *r = &run.results[i];
        if (strncmp(r->name, "transfer.h2d.pinned.", 20) != 0) continue;
        size_t size = (size_t)r->size;
        size_t reps = ((size_t)256 << 20) / size;
        int nr = reps < 1 ? 1 : reps > 1000 ? 1000 : (int)reps; /* as src/bench/transfer.c */
        void *h;
        CUdeviceptr dp;
        CK(cu.MemHostAlloc(&h, size, 0));
        CK(cu.MemAlloc(&dp, size));
        memset(h, 1, size);
        double dh = direct(true, dp, h, size, nr, st), dd = direct(false, dp, h, size, nr, st);
        char d2h[96];
        snprintf(d2h, sizeof d2h, "transfer.d2h.pinned.%s", r->name + 20);
        double gh = r->median, gd = row(&run, d2h);
        printf("%-8s %12.2f %12.2f %6.0f%% %12.2f %12.2f %6.0f%%\n", r->name + 20, gh, dh,
               100 * gh / dh, gd, dd, 100 * gd / dd);
        CK(cu.MemFree(dp));
        CK(cu.MemFreeHost(h));
    }
    gp_bench_run_free(&run);
    gp_device_release(dev);
    return 0;
}
