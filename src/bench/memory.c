/* memory.c — the STREAM benchmark in the dialect: copy (c = a), scale (b = s c), add (c = a + b),
 * triad (a = b + s c) over arrays of at least 4x the last-level cache; copy and scale count two
 * words per element, add and triad three (as STREAM does). Each kernel's samples run back to back
 * (each is idempotent: its inputs are not its output), then its whole output is read back and
 * checked. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "util/term.h"

#define GP_MIB ((size_t)1 << 20)

/* Elements per array: >= 4 x LLC and >= 128 MiB (full), 4 MiB (quick); within the device. */
static size_t gp_bench_stream_n(const gp_bench_device *d, bool quick)
{
    size_t bytes = quick ? 4 * GP_MIB : 128 * GP_MIB;
    if (!quick && d->llc_bytes * 4 > bytes) bytes = (size_t)d->llc_bytes * 4;
    if (d->info.max_buffer_size && bytes > d->info.max_buffer_size)
        bytes = (size_t)d->info.max_buffer_size;
    if (d->info.total_memory && bytes > d->info.total_memory / 8)
        bytes = (size_t)(d->info.total_memory / 8);
    size_t n = bytes / sizeof(float);
    if (n > 0x7fffffffu) n = 0x7fffffffu;
    return n & ~(size_t)1023;
}

static int gp_bench_check(gp_bench_run *run, const char *name, gp_buffer *buf, size_t n, float want)
{
    float *h = malloc(n * sizeof *h);
    if (!h) {
        gp_bench_error(run, name, "no host memory to verify");
        return -1;
    }
    if (gp_buffer_read(buf, 0, h, n * sizeof *h) != GP_OK) {
        free(h);
        gp_bench_error(run, name, "reading the result back");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (h[i] != want) {
            gp_bench_fail(run, name, "element %zu is %g, expected %g", i, (double)h[i],
                          (double)want);
            free(h);
            return -1;
        }
    free(h);
    return 0;
}

int gp_bench_memory(gp_device *dev, const gp_bench_options *opt, gp_bench_run *run)
{
    size_t n = gp_bench_stream_n(&run->dev, opt->quick);
    int samples = opt->quick ? 3 : 10;
    gp_program *prog = NULL;
    gp_buffer *a = NULL, *b = NULL, *c = NULL;
    gp_kernel *k[4] = {NULL, NULL, NULL, NULL};
    static const char *const kn1[4] = {"bench_copy", "bench_scale", "bench_add", "bench_triad"};
    static const char *const kn4[4] = {"bench_copy_x4", "bench_scale_x4", "bench_add_x4",
                                       "bench_triad_x4"};
    /* GPUs get the kernels with four elements per work-item (loads in flight), the host one */
    bool x4 = !gp_bench_on_host(&run->dev);
    const char *const *kn = x4 ? kn4 : kn1;
    static const char *const rn[4] = {"memory.copy", "memory.scale", "memory.add", "memory.triad"};
    static const int words[4] = {2, 2, 3, 3};
    gp_term_progress("bench %s: memory: building the STREAM kernels", run->dev.info.spec);
    if (gp_bench_program(dev, run, false, &prog) != GP_OK) {
        gp_bench_error(run, "memory", "building bench_stream.gpk");
        return -1;
    }
    int rc = -1;
    for (int i = 0; i < 4; i++)
        if (gp_kernel_create(prog, kn[i], &k[i]) != GP_OK) {
            gp_bench_error(run, "memory", "looking up a kernel");
            goto done;
        }
    size_t bytes = n * sizeof(float);
    if (gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes, &a) != GP_OK ||
        gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes, &b) != GP_OK ||
        gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes, &c) != GP_OK) {
        gp_bench_error(run, "memory", "allocating the arrays");
        goto done;
    }
    float one = 1.0f, two = 2.0f, zero = 0.0f, s = 3.0f;
    if (gp_buffer_fill(a, 0, &one, 4, bytes) != GP_OK ||
        gp_buffer_fill(b, 0, &two, 4, bytes) != GP_OK ||
        gp_buffer_fill(c, 0, &zero, 4, bytes) != GP_OK) {
        gp_bench_error(run, "memory", "filling the arrays");
        goto done;
    }
    int ni = (int)n;
    /* copy c=a -> 1; scale b=3c -> 3; add c=a+b -> 4; triad a=b+3c -> 15 */
    gp_arg args[4][5] = {
        {gp_arg_buffer(c), gp_arg_buffer(a), gp_arg_value(&ni, 4)},
        {gp_arg_buffer(b), gp_arg_buffer(c), gp_arg_value(&s, 4), gp_arg_value(&ni, 4)},
        {gp_arg_buffer(c), gp_arg_buffer(a), gp_arg_buffer(b), gp_arg_value(&ni, 4)},
        {gp_arg_buffer(a), gp_arg_buffer(b), gp_arg_buffer(c), gp_arg_value(&s, 4),
         gp_arg_value(&ni, 4)},
    };
    static const uint32_t nargs[4] = {3, 4, 4, 5};
    gp_buffer *out[4] = {c, b, c, a};
    static const float want[4] = {1.0f, 3.0f, 4.0f, 15.0f};
    double sec[16];
    for (int i = 0; i < 4; i++) {
        gp_term_progress("bench %s: %s (%zu MiB arrays)", run->dev.info.spec, rn[i],
                         bytes / GP_MIB);
        size_t global = x4 ? (n + 3) / 4 : n;
        if (gp_bench_time_launches(run->queue, k[i], 1, &global, NULL, nargs[i], args[i], 1) < 0) {
            gp_bench_error(run, rn[i], "launching");
            goto done;
        }
        for (int r = 0; r < samples; r++) {
            double t =
                gp_bench_time_launches(run->queue, k[i], 1, &global, NULL, nargs[i], args[i], 1);
            if (t < 0) {
                gp_bench_error(run, rn[i], "launching");
                goto done;
            }
            sec[r] = (double)words[i] * (double)bytes / t / 1e9;
        }
        if (gp_bench_check(run, rn[i], out[i], n, want[i]) != 0) goto done;
        gp_bench_add(run, rn[i], "GB/s", GP_PEAK_MEMORY, sec, (size_t)samples, (double)bytes);
    }
    rc = 0;
done:
    for (int i = 0; i < 4; i++)
        gp_kernel_release(k[i]);
    gp_device_synchronize(dev);
    gp_buffer_release(a);
    gp_buffer_release(b);
    gp_buffer_release(c);
    gp_program_release(prog);
    return rc;
}
