/*
 * compile.h — compiling dialect source (already joined to the CUDA prelude) with NVRTC: a cubin
 * for the device's own sm_XY when NVRTC knows that architecture, otherwise PTX for the highest
 * compute_XY that both NVRTC and the device support, which the driver then JIT-compiles.
 */
#ifndef GP_RUNTIME_CUDA_COMPILE_H
#define GP_RUNTIME_CUDA_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

#include "gpuport/gpuport.h"
#include "runtime/cuda/loader.h"

typedef struct gp_cuda_target {
    int arch;      /* 75, 90, 120 ... */
    bool is_cubin; /* true: sm_<arch> cubin; false: compute_<arch> PTX */
} gp_cuda_target;

/* Chooses the target for a device of compute capability major.minor from NVRTC's supported
 * list (ascending). GP_ERR_UNSUPPORTED with advice when the device is older than every
 * architecture this NVRTC knows. With an empty list (NVRTC before 11.2) PTX for the device's own
 * compute capability is chosen. */
gp_status gp_cuda_target_choose(const int *archs, int n_archs, int cc_major, int cc_minor,
                                gp_cuda_target *out);

/* "sm_90" or "compute_75" into buf. */
const char *gp_cuda_target_name(gp_cuda_target t, char *buf, size_t len);

typedef struct gp_cuda_image {
    void *data;  /* the cubin (ELF) or the NUL-terminated PTX text; free() it */
    size_t size; /* bytes, including PTX's terminating NUL */
    gp_cuda_target target;
} gp_cuda_image;

typedef struct gp_cuda_source {
    const char *text;                /* the whole translation unit */
    const char *name;                /* the file name NVRTC reports errors against */
    const char *const *headers;      /* contents of headers the text #includes, or NULL */
    const char *const *header_names; /* their include names */
    int n_headers;
    const char *const *options; /* extra NVRTC options ("-DN=4"), or NULL */
    int n_options;
} gp_cuda_source;

/* Compiles for `target`. GP_ERR_BUILD with NVRTC's log (file(line): error ...) in the message
 * when the source does not compile. `log_out` (optional) receives the full log (free() it),
 * also on success (warnings). */
gp_status gp_cuda_compile(const gp_cuda_nvrtc *nv, const gp_cuda_source *src, gp_cuda_target target,
                          gp_cuda_image *out, char **log_out);

void gp_cuda_image_free(gp_cuda_image *img);

#endif
