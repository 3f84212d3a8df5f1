/* test_translate_run.c — the translation must compute what the CUDA source computes: every kernel
 * of tests/translate/corpus/ is translated, built by the runtime on every device of this machine
 * (the CPU backend always; OpenCL on PoCL in CI), launched as the CUDA host code would launch it,
 * and compared with a C reference written here from the CUDA source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runtime/conformance.h"
#include "translate/corpus_flags.h"
#include "translate/translate.h"

static char g_specs[16][32];
static int g_nspecs;

/* Translates corpus/<file> (with the options its "// translate flags:" line asks for, as
 * test_translate_compile.sh does) and builds it for dev; the build's status in *st, or a failed
 * test when st is NULL and the build fails. */
static gp_program *build_translated_status(gp_device *dev, const char *file, gp_status *st)
{
    const char *root = getenv("GPUPORT_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/translate/corpus/%s", root ? root : ".", file);
    size_t len;
    char err[512];
    char *src = gp_read_file(path, 1 << 20, false, &len, err, sizeof err);
    if (!src) fail_msg("%s", err);
    gp_translate_options to = {0};
    corpus_flags fl;
    corpus_flags_apply(src, &fl, &to);
    free(src);
    gp_translate_result r;
    gp_translate(path, NULL, 0, &to, &r);
    if (r.status != GP_TRANSLATE_OK) {
        char *rep = r.report ? cJSON_Print(r.report) : NULL;
        fail_msg("%s not translated: %s %s", file, r.error ? r.error : "", rep ? rep : "");
    }
    gp_build_options o = {sizeof o, GP_BUILD_NO_CACHE, file, NULL, 0, 0};
    gp_program *p = NULL;
    gp_status s = gp_program_create(dev, r.output, strlen(r.output), &o, &p);
    if (s != GP_OK && !st)
        fail_msg("%s: %s\n--- translation ---\n%s", file, gp_last_error(), r.output);
    if (st) *st = s;
    gp_translate_result_free(&r);
    return p;
}

static gp_program *build_translated(gp_device *dev, const char *file)
{
    return build_translated_status(dev, file, NULL);
}

#define FOR_EACH_DEVICE(dev) GPT_FOR_EACH_DEVICE(dev, g_specs, g_nspecs)

static void run_saxpy(void **state)
{
    (void)state;
    enum { N = 5001 };
    float x[N], y[N], ref[N], got[N], a = 0.75f;
    for (int i = 0; i < N; i++)
        x[i] = (float)i * 0.5f, y[i] = 1.0f - (float)(i % 7);
    for (int i = 0; i < N; i++)
        ref[i] = a * x[i] + y[i];
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p = build_translated(dev, "saxpy.cu");
        gp_kernel *k = gpt_kernel_of(p, "saxpy");
        gp_buffer *by = gpt_upload(dev, y, sizeof y), *bx = gpt_upload(dev, x, sizeof x);
        int n = N;
        gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, 4),
                         gp_arg_value(&n, 4)};
        size_t global = (N + 127) / 128 * 128, group = 128; /* saxpy<<<(N+127)/128, 128>>> */
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 4, args));
        GPT_CHECK(gp_buffer_read(by, 0, got, sizeof got));
        assert_true(gpt_floats_match("saxpy.cu", ref, got, N, 1e-12));
        gp_buffer_release(bx), gp_buffer_release(by), gp_kernel_release(k), gp_program_release(p);
    }
}

static void run_transpose(void **state)
{
    (void)state;
    enum { W = 37, H = 21, TILE = 16 };
    float in[W * H], out[W * H], ref[W * H];
    for (int i = 0; i < W * H; i++)
        in[i] = (float)i;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            ref[x * H + y] = in[y * W + x];
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p = build_translated(dev, "transpose.cu");
        gp_kernel *k = gpt_kernel_of(p, "transpose");
        gp_buffer *bi = gpt_upload(dev, in, sizeof in), *bo = gpt_upload(dev, NULL, sizeof out);
        int w = W, h = H;
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_buffer(bi), gp_arg_value(&w, 4),
                         gp_arg_value(&h, 4)};
        /* transpose<<<dim3(ceil(W/TILE), ceil(H/TILE)), dim3(TILE, TILE)>>> */
        size_t global[2] = {(W + TILE - 1) / TILE * TILE, (H + TILE - 1) / TILE * TILE};
        size_t group[2] = {TILE, TILE};
        GPT_CHECK(gp_kernel_launch(NULL, k, 2, global, group, 4, args));
        GPT_CHECK(gp_buffer_read(bo, 0, out, sizeof out));
        assert_true(gpt_floats_match("transpose.cu", ref, out, W * H, 0));
        gp_buffer_release(bi), gp_buffer_release(bo), gp_kernel_release(k), gp_program_release(p);
    }
}

