/* cuda_driver.c — see cuda_driver.h. */
#include "util/dynlib.h"
#include <stdio.h>
#include <string.h>

#include "bench/cuda_driver.h"

#define GP_CU_SYM(field, sym)                                                                      \
    do {                                                                                           \
        *(void **)&cu->field = gp_dl_sym(cu->lib, sym);                                            \
        if (!cu->field) {                                                                          \
            snprintf(why, whylen, "libcuda.so.1 lacks %s", sym);                                   \
            gp_bench_cuda_close(cu);                                                               \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

int gp_bench_cuda_open(gp_bench_cuda *cu, char *why, size_t whylen)
{
    memset(cu, 0, sizeof *cu);
    cu->lib = gp_dl_open("libcuda.so.1");
    if (!cu->lib) {
        snprintf(why, whylen, "libcuda.so.1 not found");
        return -1;
    }
    GP_CU_SYM(cuInit, "cuInit");
    GP_CU_SYM(cuDeviceGet, "cuDeviceGet");
    GP_CU_SYM(cuDeviceGetAttribute, "cuDeviceGetAttribute");
    GP_CU_SYM(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    GP_CU_SYM(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    GP_CU_SYM(cuCtxPushCurrent, "cuCtxPushCurrent_v2");
    GP_CU_SYM(cuCtxPopCurrent, "cuCtxPopCurrent_v2");
    GP_CU_SYM(cuCtxSynchronize, "cuCtxSynchronize");
    GP_CU_SYM(cuMemAlloc, "cuMemAlloc_v2");
    GP_CU_SYM(cuMemFree, "cuMemFree_v2");
    GP_CU_SYM(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    GP_CU_SYM(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    gp_cu_result r = cu->cuInit(0);
    if (r != 0) {
        snprintf(why, whylen, "cuInit failed (CUresult %d)", r);
        gp_bench_cuda_close(cu);
        return -1;
    }
    return 0;
}

void gp_bench_cuda_close(gp_bench_cuda *cu)
{
    if (cu->lib) gp_dl_close(cu->lib);
    memset(cu, 0, sizeof *cu);
}
