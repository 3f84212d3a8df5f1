/* test_conformance.c — the backend conformance suite: every kernel of tests/runtime/kernels/ runs
 * on every device of this machine (the CPU always; OpenCL, CUDA and Metal where present) and is
 * compared with a C reference computed here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runtime/conformance.h"

static char g_specs[16][32];
static int g_nspecs;

static gp_kernel *gpt_kernel(gp_device *dev, const char *file, const char *name, gp_program **p)
{
    GPT_CHECK(gpt_build(dev, file, NULL, 0, p));
    return gpt_kernel_of(*p, name);
}

#define FOR_EACH_DEVICE(dev) GPT_FOR_EACH_DEVICE(dev, g_specs, g_nspecs)

static void conformance_saxpy(void **state)
{
    (void)state;
    enum { N = 100003 };
    float *x = malloc(N * 4), *y = malloc(N * 4), *ref = malloc(N * 4), *got = malloc(N * 4);
    for (int i = 0; i < N; i++) {
        x[i] = sinf((float)i) * 100.0f;
        y[i] = (float)(i % 13) - 6.0f;
    }
    x[5] = INFINITY;
    x[7] = -INFINITY;
    x[11] = NAN;
    float a = 1.5f;
    for (int i = 0; i < N; i++)
        ref[i] = a * x[i] + y[i];
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k = gpt_kernel(dev, "saxpy.gpk", "saxpy", &p);
        gp_buffer *bx = gpt_upload(dev, x, N * 4), *by = gpt_upload(dev, y, N * 4);
        int n = N;
        gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, 4),
                         gp_arg_value(&n, 4)};
        size_t global = N, group = 128;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 4, args));
        GPT_CHECK(gp_buffer_read(by, 0, got, N * 4));
        assert_true(gpt_floats_match("saxpy", ref, got, N, 1e-7));
        /* the same with the runtime choosing the group */
        GPT_CHECK(gp_buffer_write(by, 0, y, N * 4));
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, args));
        GPT_CHECK(gp_buffer_read(by, 0, got, N * 4));
        assert_true(gpt_floats_match("saxpy (auto group)", ref, got, N, 1e-7));
        gp_buffer_release(bx);
        gp_buffer_release(by);
        gp_kernel_release(k);
        gp_program_release(p);
    }
    free(x), free(y), free(ref), free(got);
}

/* 24 parameters, the most GP_KERNEL takes: every one arrives where the launch put it. */
static void conformance_many_params(void **state)
{
    (void)state;
    enum { N = 1024 }; /* whole groups of 64: the kernel has no room for a bound */
    float in[N], out[N], out2[N], ref[N];
    int idx[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)(i % 17) * 0.5f, idx[i] = i % 5;
    int a[13];
    float f[23];
    int ints = 0;
    float floats = 0.0f;
    for (int k = 2; k <= 12; k++)
        a[k] = 100 * k + 1, ints += a[k] * k;
    for (int k = 14; k <= 22; k++)
        f[k] = 0.25f * (float)k, floats += f[k] * (float)k;
    for (int i = 0; i < N; i++)
        ref[i] = in[i] + (float)ints + (float)(idx[i] * 13) + floats;
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k = gpt_kernel(dev, "many_params.gpk", "many_params", &p);
        gp_buffer *bin = gpt_upload(dev, in, sizeof in), *bidx = gpt_upload(dev, idx, sizeof idx),
                  *bout = gpt_upload(dev, in, sizeof in), *bout2 = gpt_upload(dev, in, sizeof in);
        gp_arg args[24];
        args[0] = gp_arg_buffer(bout), args[1] = gp_arg_buffer(bin);
        for (int q = 2; q <= 12; q++)
            args[q] = gp_arg_value(&a[q], sizeof a[q]);
        args[13] = gp_arg_buffer(bidx);
        for (int q = 14; q <= 22; q++)
            args[q] = gp_arg_value(&f[q], sizeof f[q]);
        args[23] = gp_arg_buffer(bout2);
        size_t global = N, group = 64;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 24, args));
        GPT_CHECK(gp_buffer_read(bout, 0, out, sizeof out));
        GPT_CHECK(gp_buffer_read(bout2, 0, out2, sizeof out2));
        assert_true(gpt_floats_match("many_params", ref, out, N, 1e-7));
        for (int i = 0; i < N; i++)
            assert_true(out2[i] == f[22] - f[14]);
        gp_buffer_release(bin), gp_buffer_release(bidx);
        gp_buffer_release(bout), gp_buffer_release(bout2);
        gp_kernel_release(k);
        gp_program_release(p);
    }
}

static void conformance_transpose(void **state)
{
    (void)state;
    enum { W = 70, H = 45 }; /* not multiples of the 16x16 tile */
    float *in = malloc(W * H * 4), *ref = malloc(W * H * 4), *got = malloc(W * H * 4);
    for (int i = 0; i < W * H; i++)
        in[i] = (float)i * 0.5f;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            ref[x * H + y] = in[y * W + x];
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k = gpt_kernel(dev, "transpose.gpk", "transpose", &p);
        gp_buffer *bi = gpt_upload(dev, in, W * H * 4), *bo = gpt_upload(dev, NULL, W * H * 4);
        int w = W, h = H;
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_buffer(bi), gp_arg_value(&w, 4),
                         gp_arg_value(&h, 4)};
        size_t global[2] = {W, H}, group[2] = {16, 16};
        GPT_CHECK(gp_kernel_launch(NULL, k, 2, global, group, 4, args));
        GPT_CHECK(gp_buffer_read(bo, 0, got, W * H * 4));
        assert_true(gpt_floats_match("transpose", ref, got, W * H, 0.0));
        gp_buffer_release(bi), gp_buffer_release(bo);
        gp_kernel_release(k), gp_program_release(p);
    }
    free(in), free(ref), free(got);
}

