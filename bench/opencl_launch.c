/*
 * opencl_launch.c — launch + synchronize of an empty kernel on an OpenCL device, through
 * gpuport (gp_kernel_launch + gp_queue_finish) and by calling OpenCL directly
 * (clEnqueueNDRangeKernel + clFinish on the same device, same ICD loader), in one process,
 * rounds interleaved so that both see the same machine. Twice: a kernel without parameters,
 * and one with four (two buffers, a float, an int) that both paths set on every launch.
 * Prints the median per launch of each and their ratio; built and run by
 * bench/opencl_launch.sh.
 *
 * Usage: opencl_launch [ROUNDS [LAUNCHES_PER_ROUND]]   (defaults 30 and 2000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpuport/gpuport.h"
#include "runtime/opencl/device.h"
#include "runtime/opencl/loader.h"
#include "runtime/opencl/program.h"

static double gp_bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int gp_bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double gp_bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, gp_bench_cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define GP_BENCH_CHECK(cond, ...)                                                                  \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "opencl_launch: " __VA_ARGS__);                                        \
            fprintf(stderr, "\n");                                                                 \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* The direct path: what a program using OpenCL itself does, on the same device. */
typedef struct gp_bench_direct {
    const gp_cl_api *api;
    cl_context ctx;
    cl_command_queue queue;
    cl_program program;
    cl_kernel kernel[2]; /* empty, args4 */
    cl_mem buf[2];
} gp_bench_direct;

static void gp_bench_direct_open(gp_bench_direct *d)
{
    char why[2048];
    d->api = gp_cl_api_get(why, sizeof why);
    GP_BENCH_CHECK(d->api, "%s", why);
    gp_cl_device_info *devs = NULL;
    size_t n = 0;
    GP_BENCH_CHECK(gp_cl_devices_enumerate(d->api, &devs, &n, why, sizeof why, NULL) ==
                       GP_CL_ENUM_OK,
                   "%s", why);
    cl_device_id dev = devs[0].device;
    free(devs);
    cl_int err;
    d->ctx = d->api->clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    GP_BENCH_CHECK(d->ctx, "clCreateContext: %d", (int)err);
    d->queue = d->api->clCreateCommandQueue(d->ctx, dev, 0, &err);
    GP_BENCH_CHECK(d->queue, "clCreateCommandQueue: %d", (int)err);
    static const char src[] = "__kernel void empty(void) {}\n"
                              "__kernel void args4(__global float *y, __global const float *x, "
                              "float a, int n) {}\n";
    GP_BENCH_CHECK(gp_cl_program_build_source(d->api, d->ctx, dev, NULL, src, strlen(src),
                                              "empty.cl", NULL, &d->program) == GP_OK,
                   "%s", gp_last_error());
    d->kernel[0] = d->api->clCreateKernel(d->program, "empty", &err);
    GP_BENCH_CHECK(d->kernel[0], "clCreateKernel: %d", (int)err);
    d->kernel[1] = d->api->clCreateKernel(d->program, "args4", &err);
    GP_BENCH_CHECK(d->kernel[1], "clCreateKernel: %d", (int)err);
    for (int i = 0; i < 2; i++) {
        d->buf[i] = d->api->clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
        GP_BENCH_CHECK(d->buf[i], "clCreateBuffer: %d", (int)err);
    }
}

static double gp_bench_direct_round(gp_bench_direct *d, int args, int launches, double *per)
{
    size_t global = 1, local = 1;
    float a = 2.0f;
    int n = 1;
    for (int i = 0; i < launches; i++) {
        double t0 = gp_bench_now_us();
        cl_int e0 = CL_SUCCESS;
        if (args) {
            e0 |= d->api->clSetKernelArg(d->kernel[1], 0, sizeof(cl_mem), &d->buf[0]);
            e0 |= d->api->clSetKernelArg(d->kernel[1], 1, sizeof(cl_mem), &d->buf[1]);
            e0 |= d->api->clSetKernelArg(d->kernel[1], 2, sizeof a, &a);
            e0 |= d->api->clSetKernelArg(d->kernel[1], 3, sizeof n, &n);
        }
        cl_int e1 = d->api->clEnqueueNDRangeKernel(d->queue, d->kernel[args], 1, NULL, &global,
                                                   &local, 0, NULL, NULL);
        cl_int e2 = d->api->clFinish(d->queue);
        per[i] = gp_bench_now_us() - t0;
        GP_BENCH_CHECK(e0 == CL_SUCCESS && e1 == CL_SUCCESS && e2 == CL_SUCCESS,
                       "direct launch: %d %d %d", (int)e0, (int)e1, (int)e2);
    }
    return gp_bench_median(per, (size_t)launches);
}

typedef struct gp_bench_gp {
    gp_device *dev;
    gp_queue *queue;
    gp_program *program;
    gp_kernel *kernel[2]; /* empty, args4 */
    gp_buffer *buf[2];
} gp_bench_gp;

