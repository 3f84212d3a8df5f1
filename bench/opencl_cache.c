/*
 * opencl_cache.c — one process that builds a program on an OpenCL device through gpuport's
 * kernel cache (and, with "launch", runs each kernel once), for bench/opencl_cache.sh to time
 * cold (empty cache) against warm (an earlier process stored the OpenCL binary).
 *
 * Usage: opencl_cache CACHE_DIR [launch]
 */
#include <stdio.h>
#include <string.h>

#include "gpuport/gpuport.h"

static const char gp_bench_src[] =
    "GP_KERNEL(saxpy, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), GP_VAL(int, n))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "GP_KERNEL(block_sum, GP_BUF(float, out), GP_CBUF(float, in), GP_VAL(int, n))\n"
    "{\n"
    "    GP_SHARED_DECL float tmp[256];\n"
    "    int l = gp_local_id(0), i = gp_global_id(0);\n"
    "    tmp[l] = i < n ? in[i] : 0.0f;\n"
    "    gp_barrier();\n"
    "    for (int s = 128; s > 0; s >>= 1) {\n"
    "        if (l < s) tmp[l] += tmp[l + s];\n"
    "        gp_barrier();\n"
    "    }\n"
    "    if (l == 0) out[gp_group_id(0)] = tmp[0];\n"
    "}\n"
    "GP_KERNEL(histogram, GP_BUF(int, bins), GP_CBUF(int, data), GP_VAL(int, n), GP_VAL(int, nb))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i < n) gp_atomic_add(&bins[((data[i] % nb) + nb) % nb], 1);\n"
    "}\n";

#define GP_BENCH_TRY(call)                                                                         \
    do {                                                                                           \
        if ((call) != GP_OK) {                                                                     \
            fprintf(stderr, "opencl_cache: %s\n", gp_last_error());                                \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: opencl_cache CACHE_DIR [launch]\n");
        return 2;
    }
    int launch = argc > 2 && strcmp(argv[2], "launch") == 0;
    gp_device *dev;
    gp_program *prog;
    GP_BENCH_TRY(gp_cache_set_dir(argv[1]));
    GP_BENCH_TRY(gp_device_open("opencl:0", &dev));
    gp_build_options o = {sizeof o, 0, "bench.gpk", NULL, 0, 0};
    GP_BENCH_TRY(gp_program_create(dev, gp_bench_src, strlen(gp_bench_src), &o, &prog));
    if (launch) {
        gp_buffer *a, *b;
        GP_BENCH_TRY(gp_buffer_create(dev, GP_BUFFER_DEVICE, 1024 * 4, &a));
        GP_BENCH_TRY(gp_buffer_create(dev, GP_BUFFER_DEVICE, 1024 * 4, &b));
        int zero = 0;
        GP_BENCH_TRY(gp_buffer_fill(a, 0, &zero, 4, 1024 * 4));
        GP_BENCH_TRY(gp_buffer_fill(b, 0, &zero, 4, 1024 * 4));
        float f = 1.0f;
        int n = 1024, nb = 16;
        size_t global = 1024, group = 256;
        const char *names[] = {"saxpy", "block_sum", "histogram"};
        gp_arg args[3][4] = {
            {gp_arg_buffer(a), gp_arg_buffer(b), gp_arg_value(&f, 4), gp_arg_value(&n, 4)},
            {gp_arg_buffer(a), gp_arg_buffer(b), gp_arg_value(&n, 4)},
            {gp_arg_buffer(a), gp_arg_buffer(b), gp_arg_value(&n, 4), gp_arg_value(&nb, 4)}};
        uint32_t nargs[] = {4, 3, 4};
        for (int i = 0; i < 3; i++) {
            gp_kernel *k;
            GP_BENCH_TRY(gp_kernel_create(prog, names[i], &k));
            GP_BENCH_TRY(gp_kernel_launch(NULL, k, 1, &global, &group, nargs[i], args[i]));
            gp_kernel_release(k);
        }
        GP_BENCH_TRY(gp_device_synchronize(dev));
        gp_buffer_release(a);
        gp_buffer_release(b);
    }
    gp_program_release(prog);
    gp_device_release(dev);
    return 0;
}