static void conformance_reduce(void **state)
{
    (void)state;
    enum { N = 50000, G = 256, NG = (N + G - 1) / G };
    float *in = malloc(N * 4), ref[NG], got[NG];
    for (int i = 0; i < N; i++)
        in[i] = (float)((i * 37) % 101) * 0.01f;
    for (int g = 0; g < NG; g++) {
        double s = 0;
        for (int i = g * G; i < (g + 1) * G && i < N; i++)
            s += in[i];
        ref[g] = (float)s;
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k = gpt_kernel(dev, "reduce.gpk", "reduce_sum", &p);
        gp_buffer *bi = gpt_upload(dev, in, N * 4), *bo = gpt_upload(dev, NULL, NG * 4);
        int n = N;
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_buffer(bi), gp_arg_shared(G * 4),
                         gp_arg_value(&n, 4)};
        size_t global = N, group = G;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 4, args));
        GPT_CHECK(gp_buffer_read(bo, 0, got, NG * 4));
        assert_true(gpt_floats_match("reduce", ref, got, NG, 1e-10));
        gp_buffer_release(bi), gp_buffer_release(bo);
        gp_kernel_release(k), gp_program_release(p);
    }
    free(in);
}

static void conformance_histogram(void **state)
{
    (void)state;
    enum { N = 77777, BINS = 64 };
    uint32_t *data = malloc(N * 4);
    int32_t ref[BINS] = {0}, got[BINS];
    for (int i = 0; i < N; i++) {
        data[i] = (uint32_t)(i * 2654435761u) >> 7;
        ref[data[i] % BINS]++;
    }
    enum { M = 5000 };
    int32_t vals[M], sref[5] = {INT32_MAX, INT32_MIN, 0, 0, 100}, sgot[5];
    for (int i = 0; i < M; i++) {
        vals[i] = (int32_t)((i * 7919) % 20011) - 10000;
        if (vals[i] < sref[0]) sref[0] = vals[i];
        if (vals[i] > sref[1]) sref[1] = vals[i];
    }
    sref[2] = M;
    sref[3] = 7;
    sref[4] = 100 - 2 * M;
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k = gpt_kernel(dev, "histogram.gpk", "histogram", &p);
        gp_buffer *bd = gpt_upload(dev, data, N * 4), *bh = gpt_upload(dev, NULL, BINS * 4);
        uint32_t zero = 0;
        GPT_CHECK(gp_buffer_fill(bh, 0, &zero, 4, BINS * 4));
        int n = N;
        gp_arg args[] = {gp_arg_buffer(bh), gp_arg_buffer(bd), gp_arg_value(&n, 4)};
        size_t global = N, group = 128;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 3, args));
        GPT_CHECK(gp_buffer_read(bh, 0, got, BINS * 4));
        assert_true(gpt_ints_match("histogram", ref, got, BINS));

        gp_kernel *k2;
        GPT_CHECK(gp_kernel_create(p, "int_atomics", &k2));
        int32_t init[5] = {INT32_MAX, INT32_MIN, 0, 0, 100};
        gp_buffer *bs = gpt_upload(dev, init, sizeof init),
                  *bv = gpt_upload(dev, vals, sizeof vals);
        int m = M;
        gp_arg a2[] = {gp_arg_buffer(bs), gp_arg_buffer(bv), gp_arg_value(&m, 4)};
        size_t g2 = M;
        GPT_CHECK(gp_kernel_launch(NULL, k2, 1, &g2, NULL, 3, a2));
        GPT_CHECK(gp_buffer_read(bs, 0, sgot, sizeof sgot));
        assert_true(gpt_ints_match("int atomics", sref, sgot, 5));
        gp_buffer_release(bs), gp_buffer_release(bv), gp_kernel_release(k2);
        gp_buffer_release(bd), gp_buffer_release(bh);
        gp_kernel_release(k), gp_program_release(p);
    }
    free(data);
}

static void conformance_atomic_float(void **state)
{
    (void)state;
    enum { N = 40000 };
    float *v = malloc(N * 4), ref[8], got[8];
    double acc[8] = {0};
    for (int i = 0; i < N; i++) {
        v[i] = (float)((i % 97) + 1) * 0.125f; /* exact in float: sums do not depend on order */
        acc[i % 8] += v[i];
    }
    for (int j = 0; j < 8; j++)
        ref[j] = (float)acc[j];
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k = gpt_kernel(dev, "atomic_float.gpk", "atomic_float_add", &p);
        gp_buffer *bv = gpt_upload(dev, v, N * 4), *bs = gpt_upload(dev, NULL, 32);
        float zero = 0.0f;
        GPT_CHECK(gp_buffer_fill(bs, 0, &zero, 4, 32));
        int n = N;
        gp_arg args[] = {gp_arg_buffer(bs), gp_arg_buffer(bv), gp_arg_value(&n, 4)};
        size_t global = N;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 3, args));
        GPT_CHECK(gp_buffer_read(bs, 0, got, 32));
        assert_true(gpt_floats_match("atomic float add", ref, got, 8, 0.0));
        gp_kernel_release(k);
        /* through shared memory first (groups of 64; N is a multiple of 8, so i % 8 is the
         * work-item's lid % 8 and every group adds into all 8 of its sums) */
        GPT_CHECK(gp_buffer_fill(bs, 0, &zero, 4, 32));
        GPT_CHECK(gp_kernel_create(p, "atomic_float_add_shared", &k));
        size_t group = 64, rounded = (N + 63) / 64 * 64;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &rounded, &group, 3, args));
        GPT_CHECK(gp_buffer_read(bs, 0, got, 32));
        assert_true(gpt_floats_match("atomic float add in shared memory", ref, got, 8, 0.0));
        gp_buffer_release(bv), gp_buffer_release(bs);
        gp_kernel_release(k), gp_program_release(p);
    }
    free(v);
}

