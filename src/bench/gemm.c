/* gemm.c — SGEMM C = A * B (n x n, FLOPs = 2 n^3) with the dialect's tiled kernel (sgemm.gpk) and
 * with the vendor library of the device where one is present (vendor.c). The inputs are multiples
 * of 1/4 below 1.5 in magnitude, so every partial sum is exact in float whatever the order of the
 * additions: the check compares sampled elements (all of them up to n = 256) exactly with a double
 * reference. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "util/term.h"

static float gp_gemm_a(size_t i, size_t k)
{
    return (float)((int)((i * 3 + k * 5) % 13) - 6) * 0.25f;
}
static float gp_gemm_b(size_t k, size_t j)
{
    return (float)((int)((k * 7 + j * 11) % 11) - 5) * 0.25f;
}

/* 0 when c is A*B at the checked positions; else reports the first difference. */
static int gp_gemm_verify(gp_bench_run *run, const char *name, const float *a, const float *b,
                          const float *c, size_t n)
{
    size_t checks = n <= 256 ? n * n : 1024;
    uint32_t x = 12345;
    for (size_t t = 0; t < checks; t++) {
        size_t i, j;
        if (n <= 256) {
            i = t / n;
            j = t % n;
        } else {
            x = x * 1664525u + 1013904223u;
            i = (x >> 8) % n;
            x = x * 1664525u + 1013904223u;
            j = (x >> 8) % n;
            if (t < 2) i = j = t * (n - 1); /* the corners of the diagonal */
        }
        double want = 0;
        for (size_t k = 0; k < n; k++)
            want += (double)a[i * n + k] * (double)b[k * n + j];
        if ((double)c[i * n + j] != want) {
            gp_bench_fail(run, name, "C[%zu][%zu] is %.9g, expected %.9g", i, j,
                          (double)c[i * n + j], want);
            return -1;
        }
    }
    return 0;
}

static int gp_gemm_dialect(gp_device *dev, gp_kernel *k, const gp_bench_options *opt,
                           gp_bench_run *run, int n, const float *a, const float *b, float *c)
{
    char name[64];
    snprintf(name, sizeof name, "gemm.dialect.%d", n);
    gp_term_progress("bench %s: %s", run->dev.info.spec, name);
    size_t bytes = (size_t)n * n * sizeof(float);
    gp_buffer *da = NULL, *db = NULL, *dc = NULL;
    int rc = -1, samples = opt->quick ? 2 : 5;
    double gf[8];
    if (gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes, &da) != GP_OK ||
        gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes, &db) != GP_OK ||
        gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes, &dc) != GP_OK ||
        gp_buffer_write(da, 0, a, bytes) != GP_OK || gp_buffer_write(db, 0, b, bytes) != GP_OK) {
        gp_bench_error(run, name, "allocating the matrices");
        goto done;
    }
    float nan = NAN;
    if (gp_buffer_fill(dc, 0, &nan, sizeof nan, bytes) != GP_OK) {
        gp_bench_error(run, name, "filling C");
        goto done;
    }
    gp_arg args[4] = {gp_arg_buffer(dc), gp_arg_buffer(da), gp_arg_buffer(db), gp_arg_value(&n, 4)};
    size_t global[2] = {(size_t)n / 4, (size_t)n / 4}, group[2] = {16, 16};
    for (int s = -1; s < samples; s++) {
        double t = gp_bench_time_launches(run->queue, k, 2, global, group, 4, args, 1);
        if (t < 0) {
            gp_bench_error(run, name, "launching");
            goto done;
        }
        if (s >= 0) gf[s] = 2.0 * n * (double)n * n / t / 1e9;
    }
    if (gp_buffer_read(dc, 0, c, bytes) != GP_OK) {
        gp_bench_error(run, name, "reading C");
        goto done;
    }
    if (gp_gemm_verify(run, name, a, b, c, (size_t)n) == 0) {
        gp_bench_add(run, name, "GFLOP/s", GP_PEAK_FP32, gf, (size_t)samples, n);
        rc = 0;
    }