static void run_reduce(void **state)
{
    (void)state;
    enum { N = 1000, B = 256, G = (N + B - 1) / B };
    float in[N], partial[G], ref_partial[G] = {0}, total = 0, ref_total = 0;
    for (int i = 0; i < N; i++)
        in[i] = (float)(i % 17) * 0.25f;
    for (int i = 0; i < N; i++)
        ref_partial[i / B] += 2.0f * in[i];
    for (int g = 0; g < G; g++)
        ref_total += ref_partial[g];
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p = build_translated(dev, "reduce.cu");
        gp_kernel *k = gpt_kernel_of(p, "reduce");
        float zero = 0;
        gp_buffer *bt = gpt_upload(dev, &zero, 4), *bp = gpt_upload(dev, NULL, sizeof partial),
                  *bi = gpt_upload(dev, in, sizeof in);
        int n = N;
        gp_arg args[] = {gp_arg_buffer(bt), gp_arg_buffer(bp), gp_arg_buffer(bi),
                         gp_arg_value(&n, 4),
                         gp_arg_shared(B * sizeof(float))}; /* reduce<<<G, B, B * 4>>> */
        size_t global = G * B, group = B;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 5, args));
        GPT_CHECK(gp_buffer_read(bp, 0, partial, sizeof partial));
        GPT_CHECK(gp_buffer_read(bt, 0, &total, 4));
        assert_true(gpt_floats_match("reduce.cu partial sums", ref_partial, partial, G, 1e-12));
        assert_true(gpt_floats_match("reduce.cu total", &ref_total, &total, 1, 1e-12));
        gp_buffer_release(bt), gp_buffer_release(bp), gp_buffer_release(bi);
        gp_kernel_release(k), gp_program_release(p);
    }
}

static void run_histogram(void **state)
{
    (void)state;
    enum { N = 20000, BINS = 64 };
    int32_t values[N], ref_bins[BINS] = {0}, bins[BINS], ext[2],
                       ref_ext[2] = {INT32_MAX, INT32_MIN};
    for (int i = 0; i < N; i++)
        values[i] = (int32_t)((i * 2654435761u) % 10007) - 5000;
    for (int i = 0; i < N; i++) {
        ref_bins[values[i] & (BINS - 1)]++;
        if (values[i] < ref_ext[0]) ref_ext[0] = values[i];
        if (values[i] > ref_ext[1]) ref_ext[1] = values[i];
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p = build_translated(dev, "histogram.cu");
        gp_kernel *k = gpt_kernel_of(p, "histogram");
        int32_t zero[BINS] = {0}, ext0[2] = {INT32_MAX, INT32_MIN};
        gp_buffer *bb = gpt_upload(dev, zero, sizeof zero),
                  *bv = gpt_upload(dev, values, sizeof values),
                  *be = gpt_upload(dev, ext0, sizeof ext0);
        int n = N;
        gp_arg args[] = {gp_arg_buffer(bb), gp_arg_buffer(bv), gp_arg_value(&n, 4),
                         gp_arg_buffer(be)};
        size_t global = 8 * 128, group = 128; /* a grid-stride loop: fewer threads than values */
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 4, args));
        GPT_CHECK(gp_buffer_read(bb, 0, bins, sizeof bins));
        GPT_CHECK(gp_buffer_read(be, 0, ext, sizeof ext));
        assert_true(gpt_ints_match("histogram.cu bins", ref_bins, bins, BINS));
        assert_true(gpt_ints_match("histogram.cu extremes", ref_ext, ext, 2));
        gp_buffer_release(bb), gp_buffer_release(bv), gp_buffer_release(be);
        gp_kernel_release(k), gp_program_release(p);
    }
}

