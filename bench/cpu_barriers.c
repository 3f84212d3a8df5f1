/* cpu_barriers.c — kernels with barriers on the CPU backend, side by side with PoCL (the OpenCL
 * device, when it is PoCL on this CPU) and with the CPU backend's fibers (GPUPORT_CPU_LOOPS=0):
 * a row softmax, a block scan, a tiled transpose with padding (and the naive one), a tiled SGEMM,
 * a shared-memory histogram and a 2-D stencil with a halo; and SIMD-group sums by shuffles (the
 * CPU's two paths only: OpenCL has no SIMD-group operations). Same source, same inputs; each
 * output is compared with the CPU's. Built and run by bench/cpu_barriers.sh.
 * Usage: cpu_barriers [REPS]   (default 7; the fibers get at most 3) */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

static const char *kSrc =
    "#define T 16\n"
    "GP_KERNEL(softmax, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(int, cols))\n"
    "{\n"
    "    GP_SHARED_DECL float red[256];\n"
    "    int row = gp_group_id(0), lid = gp_local_id(0), nl = gp_local_size(0);\n"
    "    GP_GLOBAL const float *xr = x + (long)row * cols;\n"
    "    float m = -INFINITY;\n"
    "    for (int c = lid; c < cols; c += nl) m = fmaxf(m, xr[c]);\n"
    "    red[lid] = m;\n"
    "    gp_barrier();\n"
    "    for (int s = nl / 2; s > 0; s >>= 1) {\n"
    "        if (lid < s) red[lid] = fmaxf(red[lid], red[lid + s]);\n"
    "        gp_barrier();\n"
    "    }\n"
    "    float mx = red[0];\n"
    "    gp_barrier();\n"
    "    float sum = 0.0f;\n"
    "    for (int c = lid; c < cols; c += nl) sum += expf(xr[c] - mx);\n"
    "    red[lid] = sum;\n"
    "    gp_barrier();\n"
    "    for (int s = nl / 2; s > 0; s >>= 1) {\n"
    "        if (lid < s) red[lid] += red[lid + s];\n"
    "        gp_barrier();\n"
    "    }\n"
    "    float inv = 1.0f / red[0];\n"
    "    for (int c = lid; c < cols; c += nl) y[(long)row * cols + c] = expf(xr[c] - mx) * inv;\n"
    "}\n"
    "GP_KERNEL(scan, GP_BUF(int, out), GP_CBUF(int, in), GP_VAL(int, n))\n"
    "{\n"
    "    GP_SHARED_DECL int buf[256];\n"
    "    int i = gp_global_id(0), lid = gp_local_id(0);\n"
    "    buf[lid] = i < n ? in[i] : 0;\n"
    "    gp_barrier();\n"
    "    for (int off = 1; off < 256; off *= 2) {\n"
    "        int add = lid >= off ? buf[lid - off] : 0;\n"
    "        gp_barrier();\n"
    "        buf[lid] += add;\n"
    "        gp_barrier();\n"
    "    }\n"
    "    if (i < n) out[i] = buf[lid];\n"
    "}\n"
    "GP_KERNEL(transpose_naive, GP_BUF(float, out), GP_CBUF(float, in), GP_VAL(int, n))\n"
    "{\n"
    "    int x = gp_global_id(0), y = gp_global_id(1);\n"
    "    if (x < n && y < n) out[(long)x * n + y] = in[(long)y * n + x];\n"
    "}\n"
    "GP_KERNEL(transpose_tiled, GP_BUF(float, out), GP_CBUF(float, in), GP_VAL(int, n))\n"
    "{\n"
    "    GP_SHARED_DECL float tile[T][T + 1];\n"
    "    int tx = gp_local_id(0), ty = gp_local_id(1);\n"
    "    int bx = gp_group_id(0) * T, by = gp_group_id(1) * T;\n"
    "    if (bx + tx < n && by + ty < n) tile[ty][tx] = in[(long)(by + ty) * n + bx + tx];\n"
    "    gp_barrier();\n"
    "    if (by + tx < n && bx + ty < n) out[(long)(bx + ty) * n + by + tx] = tile[tx][ty];\n"
    "}\n"
    "GP_KERNEL(sgemm, GP_BUF(float, c), GP_CBUF(float, a), GP_CBUF(float, b), GP_VAL(int, n))\n"
    "{\n"
    "    GP_SHARED_DECL float ta[T][T];\n"
    "    GP_SHARED_DECL float tb[T][T];\n"
    "    int col = gp_global_id(0), row = gp_global_id(1), lx = gp_local_id(0), ly = "
    "gp_local_id(1);\n"
    "    float acc = 0.0f;\n"
    "    for (int t = 0; t < n; t += T) {\n"
    "        ta[ly][lx] = a[row * n + t + lx];\n"
    "        tb[ly][lx] = b[(t + ly) * n + col];\n"
    "        gp_barrier();\n"
    "        for (int k = 0; k < T; k++) acc += ta[ly][k] * tb[k][lx];\n"
    "        gp_barrier();\n"
    "    }\n"
    "    c[row * n + col] = acc;\n"
    "}\n"
    "GP_KERNEL(histogram, GP_BUF(uint32_t, bins), GP_CBUF(uint32_t, in), GP_VAL(int, n))\n"
    "{\n"
    "    GP_SHARED_DECL uint32_t hist[256];\n"
    "    int lid = gp_local_id(0), nl = gp_local_size(0);\n"
    "    for (int b = lid; b < 256; b += nl) hist[b] = 0;\n"
    "    gp_barrier();\n"
    "    for (int i = gp_global_id(0); i < n; i += gp_global_size(0))\n"
    "        gp_atomic_add(&hist[in[i] & 255u], 1u);\n"
    "    gp_barrier();\n"
    "    for (int b = lid; b < 256; b += nl) gp_atomic_add(&bins[b], hist[b]);\n"
    "}\n"
    "GP_KERNEL(stencil, GP_BUF(float, out), GP_CBUF(float, in), GP_VAL(int, n))\n"
    "{\n"
    "    GP_SHARED_DECL float s[T + 2][T + 2];\n"
    "    int tx = gp_local_id(0), ty = gp_local_id(1);\n"
    "    int x = gp_global_id(0), y = gp_global_id(1);\n"
    "    int x0 = gp_group_id(0) * T - 1, y0 = gp_group_id(1) * T - 1;\n"
    "    for (int l = ty * T + tx; l < (T + 2) * (T + 2); l += T * T) {\n"
    "        int gx = x0 + l % (T + 2), gy = y0 + l / (T + 2);\n"
    "        s[l / (T + 2)][l % (T + 2)] = gx >= 0 && gy >= 0 && gx < n && gy < n ? in[(long)gy * "
    "n + gx] : 0.0f;\n"
    "    }\n"
    "    gp_barrier();\n"
    "    if (x < n && y < n)\n"
    "        out[(long)y * n + x] = 0.5f * s[ty + 1][tx + 1] + 0.125f * (s[ty][tx + 1] + s[ty + "
    "2][tx + 1] + s[ty + 1][tx] + s[ty + 1][tx + 2]);\n"
    "}\n"
    /* OpenCL has no SIMD-group operations: this one is the CPU's paths only */
    "#if !defined(GP_TARGET_OPENCL)\n"
    "GP_KERNEL(simd_sum, GP_BUF(float, out), GP_CBUF(float, in), GP_VAL(int, n))\n"
    "{\n"
    "    GP_SHARED_DECL float part[32];\n"
    "    int i = gp_global_id(0), lid = gp_local_id(0), w = gp_simd_width();\n"
    "    float v = i < n ? in[i] : 0.0f;\n"
    "    for (int m = w / 2; m > 0; m /= 2) v += gp_simd_shuffle_xor(v, m);\n"
    "    if (gp_simd_lane() == 0) part[lid / w] = v;\n"
    "    gp_barrier();\n"
    "    if (lid == 0) {\n"
    "        float s = 0.0f;\n"
    "        for (int k = 0; k < gp_local_size(0) / w; k++) s += part[k];\n"
    "        out[gp_group_id(0)] = s;\n"
    "    }\n"
    "}\n"
    "#endif\n";

