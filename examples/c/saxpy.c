/* saxpy.c — the smallest gpuport program: y = a*x + y on the best device of this machine.
 * Prints the device that ran it and why that one (the selection record), checks the result.
 * Build: part of the gpuport build (build/example_saxpy). */
#define EXAMPLE_NAME "saxpy"
#include "example.h"

#include <gpuport/gpuport.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kSource =
    "GP_KERNEL(saxpy, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), GP_VAL(int, n))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

int main(void)
{
    gp_device *dev;
    CHECK(example_open_auto(&dev));

    enum { N = 1000003 }; /* not a multiple of any group size */
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    if (!x || !y) return 1;
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 1000) * 0.5f;
        y[i] = (float)(i % 7);
    }
    gp_buffer *bx, *by;
    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, N * sizeof(float), &bx));
    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, N * sizeof(float), &by));
    CHECK(gp_buffer_write(bx, 0, x, N * sizeof(float)));
    CHECK(gp_buffer_write(by, 0, y, N * sizeof(float)));

    gp_build_options opt = {sizeof opt, 0, "saxpy.gpk", NULL, 0, 0};
    gp_program *prog;
    gp_kernel *k;
    CHECK(gp_program_create(dev, kSource, strlen(kSource), &opt, &prog));
    CHECK(gp_kernel_create(prog, "saxpy", &k));
    float a = 2.0f;
    int n = N;
    gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, sizeof a),
                     gp_arg_value(&n, sizeof n)};
    size_t global = N;
    CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, args));
    float *out = malloc(N * sizeof *out);
    if (!out) return 1;
    CHECK(gp_buffer_read(by, 0, out, N * sizeof(float)));

    int bad = 0;
    for (int i = 0; i < N; i++)
        if (fabsf(out[i] - (a * x[i] + y[i])) > 1e-5f * fabsf(a * x[i] + y[i]) + 1e-6f) bad++;
    printf("saxpy on %d floats: %s\n", N, bad ? "WRONG" : "ok");
    gp_kernel_release(k);
    gp_program_release(prog);
    gp_buffer_release(bx);
    gp_buffer_release(by);
    gp_device_release(dev);
    free(x);
    free(y);
    free(out);
    return bad ? 1 : 0;
}
