/*
 * trace_overhead.c — what recording the timeline costs a launch-heavy loop: 10,000 launches of a
 * small kernel (ITEMS work-items adding one, 256 by default) and a synchronize, with tracing off
 * and on (gp_trace_start(NULL): recorded, no file), rounds alternating which goes first. Prints the
 * median loop time of each, the median of the per-round on/off ratios (target <= 1.05), and
 * what gp_trace_stop then takes (reading the device times). Built and run by
 * bench/trace_overhead.sh.
 *
 * Usage: trace_overhead DEVICE [ROUNDS [LAUNCHES [ITEMS]]]   (defaults cpu, 11, 10000, 256)
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

static gp_kernel *k;
static gp_buffer *buf;
static gp_device *dev;
static int items = 256;

static double loop(int launches)
{
    int n = items;
    gp_arg args[] = {gp_arg_buffer(buf), gp_arg_value(&n, sizeof n)};
    size_t global = (size_t)items, group = 64;
    double t0 = now_ms();
    for (int i = 0; i < launches; i++)
        CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 2, args));
    CHECK(gp_device_synchronize(dev));
    return now_ms() - t0;
}

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : "cpu";
    int rounds = argc > 2 ? atoi(argv[2]) : 11, launches = argc > 3 ? atoi(argv[3]) : 10000;
    items = argc > 4 ? atoi(argv[4]) : 256;
    if (rounds < 1 || launches < 1 || items < 64 || items % 64) return 2;
    static const char src[] = "GP_KERNEL(add_one, GP_BUF(int, v), GP_VAL(int, n))\n{\n"
                              "    int i = gp_global_id(0);\n    if (i < n) v[i] += 1;\n}\n";
    CHECK(gp_device_open(spec, &dev));
    gp_program *p;
    CHECK(gp_program_create(dev, src, strlen(src), NULL, &p));
    CHECK(gp_kernel_create(p, "add_one", &k));
    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, (size_t)items * sizeof(int), &buf));
    int zero = 0;
    CHECK(gp_buffer_fill(buf, 0, &zero, sizeof zero, (size_t)items * sizeof(int)));
    double *off = malloc(sizeof(double) * (size_t)rounds),
           *on = malloc(sizeof(double) * (size_t)rounds);
    double *ratio = malloc(sizeof(double) * (size_t)rounds),
           *stop = malloc(sizeof(double) * (size_t)rounds);
    if (!off || !on || !ratio || !stop) return 1;
    loop(launches); /* warm-up */
    for (int r = 0; r < rounds; r++) {
        for (int j = 0; j < 2; j++) {
            if ((j == 0) == (r % 2 == 0)) {
                off[r] = loop(launches);
            } else {
                CHECK(gp_trace_start(NULL));
                on[r] = loop(launches);
                double t = now_ms();
                CHECK(gp_trace_stop());
                stop[r] = now_ms() - t;
            }
        }
        ratio[r] = on[r] / off[r];
    }
    gp_device_info info;
    CHECK(gp_device_get_info(dev, &info));
    printf("%s (%s), %d rounds x %d launches of a %d-item kernel + synchronize\n", info.spec,
           info.name, rounds, launches, items);
    double mr = median(ratio, rounds);
    printf("  tracing off: %.2f ms per loop (%.2f us per launch)\n", median(off, rounds),
           median(off, rounds) * 1e3 / launches);
    printf("  tracing on:  %.2f ms per loop (%.2f us per launch)\n", median(on, rounds),
           median(on, rounds) * 1e3 / launches);
    printf("  on / off, median of per-round ratios: %.3f (target <= 1.050)\n", mr);
    printf("  gp_trace_stop afterwards (device times read): %.2f ms\n", median(stop, rounds));
    gp_buffer_release(buf);
    gp_kernel_release(k);
    gp_program_release(p);
    gp_device_release(dev);
    free(off);
    free(on);
    free(ratio);
    free(stop);
    return 0;
}
