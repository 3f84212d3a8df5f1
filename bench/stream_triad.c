/* stream_triad.c — the CPU backend's dialect triad (exactly what `gpuport bench --only memory`
 * measures: src/bench/memory.c through the public API) beside a STREAM-style OpenMP triad compiled
 * with -O3 -fopenmp into this program, in the same run, on arrays of the same size. Rounds
 * alternate which runs first. Built and run by bench/stream_triad.sh. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

/* STREAM's triad on floats: a = b + s c, 3 words per element; best and median of 10 after 1. */
static void omp_triad(float *a, const float *b, const float *c, long n, double *best, double *med)
{
    double gbs[10];
    const float s = 3.0f;
    for (int r = -1; r < 10; r++) {
        double t0 = gp_bench_now();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
        double t = gp_bench_now() - t0;
        if (r >= 0) gbs[r] = 3.0 * sizeof(float) * (double)n / t / 1e9;
    }
    for (long i = 0; i < n; i += 4099)
        if (a[i] != 2.0f + 3.0f * 1.0f) {
            fprintf(stderr, "stream_triad: the OpenMP triad is wrong at %ld\n", i);
            exit(1);
        }
    gp_bench_stats st = gp_bench_stats_of(gbs, 10);
    *best = st.max;
    *med = st.median;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 3;
    gp_device *dev;
    if (gp_device_open("cpu", &dev) != GP_OK) {
        fprintf(stderr, "stream_triad: %s\n", gp_last_error());
        return 3;
    }
    gp_bench_options opt;
    memset(&opt, 0, sizeof opt);
    opt.only = GP_BENCH_MEMORY;
    gp_bench_run run;
    char err[256];
    if (gp_bench_device_run(dev, &opt, &run, err, sizeof err) != 0 || run.failures || run.errors) {
        fprintf(stderr, "stream_triad: gpuport bench failed: %s\n", err);
        return 3;
    }
    /* the same element count as the dialect run: the triad row's size is its array bytes */
    long n = 0;
    for (size_t i = 0; i < run.count; i++)
        if (!strcmp(run.results[i].name, "memory.triad")) n = (long)(run.results[i].size / 4);
    gp_bench_run_free(&run);
    float *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4), *c = malloc((size_t)n * 4);
    if (!a || !b || !c) return 3;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) { /* first touch by the threads that use the pages */
        a[i] = 0.0f;
        b[i] = 2.0f;
        c[i] = 1.0f;
    }
    printf("arrays of %ld floats (%.0f MiB each), %d OpenMP threads, %d rounds\n", n,
           n * 4.0 / 1048576, omp_get_max_threads(), rounds);
    printf("%-6s %14s %14s %14s %14s %9s %9s\n", "round", "omp best GB/s", "omp median",
           "gpuport best", "gpuport median", "best %", "median %");
    for (int r = 0; r < rounds; r++) {
        double ob = 0, om = 0, gb = 0, gm = 0;
        for (int side = 0; side < 2; side++) {
            if ((side + r) % 2 == 0) {
                omp_triad(a, b, c, n, &ob, &om);
            } else {
                if (gp_bench_device_run(dev, &opt, &run, err, sizeof err) != 0 || run.failures ||
                    run.errors)
                    return 3;
                for (size_t i = 0; i < run.count; i++)
                    if (!strcmp(run.results[i].name, "memory.triad")) {
                        gb = run.results[i].max;
                        gm = run.results[i].median;
                    }
                gp_bench_run_free(&run);
            }
        }
        printf("%-6d %14.2f %14.2f %14.2f %14.2f %8.0f%% %8.0f%%\n", r + 1, ob, om, gb, gm,
               100 * gb / ob, 100 * gm / om);
    }
    free(a);
    free(b);
    free(c);
    gp_device_release(dev);
    return 0;
}
