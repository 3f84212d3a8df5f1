/* vendor.c — the SGEMM a user would otherwise call, loaded with dlopen (never needed to build):
 * cuBLAS on CUDA devices (cublasSgemm_v2 with CUBLAS_DEFAULT_MATH, i.e. TF32 off, on the device's
 * primary context through the benchmark's own driver loader), OpenBLAS (Linux) or Accelerate
 * (macOS) cblas_sgemm on the CPU device, MPSMatrixMultiplication on Metal (mps.m, Apple only). */
#include "util/dynlib.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/cuda_driver.h"

#if defined(__APPLE__)
int gp_bench_mps_sgemm(int n, const float *a, const float *b, float *c, double *seconds,
                       size_t samples, char *why, size_t whylen);
#endif

enum { GP_CBLAS_ROW_MAJOR = 101, GP_CBLAS_NO_TRANS = 111 };
typedef void (*gp_cblas_sgemm_fn)(int, int, int, int, int, int, float, const float *, int,
                                  const float *, int, float, float *, int);

static int gp_vendor_cblas(int n, const float *a, const float *b, float *c, double *seconds,
                           size_t samples, char *label, size_t labellen, char *why, size_t whylen)
{
#if defined(__APPLE__)
    const char *libname = "/System/Library/Frameworks/Accelerate.framework/Accelerate";
    snprintf(label, labellen, "accelerate");
#else
    const char *libname = "libopenblas.so.0";
    snprintf(label, labellen, "openblas");
#endif
    void *lib = gp_dl_open(libname);
    if (!lib) {
        snprintf(why, whylen, "not present: %s not found", libname);
        return 1;
    }
    gp_cblas_sgemm_fn sgemm;
    *(void **)&sgemm = gp_dl_sym(lib, "cblas_sgemm");
    if (!sgemm) {
        snprintf(why, whylen, "not present: %s has no cblas_sgemm", libname);
        gp_dl_close(lib);
        return 1;
    }
    for (size_t s = 0; s <= samples; s++) { /* the first run is the warm-up */
        double t0 = gp_bench_now();
        sgemm(GP_CBLAS_ROW_MAJOR, GP_CBLAS_NO_TRANS, GP_CBLAS_NO_TRANS, n, n, n, 1.0f, a, n, b, n,
              0.0f, c, n);
        if (s > 0) seconds[s - 1] = gp_bench_now() - t0;
    }
    /* OpenBLAS keeps threads that its destructor stops; unloading it here is safe but slow. */
    gp_dl_close(lib);
    return 0;
}

typedef struct gp_cublas_ctx *gp_cublas_handle;
typedef int (*gp_cublas_create_fn)(gp_cublas_handle *);
typedef int (*gp_cublas_destroy_fn)(gp_cublas_handle);
typedef int (*gp_cublas_math_fn)(gp_cublas_handle, int);
typedef int (*gp_cublas_sgemm_fn)(gp_cublas_handle, int, int, int, int, int, const float *,
                                  const float *, int, const float *, int, const float *, float *,
                                  int);

