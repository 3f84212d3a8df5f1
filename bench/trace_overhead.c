/*
 * trace_overhead.c — what recording the timeline costs a launch-heavy loop: 10,000 launches of a
 * small kernel (ITEMS work-items adding one, 256 by default) and a synchronize, with tracing off
 * and on (gp_trace_start(NULL): recorded, no file), rounds alternating which goes first. Prints the
 * median loop time of each, the median of the per-round on/off ratios (target <= 1.05), the best
 * round of each (the least disturbed by other work on the machine: what a traced launch costs
 * itself), and what gp_trace_stop then takes (reading the device times). With CONTROL_NS, a third
 * loop, untraced, does that many nanoseconds of busy work on the host after each launch, in the
 * same rotation: what any such work between launches does to the loop. Built and run by
 * bench/trace_overhead.sh.
 *
 * Usage: trace_overhead DEVICE [ROUNDS [LAUNCHES [ITEMS [CONTROL_NS]]]]
 *        (defaults cpu, 31, 10000, 256, 0)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpuport/gpuport.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if ((call) != GP_OK) {                                                                     \
            fprintf(stderr, "trace_overhead: %s: %s\n", #call, gp_last_error());                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static volatile unsigned spin_sink;
static double spins_per_ns;

/* About ns nanoseconds of work on the host that touches nothing shared. */
static void spin(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        spin_sink = i;
}

/* Iterations of spin() per nanosecond: the best of several tries (others' work only slows it). */
static void calibrate(void)
{
    for (int t = 0; t < 20; t++) {
        double t0 = now_ms();
        spin(1000000);
        double per = 1000000 / ((now_ms() - t0) * 1e6);
        if (per > spins_per_ns) spins_per_ns = per;
    }
}

static gp_kernel *k;
static gp_buffer *buf;
static gp_device *dev;
static int items = 256;

static double loop(int launches, unsigned work)
{
    int n = items;
    gp_arg args[] = {gp_arg_buffer(buf), gp_arg_value(&n, sizeof n)};
    size_t global = (size_t)items, group = 64;
    double t0 = now_ms();
    if (work) {
        for (int i = 0; i < launches; i++) {
            CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 2, args));
            spin(work);
        }
    } else {
        for (int i = 0; i < launches; i++)
            CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 2, args));
    }
    CHECK(gp_device_synchronize(dev));
    return now_ms() - t0;
}

static double least(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; i++)
        if (v[i] < m) m = v[i];
    return m;
}

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : "cpu";
    int rounds = argc > 2 ? atoi(argv[2]) : 31, launches = argc > 3 ? atoi(argv[3]) : 10000;
    items = argc > 4 ? atoi(argv[4]) : 256;
    int control_ns = argc > 5 ? atoi(argv[5]) : 0;
    if (rounds < 1 || launches < 1 || items < 64 || items % 64 || control_ns < 0) return 2;
    static const char src[] = "GP_KERNEL(add_one, GP_BUF(int, v), GP_VAL(int, n))\n{\n"
                              "    int i = gp_global_id(0);\n    if (i < n) v[i] += 1;\n}\n";
    CHECK(gp_device_open(spec, &dev));
    gp_program *p;
    CHECK(gp_program_create(dev, src, strlen(src), NULL, &p));
    CHECK(gp_kernel_create(p, "add_one", &k));
    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, (size_t)items * sizeof(int), &buf));
    int zero = 0;
    CHECK(gp_buffer_fill(buf, 0, &zero, sizeof zero, (size_t)items * sizeof(int)));
    unsigned work = 0;
    if (control_ns) {
        calibrate();
        work = (unsigned)(control_ns * spins_per_ns + 0.5);
        if (!work) work = 1;
    }
    int loops = control_ns ? 3 : 2; /* off, on, control */
    double *t[3], *ratio[3], *stop = malloc(sizeof(double) * (size_t)rounds);
    for (int j = 0; j < 3; j++) {
        t[j] = malloc(sizeof(double) * (size_t)rounds);
        ratio[j] = malloc(sizeof(double) * (size_t)rounds);
        if (!t[j] || !ratio[j]) return 1;
    }
    if (!stop) return 1;
    loop(launches, 0); /* warm-up */
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < loops; i++) {
            int j = (i + r) % loops; /* each goes first in turn */
            if (j == 1) {
                CHECK(gp_trace_start(NULL));
                t[1][r] = loop(launches, 0);
                double t0 = now_ms();
                CHECK(gp_trace_stop());
                stop[r] = now_ms() - t0;
            } else {
                t[j][r] = loop(launches, j == 2 ? work : 0);
            }
        }
        for (int j = 1; j < loops; j++)
            ratio[j][r] = t[j][r] / t[0][r];
    }
    gp_device_info info;
    CHECK(gp_device_get_info(dev, &info));
    printf("%s (%s), %d rounds x %d launches of a %d-item kernel + synchronize\n", info.spec,
           info.name, rounds, launches, items);
    double us = 1e3 / launches, best_off = least(t[0], rounds), best_on = least(t[1], rounds);
    printf("  tracing off: %.2f ms per loop (%.3f us per launch)\n", median(t[0], rounds),
           median(t[0], rounds) * us);
    printf("  tracing on:  %.2f ms per loop (%.3f us per launch)\n", median(t[1], rounds),
           median(t[1], rounds) * us);
    printf("  on / off, median of per-round ratios: %.3f (target <= 1.050)\n",
           median(ratio[1], rounds));
    printf("  best round: off %.3f us, on %.3f us per launch (%+.0f ns per traced launch)\n",
           best_off * us, best_on * us, (best_on - best_off) * us * 1e3);
    if (control_ns)
        printf("  control, untraced + %d ns of host work per launch: %.3f us per launch, "
               "median ratio to off %.3f\n",
               control_ns, median(t[2], rounds) * us, median(ratio[2], rounds));
    printf("  gp_trace_stop afterwards (device times read): %.2f ms\n", median(stop, rounds));
    gp_buffer_release(buf);
    gp_kernel_release(k);
    gp_program_release(p);
    gp_device_release(dev);
    for (int j = 0; j < 3; j++) {
        free(t[j]);
        free(ratio[j]);
    }
    free(stop);
    return 0;
}
