/*
 * loader.h — finding and opening the CUDA driver (libcuda.so.1) and NVRTC at run time.
 * Each is opened at most once per process (thread-safe); a failure is remembered with a message
 * that says where gpuport looked and what to install, so the device selection can record it.
 */
#ifndef GP_RUNTIME_CUDA_LOADER_H
#define GP_RUNTIME_CUDA_LOADER_H

#include <stdbool.h>

#include "gpuport/gpuport.h"
#include "runtime/cuda/cuda_api.h"

#define GP_CUDA_PATH_MAX  1024
#define GP_CUDA_MAX_ARCHS 64

typedef struct gp_cuda_driver {
    gp_cuda_driver_api api;
    void *handle;
    char path[GP_CUDA_PATH_MAX]; /* what dlopen was given and accepted */
    int version;                 /* cuDriverGetVersion: 1000 * major + 10 * minor */
    CUresult init_result;        /* what cuInit(0) returned */
} gp_cuda_driver;

typedef struct gp_cuda_nvrtc {
    gp_nvrtc_api api;
    void *handle;
    char path[GP_CUDA_PATH_MAX];
    int major, minor;
    int archs[GP_CUDA_MAX_ARCHS]; /* from nvrtcGetSupportedArchs: 75, 80, 86, ... ascending */
    int n_archs;
} gp_cuda_nvrtc;

/* The process's driver: opened, resolved and cuInit(0)-ed on the first call. On failure returns
 * GP_ERR_NOT_FOUND (no library, or a library without the entry points gpuport needs) or the
 * status of the cuInit result, with the same message on every call. Thread-safe. */
gp_status gp_cuda_driver_get(const gp_cuda_driver **out);

/* What cuInit(0) returned in gp_cuda_driver_get (0 = success); -1 when no driver library was
 * opened. `version` (optional) receives cuDriverGetVersion's answer (0 when unknown), which is
 * known even when cuInit failed. Thread-safe. */
int gp_cuda_driver_init_result(int *version);

/* The process's NVRTC, chosen so that its major version does not exceed the driver's when both
 * are known (code from a newer NVRTC cannot load on an older driver). GP_ERR_NOT_FOUND with the
 * places searched when there is none. Thread-safe. */
gp_status gp_cuda_nvrtc_get(const gp_cuda_nvrtc **out);

/* Uncached pieces, for the functions above and for tests. `path` is a file name (searched by
 * the dynamic linker) or a path. Both return GP_OK or GP_ERR_NOT_FOUND with the reason in
 * `why`; on success the library stays open in `out`. The driver open does not call cuInit. */
gp_status gp_cuda_driver_open(const char *path, gp_cuda_driver *out, char *why, size_t why_len);
gp_status gp_cuda_nvrtc_open(const char *path, gp_cuda_nvrtc *out, char *why, size_t why_len);
void gp_cuda_driver_close(gp_cuda_driver *drv);
void gp_cuda_nvrtc_close(gp_cuda_nvrtc *nv);

/* The places searched for NVRTC, best first, into a NULL-terminated heap array (free it with
 * gp_cuda_paths_free). `GPUPORT_NVRTC_LIBRARY`, when set, is the only candidate. `ask_python`
 * adds the wheel folders of `python3` on PATH (a process start). */
char **gp_cuda_nvrtc_candidates(bool ask_python);
void gp_cuda_paths_free(char **paths);

#endif