static void conformance_atomic64(void **state)
{
    (void)state;
    enum { N = 10000 };
    static double v[N];
    uint64_t rsum[9] = {0}, rmix = 0;
    double rd[8] = {0};
    for (int i = 0; i < N; i++) {
        v[i] = (double)((i % 97) + 1) * 0.125; /* exact: the sums do not depend on order */
        rsum[i % 8] += 0x100000000ull + (uint64_t)i;
        rmix ^= (uint64_t)1 << (i % 64);
        rd[i % 8] += v[i];
    }
    rsum[8] = 2 * (uint64_t)N;
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p = NULL;
        gp_status st = gpt_build(dev, "atomic64.gpk", NULL, 0, &p);
        gp_device_info info;
        GPT_CHECK(gp_device_get_info(dev, &info));
        if (st == GP_ERR_UNSUPPORTED && (!info.atomic64 || !info.fp64)) {
            printf("  %s: refused as it should be: %s\n", info.spec, gp_last_error());
            continue;
        }
        GPT_CHECK(st);
        gp_kernel *k;
        GPT_CHECK(gp_kernel_create(p, "atomic64_ops", &k));
        uint64_t sums[9] = {0}, mix = 0, owner[4] = {0};
        sums[8] = 3 * (uint64_t)N;
        int64_t range[2] = {INT64_MAX, INT64_MIN};
        double dsums[8] = {0};
        gp_buffer *bs = gpt_upload(dev, sums, sizeof sums), *bm = gpt_upload(dev, &mix, 8),
                  *br = gpt_upload(dev, range, sizeof range),
                  *bo = gpt_upload(dev, owner, sizeof owner),
                  *bd = gpt_upload(dev, dsums, sizeof dsums), *bv = gpt_upload(dev, v, sizeof v);
        int n = N;
        gp_arg a[] = {gp_arg_buffer(bs), gp_arg_buffer(bm), gp_arg_buffer(br),  gp_arg_buffer(bo),
                      gp_arg_buffer(bd), gp_arg_buffer(bv), gp_arg_value(&n, 4)};
        size_t global = N;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 7, a));
        GPT_CHECK(gp_buffer_read(bs, 0, sums, sizeof sums));
        GPT_CHECK(gp_buffer_read(bm, 0, &mix, 8));
        GPT_CHECK(gp_buffer_read(br, 0, range, sizeof range));
        GPT_CHECK(gp_buffer_read(bo, 0, owner, sizeof owner));
        GPT_CHECK(gp_buffer_read(bd, 0, dsums, sizeof dsums));
        assert_memory_equal(sums, rsum, sizeof sums);
        assert_true(mix == rmix);
        assert_true(range[0] == -500 * 10000000000ll);
        assert_true(range[1] == (int64_t)(N - 1 - 500) * 10000000000ll);
        for (int j = 0; j < 4; j++) /* one work-item of each residue claimed its slot */
            assert_true(owner[j] != 0 && (owner[j] - 1) % 4 == (uint64_t)j);
        assert_memory_equal(dsums, rd, sizeof dsums);
        gp_buffer_release(bs), gp_buffer_release(bm), gp_buffer_release(br);
        gp_buffer_release(bo), gp_buffer_release(bd), gp_buffer_release(bv);
        gp_kernel_release(k), gp_program_release(p);
    }
}

static void conformance_scan(void **state)
{
    (void)state;
    enum { N = 60001, B = 256, NB = (N + B - 1) / B };
    int32_t *in = malloc(N * 4), *ref = malloc(N * 4), *got = malloc(N * 4);
    int32_t run = 0;
    for (int i = 0; i < N; i++) {
        in[i] = (i * 31) % 17 - 3;
        ref[i] = run;
        run += in[i];
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k1 = gpt_kernel(dev, "scan.gpk", "scan_blocks", &p), *k2, *k3;
        GPT_CHECK(gp_kernel_create(p, "scan_totals", &k2));
        GPT_CHECK(gp_kernel_create(p, "scan_add", &k3));
        gp_buffer *bi = gpt_upload(dev, in, N * 4), *bo = gpt_upload(dev, NULL, N * 4),
                  *bt = gpt_upload(dev, NULL, NB * 4);
        int n = N, nb = NB;
        size_t global = N, group = B, one = B;
        gp_arg a1[] = {gp_arg_buffer(bo), gp_arg_buffer(bt), gp_arg_buffer(bi),
                       gp_arg_value(&n, 4)};
        gp_arg a2[] = {gp_arg_buffer(bt), gp_arg_value(&nb, 4)};
        gp_arg a3[] = {gp_arg_buffer(bo), gp_arg_buffer(bt), gp_arg_value(&n, 4)};
        GPT_CHECK(gp_kernel_launch(NULL, k1, 1, &global, &group, 4, a1));
        GPT_CHECK(gp_kernel_launch(NULL, k2, 1, &one, &group, 2, a2));
        GPT_CHECK(gp_kernel_launch(NULL, k3, 1, &global, &group, 3, a3));
        GPT_CHECK(gp_buffer_read(bo, 0, got, N * 4));
        assert_true(gpt_ints_match("exclusive scan", ref, got, N));
        gp_buffer_release(bi), gp_buffer_release(bo), gp_buffer_release(bt);
        gp_kernel_release(k1), gp_kernel_release(k2), gp_kernel_release(k3);
        gp_program_release(p);
    }
    free(in), free(ref), free(got);
}

static void conformance_index3d(void **state)
{
    (void)state;
    enum { NX = 13, NY = 7, NZ = 5 };
    const size_t grp[3] = {4, 2, 2};
    int32_t *ref = calloc(NX * NY * NZ * 12, 4), *got = malloc(NX * NY * NZ * 12 * 4);
    const int n[3] = {NX, NY, NZ};
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                int32_t *r = ref + ((z * NY + y) * NX + x) * 12;
                int g[3] = {x, y, z};
                for (int d = 0; d < 3; d++) {
                    int ng = (n[d] + (int)grp[d] - 1) / (int)grp[d];
                    r[d] = g[d];
                    r[3 + d] = g[d] % (int)grp[d];
                    r[6 + d] = g[d] / (int)grp[d];
                    r[9 + d] = (int)grp[d] * 1000 + ng;
                }
            }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k = gpt_kernel(dev, "index3d.gpk", "index3d", &p);
        gp_buffer *bo = gpt_upload(dev, NULL, NX * NY * NZ * 12 * 4);
        int nx = NX, ny = NY, nz = NZ;
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_value(&nx, 4), gp_arg_value(&ny, 4),
                         gp_arg_value(&nz, 4)};
        size_t global[3] = {NX, NY, NZ};
        GPT_CHECK(gp_kernel_launch(NULL, k, 3, global, grp, 4, args));
        GPT_CHECK(gp_buffer_read(bo, 0, got, NX * NY * NZ * 12 * 4));
        assert_true(gpt_ints_match("3-D indices", ref, got, NX * NY * NZ * 12));
        gp_buffer_release(bo);
        gp_kernel_release(k), gp_program_release(p);
    }
    free(ref), free(got);
}