static void run_stencil(void **state)
{
    (void)state;
    enum { N = 777 };
    float in[N], out[N], ref[N], gain = 1.5f;
    const float w[3] = {0.25f, 0.5f, 0.25f};
    for (int i = 0; i < N; i++)
        in[i] = sinf((float)i * 0.1f);
    for (int i = 0; i < N; i++) {
        int lo = i - 1 > 0 ? i - 1 : 0, hi = i + 1 < N - 1 ? i + 1 : N - 1;
        float acc = w[0] * in[lo] + w[1] * in[i] + w[2] * in[hi];
        ref[i] = fmaf(acc, gain, expf(-fabsf(acc))) * (1.0f / sqrtf(1.0f + acc * acc));
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p = build_translated(dev, "stencil.cu");
        gp_kernel *k = gpt_kernel_of(p, "stencil");
        gp_buffer *bo = gpt_upload(dev, NULL, sizeof out), *bi = gpt_upload(dev, in, sizeof in);
        int n = N;
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_buffer(bi), gp_arg_value(&n, 4),
                         gp_arg_value(&gain, 4)};
        size_t global = (N + 63) / 64 * 64, group = 64;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 4, args));
        GPT_CHECK(gp_buffer_read(bo, 0, out, sizeof out));
        assert_true(gpt_floats_match("stencil.cu", ref, out, N, 1e-10));
        gp_buffer_release(bo), gp_buffer_release(bi), gp_kernel_release(k), gp_program_release(p);
    }
}

static void run_scan(void **state)
{
    (void)state;
    enum { N = 256, BLOCKS = 3 };
    int32_t in[N * BLOCKS], out[N * BLOCKS], ref[N * BLOCKS];
    for (int i = 0; i < N * BLOCKS; i++)
        in[i] = (i * 7) % 11 - 3;
    for (int b = 0; b < BLOCKS; b++) {
        int32_t run = 0;
        for (int i = 0; i < N; i++)
            ref[b * N + i] = run, run += in[b * N + i];
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p = build_translated(dev, "scan.cu");
        gp_kernel *k = gpt_kernel_of(p, "scan");
        gp_buffer *bo = gpt_upload(dev, NULL, sizeof out), *bi = gpt_upload(dev, in, sizeof in);
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_buffer(bi)};
        size_t global = N * BLOCKS, group = N;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 2, args));
        GPT_CHECK(gp_buffer_read(bo, 0, out, sizeof out));
        assert_true(gpt_ints_match("scan.cu", ref, out, N * BLOCKS));
        gp_buffer_release(bo), gp_buffer_release(bi), gp_kernel_release(k), gp_program_release(p);
    }
}

/* IEEE binary16 from float by rounding to nearest even (what __float2half does). */
static uint16_t to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xff, m = x & 0x7fffff;
    if (e < 113) return (uint16_t)sign; /* the values used here are normal */
    uint32_t h = ((e - 112) << 10) | (m >> 13), rem = m & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

static float from_half(uint16_t h)
{
    uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff,
             bits = ((uint32_t)(h & 0x8000) << 16) | ((e + 112) << 23) | (m << 13);
    float f;
    if (e == 0) return 0.0f;
    memcpy(&f, &bits, 4);
    return f;
}

