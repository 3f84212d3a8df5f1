/* run.c — the result list of one device and the order the benchmarks run in. A benchmark that
 * cannot run (a runtime error) is counted as an error; a wrong result as a failure. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "util/term.h"

gp_bench_result *gp_bench_add(gp_bench_run *run, const char *name, const char *unit,
                              gp_bench_peak_kind peak, const double *samples, size_t n, double size)
{
    if (run->count == run->cap) {
        size_t cap = run->cap ? run->cap * 2 : 32;
        gp_bench_result *r = realloc(run->results, cap * sizeof *r);
        if (!r) return NULL;
        run->results = r;
        run->cap = cap;
    }
    gp_bench_result *r = &run->results[run->count++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->unit, sizeof r->unit, "%s", unit);
    r->size = size;
    r->higher_is_better = strcmp(unit, "us") != 0;
    double *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp) {
        run->count--;
        return NULL;
    }
    memcpy(tmp, samples, n * sizeof *tmp);
    gp_bench_stats st = gp_bench_stats_of(tmp, n);
    free(tmp);
    r->median = st.median;
    r->min = st.min;
    r->max = st.max;
    r->cv = st.cv;
    r->fraction = NAN;
    r->peak_kind = (int)peak;
    if (peak == GP_PEAK_NONE) {
        snprintf(r->peak_source, sizeof r->peak_source, "no peak: a latency");
    } else {
        const gp_bench_peak *p = &run->dev.peaks[peak];
        r->peak = p->value;
        snprintf(r->peak_source, sizeof r->peak_source, "%s", p->source);
        if (p->value > 0) r->fraction = r->median / p->value;
    }
    return r;
}

void gp_bench_add_absent(gp_bench_run *run, const char *name, const char *unit, const char *why)
{
    double none = NAN;
    gp_bench_result *r = gp_bench_add(run, name, unit, GP_PEAK_NONE, &none, 0, 0);
    if (r) snprintf(r->peak_source, sizeof r->peak_source, "%s", why);
}

void gp_bench_run_free(gp_bench_run *run)
{
    free(run->results);
    run->results = NULL;
    run->count = run->cap = 0;
}

void gp_bench_fail(gp_bench_run *run, const char *name, const char *fmt, ...)
{
    gp_term_progress_done();
    fprintf(stderr, "gpuport bench: %s: %s: wrong result: ", run->dev.info.spec, name);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    run->failures++;
}

void gp_bench_error(gp_bench_run *run, const char *name, const char *what)
{
    gp_term_progress_done();
    fprintf(stderr, "gpuport bench: %s: %s: %s: %s\n", run->dev.info.spec, name, what,
            gp_last_error());
    run->errors++;
}

int gp_bench_device_run(gp_device *device, const gp_bench_options *opt, gp_bench_run *run,
                        char *err, size_t errlen)
{
    memset(run, 0, sizeof *run);
    gp_bench_describe(device, opt, &run->dev);
    if (!run->dev.info.spec[0]) {
        snprintf(err, errlen, "cannot describe the device: %s", gp_last_error());
        return -1;
    }
    if (gp_device_queue(device, &run->queue) != GP_OK) {
        snprintf(err, errlen, "no default queue: %s", gp_last_error());
        return -1;
    }
    if (opt->only & GP_BENCH_MEMORY) gp_bench_memory(device, opt, run);
    if (opt->only & GP_BENCH_TRANSFER) gp_bench_transfer(device, opt, run);
    if (opt->only & GP_BENCH_LAUNCH) gp_bench_launch(device, opt, run);
    if (opt->only & GP_BENCH_GEMM) gp_bench_gemm(device, opt, run);
    gp_term_progress_done();
    return 0;
}

bool gp_bench_on_host(const gp_bench_device *d)
{
    return d->info.backend == GP_BACKEND_CPU ||
           (d->info.backend == GP_BACKEND_OPENCL && d->info.unified_memory);
}

gp_status gp_bench_program(gp_device *dev, gp_bench_run *run, bool sgemm, gp_program **out)
{
    const char *name = sgemm ? "bench_sgemm" : "bench_stream";
    char file[32];
    snprintf(file, sizeof file, "%s.gpk", name);
    gp_build_options o = {sizeof o, 0, file, NULL, 0, 0};
    gp_status st =
        sgemm ? gp_program_create(dev, gp_bench_src_sgemm, gp_bench_src_sgemm_len, &o, out)
              : gp_program_create(dev, gp_bench_src_stream, gp_bench_src_stream_len, &o, out);
    if (st != GP_ERR_UNSUPPORTED) return st;
    /* no compiler for this device: the copy compiled into the library when it was built (CPU
     * code for the build machine's baseline, PTX where nvcc was there) */
    char why[300];
    snprintf(why, sizeof why, "%s", gp_last_error());
    st = gp_program_create_builtin(dev, name, out);
    if (st == GP_OK && !run->dev.kernels_note[0])
        snprintf(run->dev.kernels_note, sizeof run->dev.kernels_note,
                 "built into libgpuport, not compiled for this device (%s)", why);
    return st;
}

double gp_bench_time_launches(gp_queue *q, gp_kernel *k, uint32_t dims, const size_t *global,
                              const size_t *group, uint32_t nargs, const gp_arg *args, int reps)
{
    gp_event *e0 = NULL, *e1 = NULL;
    double t0 = gp_bench_now();
    if (gp_event_record(q, &e0) != GP_OK) return -1;
    for (int r = 0; r < reps; r++)
        if (gp_kernel_launch(q, k, dims, global, group, nargs, args) != GP_OK) {
            gp_event_release(e0);
            return -1;
        }
    if (gp_event_record(q, &e1) != GP_OK || gp_event_wait(e1) != GP_OK) {
        gp_event_release(e0);
        gp_event_release(e1);
        return -1;
    }
    double host = gp_bench_now() - t0;
    double ms = 0;
    gp_status st = gp_event_elapsed_ms(e0, e1, &ms);
    gp_event_release(e0);
    gp_event_release(e1);
    return st == GP_OK && ms > 0 ? ms / 1e3 : host;
}