static void conformance_helper(void **state)
{
    (void)state;
    enum { N = 1000 };
    float in[N], ref[N], got[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)(i % 10);
    for (int i = 0; i < N; i++) {
        float l = i > 0 ? in[i - 1] : 0, r = i + 1 < N ? in[i + 1] : 0;
        ref[i] = 0.25f * l + 0.5f * in[i] + 0.25f * r;
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k = gpt_kernel(dev, "helper.gpk", "blur", &p);
        gp_buffer *bi = gpt_upload(dev, in, sizeof in), *bo = gpt_upload(dev, NULL, sizeof got);
        int n = N;
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_buffer(bi), gp_arg_value(&n, 4)};
        size_t global = N, group = 64;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 3, args));
        GPT_CHECK(gp_buffer_read(bo, 0, got, sizeof got));
        assert_true(gpt_floats_match("helper functions", ref, got, N, 1e-12));
        gp_buffer_release(bi), gp_buffer_release(bo);
        gp_kernel_release(k), gp_program_release(p);
    }
}

/* The reference half conversion: the same rounding, written independently of the prelude. */
static uint16_t ref_to_half(float f)
{
    if (isnan(f)) return 0x7e00;
    uint16_t sign = signbit(f) ? 0x8000 : 0;
    double a = fabs((double)f);
    if (a >= 65520.0) return sign | 0x7c00;
    int e;
    frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    int exp = e - 1 < -14 ? -14 : e - 1;
    double q = a / ldexp(1.0, exp - 10); /* units of the last place */
    double r = nearbyint(q);             /* the default rounding mode: nearest, ties to even */
    uint32_t units = (uint32_t)r;
    if (units == 0) return sign;
    if (exp == -14 && units < 1024) return sign | (uint16_t)units;
    if (units == 2048) units = 1024, exp++;
    return sign | (uint16_t)(((exp + 15) << 10) | (units - 1024));
}

static void conformance_half(void **state)
{
    (void)state;
    enum { N = 4096 };
    float f[N], back[N], ref_back[N];
    uint16_t h[N], ref_h[N];
    for (int i = 0; i < N; i++)
        f[i] = ldexpf((float)(i * 7919 % 4093) - 2046.0f, (i % 30) - 20);
    f[0] = 0.0f, f[1] = -0.0f, f[2] = 65504.0f, f[3] = 65519.0f, f[4] = 65520.0f, f[5] = 1e9f;
    f[6] = 1.0009765625f;    /* exactly representable */
    f[7] = 1.00048828125f;   /* a tie: rounds to even (1.0) */
    f[8] = 1.00146484375f;   /* a tie: rounds to even (1.001953125) */
    f[9] = 6.103515625e-05f; /* smallest normal */
    f[10] = INFINITY, f[11] = -INFINITY;
    for (int i = 0; i < N; i++) {
        ref_h[i] = ref_to_half(f[i]);
        uint16_t e = (ref_h[i] >> 10) & 0x1f, m = ref_h[i] & 0x3ff;
        double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
        ref_back[i] = (float)((ref_h[i] & 0x8000 ? -1 : 1) * (e == 31 ? INFINITY : v));
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k1 = gpt_kernel(dev, "half.gpk", "to_half", &p), *k2;
        GPT_CHECK(gp_kernel_create(p, "from_half", &k2));
        gp_buffer *bf = gpt_upload(dev, f, sizeof f), *bh = gpt_upload(dev, NULL, sizeof h),
                  *bb = gpt_upload(dev, NULL, sizeof back);
        int n = N;
        gp_arg a1[] = {gp_arg_buffer(bh), gp_arg_buffer(bf), gp_arg_value(&n, 4)};
        gp_arg a2[] = {gp_arg_buffer(bb), gp_arg_buffer(bh), gp_arg_value(&n, 4)};
        size_t global = N;
        GPT_CHECK(gp_kernel_launch(NULL, k1, 1, &global, NULL, 3, a1));
        GPT_CHECK(gp_kernel_launch(NULL, k2, 1, &global, NULL, 3, a2));
        GPT_CHECK(gp_buffer_read(bh, 0, h, sizeof h));
        GPT_CHECK(gp_buffer_read(bb, 0, back, sizeof back));
        for (int i = 0; i < N; i++)
            if (h[i] != ref_h[i])
                fail_msg("half of %a: 0x%04x, reference 0x%04x", f[i], h[i], ref_h[i]);
        assert_true(gpt_floats_match("half round trip", ref_back, back, N, 0.0));
        gp_buffer_release(bf), gp_buffer_release(bh), gp_buffer_release(bb);
        gp_kernel_release(k1), gp_kernel_release(k2), gp_program_release(p);
    }
}

