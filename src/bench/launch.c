/* launch.c — launch latency of the empty kernel: the back-to-back submit rate (many launches, one
 * finish; microseconds per launch) and the launch + finish round trip, each timed on the host,
 * reported as the p50 and p99 of each sample. The empty kernel writes nothing; what is checked is
 * that every launch and finish succeeds. */
#include <math.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "util/term.h"

int gp_bench_launch(gp_device *dev, const gp_bench_options *opt, gp_bench_run *run)
{
    int samples = opt->quick ? 3 : 7;
    int burst = opt->quick ? 200 : 2000;
    int trips = opt->quick ? 100 : 1000;
    gp_program *prog = NULL;
    gp_kernel *k = NULL;
    gp_term_progress("bench %s: launch", run->dev.info.spec);
    if (gp_bench_program(dev, run, false, &prog) != GP_OK ||
        gp_kernel_create(prog, "bench_empty", &k) != GP_OK) {
        gp_bench_error(run, "launch", "building bench_stream.gpk");
        gp_program_release(prog);
        return -1;
    }
    int unused = 0;
    gp_arg arg = gp_arg_value(&unused, sizeof unused);
    size_t one = 1;
    double submit[16], p50[16], p99[16];
    double *rt = malloc((size_t)trips * sizeof *rt);
    int rc = -1;
    if (!rt) goto done;
    /* warm-up: the first launches pay for lazy set-up */
    for (int i = 0; i < 10; i++)
        if (gp_kernel_launch(run->queue, k, 1, &one, NULL, 1, &arg) != GP_OK) goto fail;
    if (gp_queue_finish(run->queue) != GP_OK) goto fail;
    for (int s = 0; s < samples; s++) {
        gp_term_progress("bench %s: launch.submit (sample %d/%d)", run->dev.info.spec, s + 1,
                         samples);
        double t0 = gp_bench_now();
        for (int i = 0; i < burst; i++)
            if (gp_kernel_launch(run->queue, k, 1, &one, NULL, 1, &arg) != GP_OK) goto fail;
        if (gp_queue_finish(run->queue) != GP_OK) goto fail;
        submit[s] = (gp_bench_now() - t0) / burst * 1e6;
        for (int i = 0; i < trips; i++) {
            double a = gp_bench_now();
            if (gp_kernel_launch(run->queue, k, 1, &one, NULL, 1, &arg) != GP_OK ||
                gp_queue_finish(run->queue) != GP_OK)
                goto fail;
            rt[i] = (gp_bench_now() - a) * 1e6;
        }
        gp_bench_stats st = gp_bench_stats_of(rt, (size_t)trips);
        p50[s] = st.median;
        p99[s] = st.p99;
    }
    gp_bench_add(run, "launch.submit", "us", GP_PEAK_NONE, submit, (size_t)samples, 0);
    gp_bench_add(run, "launch.roundtrip.p50", "us", GP_PEAK_NONE, p50, (size_t)samples, 0);
    gp_bench_add(run, "launch.roundtrip.p99", "us", GP_PEAK_NONE, p99, (size_t)samples, 0);
    rc = 0;
    goto done;
fail:
    gp_bench_error(run, "launch", "launching the empty kernel");
done:
    free(rt);
    gp_kernel_release(k);
    gp_program_release(prog);
    return rc;
}
