/* matmul.c — tiled matrix multiply C = A x B on the best device: each work-group loads TILE x TILE
 * blocks of A and B into shared memory, waits at a barrier, multiplies, and moves on. Sizes are
 * not multiples of the tile. Prints the device and why, checks against a host multiply. */
#define EXAMPLE_NAME "matmul"
#include "example.h"

#include <gpuport/gpuport.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kSource =
    "#define TILE 16\n"
    "GP_KERNEL(matmul, GP_BUF(float, c), GP_CBUF(float, a), GP_CBUF(float, b),\n"
    "          GP_VAL(int, m), GP_VAL(int, n), GP_VAL(int, k))\n"
    "{\n"
    "    GP_SHARED_DECL float ta[TILE][TILE];\n"
    "    GP_SHARED_DECL float tb[TILE][TILE];\n"
    "    int col = gp_global_id(0), row = gp_global_id(1);\n"
    "    int lx = gp_local_id(0), ly = gp_local_id(1);\n"
    "    float acc = 0.0f;\n"
    "    for (int t = 0; t < k; t += TILE) {\n"
    "        ta[ly][lx] = row < m && t + lx < k ? a[row * k + t + lx] : 0.0f;\n"
    "        tb[ly][lx] = col < n && t + ly < k ? b[(t + ly) * n + col] : 0.0f;\n"
    "        gp_barrier();\n"
    "        for (int i = 0; i < TILE; i++) acc += ta[ly][i] * tb[i][lx];\n"
    "        gp_barrier();\n"
    "    }\n"
    "    if (row < m && col < n) c[row * n + col] = acc;\n"
    "}\n";

int main(void)
{
    gp_device *dev;
    CHECK(example_open_auto(&dev));

    const int m = 200, n = 150, k = 90;
    float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n);
    float *c = malloc(sizeof(float) * m * n), *ref = malloc(sizeof(float) * m * n);
    if (!a || !b || !c || !ref) return 1;
    for (int i = 0; i < m * k; i++)
        a[i] = (float)((i * 7) % 13) * 0.1f - 0.6f;
    for (int i = 0; i < k * n; i++)
        b[i] = (float)((i * 5) % 11) * 0.1f - 0.5f;
    for (int r = 0; r < m; r++)
        for (int col = 0; col < n; col++) {
            double s = 0;
            for (int i = 0; i < k; i++)
                s += (double)a[r * k + i] * b[i * n + col];
            ref[r * n + col] = (float)s;
        }
    gp_buffer *ba, *bb, *bc;
    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, sizeof(float) * m * k, &ba));
    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, sizeof(float) * k * n, &bb));
    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, sizeof(float) * m * n, &bc));
    CHECK(gp_buffer_write(ba, 0, a, sizeof(float) * m * k));
    CHECK(gp_buffer_write(bb, 0, b, sizeof(float) * k * n));

    gp_build_options opt = {sizeof opt, 0, "matmul.gpk", NULL, 0, 0};
    gp_program *prog;
    gp_kernel *kern;
    CHECK(gp_program_create(dev, kSource, strlen(kSource), &opt, &prog));
    CHECK(gp_kernel_create(prog, "matmul", &kern));
    gp_arg args[] = {gp_arg_buffer(bc),          gp_arg_buffer(ba),
                     gp_arg_buffer(bb),          gp_arg_value(&m, sizeof m),
                     gp_arg_value(&n, sizeof n), gp_arg_value(&k, sizeof k)};
    size_t global[2] = {(size_t)n, (size_t)m}, group[2] = {16, 16};
    CHECK(gp_kernel_launch(NULL, kern, 2, global, group, 6, args));
    CHECK(gp_buffer_read(bc, 0, c, sizeof(float) * m * n));

    double num = 0, den = 0;
    for (int i = 0; i < m * n; i++) {
        num += (double)(c[i] - ref[i]) * (c[i] - ref[i]);
        den += (double)ref[i] * ref[i];
    }
    double nmse = num / den;
    int ok = nmse < 1e-10;
    printf("%dx%d times %dx%d: NMSE %.3g against the host: %s\n", m, k, k, n, nmse,
           ok ? "ok" : "WRONG");
    gp_kernel_release(kern);
    gp_program_release(prog);
    gp_buffer_release(ba);
    gp_buffer_release(bb);
    gp_buffer_release(bc);
    gp_device_release(dev);
    free(a), free(b), free(c), free(ref);
    return ok ? 0 : 1;
}
