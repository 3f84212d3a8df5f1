/* fix.c — what to change so that code runs on the GPUs asked about: the CMake
 * CUDA_ARCHITECTURES value, the nvcc -gencode flags, and for PyTorch the CUDA wheel variant
 * whose architecture list covers the GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archcheck/archcheck.h"

static int ac_cc_cmp(const void *a, const void *b)
{
    return *(const gp_cc *)a - *(const gp_cc *)b;
}

/* Sorted, without repeats; returns the count. */
static size_t ac_unique(const gp_cc *in, size_t n, gp_cc *out)
{
    memcpy(out, in, n * sizeof *in);
    qsort(out, n, sizeof *out, ac_cc_cmp);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || out[k - 1] != out[i]) out[k++] = out[i];
    return k;
}

/* Every CC as SASS, and the newest also as PTX so that later GPUs can JIT-compile it. */
void gp_ac_fix_cmake(const gp_cc *ccs, size_t n, char *out, size_t outlen)
{
    gp_cc u[64];
    n = ac_unique(ccs, n < 64 ? n : 64, u);
    size_t pos = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        int k = snprintf(out + pos, outlen - pos, i + 1 < n ? "%d-real;" : "%d", u[i]);
        if (k < 0 || (size_t)k >= outlen - pos) return;
        pos += (size_t)k;
    }
}

void gp_ac_fix_nvcc(const gp_cc *ccs, size_t n, char *out, size_t outlen)
{
    gp_cc u[64];
    n = ac_unique(ccs, n < 64 ? n : 64, u);
    size_t pos = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        int k = snprintf(out + pos, outlen - pos, "%s-gencode arch=compute_%d,code=sm_%d",
                         i ? " " : "", u[i], u[i]);
        if (k < 0 || (size_t)k >= outlen - pos) return;
        pos += (size_t)k;
    }
    if (n)
        snprintf(out + pos, outlen - pos, " -gencode arch=compute_%d,code=compute_%d", u[n - 1],
                 u[n - 1]);
}

/* The architectures each PyTorch CUDA wheel variant is built for (SASS). */
static const struct {
    const char *variant;
    gp_cc targets[8];
} ac_torch[] = {
    {"cu126", {50, 60, 70, 75, 80, 86, 90, 0}},
    {"cu128", {75, 80, 86, 90, 100, 120, 0}},
    {"cu129", {75, 80, 86, 90, 100, 120, 0}},
    {"cu130", {75, 80, 86, 90, 100, 120, 0}},
};

void gp_ac_fix_torch(gp_cc cc, char *out, size_t outlen)
{
    size_t pos = 0;
    out[0] = '\0';
    for (size_t v = 0; v < sizeof ac_torch / sizeof ac_torch[0]; v++) {
        bool ok = false;
        for (size_t i = 0; i < 8 && ac_torch[v].targets[i]; i++)
            ok = ok || gp_ac_sass_runs((uint32_t)ac_torch[v].targets[i], 0, cc);
        if (!ok) continue;
        int k = snprintf(out + pos, outlen - pos, "%s%s", pos ? ", " : "", ac_torch[v].variant);
        if (k < 0 || (size_t)k >= outlen - pos) return;
        pos += (size_t)k;
    }
}
