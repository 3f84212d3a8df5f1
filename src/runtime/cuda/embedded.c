/*
 * embedded.c — access to the generated table of precompiled PTX (see embedded.h). cuda.cmake
 * defines GP_CUDA_EMBEDDED_PTX for this file when it generates the table; without it (no nvcc
 * at build time) there is no table and the count is 0.
 */
#include "runtime/cuda/embedded.h"

#include <string.h>

#if GP_CUDA_EMBEDDED_PTX
extern const gp_cuda_embedded gp_cuda_embedded_table[];
extern const size_t gp_cuda_embedded_table_len;
#endif

size_t gp_cuda_embedded_count(void)
{
#if GP_CUDA_EMBEDDED_PTX
    return gp_cuda_embedded_table_len;
#else
    return 0;
#endif
}

const gp_cuda_embedded *gp_cuda_embedded_at(size_t i)
{
#if GP_CUDA_EMBEDDED_PTX
    if (i < gp_cuda_embedded_table_len) return &gp_cuda_embedded_table[i];
#else
    (void)i;
#endif
    return NULL;
}

const gp_cuda_embedded *gp_cuda_embedded_find(const char *name)
{
    for (size_t i = 0; i < gp_cuda_embedded_count(); i++)
        if (strcmp(gp_cuda_embedded_at(i)->program, name) == 0) return gp_cuda_embedded_at(i);
    return NULL;
}
