/* conformance.h — what the runtime tests share: the list of devices to run on, loading a kernel
 * source from tests/runtime/kernels/, and comparing results with a C reference (exact for
 * integers; for floats NaN and infinity must sit where the reference has them, the rest within a
 * normalised mean squared error, as ggml's test-backend-ops does). */
#ifndef GP_TESTS_RUNTIME_CONFORMANCE_H
#define GP_TESTS_RUNTIME_CONFORMANCE_H

#include <gpuport/gpuport.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"

#define GPT_CHECK(call)                                                                            \
    do {                                                                                           \
        gp_status st_ = (call);                                                                    \
        if (st_ != GP_OK) fail_msg("%s -> %s: %s", #call, gp_status_name(st_), gp_last_error());   \
    } while (0)

/* Every device of every backend on this machine ("cpu:0", "opencl:0", ...); only the CPU's when
 * GPUPORT_CHECK is set (the suites' checked run: checking is the CPU backend's). */
static inline int gpt_devices(char specs[][32], int cap)
{
    uint32_t n = 0;
    if (gp_device_count(&n) != GP_OK) return 0;
    const char *check = getenv("GPUPORT_CHECK");
    bool cpu_only = check && *check;
    int k = 0;
    for (uint32_t i = 0; i < n && k < cap; i++) {
        gp_device_info info;
        if (gp_device_enumerate(i, &info) != GP_OK) continue;
        if (cpu_only && info.backend != GP_BACKEND_CPU) continue;
        snprintf(specs[k++], 32, "%s", info.spec);
    }
    return k;
}

/* A device buffer of `bytes` holding `data` (NULL: not written). */
static inline gp_buffer *gpt_upload(gp_device *dev, const void *data, size_t bytes)
{
    gp_buffer *b = NULL;
    GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes, &b));
    if (data) GPT_CHECK(gp_buffer_write(b, 0, data, bytes));
    return b;
}

static inline gp_kernel *gpt_kernel_of(gp_program *p, const char *name)
{
    gp_kernel *k = NULL;
    GPT_CHECK(gp_kernel_create(p, name, &k));
    return k;
}

static inline gp_device *gpt_open(const char *spec)
{
    gp_device *d = NULL;
    GPT_CHECK(gp_device_open(spec, &d));
    return d;
}

static inline void gpt_close(gp_device *d, const char *spec)
{
    fprintf(stderr, "  %s ok\n", spec);
    gp_device_release(d);
}

/* Runs the body with `dev` open on each of specs[0..n) in turn; a device that fails to open
 * fails the test; `continue` goes on with the next. */
#define GPT_FOR_EACH_DEVICE(dev, specs, n)                                                         \
    for (int di_ = 0; di_ < (n); di_++)                                                            \
        for (gp_device *dev = gpt_open((specs)[di_]); dev; gpt_close(dev, (specs)[di_]), dev = NULL)

/* The text of tests/runtime/kernels/<name> (free() it). */
static inline char *gpt_kernel_source(const char *name, size_t *len)
{
    const char *root = getenv("GPUPORT_SOURCE_DIR");
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/tests/runtime/kernels/%s", root ? root : ".", name);
    char *s = gp_read_file(path, 1 << 20, false, len, err, sizeof err);
    if (!s) fprintf(stderr, "%s\n", err);
    return s;
}

static inline gp_status gpt_build(gp_device *dev, const char *name, const char *const *defs,
                                  uint32_t ndefs, gp_program **prog)
{
    size_t len;
    char *src = gpt_kernel_source(name, &len);
    if (!src) return GP_ERR_IO;
    gp_build_options o = {sizeof o, 0, name, defs, ndefs, 0};
    gp_status st = gp_program_create(dev, src, len, &o, prog);
    free(src);
    return st;
}

/* Reference sums of consecutive blocks of `g` elements (the last one partial): in double for
 * floats, exact for ints. */
static inline void gpt_block_sums_f(const float *x, int n, int g, float *out)
{
    for (int b = 0; b * g < n; b++) {
        double s = 0;
        for (int i = b * g; i < (b + 1) * g && i < n; i++)
            s += x[i];
        out[b] = (float)s;
    }
}

static inline void gpt_block_sums_i(const int32_t *x, int n, int g, int32_t *out)
{
    for (int b = 0; b * g < n; b++) {
        out[b] = 0;
        for (int i = b * g; i < (b + 1) * g && i < n; i++)
            out[b] += x[i];
    }
}

/* NaN/Inf placement, then NMSE = sum((a-b)^2) / sum(a^2) over the finite values. */
static inline bool gpt_floats_match(const char *what, const float *ref, const float *got, size_t n,
                                    double max_nmse)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(ref[i]) != isnan(got[i]) || (isinf(ref[i]) && ref[i] != got[i]) ||
            (!isinf(ref[i]) && isinf(got[i]))) {
            fprintf(stderr, "%s: element %zu is %g, the reference %g\n", what, i, got[i], ref[i]);
            return false;
        }
        if (isnan(ref[i]) || isinf(ref[i])) continue;
        double d = (double)ref[i] - (double)got[i];
        num += d * d;
        den += (double)ref[i] * (double)ref[i];
    }
    double nmse = den > 0 ? num / den : num;
    if (nmse > max_nmse) {
        fprintf(stderr, "%s: NMSE %g above %g\n", what, nmse, max_nmse);
        return false;
    }
    return true;
}

static inline bool gpt_ints_match(const char *what, const int32_t *ref, const int32_t *got,
                                  size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ref[i] != got[i]) {
            fprintf(stderr, "%s: element %zu is %d, the reference %d\n", what, i, got[i], ref[i]);
            return false;
        }
    return true;
}

#endif