typedef struct dev {
    const char *label;
    gp_device *d;
    gp_program *p;
} dev;

typedef struct job {
    const char *name, *kernel;
    uint32_t dims;
    size_t global[2], group[2];
    int n;            /* the kernel's last argument */
    size_t in_bytes;  /* first input */
    size_t in2_bytes; /* second input (sgemm), or 0 */
    size_t out_bytes;
    int in_kind; /* 0 floats, 1 small ints, 2 random words */
    bool out_float;
    bool cpu_only; /* SIMD-group operations: not on OpenCL */
} job;

static void fill(void *p, size_t bytes, int kind)
{
    uint32_t s = 12345;
    for (size_t i = 0; i < bytes / 4; i++) {
        s = s * 1664525u + 1013904223u;
        if (kind == 0)
            ((float *)p)[i] = (float)(s >> 8) / 16777216.0f - 0.5f;
        else if (kind == 1)
            ((int *)p)[i] = (int)(s >> 28);
        else
            ((uint32_t *)p)[i] = s;
    }
}

/* Runs the job on one device; the median seconds of reps launches; the output in out. */
static double run(dev *v, const job *j, const void *in, const void *in2, void *out, int reps)
{
    gp_kernel *k;
    CHECK(gp_kernel_create(v->p, j->kernel, &k));
    gp_buffer *bo, *bi, *bi2 = NULL;
    CHECK(gp_buffer_create(v->d, GP_BUFFER_DEVICE, j->out_bytes, &bo));
    CHECK(gp_buffer_create(v->d, GP_BUFFER_DEVICE, j->in_bytes, &bi));
    CHECK(gp_buffer_write(bi, 0, in, j->in_bytes));
    if (j->in2_bytes) {
        CHECK(gp_buffer_create(v->d, GP_BUFFER_DEVICE, j->in2_bytes, &bi2));
        CHECK(gp_buffer_write(bi2, 0, in2, j->in2_bytes));
    }
    gp_queue *q;
    CHECK(gp_device_queue(v->d, &q));
    gp_arg args[4];
    uint32_t na = 0;
    args[na++] = gp_arg_buffer(bo);
    args[na++] = gp_arg_buffer(bi);
    if (bi2) args[na++] = gp_arg_buffer(bi2);
    args[na++] = gp_arg_value(&j->n, sizeof j->n);
    double t[64];
    for (int r = 0; r <= reps; r++) {
        memset(out, 0, j->out_bytes);
        CHECK(gp_buffer_write(bo, 0, out, j->out_bytes)); /* the histogram adds to its bins */
        CHECK(gp_queue_finish(q));
        double t0 = now();
        CHECK(gp_kernel_launch(q, k, j->dims, j->global, j->group, na, args));
        CHECK(gp_queue_finish(q));
        if (r) t[r - 1] = now() - t0; /* the first launch warms up */
    }
    CHECK(gp_buffer_read(bo, 0, out, j->out_bytes));
    gp_buffer_release(bo), gp_buffer_release(bi), gp_buffer_release(bi2);
    gp_kernel_release(k);
    return median(t, reps);
}