static void run_vectors(void **state)
{
    (void)state;
    enum { N = 300 };
    float in[N], o4[N * 4], o2[N * 2], r4[N * 4], r2[N * 2];
    uint16_t h[N], rh[N];
    for (int i = 0; i < N; i++) {
        in[i] = (float)i * 0.125f - 10.0f;
        h[i] = to_half((float)(i % 9) + 0.5f);
        float v = in[i];
        r4[i * 4] = v, r4[i * 4 + 1] = v * 2, r4[i * 4 + 2] = v * 3, r4[i * 4 + 3] = v * 4;
        r2[i * 2] = v, r2[i * 2 + 1] = -v;
        rh[i] = to_half(from_half(h[i]) + v);
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p = build_translated(dev, "vectors.cu");
        gp_kernel *k = gpt_kernel_of(p, "vectors");
        gp_buffer *b4 = gpt_upload(dev, NULL, sizeof o4), *b2 = gpt_upload(dev, NULL, sizeof o2),
                  *bh = gpt_upload(dev, h, sizeof h), *bi = gpt_upload(dev, in, sizeof in);
        int n = N;
        gp_arg args[] = {gp_arg_buffer(b4), gp_arg_buffer(b2), gp_arg_buffer(bh), gp_arg_buffer(bi),
                         gp_arg_value(&n, 4)};
        size_t global = (N + 31) / 32 * 32, group = 32;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 5, args));
        uint16_t gh[N];
        GPT_CHECK(gp_buffer_read(b4, 0, o4, sizeof o4));
        GPT_CHECK(gp_buffer_read(b2, 0, o2, sizeof o2));
        GPT_CHECK(gp_buffer_read(bh, 0, gh, sizeof gh));
        assert_true(gpt_floats_match("vectors.cu float4", r4, o4, N * 4, 0));
        assert_true(gpt_floats_match("vectors.cu float2", r2, o2, N * 2, 0));
        for (int i = 0; i < N; i++)
            if (gh[i] != rh[i])
                fail_msg("vectors.cu half %d: 0x%04x, want 0x%04x", i, gh[i], rh[i]);
        gp_buffer_release(b4), gp_buffer_release(b2), gp_buffer_release(bh), gp_buffer_release(bi);
        gp_kernel_release(k), gp_program_release(p);
    }
}

static void run_index3d(void **state)
{
    (void)state;
    enum { NX = 9, NY = 5, NZ = 3, GX = 4, GY = 2, GZ = 2 };
    size_t global[3] = {12, 6, 4}, group[3] = {GX, GY, GZ};
    int groups = (int)((global[0] / GX) * (global[1] / GY) * (global[2] / GZ));
    int32_t out[NX * NY * NZ], ref[NX * NY * NZ];
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++)
                ref[(z * NY + y) * NX + x] = x + 100 * y + 10000 * z + groups;
    FOR_EACH_DEVICE(dev)
    {
        gp_program *p = build_translated(dev, "index3d.cu");
        gp_kernel *k = gpt_kernel_of(p, "index3d");
        gp_buffer *bo = gpt_upload(dev, NULL, sizeof out);
        int nx = NX, ny = NY, nz = NZ;
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_value(&nx, 4), gp_arg_value(&ny, 4),
                         gp_arg_value(&nz, 4)};
        GPT_CHECK(gp_kernel_launch(NULL, k, 3, global, group, 4, args));
        GPT_CHECK(gp_buffer_read(bo, 0, out, sizeof out));
        assert_true(gpt_ints_match("index3d.cu", ref, out, NX * NY * NZ));
        gp_buffer_release(bo), gp_kernel_release(k), gp_program_release(p);
    }
}

/* Warp shuffles and votes (translated with --simd-width 32) on every device with SIMD groups of
 * 32; elsewhere (OpenCL) the build is refused with the reason. */
