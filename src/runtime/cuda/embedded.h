/*
 * embedded.h — PTX of the built-in kernels, compiled with nvcc at build time (cuda.cmake, when
 * GPUPORT_WITH_NVCC is on) so that a machine with a driver but no NVRTC still runs them. The
 * table is generated; without it there is none.
 */
#ifndef GP_RUNTIME_CUDA_EMBEDDED_H
#define GP_RUNTIME_CUDA_EMBEDDED_H

#include <stddef.h>

typedef struct gp_cuda_embedded {
    const char *program; /* the built-in program's name */
    int arch;            /* the compute_XY the PTX was made for */
    int cuda_version;    /* the nvcc that made it: 1000 * major + 10 * minor */
    const char *ptx;     /* NUL-terminated PTX text */
} gp_cuda_embedded;

/* Number of entries (0 when the build embedded none). */
size_t gp_cuda_embedded_count(void);
/* Entry `i`, or NULL past the end. */
const gp_cuda_embedded *gp_cuda_embedded_at(size_t i);
/* The PTX of built-in program `name` (NULL when there is none). */
const gp_cuda_embedded *gp_cuda_embedded_find(const char *name);

#endif
