/* main.c — a program that uses libgpuport the way an outside project does: builds a kernel from
 * source, runs it on the device named on the command line (default cpu) and checks the result.
 * Prints "ok N" with the element count, or the runtime's message. */
#include <gpuport/gpuport.h>
#include <stdio.h>
#include <string.h>

static const char src[] = "GP_KERNEL(axpb, GP_BUF(float, y), GP_VAL(float, a), GP_VAL(int, n))\n"
                          "{\n"
                          "    int i = gp_global_id(0);\n"
                          "    if (i < n) y[i] = a * y[i] + 1.0f;\n"
                          "}\n";

static int fail(const char *what)
{
    fprintf(stderr, "consumer: %s: %s\n", what, gp_last_error());
    return 1;
}

int main(int argc, char **argv)
{
    enum { N = 1000 };
    float y[N];
    int n = N;
    float a = 3.0f;
    for (int i = 0; i < N; i++)
        y[i] = (float)i;
    gp_device *dev;
    gp_program *prog;
    gp_kernel *k;
    gp_buffer *buf;
    if (gp_device_open(argc > 1 ? argv[1] : "cpu", &dev)) return fail("device");
    if (gp_program_create(dev, src, strlen(src), NULL, &prog)) return fail("build");
    if (gp_kernel_create(prog, "axpb", &k)) return fail("kernel");
    if (gp_buffer_create(dev, GP_BUFFER_DEVICE, sizeof y, &buf)) return fail("buffer");
    if (gp_buffer_write(buf, 0, y, sizeof y)) return fail("write");
    gp_arg args[] = {gp_arg_buffer(buf), gp_arg_value(&a, sizeof a), gp_arg_value(&n, sizeof n)};
    size_t global = N;
    if (gp_kernel_launch(NULL, k, 1, &global, NULL, 3, args)) return fail("launch");
    if (gp_buffer_read(buf, 0, y, sizeof y)) return fail("read");
    for (int i = 0; i < N; i++)
        if (y[i] != 3.0f * (float)i + 1.0f) {
            fprintf(stderr, "consumer: y[%d] = %g, expected %g\n", i, y[i], 3.0 * i + 1.0);
            return 1;
        }
    gp_kernel_release(k);
    gp_program_release(prog);
    gp_buffer_release(buf);
    gp_device_release(dev);
    printf("ok %d\n", N);
    return 0;
}