static double max_diff(const job *j, const void *a, const void *b)
{
    double m = 0;
    for (size_t i = 0; i < j->out_bytes / 4; i++) {
        double d = j->out_float ? fabs((double)((const float *)a)[i] - ((const float *)b)[i])
                                : (((const uint32_t *)a)[i] != ((const uint32_t *)b)[i]);
        if (d > m) m = d;
    }
    return m;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 7;
    if (reps < 1 || reps > 63) reps = 7;
    dev devs[3] = {
        {"cpu (loops)", NULL, NULL}, {"cpu (fibers)", NULL, NULL}, {"opencl", NULL, NULL}};
    CHECK(gp_device_open("cpu", &devs[0].d));
    CHECK(gp_program_create(devs[0].d, kSrc, strlen(kSrc), NULL, &devs[0].p));
    /* a text of its own, so that the device's program cache does not give the loops back */
    static char fsrc[16384];
    snprintf(fsrc, sizeof fsrc, "%s/* fibers */\n", kSrc);
    setenv("GPUPORT_CPU_LOOPS", "0", 1);
    CHECK(gp_device_open("cpu", &devs[1].d));
    CHECK(gp_program_create(devs[1].d, fsrc, strlen(fsrc), NULL, &devs[1].p));
    unsetenv("GPUPORT_CPU_LOOPS");
    int ndev = 2;
    gp_device_info info;
    if (gp_device_open("opencl", &devs[2].d) == GP_OK &&
        gp_device_get_info(devs[2].d, &info) == GP_OK) {
        static char label[128];
        snprintf(label, sizeof label, "opencl: %s", info.name);
        devs[2].label = label;
        CHECK(gp_program_create(devs[2].d, kSrc, strlen(kSrc), NULL, &devs[2].p));
        ndev = 3;
    } else {
        printf("no OpenCL device (%s): the CPU backend alone\n", gp_last_error());
    }
    const int rows = 2048, cols = 2048, sn = 1 << 24, tn = 4096, mn = 512, hn = 1 << 24, en = 4096;
    const job jobs[] = {
        {"row softmax 2048 x 2048",
         "softmax",
         1,
         {(size_t)rows * 256, 1},
         {256, 1},
         cols,
         (size_t)rows * cols * 4,
         0,
         (size_t)rows * cols * 4,
         0,
         true},
        {"block scan 16 M ints (256 per group)",
         "scan",
         1,
         {(size_t)sn, 1},
         {256, 1},
         sn,
         (size_t)sn * 4,
         0,
         (size_t)sn * 4,
         1,
         false},
        {"transpose 4096^2 naive",
         "transpose_naive",
         2,
         {tn, tn},
         {16, 16},
         tn,
         (size_t)tn * tn * 4,
         0,
         (size_t)tn * tn * 4,
         0,
         true},
        {"transpose 4096^2 tiled 16x17",
         "transpose_tiled",
         2,
         {tn, tn},
         {16, 16},
         tn,
         (size_t)tn * tn * 4,
         0,
         (size_t)tn * tn * 4,
         0,
         true},
        {"sgemm 512 tiled 16x16",
         "sgemm",
         2,
         {mn, mn},
         {16, 16},
         mn,
         (size_t)mn * mn * 4,
         (size_t)mn * mn * 4,
         (size_t)mn * mn * 4,
         0,
         true},
        {"histogram 16 M words, 256 shared bins",
         "histogram",
         1,
         {256 * 256, 1},
         {256, 1},
         hn,
         (size_t)hn * 4,
         0,
         256 * 4,
         2,
         false},
        {"stencil 4096^2 with 1-halo tiles",
         "stencil",
         2,
         {en, en},
         {16, 16},
         en,
         (size_t)en * en * 4,
         0,
         (size_t)en * en * 4,
         0,
         true},
        {"SIMD-group sums by shuffle_xor 16 M floats",
         "simd_sum",
         1,
         {(size_t)sn, 1},
         {256, 1},
         sn,
         (size_t)sn * 4,
         0,
         (size_t)sn / 256 * 4,
         0,
         true,
         true},
    };
    printf("%-40s", "kernel (median ms)");
    for (int d = 0; d < ndev; d++)
        printf(" %18.18s", devs[d].label);
    printf("  loops/opencl  fibers/loops\n");
    for (size_t i = 0; i < sizeof jobs / sizeof *jobs; i++) {
        const job *j = &jobs[i];
        void *in = malloc(j->in_bytes), *in2 = j->in2_bytes ? malloc(j->in2_bytes) : NULL;
        void *out[3] = {malloc(j->out_bytes), malloc(j->out_bytes), malloc(j->out_bytes)};
        if (!in || !out[0] || !out[1] || !out[2] || (j->in2_bytes && !in2)) return 1;
        fill(in, j->in_bytes, j->in_kind);
        if (in2) fill(in2, j->in2_bytes, 0);
        double t[3];
        int nd = j->cpu_only && ndev > 2 ? 2 : ndev;
        for (int d = 0; d < nd; d++)
            t[d] = run(&devs[d], j, in, in2, out[d], d == 1 && reps > 3 ? 3 : reps);
        printf("%-40s", j->name);
        for (int d = 0; d < ndev; d++)
            if (d < nd)
                printf(" %18.2f", t[d] * 1e3);
            else
                printf(" %18s", "-");
        if (nd == 3)
            printf("  %11.2fx", t[0] / t[2]);
        else
            printf("  %12s", "-");
        printf("  %11.1fx\n", t[1] / t[0]);
        for (int d = 1; d < nd; d++) {
            double m = max_diff(j, out[0], out[d]);
            if (m > 1e-3) {
                fprintf(stderr, "%s: %s differs from the CPU's loops by %g\n", j->name,
                        devs[d].label, m);
                return 1;
            }
        }
        free(in), free(in2), free(out[0]), free(out[1]), free(out[2]);
    }
    for (int d = 0; d < ndev; d++)
        gp_program_release(devs[d].p), gp_device_release(devs[d].d);
    return 0;
}
