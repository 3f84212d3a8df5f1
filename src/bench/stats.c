/* stats.c — samples to a result: median, min, max, coefficient of variation and p99. The
 * coefficient of variation is the sample standard deviation over the mean; above 5% the figure is
 * flagged as noisy (see report.c). */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "bench/bench.h"
#include "util/sys.h"

static int gp_bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double gp_bench_quantile(const double *s, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)pos;
    if (lo + 1 >= n) return s[n - 1];
    double frac = pos - (double)lo;
    return s[lo] + (s[lo + 1] - s[lo]) * frac;
}

gp_bench_stats gp_bench_stats_of(double *samples, size_t n)
{
    gp_bench_stats st = {NAN, NAN, NAN, NAN, NAN};
    if (n == 0) return st;
    qsort(samples, n, sizeof *samples, gp_bench_cmp_double);
    st.min = samples[0];
    st.max = samples[n - 1];
    st.median = gp_bench_quantile(samples, n, 0.5);
    st.p99 = gp_bench_quantile(samples, n, 0.99);
    double mean = 0;
    for (size_t i = 0; i < n; i++)
        mean += samples[i];
    mean /= (double)n;
    double var = 0;
    for (size_t i = 0; i < n; i++)
        var += (samples[i] - mean) * (samples[i] - mean);
    var = n > 1 ? var / (double)(n - 1) : 0.0;
    st.cv = mean != 0.0 ? sqrt(var) / fabs(mean) : 0.0;
    return st;
}

double gp_bench_now(void)
{
    return gp_monotonic_s();
}