static void conformance_vectors(void **state)
{
    (void)state;
    enum { N = 300 };
    static uint8_t u8[N][4], ru8[N][4];
    static int8_t i8[N][2], ri8[N][2];
    static int16_t i16[N][4], ri16[N][4];
    static uint16_t u16[N][2], ru16[N][2];
    static uint32_t u32[N][4], ru32[N][4];
    static int64_t i64[N][2], ri64[N][2];
    static uint64_t u64[N][4], ru64[N][4];
    const uint8_t key[4] = {0x5a, 200, 7, 9};
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 4; k++) {
            u8[i][k] = (uint8_t)(i * 7 + k * 61);
            i16[i][k] = (int16_t)(i * 211 - k * 9000);
            u32[i][k] = (uint32_t)i * 2654435761u + (uint32_t)k;
            u64[i][k] = ((uint64_t)i << 40) * 3u + (uint64_t)k * 0x123456789ull;
        }
        for (int k = 0; k < 2; k++) {
            i8[i][k] = (int8_t)(i - 128 + k);
            u16[i][k] = (uint16_t)(i * 300 + k);
            i64[i][k] = (int64_t)i * 99991 * (k ? -1 : 1) - 5;
        }
        ru8[i][0] = (uint8_t)(u8[i][3] ^ key[0]), ru8[i][1] = (uint8_t)(u8[i][2] + key[1]);
        ru8[i][2] = u8[i][1], ru8[i][3] = u8[i][0];
        ri8[i][0] = i8[i][1], ri8[i][1] = (int8_t)-i8[i][0];
        ri16[i][0] = i16[i][3], ri16[i][1] = (int16_t)(i16[i][0] - 1000);
        ri16[i][2] = i16[i][1], ri16[i][3] = i16[i][2];
        ru16[i][0] = (uint16_t)(u16[i][0] + 40000), ru16[i][1] = u16[i][1];
        ru32[i][0] = u32[i][0] * 3u, ru32[i][1] = ~u32[i][1], ru32[i][2] = u32[i][3];
        ru32[i][3] = (uint32_t)i;
        ri64[i][0] = (int64_t)((uint64_t)i64[i][1] * 1000000007u), ri64[i][1] = i64[i][0] - 1;
        ru64[i][0] = u64[i][3], ru64[i][1] = u64[i][2], ru64[i][2] = u64[i][1] << 8;
        ru64[i][3] = u64[i][0] + key[3];
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k = gpt_kernel(dev, "vectors.gpk", "swizzle", &p);
        gp_buffer *b[7] = {gpt_upload(dev, u8, sizeof u8),   gpt_upload(dev, i8, sizeof i8),
                           gpt_upload(dev, i16, sizeof i16), gpt_upload(dev, u16, sizeof u16),
                           gpt_upload(dev, u32, sizeof u32), gpt_upload(dev, i64, sizeof i64),
                           gpt_upload(dev, u64, sizeof u64)};
        int n = N;
        gp_arg a[] = {gp_arg_buffer(b[0]), gp_arg_buffer(b[1]),  gp_arg_buffer(b[2]),
                      gp_arg_buffer(b[3]), gp_arg_buffer(b[4]),  gp_arg_buffer(b[5]),
                      gp_arg_buffer(b[6]), gp_arg_value(key, 4), gp_arg_value(&n, 4)};
        size_t global = N;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 9, a));
        static uint8_t g8[N][4];
        static int8_t gi8[N][2];
        static int16_t g16[N][4];
        static uint16_t gu16[N][2];
        static uint32_t g32[N][4];
        static int64_t g64[N][2];
        static uint64_t gu64[N][4];
        GPT_CHECK(gp_buffer_read(b[0], 0, g8, sizeof g8));
        GPT_CHECK(gp_buffer_read(b[1], 0, gi8, sizeof gi8));
        GPT_CHECK(gp_buffer_read(b[2], 0, g16, sizeof g16));
        GPT_CHECK(gp_buffer_read(b[3], 0, gu16, sizeof gu16));
        GPT_CHECK(gp_buffer_read(b[4], 0, g32, sizeof g32));
        GPT_CHECK(gp_buffer_read(b[5], 0, g64, sizeof g64));
        GPT_CHECK(gp_buffer_read(b[6], 0, gu64, sizeof gu64));
        assert_memory_equal(g8, ru8, sizeof g8);
        assert_memory_equal(gi8, ri8, sizeof gi8);
        assert_memory_equal(g16, ri16, sizeof g16);
        assert_memory_equal(gu16, ru16, sizeof gu16);
        assert_memory_equal(g32, ru32, sizeof g32);
        assert_memory_equal(g64, ri64, sizeof g64);
        assert_memory_equal(gu64, ru64, sizeof gu64);
        for (int i = 0; i < 7; i++)
            gp_buffer_release(b[i]);
        gp_kernel_release(k), gp_program_release(p);
    }
}

static void conformance_vectors_fp64(void **state)
{
    (void)state;
    enum { N = 200 };
    static double pv[N][2], q[N][4], rp[N][2], rq[N][4], gpv[N][2], gq[N][4];
    const double s = 1.5;
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 2; k++)
            pv[i][k] = i * 0.25 - k * 3.0;
        for (int k = 0; k < 4; k++)
            q[i][k] = i * 1.0e-3 + k;
        rp[i][0] = -pv[i][1] * s, rp[i][1] = pv[i][0] * s;
        rq[i][0] = q[i][3], rq[i][1] = q[i][0] + q[i][1], rq[i][2] = q[i][2] * 0.5;
        rq[i][3] = pv[i][0];
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p = NULL;
        gp_status st = gpt_build(dev, "vectors_fp64.gpk", NULL, 0, &p);
        gp_device_info info;
        GPT_CHECK(gp_device_get_info(dev, &info));
        if (st == GP_ERR_UNSUPPORTED && !info.fp64) continue; /* no double: refused, as said */
        GPT_CHECK(st);
        gp_kernel *k;
        GPT_CHECK(gp_kernel_create(p, "quarter_turn", &k));
        gp_buffer *bp = gpt_upload(dev, pv, sizeof pv), *bq = gpt_upload(dev, q, sizeof q);
        int n = N;
        gp_arg a[] = {gp_arg_buffer(bp), gp_arg_buffer(bq), gp_arg_value(&s, 8),
                      gp_arg_value(&n, 4)};
        size_t global = N;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, a));
        GPT_CHECK(gp_buffer_read(bp, 0, gpv, sizeof gpv));
        GPT_CHECK(gp_buffer_read(bq, 0, gq, sizeof gq));
        assert_memory_equal(gpv, rp, sizeof gpv);
        assert_memory_equal(gq, rq, sizeof gq);
        gp_buffer_release(bp), gp_buffer_release(bq);
        gp_kernel_release(k), gp_program_release(p);
    }
}

static void conformance_bits(void **state)
{
    (void)state;
    enum { N = 300 };
    static float x[N], y[N], ry[N], sc[2 * N], rsc[2 * N];
    static uint32_t u[N], ru[N];
    static int32_t cls[N], rcls[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)(i * 37 % 201 - 100) * 0.25f + (i % 3 ? 0.5f : 0.0f);
    x[0] = NAN, x[1] = INFINITY, x[2] = -INFINITY, x[3] = -0.0f, x[4] = 0.0f;
    x[5] = 2.5f, x[6] = -2.5f, x[7] = 3.5f; /* ties round to even */
    for (int i = 0; i < N; i++) {
        float v = x[i], m = -v;
        uint32_t a, b;
        memcpy(&a, &v, 4), memcpy(&b, &m, 4);
        ru[i] = a ^ b;
        rcls[i] = (isnan(v) ? 1 : 0) + 2 * (isinf(v) ? 1 : 0) + 4 * (signbit(v) ? 1 : 0) +
                  8 * (isfinite(v) ? 1 : 0);
        ry[i] = fabsf(v) + (isfinite(v) ? rintf(v) : 0.0f);
        float t = isfinite(v) ? v * 0.01f : 0.0f;
        rsc[2 * i] = sinf(t), rsc[2 * i + 1] = cosf(t);
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k = gpt_kernel(dev, "bits.gpk", "bits", &p);
        gp_buffer *bx = gpt_upload(dev, x, sizeof x), *bu = gpt_upload(dev, NULL, sizeof u),
                  *bc = gpt_upload(dev, NULL, sizeof cls), *by = gpt_upload(dev, NULL, sizeof y),
                  *bs = gpt_upload(dev, NULL, sizeof sc);
        int n = N;
        gp_arg a[] = {gp_arg_buffer(bx), gp_arg_buffer(bu), gp_arg_buffer(bc),
                      gp_arg_buffer(by), gp_arg_buffer(bs), gp_arg_value(&n, 4)};
        size_t global = N;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 6, a));
        GPT_CHECK(gp_buffer_read(bu, 0, u, sizeof u));
        GPT_CHECK(gp_buffer_read(bc, 0, cls, sizeof cls));
        GPT_CHECK(gp_buffer_read(by, 0, y, sizeof y));
        GPT_CHECK(gp_buffer_read(bs, 0, sc, sizeof sc));
        assert_memory_equal(u, ru, sizeof u);
        assert_memory_equal(cls, rcls, sizeof cls);
        assert_true(gpt_floats_match("|x| + rintf(x)", ry, y, N, 0.0));
        assert_true(gpt_floats_match("gp_sincos", rsc, sc, 2 * N, 1e-12));
        gp_buffer_release(bx), gp_buffer_release(bu), gp_buffer_release(bc);
        gp_buffer_release(by), gp_buffer_release(bs);
        gp_kernel_release(k), gp_program_release(p);
    }
}

