/* reduction.c — summing a large array on the best device: each work-group reduces its part, the
 * partial sums come back to the host. Within a group, SIMD-group shuffles where the device has
 * them (CUDA, Apple GPUs, the CPU), a shared-memory tree with barriers on OpenCL, which has none:
 * one source, chosen per target with #if. Prints the device, why that one, and checks the sum
 * against a double-precision sum on the host. */
#define EXAMPLE_NAME "reduction"
#include "example.h"

#include <gpuport/gpuport.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUP 256

static const char *kSource =
    "GP_KERNEL(partial_sums, GP_BUF(float, out), GP_CBUF(float, in), GP_VAL(int, n))\n"
    "{\n"
    "    GP_SHARED_DECL float scratch[GROUP];\n"
    "    int lid = gp_local_id(0);\n"
    "    float acc = 0.0f;\n"
    "    /* each work-item first adds a strided slice, then the group reduces in a tree */\n"
    "    for (int i = gp_global_id(0); i < n; i += gp_global_size(0)) acc += in[i];\n"
    "#if defined(GP_TARGET_OPENCL)\n"
    "    scratch[lid] = acc;\n"
    "    gp_barrier();\n"
    "    for (int s = GROUP / 2; s > 0; s /= 2) {\n"
    "        if (lid < s) scratch[lid] += scratch[lid + s];\n"
    "        gp_barrier();\n"
    "    }\n"
    "    if (lid == 0) out[gp_group_id(0)] = scratch[0];\n"
    "#else\n"
    "    /* each SIMD group adds its lanes by shuffles; lane 0 of each leaves its sum in shared\n"
    "     * memory, and the first SIMD group adds those the same way */\n"
    "    for (int off = gp_simd_width() / 2; off > 0; off /= 2)\n"
    "        acc += gp_simd_shuffle_down(acc, off);\n"
    "    if (gp_simd_lane() == 0) scratch[lid / gp_simd_width()] = acc;\n"
    "    gp_barrier();\n"
    "    if (lid < gp_simd_width()) {\n"
    "        acc = lid < GROUP / gp_simd_width() ? scratch[lid] : 0.0f;\n"
    "        for (int off = gp_simd_width() / 2; off > 0; off /= 2)\n"
    "            acc += gp_simd_shuffle_down(acc, off);\n"
    "        if (lid == 0) out[gp_group_id(0)] = acc;\n"
    "    }\n"
    "#endif\n"
    "}\n";

int main(void)
{
    gp_device *dev;
    CHECK(example_open_auto(&dev));

    const int n = 10 * 1000 * 1000, groups = 64;
    float *x = malloc((size_t)n * sizeof *x);
    if (!x) return 1;
    double ref = 0;
    for (int i = 0; i < n; i++) {
        x[i] = (float)((i % 1000) - 500) * 0.001f;
        ref += x[i];
    }
    gp_buffer *bx, *bp;
    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, (size_t)n * sizeof(float), &bx));
    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, groups * sizeof(float), &bp));
    CHECK(gp_buffer_write(bx, 0, x, (size_t)n * sizeof(float)));

    const char *defs[] = {"GROUP=256"};
    gp_build_options opt = {sizeof opt, 0, "reduction.gpk", defs, 1, 0};
    gp_program *prog;
    gp_kernel *k;
    CHECK(gp_program_create(dev, kSource, strlen(kSource), &opt, &prog));
    CHECK(gp_kernel_create(prog, "partial_sums", &k));
    gp_arg args[] = {gp_arg_buffer(bp), gp_arg_buffer(bx), gp_arg_value(&n, sizeof n)};
    size_t global = (size_t)groups * GROUP, group = GROUP;
    gp_queue *q;
    gp_event *t0, *t1;
    CHECK(gp_device_queue(dev, &q));
    CHECK(gp_event_record(q, &t0));
    CHECK(gp_kernel_launch(q, k, 1, &global, &group, 3, args));
    CHECK(gp_event_record(q, &t1));
    float partial[64];
    CHECK(gp_buffer_read(bp, 0, partial, sizeof partial));
    double ms = 0;
    CHECK(gp_event_elapsed_ms(t0, t1, &ms));
    double sum = 0;
    for (int g = 0; g < groups; g++)
        sum += partial[g];
    double err = fabs(sum - ref) / (fabs(ref) + (double)n * 1e-3);
    int ok = err < 1e-4;
    printf("sum of %d floats: %.6f (host %.6f) in %.3f ms: %s\n", n, sum, ref, ms,
           ok ? "ok" : "WRONG");
    gp_event_release(t0);
    gp_event_release(t1);
    gp_kernel_release(k);
    gp_program_release(prog);
    gp_buffer_release(bx);
    gp_buffer_release(bp);
    gp_device_release(dev);
    free(x);
    return ok ? 0 : 1;
}