static int gp_vendor_cublas(int ordinal, int n, const float *a, const float *b, float *c,
                            double *seconds, size_t samples, char *why, size_t whylen)
{
    /* $GPUPORT_CUBLAS_LIBRARY, else the loader's path, else the toolkit's usual folders */
    const char *names[8];
    size_t nn = 0;
    const char *over = getenv("GPUPORT_CUBLAS_LIBRARY");
    char home13[600] = "", home12[600] = "";
    const char *cuda_home = getenv("CUDA_HOME");
    if (over && *over) names[nn++] = over;
    names[nn++] = "libcublas.so.13";
    names[nn++] = "libcublas.so.12";
    if (cuda_home && *cuda_home) {
        snprintf(home13, sizeof home13, "%s/lib64/libcublas.so.13", cuda_home);
        snprintf(home12, sizeof home12, "%s/lib64/libcublas.so.12", cuda_home);
        names[nn++] = home13;
        names[nn++] = home12;
    }
    names[nn++] = "/usr/local/cuda/lib64/libcublas.so.13";
    names[nn++] = "/usr/local/cuda/lib64/libcublas.so.12";
    void *lib = NULL;
    for (size_t i = 0; i < nn && !lib; i++)
        lib = gp_dl_open(names[i]);
    if (!lib) {
        snprintf(why, whylen,
                 "not present: libcublas.so.13 and libcublas.so.12 not found (loader "
                 "path, $CUDA_HOME/lib64, /usr/local/cuda/lib64; or set "
                 "GPUPORT_CUBLAS_LIBRARY)");
        return 1;
    }
    gp_cublas_create_fn create;
    gp_cublas_destroy_fn destroy;
    gp_cublas_math_fn math;
    gp_cublas_sgemm_fn sgemm;
    *(void **)&create = gp_dl_sym(lib, "cublasCreate_v2");
    *(void **)&destroy = gp_dl_sym(lib, "cublasDestroy_v2");
    *(void **)&math = gp_dl_sym(lib, "cublasSetMathMode");
    *(void **)&sgemm = gp_dl_sym(lib, "cublasSgemm_v2");
    if (!create || !destroy || !math || !sgemm) {
        snprintf(why, whylen, "not present: libcublas lacks cublasSgemm_v2 or its helpers");
        gp_dl_close(lib);
        return 1;
    }
    gp_bench_cuda cu;
    if (gp_bench_cuda_open(&cu, why, whylen) != 0) {
        gp_dl_close(lib);
        return -1;
    }
    int rc = -1;
    gp_cu_device dev;
    gp_cu_context ctx = NULL;
    gp_cu_ptr da = 0, db = 0, dc = 0;
    gp_cublas_handle h = NULL;
    size_t bytes = (size_t)n * n * sizeof(float);
    int r;
    if ((r = cu.cuDeviceGet(&dev, ordinal)) || (r = cu.cuDevicePrimaryCtxRetain(&ctx, dev))) {
        snprintf(why, whylen, "cuDeviceGet/cuDevicePrimaryCtxRetain failed (CUresult %d)", r);
        goto out;
    }
    if ((r = cu.cuCtxPushCurrent(ctx)) || (r = cu.cuMemAlloc(&da, bytes)) ||
        (r = cu.cuMemAlloc(&db, bytes)) || (r = cu.cuMemAlloc(&dc, bytes)) ||
        (r = cu.cuMemcpyHtoD(da, a, bytes)) || (r = cu.cuMemcpyHtoD(db, b, bytes))) {
        snprintf(why, whylen, "device memory for cuBLAS (CUresult %d)", r);
        goto pop;
    }
    if ((r = create(&h)) != 0 || (r = math(h, 0 /* CUBLAS_DEFAULT_MATH: no TF32 */)) != 0) {
        snprintf(why, whylen, "cublasCreate/cublasSetMathMode failed (status %d)", r);
        goto pop;
    }
    const float one = 1.0f, zero = 0.0f;
    for (size_t s = 0; s <= samples; s++) {
        double t0 = gp_bench_now();
        /* row-major C = A B is column-major C^T = B^T A^T */
        r = sgemm(h, 0, 0, n, n, n, &one, (const float *)(uintptr_t)db, n,
                  (const float *)(uintptr_t)da, n, &zero, (float *)(uintptr_t)dc, n);
        int sr = cu.cuCtxSynchronize();
        if (r != 0 || sr != 0) {
            snprintf(why, whylen, "cublasSgemm_v2 failed (status %d, CUresult %d)", r, sr);
            goto pop;
        }
        if (s > 0) seconds[s - 1] = gp_bench_now() - t0;
    }
    if ((r = cu.cuMemcpyDtoH(c, dc, bytes)) != 0) {
        snprintf(why, whylen, "reading C back (CUresult %d)", r);
        goto pop;
    }
    rc = 0;
pop:
    if (h) destroy(h);
    if (da) cu.cuMemFree(da);
    if (db) cu.cuMemFree(db);
    if (dc) cu.cuMemFree(dc);
    if (ctx) {
        gp_cu_context old;
        cu.cuCtxPopCurrent(&old);
        cu.cuDevicePrimaryCtxRelease(dev);
    }
out:
    gp_bench_cuda_close(&cu);
    gp_dl_close(lib);
    return rc;
}

int gp_bench_vendor_sgemm(const gp_bench_device *dev, int n, const float *a, const float *b,
                          float *c, double *seconds, size_t samples, char *label, size_t labellen,
                          char *why, size_t whylen)
{
    switch (dev->info.backend) {
    case GP_BACKEND_CPU:
        return gp_vendor_cblas(n, a, b, c, seconds, samples, label, labellen, why, whylen);
    case GP_BACKEND_CUDA:
        snprintf(label, labellen, "cublas-notf32");
        return gp_vendor_cublas(dev->info.index, n, a, b, c, seconds, samples, why, whylen);
    case GP_BACKEND_METAL:
        snprintf(label, labellen, "mps");
#if defined(__APPLE__)
        return gp_bench_mps_sgemm(n, a, b, c, seconds, samples, why, whylen);
#else
        snprintf(why, whylen, "not present: Metal exists only on Apple platforms");
        return 1;
#endif
    default:
        return 2; /* OpenCL has no vendor SGEMM that gpuport loads */
    }
}