static void conformance_define(void **state)
{
    (void)state;
    enum { N = 333 };
    float in[N], ref[N], got[N], bias = 0.25f;
    for (int i = 0; i < N; i++) {
        in[i] = (float)i;
        ref[i] = 3.0f * in[i] + 0.5f + bias;
    }
    const char *defs[] = {"SCALE=3", "OFFSET=0.5f", "REAL=float"};
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        GPT_CHECK(gpt_build(dev, "define.gpk", defs, 3, &p));
        gp_kernel *k;
        GPT_CHECK(gp_kernel_create(p, "affine", &k));
        gp_arg_info ai;
        GPT_CHECK(gp_kernel_arg_info(k, 2, &ai));
        assert_int_equal(ai.size, 4); /* REAL resolved through the define */
        gp_buffer *bi = gpt_upload(dev, in, sizeof in), *bo = gpt_upload(dev, NULL, sizeof got);
        int n = N;
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_buffer(bi), gp_arg_value(&bias, 4),
                         gp_arg_value(&n, 4)};
        size_t global = N;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, args));
        GPT_CHECK(gp_buffer_read(bo, 0, got, sizeof got));
        assert_true(gpt_floats_match("build-option macros", ref, got, N, 0.0));
        /* without the define the source's own #error fires, naming the file and line */
        gp_program *p2 = NULL;
        assert_int_equal(gpt_build(dev, "define.gpk", NULL, 0, &p2), GP_ERR_BUILD);
        if (!strstr(gp_last_error(), "define.gpk:4:"))
            fail_msg("no file:line in: %s", gp_last_error());
        gp_buffer_release(bi), gp_buffer_release(bo);
        gp_kernel_release(k), gp_program_release(p);
    }
}

static void conformance_nonuniform(void **state)
{
    (void)state;
    enum { N = 1000, G = 64, PADDED = 1024 };
    int32_t ref[N + 8], got[N + 8], cnt[2];
    for (int i = 0; i < N; i++)
        ref[i] = i * 3 + 1;
    for (int i = N; i < N + 8; i++)
        ref[i] = -5; /* past the grid: untouched */
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p;
        gp_kernel *k = gpt_kernel(dev, "nonuniform.gpk", "fill_index", &p);
        gp_buffer *bo = gpt_upload(dev, NULL, sizeof got), *bc = gpt_upload(dev, NULL, 8);
        int32_t sentinel = -5, zero = 0;
        GPT_CHECK(gp_buffer_fill(bo, 0, &sentinel, 4, sizeof got));
        GPT_CHECK(gp_buffer_fill(bc, 0, &zero, 4, 8));
        int n = N;
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_buffer(bc), gp_arg_value(&n, 4)};
        size_t global = N, group = G;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 3, args));
        GPT_CHECK(gp_buffer_read(bo, 0, got, sizeof got));
        GPT_CHECK(gp_buffer_read(bc, 0, cnt, sizeof cnt));
        assert_true(gpt_ints_match("non-uniform grid", ref, got, N + 8));
        assert_int_equal(cnt[0], PADDED); /* the grid is rounded up to whole groups */
        assert_int_equal(cnt[1], PADDED);
        gp_buffer_release(bo), gp_buffer_release(bc);
        gp_kernel_release(k), gp_program_release(p);
    }
}

/* SIMD-group operations on the devices that have them (width 32: CUDA, Apple GPUs, the CPU's
 * emulation); elsewhere the program is refused, naming the line that needs them. */