static void gp_bench_gp_open(gp_bench_gp *g)
{
    GP_BENCH_CHECK(gp_device_open("opencl:0", &g->dev) == GP_OK, "%s", gp_last_error());
    GP_BENCH_CHECK(gp_queue_create(g->dev, &g->queue) == GP_OK, "%s", gp_last_error());
    static const char src[] = "GP_KERNEL(empty)\n{\n}\n"
                              "GP_KERNEL(args4, GP_BUF(float, y), GP_CBUF(float, x), "
                              "GP_VAL(float, a), GP_VAL(int, n))\n{\n}\n";
    gp_build_options o = {sizeof o, GP_BUILD_NO_CACHE, "empty.gpk", NULL, 0, 0};
    GP_BENCH_CHECK(gp_program_create(g->dev, src, strlen(src), &o, &g->program) == GP_OK, "%s",
                   gp_last_error());
    GP_BENCH_CHECK(gp_kernel_create(g->program, "empty", &g->kernel[0]) == GP_OK, "%s",
                   gp_last_error());
    GP_BENCH_CHECK(gp_kernel_create(g->program, "args4", &g->kernel[1]) == GP_OK, "%s",
                   gp_last_error());
    for (int i = 0; i < 2; i++)
        GP_BENCH_CHECK(gp_buffer_create(g->dev, GP_BUFFER_DEVICE, 4096, &g->buf[i]) == GP_OK, "%s",
                       gp_last_error());
}

static double gp_bench_gp_round(gp_bench_gp *g, int args, int launches, double *per)
{
    size_t global = 1, group = 1;
    float a = 2.0f;
    int n = 1;
    for (int i = 0; i < launches; i++) {
        double t0 = gp_bench_now_us();
        gp_arg av[4] = {gp_arg_buffer(g->buf[0]), gp_arg_buffer(g->buf[1]),
                        gp_arg_value(&a, sizeof a), gp_arg_value(&n, sizeof n)};
        gp_status s1 = gp_kernel_launch(g->queue, g->kernel[args], 1, &global, &group, args ? 4 : 0,
                                        args ? av : NULL);
        gp_status s2 = gp_queue_finish(g->queue);
        per[i] = gp_bench_now_us() - t0;
        GP_BENCH_CHECK(s1 == GP_OK && s2 == GP_OK, "gpuport launch: %s", gp_last_error());
    }
    return gp_bench_median(per, (size_t)launches);
}

/* Runs `rounds` interleaved rounds of both paths; prints medians and the ratio. */
static void gp_bench_compare(gp_bench_direct *d, gp_bench_gp *g, int args, int rounds, int launches)
{
    double *per = malloc((size_t)launches * sizeof *per);
    double *md = malloc((size_t)rounds * sizeof *md), *mg = malloc((size_t)rounds * sizeof *mg);
    double *ratio = malloc((size_t)rounds * sizeof *ratio);
    GP_BENCH_CHECK(per && md && mg && ratio, "out of memory");
    gp_bench_direct_round(d, args, launches, per); /* warm-up */
    gp_bench_gp_round(g, args, launches, per);
    for (int r = 0; r < rounds; r++) {
        /* alternate which path goes first, so neither always runs on a warmer machine */
        if (r % 2 == 0) {
            md[r] = gp_bench_direct_round(d, args, launches, per);
            mg[r] = gp_bench_gp_round(g, args, launches, per);
        } else {
            mg[r] = gp_bench_gp_round(g, args, launches, per);
            md[r] = gp_bench_direct_round(d, args, launches, per);
        }
        ratio[r] = mg[r] / md[r];
    }
    double rd = gp_bench_median(md, (size_t)rounds), rg = gp_bench_median(mg, (size_t)rounds);
    double rr = gp_bench_median(ratio, (size_t)rounds);
    printf("%s, %d rounds x %d launches, median per launch\n",
           args ? "empty kernel with 4 parameters, set on every launch"
                : "empty kernel without parameters",
           rounds, launches);
    printf("  OpenCL directly (%sclEnqueueNDRangeKernel + clFinish): %.2f us\n",
           args ? "4 x clSetKernelArg + " : "", rd);
    printf("  gpuport (gp_kernel_launch + gp_queue_finish): %.2f us\n", rg);
    printf("  gpuport / direct, median of per-round ratios: %.3f (target <= 1.050)\n", rr);
    free(per);
    free(md);
    free(mg);
    free(ratio);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 30;
    int launches = argc > 2 ? atoi(argv[2]) : 2000;
    GP_BENCH_CHECK(rounds > 0 && launches > 0, "usage: opencl_launch [ROUNDS [LAUNCHES]]");
    gp_bench_direct d;
    gp_bench_gp g;
    gp_bench_direct_open(&d);
    gp_bench_gp_open(&g);
    gp_device_info info;
    gp_device_get_info(g.dev, &info);
    printf("device: %s (%s)\n", info.spec, info.name);
    gp_bench_compare(&d, &g, 0, rounds, launches);
    gp_bench_compare(&d, &g, 1, rounds, launches);
    return 0;
}