done:
    gp_device_synchronize(dev);
    gp_buffer_release(da);
    gp_buffer_release(db);
    gp_buffer_release(dc);
    return rc;
}

static void gp_gemm_vendor(const gp_bench_options *opt, gp_bench_run *run, int n, const float *a,
                           const float *b, float *c)
{
    int samples = opt->quick ? 2 : 5;
    double sec[8], gf[8];
    char label[48] = "", why[256] = "", name[96];
    gp_term_progress("bench %s: gemm (vendor library) %d", run->dev.info.spec, n);
    memset(c, 0xff, (size_t)n * n * sizeof *c); /* NaN: an untouched C fails the check */
    int r = gp_bench_vendor_sgemm(&run->dev, n, a, b, c, sec, (size_t)samples, label, sizeof label,
                                  why, sizeof why);
    if (r == 2) return; /* no vendor library for this backend */
    snprintf(name, sizeof name, "gemm.%s.%d", label, n);
    if (r == 1) {
        gp_bench_add_absent(run, name, "GFLOP/s", why);
        return;
    }
    if (r != 0) {
        gp_term_progress_done();
        fprintf(stderr, "gpuport bench: %s: %s: %s\n", run->dev.info.spec, name, why);
        run->errors++;
        return;
    }
    for (int s = 0; s < samples; s++)
        gf[s] = 2.0 * n * (double)n * n / sec[s] / 1e9;
    if (gp_gemm_verify(run, name, a, b, c, (size_t)n) == 0)
        gp_bench_add(run, name, "GFLOP/s", GP_PEAK_FP32, gf, (size_t)samples, n);
}

int gp_bench_gemm(gp_device *dev, const gp_bench_options *opt, gp_bench_run *run)
{
    int sizes[2];
    if (opt->quick) {
        sizes[0] = 64;
        sizes[1] = 128;
    } else if (gp_bench_on_host(&run->dev)) {
        sizes[0] = 512;
        sizes[1] = 1024;
    } else {
        sizes[0] = 4096;
        sizes[1] = 8192;
    }
    gp_program *prog = NULL;
    gp_kernel *k = NULL;
    gp_term_progress("bench %s: gemm: building the SGEMM kernel", run->dev.info.spec);
    if (gp_bench_program(dev, run, true, &prog) != GP_OK ||
        gp_kernel_create(prog, "bench_sgemm", &k) != GP_OK) {
        gp_bench_error(run, "gemm", "building bench_sgemm.gpk");
        gp_program_release(prog);
        return -1;
    }
    int rc = 0;
    for (int si = 0; si < 2; si++) {
        int n = sizes[si];
        size_t bytes = (size_t)n * n * sizeof(float);
        const gp_device_info *in = &run->dev.info;
        if ((in->max_buffer_size && bytes > in->max_buffer_size) ||
            (in->total_memory && 3 * bytes > in->total_memory / 2)) {
            char name[64], why[160];
            snprintf(name, sizeof name, "gemm.dialect.%d", n);
            snprintf(why, sizeof why,
                     "skipped: three %d x %d matrices do not fit in half of the "
                     "device's memory",
                     n, n);
            gp_bench_add_absent(run, name, "GFLOP/s", why);
            continue;
        }
        float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
        if (!a || !b || !c) {
            free(a);
            free(b);
            free(c);
            gp_bench_error(run, "gemm", "no host memory for the matrices");
            rc = -1;
            break;
        }
        for (size_t i = 0; i < (size_t)n; i++)
            for (size_t j = 0; j < (size_t)n; j++) {
                a[i * n + j] = gp_gemm_a(i, j);
                b[i * n + j] = gp_gemm_b(i, j);
            }
        if (gp_gemm_dialect(dev, k, opt, run, n, a, b, c) != 0) rc = -1;
        gp_gemm_vendor(opt, run, n, a, b, c);
        free(a);
        free(b);
        free(c);
    }
    gp_kernel_release(k);
    gp_program_release(prog);
    return rc;
}