static void conformance_simd(void **state)
{
    (void)state;
    enum { N = 1000, W = 32, NS = (N + W - 1) / W, G = 256, NB = (N + G - 1) / G };
    enum { NQ = (N + 63) / 64 };
    int32_t x[N], ref[8 * N], got[8 * N], ref_q[NQ], got_q[NQ];
    float xf[N], ref_s[NS], got_s[NS], ref_b[NB], got_b[NB];
    for (int i = 0; i < N; i++) {
        x[i] = (i * 37) % 150 - (i % 7 == 0 ? 2 : 0);
        xf[i] = (float)((i * 53) % 97) * 0.25f - 3.0f;
    }
    for (int s0 = 0; s0 < N; s0 += W) {
        int v[W], sum = 0, scan = 0, any = 0, all = 1;
        uint32_t odd = 0;
        for (int l = 0; l < W; l++) {
            v[l] = s0 + l < N ? x[s0 + l] : 0; /* lanes past n take part with 0 */
            sum += v[l];
            if (v[l] & 1) odd |= 1u << l;
            any |= v[l] > 100;
            all &= (v[l] & 1) == 0;
        }
        for (int l = 0; l < W && s0 + l < N; l++) {
            int32_t *r = &ref[8 * (s0 + l)];
            scan += v[l];
            r[0] = sum, r[1] = scan, r[2] = v[3], r[3] = v[W - 1 - l];
            r[4] = l + 31 < W ? v[l + 31] : v[l];
            r[5] = (int32_t)odd, r[6] = any, r[7] = all;
        }
    }
    for (int g = 0; g < NS; g++) { /* the tree shuffle_down builds, in float */
        float t[W];
        for (int l = 0; l < W; l++)
            t[l] = g * W + l < N ? xf[g * W + l] : 0.0f;
        for (int off = W / 2; off > 0; off /= 2)
            for (int l = 0; l + off < W; l++)
                t[l] += t[l + off];
        ref_s[g] = t[0];
    }
    gpt_block_sums_f(xf, N, G, ref_b);
    gpt_block_sums_i(x, N, 64, ref_q);
    FOR_EACH_DEVICE(dev)
    {
        gp_device_info info;
        GPT_CHECK(gp_device_get_info(dev, &info));
        gp_program *p = NULL;
        if (info.simd_group_width == 0) {
            /* the stated width is refused before compiling */
            assert_int_equal(gpt_build(dev, "simd.gpk", NULL, 0, &p), GP_ERR_UNSUPPORTED);
            if (!strstr(gp_last_error(), "simd.gpk says GP_REQUIRES_SIMD_WIDTH(32)") ||
                !strstr(gp_last_error(), "offers no SIMD-group operations"))
                fail_msg("unexpected message: %s", gp_last_error());
            fprintf(stderr, "  %s: refused as it should be: %s\n", info.spec, gp_last_error());
            /* an operation is found by the compiler, at its line */
            const char *use = "GP_KERNEL(k, GP_BUF(int, y))\n{\n"
                              "    y[0] = gp_simd_shuffle(y[0], 1);\n}\n";
            gp_build_options o = {sizeof o, GP_BUILD_NO_CACHE, "use.gpk", NULL, 0, 0};
            assert_int_equal(gp_program_create(dev, use, strlen(use), &o, &p), GP_ERR_UNSUPPORTED);
            if (!strstr(gp_last_error(), "use.gpk: a gp_simd_* operation is used at use.gpk:3") ||
                !strstr(gp_last_error(), "offers no SIMD-group operations"))
                fail_msg("unexpected message: %s", gp_last_error());
            /* kept out of this backend's build, the same source builds and runs */
            const char *kept = "GP_KERNEL(k, GP_BUF(int, y))\n{\n"
                               "#if defined(GP_TARGET_OPENCL)\n"
                               "    y[gp_global_id(0)] = 7;\n"
                               "#else\n"
                               "    y[gp_global_id(0)] = gp_simd_shuffle(7, 1);\n"
                               "#endif\n}\n";
            o.source_name = "kept.gpk";
            GPT_CHECK(gp_program_create(dev, kept, strlen(kept), &o, &p));
            gp_kernel *kk;
            GPT_CHECK(gp_kernel_create(p, "k", &kk));
            gp_buffer *by = gpt_upload(dev, NULL, 64 * 4);
            gp_arg a[] = {gp_arg_buffer(by)};
            size_t g64 = 64;
            GPT_CHECK(gp_kernel_launch(NULL, kk, 1, &g64, &g64, 1, a));
            int32_t seven[64], want7[64];
            GPT_CHECK(gp_buffer_read(by, 0, seven, sizeof seven));
            for (int i = 0; i < 64; i++)
                want7[i] = 7;
            assert_true(gpt_ints_match("kept out of OpenCL", want7, seven, 64));
            gp_buffer_release(by), gp_kernel_release(kk), gp_program_release(p);
            continue;
        }
        gp_kernel *k = gpt_kernel(dev, "simd.gpk", "simd_ops", &p), *kr, *kb, *kq;
        GPT_CHECK(gp_kernel_create(p, "simd_reduce", &kr));
        GPT_CHECK(gp_kernel_create(p, "block_sum", &kb));
        GPT_CHECK(gp_kernel_create(p, "simd_sync_sum", &kq));
        gp_buffer *bx = gpt_upload(dev, x, sizeof x), *bo = gpt_upload(dev, NULL, sizeof got);
        gp_buffer *bxf = gpt_upload(dev, xf, sizeof xf), *bs = gpt_upload(dev, NULL, sizeof got_s);
        gp_buffer *bb = gpt_upload(dev, NULL, sizeof got_b);
        int n = N;
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_buffer(bx), gp_arg_value(&n, 4)};
        size_t global = N, group = 64;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 3, args));
        GPT_CHECK(gp_buffer_read(bo, 0, got, sizeof got));
        assert_true(gpt_ints_match("simd_ops", ref, got, 8 * N));
        /* the runtime's own group must hold whole SIMD groups too */
        memset(got, 0, sizeof got);
        GPT_CHECK(gp_buffer_write(bo, 0, got, sizeof got));
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 3, args));
        GPT_CHECK(gp_buffer_read(bo, 0, got, sizeof got));
        assert_true(gpt_ints_match("simd_ops (auto group)", ref, got, 8 * N));
        /* a group that is not whole SIMD groups is refused before it runs */
        size_t bad = 48;
        assert_int_equal(gp_kernel_launch(NULL, k, 1, &global, &bad, 3, args), GP_ERR_LAUNCH);
        assert_non_null(strstr(gp_last_error(), "not a multiple of 32"));

        gp_arg rargs[] = {gp_arg_buffer(bs), gp_arg_buffer(bxf), gp_arg_value(&n, 4)};
        GPT_CHECK(gp_kernel_launch(NULL, kr, 1, &global, &group, 3, rargs));
        GPT_CHECK(gp_buffer_read(bs, 0, got_s, sizeof got_s));
        assert_true(gpt_floats_match("simd_reduce", ref_s, got_s, NS, 0.0));
        gp_arg bargs[] = {gp_arg_buffer(bb), gp_arg_buffer(bxf), gp_arg_value(&n, 4)};
        size_t bgroup = G;
        GPT_CHECK(gp_kernel_launch(NULL, kb, 1, &global, &bgroup, 3, bargs));
        GPT_CHECK(gp_buffer_read(bb, 0, got_b, sizeof got_b));
        assert_true(gpt_floats_match("block_sum", ref_b, got_b, NB, 1e-10));
        gp_buffer *bq = gpt_upload(dev, NULL, sizeof got_q);
        gp_arg qargs[] = {gp_arg_buffer(bq), gp_arg_buffer(bx), gp_arg_value(&n, 4)};
        size_t qgroup = 64;
        GPT_CHECK(gp_kernel_launch(NULL, kq, 1, &global, &qgroup, 3, qargs));
        GPT_CHECK(gp_buffer_read(bq, 0, got_q, sizeof got_q));
        assert_true(gpt_ints_match("simd_sync_sum", ref_q, got_q, NQ));
        gp_buffer_release(bq), gp_kernel_release(kq);
        gp_buffer_release(bx), gp_buffer_release(bo), gp_buffer_release(bxf);
        gp_buffer_release(bs), gp_buffer_release(bb);
        gp_kernel_release(k), gp_kernel_release(kr), gp_kernel_release(kb);
        gp_program_release(p);
    }
}