static void run_warp(void **state)
{
    (void)state;
    enum { N = 1000, G = 128, NB = (N + G - 1) / G, NW = (N + 31) / 32 };
    float in[N], ref_b[NB], got_b[NB];
    int32_t x[N], ref[4 * N], got[4 * N];
    uint32_t ref_bal[NW], got_bal[NW];
    int32_t ref_t[NB], got_t[NB];
    for (int i = 0; i < N; i++) {
        in[i] = (float)((i * 29) % 61) * 0.125f - 2.0f;
        x[i] = (i * 13) % 23 - 4;
        if (i / 32 == 3) x[i] = 1 + i % 5; /* a warp with no negatives and no zeros */
    }
    gpt_block_sums_f(in, N, G, ref_b);
    gpt_block_sums_i(x, N, G, ref_t);
    for (int w = 0; w < NW; w++) {
        int v[32], total = 0, any_neg = 0, all_nz = 1, scan = 0;
        uint32_t pos = 0;
        for (int l = 0; l < 32; l++) {
            int i = w * 32 + l;
            v[l] = i < N ? x[i] : 0; /* lanes past n take part with 0 */
            total += v[l];
            any_neg |= v[l] < 0;
            all_nz &= v[l] != 0;
            if (v[l] > 0) pos |= 1u << l;
        }
        ref_bal[w] = pos;
        for (int l = 0; l < 32 && w * 32 + l < N; l++) {
            int i = w * 32 + l;
            scan += v[l];
            ref[4 * i + 0] = total;
            ref[4 * i + 1] = scan;
            ref[4 * i + 2] = v[0];
            ref[4 * i + 3] = any_neg * 2 + all_nz;
        }
    }
    FOR_EACH_DEVICE(dev)
    {
        gp_device_info info;
        GPT_CHECK(gp_device_get_info(dev, &info));
        gp_status st;
        gp_program *p = build_translated_status(dev, "warp.cu", &st);
        if (info.simd_group_width != 32) {
            assert_int_equal(st, GP_ERR_UNSUPPORTED);
            assert_non_null(strstr(gp_last_error(), "SIMD"));
            fprintf(stderr, "  %s: refused as it should be: %s\n", info.spec, gp_last_error());
            continue;
        }
        GPT_CHECK(st);
        gp_kernel *kb = gpt_kernel_of(p, "block_sum"), *kw = gpt_kernel_of(p, "warp_ops");
        gp_kernel *kt = gpt_kernel_of(p, "tail_sum");
        gp_buffer *bin = gpt_upload(dev, in, sizeof in),
                  *bout = gpt_upload(dev, NULL, sizeof got_b);
        gp_buffer *bx = gpt_upload(dev, x, sizeof x), *bo = gpt_upload(dev, NULL, sizeof got);
        gp_buffer *bbal = gpt_upload(dev, NULL, sizeof got_bal);
        int n = N;
        size_t global = (size_t)NB * G, group = G;
        gp_arg a1[] = {gp_arg_buffer(bout), gp_arg_buffer(bin), gp_arg_value(&n, 4)};
        GPT_CHECK(gp_kernel_launch(NULL, kb, 1, &global, &group, 3, a1));
        GPT_CHECK(gp_buffer_read(bout, 0, got_b, sizeof got_b));
        assert_true(gpt_floats_match("warp block_sum", ref_b, got_b, NB, 1e-10));
        gp_arg a2[] = {gp_arg_buffer(bo), gp_arg_buffer(bbal), gp_arg_buffer(bx),
                       gp_arg_value(&n, 4)};
        GPT_CHECK(gp_kernel_launch(NULL, kw, 1, &global, &group, 4, a2));
        GPT_CHECK(gp_buffer_read(bo, 0, got, sizeof got));
        GPT_CHECK(gp_buffer_read(bbal, 0, got_bal, sizeof got_bal));
        assert_true(gpt_ints_match("warp_ops", ref, got, 4 * N));
        assert_true(gpt_ints_match("warp_ops ballots", (const int32_t *)ref_bal,
                                   (const int32_t *)got_bal, NW));
        gp_buffer *bt = gpt_upload(dev, NULL, sizeof got_t);
        gp_arg a3[] = {gp_arg_buffer(bt), gp_arg_buffer(bx), gp_arg_value(&n, 4)};
        GPT_CHECK(gp_kernel_launch(NULL, kt, 1, &global, &group, 3, a3));
        GPT_CHECK(gp_buffer_read(bt, 0, got_t, sizeof got_t));
        assert_true(gpt_ints_match("warp tail_sum (__syncwarp)", ref_t, got_t, NB));
        gp_buffer_release(bt), gp_kernel_release(kt);
        gp_buffer_release(bin), gp_buffer_release(bout), gp_buffer_release(bx);
        gp_buffer_release(bo), gp_buffer_release(bbal);
        gp_kernel_release(kb), gp_kernel_release(kw), gp_program_release(p);
    }
}

int main(void)
{
    g_nspecs = gpt_devices(g_specs, 16);
    if (g_nspecs == 0) {
        fprintf(stderr, "no device at all: even the CPU backend is missing\n");
        return 1;
    }
    fprintf(stderr, "devices:");
    for (int i = 0; i < g_nspecs; i++)
        fprintf(stderr, " %s", g_specs[i]);
    fprintf(stderr, "\n");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(run_saxpy),   cmocka_unit_test(run_transpose),
        cmocka_unit_test(run_reduce),  cmocka_unit_test(run_histogram),
        cmocka_unit_test(run_stencil), cmocka_unit_test(run_scan),
        cmocka_unit_test(run_vectors), cmocka_unit_test(run_index3d),
        cmocka_unit_test(run_warp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
