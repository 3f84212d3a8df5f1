/* bench_common.h — what the benchmark programs of bench/ share: failing on a gpuport error, a
 * monotonic clock in seconds, and the median of a set of timings. Each program is built on its
 * own by its script; this header is included from the same folder. */
#ifndef GP_BENCH_COMMON_H
#define GP_BENCH_COMMON_H

#include <gpuport/gpuport.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        gp_status st_ = (call);                                                                    \
        if (st_ != GP_OK) {                                                                        \
            fprintf(stderr, "%s: %s: %s\n", #call, gp_status_name(st_), gp_last_error());          \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v. */
static inline double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
