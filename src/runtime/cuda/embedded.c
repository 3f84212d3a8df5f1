/*
 * embedded.c — access to the generated table of precompiled PTX (see embedded.h). The table's
 * symbols are weak so that a build without nvcc, which generates none, still links.
 */
#include "runtime/cuda/embedded.h"

#include <string.h>

extern const gp_cuda_embedded gp_cuda_embedded_table[] __attribute__((weak));
extern const size_t gp_cuda_embedded_table_len __attribute__((weak));

size_t gp_cuda_embedded_count(void)
{
    return &gp_cuda_embedded_table_len ? gp_cuda_embedded_table_len : 0;
}

const gp_cuda_embedded *gp_cuda_embedded_at(size_t i)
{
    return i < gp_cuda_embedded_count() ? &gp_cuda_embedded_table[i] : NULL;
}

const gp_cuda_embedded *gp_cuda_embedded_find(const char *name)
{
    for (size_t i = 0; i < gp_cuda_embedded_count(); i++)
        if (strcmp(gp_cuda_embedded_table[i].program, name) == 0) return &gp_cuda_embedded_table[i];
    return NULL;
}