/* The CPU's emulation: votes leave out lanes that returned (as CUDA and Metal leave out exited
 * threads); a shuffle that reads a returned lane, and a lane that is elsewhere (at a barrier) when
 * the others meet, both undefined on GPUs, make the launch fail with a synccheck report. */
static void simd_faults_cpu(void **state)
{
    (void)state;
    const char *src = "GP_KERNEL(vote, GP_BUF(int, y))\n"
                      "{\n"
                      "    int i = gp_global_id(0);\n"
                      "    if (gp_simd_lane() >= 20) return;\n"
                      "    y[i] = (int)gp_simd_ballot(1) + gp_simd_all(i >= 0) * 2;\n"
                      "}\n"
                      "GP_KERNEL(early, GP_BUF(int, y))\n"
                      "{\n"
                      "    int i = gp_global_id(0);\n"
                      "    if (gp_simd_lane() >= 16) return;\n"
                      "    y[i] = gp_simd_shuffle_xor(i, 16);\n"
                      "}\n"
                      "GP_KERNEL(split, GP_BUF(int, y))\n"
                      "{\n"
                      "    int i = gp_global_id(0);\n"
                      "    if (gp_simd_lane() == 5) gp_barrier();\n"
                      "    else y[i] = gp_simd_shuffle(i, 0);\n"
                      "}\n"
                      "GP_KERNEL(tall, GP_BUF(int, y))\n"
                      "{\n"
                      "    int j = gp_global_id(1);\n"
                      "    int v = gp_local_size(0) * 1000 + gp_local_size(1) + gp_simd_any(0);\n"
                      "    if (j < 64) y[j] = v;\n"
                      "}\n";
    gp_device *dev = gpt_open("cpu");
    gp_program *p;
    gp_build_options o = {sizeof o, 0, "faults.gpk", NULL, 0, 0};
    GPT_CHECK(gp_program_create(dev, src, strlen(src), &o, &p));
    gp_buffer *b = gpt_upload(dev, NULL, 64 * 4);
    gp_arg args[] = {gp_arg_buffer(b)};
    size_t global = 64, group = 64;
    gp_kernel *k;
    GPT_CHECK(gp_kernel_create(p, "vote", &k));
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 1, args));
    int32_t got[64];
    GPT_CHECK(gp_buffer_read(b, 0, got, sizeof got));
    for (int i = 0; i < 64; i++)
        if (i % 32 < 20 && got[i] != 0xfffff + 2)
            fail_msg("vote: lane %d got %#x, want 0xfffff + 2", i, (unsigned)got[i]);
    gp_kernel_release(k);
    /* a tall grid: the runtime's group grows along y to whole SIMD groups, not along x */
    GPT_CHECK(gp_kernel_create(p, "tall", &k));
    size_t tall[2] = {1, 64};
    GPT_CHECK(gp_kernel_launch(NULL, k, 2, tall, NULL, 1, args));
    GPT_CHECK(gp_buffer_read(b, 0, got, sizeof got));
    for (int i = 0; i < 64; i++)
        if (got[i] % 1000 % 32 != 0 || got[i] / 1000 != 1)
            fail_msg("tall grid: group %d x %d, want 1 x a multiple of 32", got[i] / 1000,
                     got[i] % 1000);
    gp_kernel_release(k);
    /* faults are check reports (synccheck); a checked run (GPUPORT_CHECK) also has the line */
    const char *names[] = {"early", "split"};
    const char *why[] = {"had already returned", "SIMD group"};
    const uint32_t line[] = {11, 17};
    uint32_t checks = 0;
    GPT_CHECK(gp_device_get_checks(dev, &checks));
    for (int i = 0; i < 2; i++) {
        GPT_CHECK(gp_kernel_create(p, names[i], &k));
        assert_int_equal(gp_kernel_launch(NULL, k, 1, &global, &group, 1, args), GP_ERR_CHECK);
        if (!strstr(gp_last_error(), why[i]))
            fail_msg("%s: unexpected message: %s", names[i], gp_last_error());
        uint32_t n = 0;
        GPT_CHECK(gp_check_report_count(&n, NULL));
        bool found = false;
        for (uint32_t r = 0; r < n; r++) {
            gp_check_report rep;
            GPT_CHECK(gp_check_report_get(r, &rep));
            if (rep.check == GP_CHECK_SYNCCHECK && strstr(rep.message, why[i]) &&
                rep.line == (checks ? line[i] : 0) && !strcmp(rep.kernel, names[i]))
                found = true;
        }
        if (!found) fail_msg("%s: no synccheck report at line %u", names[i], checks ? line[i] : 0);
        gp_kernel_release(k);
    }
    gp_buffer_release(b), gp_program_release(p);
    gp_device_release(dev);
}

static int setup(void **state)
{
    (void)state;
    g_nspecs = gpt_devices(g_specs, 16);
    fprintf(stderr, "devices:");
    for (int i = 0; i < g_nspecs; i++)
        fprintf(stderr, " %s", g_specs[i]);
    fprintf(stderr, "\n");
    return g_nspecs > 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(conformance_saxpy),        cmocka_unit_test(conformance_many_params),
        cmocka_unit_test(conformance_transpose),    cmocka_unit_test(conformance_reduce),
        cmocka_unit_test(conformance_histogram),    cmocka_unit_test(conformance_atomic_float),
        cmocka_unit_test(conformance_scan),         cmocka_unit_test(conformance_index3d),
        cmocka_unit_test(conformance_helper),       cmocka_unit_test(conformance_half),
        cmocka_unit_test(conformance_define),       cmocka_unit_test(conformance_vectors),
        cmocka_unit_test(conformance_vectors_fp64), cmocka_unit_test(conformance_atomic64),
        cmocka_unit_test(conformance_bits),         cmocka_unit_test(conformance_nonuniform),
        cmocka_unit_test(conformance_simd),         cmocka_unit_test(simd_faults_cpu),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
