/* test_translate_corpus_run.c — every translated kernel of tests/translate/corpus/ must compute
 * what its CUDA original computes: each file is translated as its header asks (--partial for the
 * files where some kernels are refused), built by the runtime on every device of this machine
 * (the CPU backend always, OpenCL on PoCL in CI; SIMD-group kernels only where SIMD groups
 * exist), launched as the file's host code launches it, and compared with a reference written
 * here in plain C from the CUDA source. Everything goes through gp_kernel_launch, so the same
 * run with GPUPORT_CHECK=all runs every kernel under the CPU backend's checker. The first files
 * of the corpus are run by test_translate_run.c. */
#include <float.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runtime/conformance.h"
#include "translate/corpus_flags.h"
#include "translate/translate.h"
#include "util/strbuf.h"

static char g_specs[16][32];
static int g_nspecs;

/* ---- building a corpus file ----------------------------------------------------------------- */
typedef struct built {
    gp_program *prog; /* NULL: this device is not a target of the file (it said why) */
    gp_device *dev;
} built;

static built build(gp_device *dev, const char *file)
{
    const char *root = getenv("GPUPORT_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/translate/corpus/%s", root ? root : ".", file);
    char err[512] = "";
    gp_translate_result r;
    corpus_translate(path, &r, err, sizeof err);
    if (!r.output) fail_msg("%s not translated: %s%s", file, r.error ? r.error : "", err);
    gp_device_info info;
    GPT_CHECK(gp_device_get_info(dev, &info));
    bool simd = strstr(r.output, "GP_REQUIRES_SIMD_WIDTH") != NULL;
    bool fp64 = strstr(r.output, "GP_REQUIRES_FP64") != NULL;
    gp_build_options o = {sizeof o, 0, file, NULL, 0, 0};
    built b = {NULL, dev};
    gp_status st = gp_program_create(dev, r.output, strlen(r.output), &o, &b.prog);
    if ((simd && info.simd_group_width != 32) || (fp64 && st == GP_ERR_UNSUPPORTED)) {
        /* not a target: the runtime must say so, not build something else */
        assert_int_equal(st, GP_ERR_UNSUPPORTED);
        fprintf(stderr, "  %s: %s is not a target, as the report says\n", info.spec, file);
        gp_translate_result_free(&r);
        return b;
    }
    if (st != GP_OK) fail_msg("%s on %s: %s\n%s", file, info.spec, gp_last_error(), r.output);
    gp_translate_result_free(&r);
    return b;
}

static gp_buffer *buf(gp_device *dev, const void *data, size_t bytes)
{
    gp_buffer *b = NULL;
    GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes ? bytes : 4, &b));
    if (data)
        GPT_CHECK(gp_buffer_write(b, 0, data, bytes));
    else {
        unsigned char zero = 0;
        GPT_CHECK(gp_buffer_fill(b, 0, &zero, 1, bytes ? bytes : 4));
    }
    return b;
}

static void get(gp_buffer *b, void *out, size_t bytes)
{
    GPT_CHECK(gp_buffer_read(b, 0, out, bytes));
}

/* launch(k, dims, {global...}, {group...}, args...) */
static void launch(gp_kernel *k, uint32_t dims, const size_t *global, const size_t *group,
                   uint32_t nargs, const gp_arg *args)
{
    GPT_CHECK(gp_kernel_launch(NULL, k, dims, global, group, nargs, args));
}
#define G1(x)       ((size_t[]){(x)})
#define G2(x, y)    ((size_t[]){(x), (y)})
#define G3(x, y, z) ((size_t[]){(x), (y), (z)})
#define ARGS(...)   (sizeof((gp_arg[]){__VA_ARGS__}) / sizeof(gp_arg)), ((gp_arg[]){__VA_ARGS__})
#define B(b)        gp_arg_buffer(b)
#define V(v)        gp_arg_value(&(v), sizeof(v))

static uint32_t g_seed = 1;
static float frand(float lo, float hi)
{
    g_seed = g_seed * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(g_seed >> 8) / 16777216.0f;
}
static void ffill(float *x, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        x[i] = frand(lo, hi);
}

static void close_all(built *b)
{
    gp_program_release(b->prog);
}

#define FOR_EACH_DEVICE(dev) GPT_FOR_EACH_DEVICE(dev, g_specs, g_nspecs)

#define CHECKF(what, ref, got, n, tol)                                                             \
    assert_true(gpt_floats_match((what), (ref), (got), (n), (tol)))
#define CHECKI(what, ref, got, n)                                                                  \
    assert_true(gpt_ints_match((what), (const int32_t *)(ref), (const int32_t *)(got), (n)))

/* ---- CUDA samples ------------------------------------------------------------------------- */
static void run_vector_add(void **state)
{
    (void)state;
    enum { N = 5003 };
    static float a[N], b[N], c[N], ref[N];
    ffill(a, N, 0, 1), ffill(b, N, 0, 1);
    for (int i = 0; i < N; i++)
        ref[i] = a[i] + b[i];
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "vector_add.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "vectorAdd");
        gp_buffer *ba = buf(dev, a, sizeof a), *bb = buf(dev, b, sizeof b),
                  *bc = buf(dev, NULL, sizeof c);
        int n = N;
        launch(k, 1, G1((N + 255) / 256 * 256), G1(256), ARGS(B(ba), B(bb), B(bc), V(n)));
        get(bc, c, sizeof c);
        CHECKF("vectorAdd", ref, c, N, 0);
        gp_buffer_release(ba), gp_buffer_release(bb), gp_buffer_release(bc);
        gp_kernel_release(k), close_all(&t);
    }
}

/* the sum of each block of `per` elements (the last one partial) */
static void block_sums(const float *x, int n, int per, float *out)
{
    gpt_block_sums_f(x, n, per, out);
}

static void run_reduction_kernels(void **state)
{
    (void)state;
    enum { N = 3000, T = 256 };
    static float in[N], part[64], ref[64];
    static int32_t iin[N], ipart[64], iref[64];
    ffill(in, N, -1, 1);
    for (int i = 0; i < N; i++)
        iin[i] = (int32_t)(i * 7 % 13) - 6;
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "reduction_kernels.cu");
        if (!t.prog) continue;
        unsigned n = N;
        gp_buffer *bi = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof part);
        gp_buffer *bii = buf(dev, iin, sizeof iin), *bio = buf(dev, NULL, sizeof ipart);
        /* reduce0: one block per 256 elements; reduce3 and reduce4: 512 */
        static const struct {
            const char *name;
            int per;
        } ks[] = {{"reduce0_float", T}, {"reduce3_float", 2 * T}, {"reduce4_float_256", 2 * T}};
        for (size_t q = 0; q < 3; q++) {
            int blocks = (N + ks[q].per - 1) / ks[q].per;
            gp_kernel *k = gpt_kernel_of(t.prog, ks[q].name);
            launch(k, 1, G1((size_t)blocks * T), G1(T),
                   ARGS(B(bi), B(bo), V(n), gp_arg_shared(T * sizeof(float))));
            get(bo, part, (size_t)blocks * 4);
            block_sums(in, N, ks[q].per, ref);
            CHECKF(ks[q].name, ref, part, (size_t)blocks, 1e-10);
            gp_kernel_release(k);
        }
        /* int, 128 threads a block, 256 elements a block: exact */
        int blocks = (N + 255) / 256;
        gp_kernel *k = gpt_kernel_of(t.prog, "reduce4_int_128");
        launch(k, 1, G1((size_t)blocks * 128), G1(128),
               ARGS(B(bii), B(bio), V(n), gp_arg_shared(128 * sizeof(int32_t))));
        get(bio, ipart, (size_t)blocks * 4);
        gpt_block_sums_i(iin, N, 256, iref);
        CHECKI("reduce4_int_128", iref, ipart, (size_t)blocks);
        gp_kernel_release(k);
        gp_buffer_release(bi), gp_buffer_release(bo), gp_buffer_release(bii),
            gp_buffer_release(bio);
        close_all(&t);
    }
}

static void run_reduction_warp_helper(void **state)
{
    (void)state;
    enum { N = 70000, T = 256, BLOCKS = 16 };
    static int32_t in[N], out[BLOCKS], ref[BLOCKS];
    for (int i = 0; i < N; i++)
        in[i] = (i * 31) % 17 - 8;
    /* reduce6<256>: block b sums i = b*512 + tid (and + 256) stepping 512 * BLOCKS */
    for (int b = 0; b < BLOCKS; b++) {
        ref[b] = 0;
        for (int tid = 0; tid < T; tid++)
            for (int i = b * 512 + tid; i < N; i += 512 * BLOCKS) {
                ref[b] += in[i];
                if (i + T < N) ref[b] += in[i + T];
            }
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "reduction_warp_helper.cu");
        if (!t.prog) continue;
        gp_kernel *k = gpt_kernel_of(t.prog, "reduce6_256");
        gp_buffer *bi = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof out);
        unsigned n = N;
        launch(k, 1, G1(BLOCKS * T), G1(T), ARGS(B(bi), B(bo), V(n), gp_arg_shared(T * 4)));
        get(bo, out, sizeof out);
        CHECKI("reduce6_256 (its warp tail rewritten with shuffles)", ref, out, BLOCKS);
        gp_buffer_release(bi), gp_buffer_release(bo), gp_kernel_release(k), close_all(&t);
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void run_bitonic_sort(void **state)
{
    (void)state;
    enum { L = 1024, BATCH = 2 };
    static uint32_t keys[BATCH * L], vals[BATCH * L], ok[BATCH * L], ov[BATCH * L], ref[BATCH * L],
        back[BATCH * L];
    for (uint32_t i = 0; i < BATCH * L; i++)
        keys[i] = (i * 2654435761u) >> 8, vals[i] = i;
    memcpy(ref, keys, sizeof keys);
    for (int q = 0; q < BATCH; q++)
        qsort(ref + q * L, L, sizeof *ref, cmp_u32);
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "bitonic_sort.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "bitonicSortShared");
        gp_buffer *bk = buf(dev, keys, sizeof keys), *bv = buf(dev, vals, sizeof vals),
                  *dk = buf(dev, NULL, sizeof ok), *dv = buf(dev, NULL, sizeof ov);
        unsigned len = L, dir = 1;
        launch(k, 1, G1(BATCH * L / 2), G1(L / 2),
               ARGS(B(dk), B(dv), B(bk), B(bv), V(len), V(dir)));
        get(dk, ok, sizeof ok), get(dv, ov, sizeof ov);
        CHECKI("bitonicSortShared keys", ref, ok, BATCH * L);
        for (int i = 0; i < BATCH * L; i++) /* each value still travels with its key */
            back[i] = ov[i] < BATCH * L ? keys[ov[i]] : ~ok[i];
        CHECKI("bitonicSortShared values", ok, back, BATCH * L);
        gp_buffer_release(bk), gp_buffer_release(bv), gp_buffer_release(dk);
        gp_buffer_release(dv), gp_kernel_release(k), close_all(&t);
    }
}

static void run_reduction_lockstep_refused(void **state)
{
    (void)state;
    enum { N = 4000, NB = 10 };
    static int32_t keys[N];
    static uint32_t bins[NB], ref[NB];
    for (int i = 0; i < N; i++)
        keys[i] = (i * 2654435761u) % 1000;
    memset(ref, 0, sizeof ref);
    for (int i = 0; i < N; i++)
        ref[keys[i] % NB]++;
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "reduction_lockstep_refused.cu"); /* block_sum is left out */
        gp_kernel *k = gpt_kernel_of(t.prog, "count_bins");
        gp_buffer *bk = buf(dev, keys, sizeof keys), *bb = buf(dev, NULL, sizeof bins);
        int n = N, nb = NB;
        launch(k, 1, G1(512), G1(128), ARGS(B(bk), B(bb), V(n), V(nb)));
        get(bb, bins, sizeof bins);
        CHECKI("count_bins", ref, bins, NB);
        gp_buffer_release(bk), gp_buffer_release(bb), gp_kernel_release(k), close_all(&t);
    }
}

static void run_transpose_kernels(void **state)
{
    (void)state;
    enum { NX = 64, NY = 96, TD = 32, BR = 8 };
    static float in[NX * NY], out[NX * NY], ref[NX * NY];
    for (int i = 0; i < NX * NY; i++)
        in[i] = (float)i;
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "transpose_kernels.cu");
        gp_buffer *bi = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof out);
        /* width = gridDim.x * TILE_DIM: square matrices in the sample; a 64 x 64 block here */
        size_t global[2] = {NX, NX / TD * BR}, group[2] = {TD, BR};
        const char *names[] = {"copy", "transposeNaive", "transposeNoBankConflicts"};
        for (int q = 0; q < 3; q++) {
            for (int y = 0; y < NX; y++)
                for (int x = 0; x < NX; x++)
                    ref[q == 0 ? y * NX + x : x * NX + y] = in[y * NX + x];
            gp_kernel *k = gpt_kernel_of(t.prog, names[q]);
            launch(k, 2, global, group, ARGS(B(bo), B(bi)));
            get(bo, out, sizeof(float) * NX * NX);
            CHECKF(names[q], ref, out, NX * NX, 0);
            gp_kernel_release(k);
        }
        gp_buffer_release(bi), gp_buffer_release(bo), close_all(&t);
    }
}

static void run_matrix_mul(void **state)
{
    (void)state;
    enum { WA = 64, HA = 32, WB = 96 };
    static float A[HA * WA], Bm[WA * WB], C[HA * WB], ref[HA * WB];
    ffill(A, HA * WA, -1, 1), ffill(Bm, WA * WB, -1, 1);
    for (int r = 0; r < HA; r++)
        for (int c = 0; c < WB; c++) {
            double s = 0;
            for (int k = 0; k < WA; k++)
                s += (double)A[r * WA + k] * Bm[k * WB + c];
            ref[r * WB + c] = (float)s;
        }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "matrix_mul.cu");
        gp_buffer *ba = buf(dev, A, sizeof A), *bb = buf(dev, Bm, sizeof Bm),
                  *bc = buf(dev, NULL, sizeof C);
        int wa = WA, wb = WB;
        const char *names[] = {"MatrixMulCUDA_16", "MatrixMulCUDA_32"};
        for (int q = 0; q < 2; q++) {
            size_t bs = q ? 32 : 16;
            gp_kernel *k = gpt_kernel_of(t.prog, names[q]);
            launch(k, 2, G2(WB, HA), G2(bs, bs), ARGS(B(bc), B(ba), B(bb), V(wa), V(wb)));
            get(bc, C, sizeof C);
            CHECKF(names[q], ref, C, HA * WB, 1e-10);
            gp_kernel_release(k);
        }
        gp_buffer_release(ba), gp_buffer_release(bb), gp_buffer_release(bc), close_all(&t);
    }
}

static void run_histogram64(void **state)
{
    (void)state;
    enum { N = 20011, PARTS = 8, BINS = 64 };
    static unsigned char data[N];
    static uint32_t partial[PARTS * BINS], hist[BINS], ref[BINS];
    for (int i = 0; i < N; i++)
        data[i] = (unsigned char)((i * 37 + i / 7) & 255);
    memset(ref, 0, sizeof ref);
    for (int i = 0; i < N; i++)
        ref[data[i] >> 2]++;
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "histogram64.cu");
        gp_kernel *k1 = gpt_kernel_of(t.prog, "histogram64Kernel"),
                  *k2 = gpt_kernel_of(t.prog, "mergeHistogram64Kernel");
        gp_buffer *bd = buf(dev, data, sizeof data), *bp = buf(dev, NULL, sizeof partial),
                  *bh = buf(dev, NULL, sizeof hist);
        unsigned n = N, parts = PARTS;
        launch(k1, 1, G1(PARTS * 128), G1(128), ARGS(B(bp), B(bd), V(n)));
        launch(k2, 1, G1(BINS * 256), G1(256), ARGS(B(bh), B(bp), V(parts)));
        get(bh, hist, sizeof hist);
        CHECKI("histogram64", ref, hist, BINS);
        gp_buffer_release(bd), gp_buffer_release(bp), gp_buffer_release(bh);
        gp_kernel_release(k1), gp_kernel_release(k2), close_all(&t);
    }
}

static void run_convolution_separable(void **state)
{
    (void)state;
    enum { W = 128, H = 64, R = 8, L = 2 * R + 1 };
    static float src[W * H], tmp[W * H], dst[W * H], rref[W * H], cref[W * H], kern[L];
    ffill(src, W * H, 0, 1);
    ffill(kern, L, 0, 0.2f);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float s = 0;
            for (int j = -R; j <= R; j++)
                if (x + j >= 0 && x + j < W) s += kern[R - j] * src[y * W + x + j];
            rref[y * W + x] = s;
        }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float s = 0;
            for (int j = -R; j <= R; j++)
                if (y + j >= 0 && y + j < H) s += kern[R - j] * rref[(y + j) * W + x];
            cref[y * W + x] = s;
        }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "convolution_separable.cu");
        gp_kernel *kr = gpt_kernel_of(t.prog, "convolutionRowsKernel"),
                  *kc = gpt_kernel_of(t.prog, "convolutionColumnsKernel");
        /* c_Kernel was cudaMemcpyToSymbol'd: now a buffer, the last parameter */
        gp_buffer *bs = buf(dev, src, sizeof src), *bt = buf(dev, NULL, sizeof tmp),
                  *bd = buf(dev, NULL, sizeof dst), *bk = buf(dev, kern, sizeof kern);
        int w = W, h = H;
        launch(kr, 2, G2(W / (8 * 16) * 16, H), G2(16, 4),
               ARGS(B(bt), B(bs), V(w), V(h), V(w), B(bk)));
        launch(kc, 2, G2(W, H / (8 * 8) * 8), G2(16, 8),
               ARGS(B(bd), B(bt), V(w), V(h), V(w), B(bk)));
        get(bt, tmp, sizeof tmp);
        get(bd, dst, sizeof dst);
        CHECKF("convolutionRows", rref, tmp, W * H, 1e-10);
        CHECKF("convolutionColumns", cref, dst, W * H, 1e-10);
        gp_buffer_release(bs), gp_buffer_release(bt), gp_buffer_release(bd), gp_buffer_release(bk);
        gp_kernel_release(kr), gp_kernel_release(kc), close_all(&t);
    }
}

static void run_scan_blelloch(void **state)
{
    (void)state;
    enum { N = 512, BLOCKS = 3 };
    static float in[N * BLOCKS], out[N * BLOCKS], ref[N * BLOCKS];
    for (int i = 0; i < N * BLOCKS; i++)
        in[i] = (float)((i * 5) % 7);
    for (int b = 0; b < BLOCKS; b++) {
        float s = 0;
        for (int i = 0; i < N; i++)
            ref[b * N + i] = s, s += in[b * N + i];
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "scan_blelloch.cu"); /* scan_naive is left out */
        gp_kernel *k = gpt_kernel_of(t.prog, "prescan");
        gp_buffer *bi = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof out);
        int n = N;
        launch(k, 1, G1(BLOCKS * N / 2), G1(N / 2),
               ARGS(B(bo), B(bi), V(n), gp_arg_shared((N + (N >> 5)) * sizeof(float))));
        get(bo, out, sizeof out);
        CHECKF("prescan", ref, out, N * BLOCKS, 0);
        gp_buffer_release(bi), gp_buffer_release(bo), gp_kernel_release(k), close_all(&t);
    }
}

static void run_simple_atomics(void **state)
{
    (void)state;
    enum { THREADS = 256, BLOCKS = 8, T = THREADS * BLOCKS };
    int32_t init[11] = {0}, out[11], ref[11];
    init[8] = init[10] = 0xff;
    memcpy(ref, init, sizeof ref);
    /* what CUDA's atomics leave, computed in one order (every result here is order-free) */
    for (uint32_t tid = 0; tid < T; tid++) {
        ref[0] += 10;
        ref[1] -= 10;
        ref[3] = ref[3] > (int)tid ? ref[3] : (int)tid;
        ref[4] = ref[4] < (int)tid ? ref[4] : (int)tid;
        uint32_t u = (uint32_t)ref[5];
        ref[5] = (int32_t)(u >= 17 ? 0 : u + 1);
        uint32_t d = (uint32_t)ref[6];
        ref[6] = (int32_t)((d == 0 || d > 137) ? 137 : d - 1);
        ref[8] &= (int32_t)(2 * tid + 7);
        ref[9] |= (int32_t)(1u << (tid & 31));
        ref[10] ^= (int32_t)tid;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "simple_atomics.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "testKernel");
        gp_buffer *b = buf(dev, init, sizeof init);
        launch(k, 1, G1(T), G1(THREADS), ARGS(B(b)));
        get(b, out, sizeof out);
        /* exchange and compare-and-swap: some thread's id (which one depends on the order) */
        assert_true(out[2] >= 0 && out[2] < T);
        assert_true(out[7] >= 0 && out[7] < T);
        out[2] = ref[2] = out[7] = ref[7] = 0;
        CHECKI("simpleAtomicIntrinsics", ref, out, 11);
        gp_buffer_release(b), gp_kernel_release(k), close_all(&t);
    }
}

static void run_dot_float4(void **state)
{
    (void)state;
    enum { N = 8192 };
    static float a[N], b[N];
    float r = 0, ref;
    ffill(a, N, -1, 1), ffill(b, N, -1, 1);
    double s = 0;
    for (int i = 0; i < N; i++)
        s += (double)a[i] * b[i];
    ref = (float)s;
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "dot_float4.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "dot4");
        float zero = 0;
        gp_buffer *ba = buf(dev, a, sizeof a), *bb = buf(dev, b, sizeof b),
                  *br = buf(dev, &zero, 4);
        int n4 = N / 4;
        launch(k, 1, G1(4 * 256), G1(256), ARGS(B(ba), B(bb), B(br), V(n4)));
        get(br, &r, 4);
        CHECKF("dot4", &ref, &r, 1, 1e-9);
        gp_buffer_release(ba), gp_buffer_release(bb), gp_buffer_release(br);
        gp_kernel_release(k), close_all(&t);
    }
}

static void run_vector_ops(void **state)
{
    (void)state;
    enum { N = 1000 };
    static float pos[4 * N], vel[4 * N], force[4 * N], rpos[4 * N], rvel[4 * N];
    static uint8_t src[4 * N], dst[4 * N], rdst[4 * N];
    static int32_t where[2 * N], moved[2 * N], rmoved[2 * N];
    ffill(pos, 4 * N, -2, 2), ffill(vel, 4 * N, -1, 1), ffill(force, 4 * N, -5, 5);
    const float dt = 0.01f, damping = 0.99f;
    for (int i = 0; i < N; i++) {
        float p[3], v[3], sp[3];
        for (int d = 0; d < 3; d++) {
            p[d] = pos[4 * i + d];
            v[d] = vel[4 * i + d];
            v[d] += force[4 * i + d] * dt;
            v[d] *= damping;
            sp[d] = -(p[d] - (d == 1 ? 1.0f : 0.0f));
            v[d] += 0.5f * sp[d] * dt;
            p[d] += v[d] * 2.0f * dt;
        }
        for (int d = 0; d < 3; d++)
            rpos[4 * i + d] = p[d], rvel[4 * i + d] = v[d];
        rpos[4 * i + 3] = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        rvel[4 * i + 3] = 0;
    }
    const uint8_t key[4] = {1, 2, 4, 8};
    const int32_t shift[2] = {3, -2};
    for (int i = 0; i < 4 * N; i++)
        src[i] = (uint8_t)(i * 37 + 11);
    for (int i = 0; i < N; i++) {
        for (int c = 0; c < 3; c++)
            rdst[4 * i + c] = (uint8_t)((src[4 * i + c] ^ key[c]) * 0.75f);
        rdst[4 * i + 3] = (uint8_t)(src[4 * i + 3] ^ key[3]);
        where[2 * i] = i - 500, where[2 * i + 1] = 3 * i;
        rmoved[2 * i] = where[2 * i] + shift[0], rmoved[2 * i + 1] = where[2 * i + 1] + shift[1];
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "vector_ops.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "integrate");
        gp_buffer *bp = buf(dev, pos, sizeof pos), *bv = buf(dev, vel, sizeof vel),
                  *bf = buf(dev, force, sizeof force);
        int n = N;
        launch(k, 1, G1(1024), G1(128), ARGS(B(bp), B(bv), B(bf), V(dt), V(damping), V(n)));
        static float gpos[4 * N], gvel[4 * N];
        get(bp, gpos, sizeof gpos), get(bv, gvel, sizeof gvel);
        CHECKF("integrate (float3 operators): positions", rpos, gpos, 4 * N, 1e-6);
        CHECKF("integrate (float3 operators): velocities", rvel, gvel, 4 * N, 1e-6);
        gp_kernel_release(k);
        k = gpt_kernel_of(t.prog, "blend");
        gp_buffer *bs = buf(dev, src, sizeof src), *bd = buf(dev, NULL, sizeof dst),
                  *bw = buf(dev, where, sizeof where), *bm = buf(dev, NULL, sizeof moved);
        launch(k, 1, G1(1024), G1(128), ARGS(B(bs), B(bd), B(bw), V(shift), V(key), B(bm), V(n)));
        get(bd, dst, sizeof dst), get(bm, moved, sizeof moved);
        assert_memory_equal(rdst, dst, sizeof dst);
        CHECKI("blend (int2 operator)", rmoved, moved, 2 * N);
        gp_buffer_release(bp), gp_buffer_release(bv), gp_buffer_release(bf);
        gp_buffer_release(bs), gp_buffer_release(bd), gp_buffer_release(bw), gp_buffer_release(bm);
        gp_kernel_release(k), close_all(&t);
    }
}

static uint32_t mb_key(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u ^ ((u & 0x80000000u) ? 0xffffffffu : 0x80000000u);
}

static void run_math_bits(void **state)
{
    (void)state;
    enum { N = 1000 };
    static float in[N], back[N], rs[N], clean[N], rrs[N], rclean[N], angle[N], p[2 * N], out[2 * N],
        rout[2 * N];
    static uint32_t keys[N], rkeys[N];
    static int32_t cls[N], rcls[N];
    static double d[N], rd[N];
    static int64_t bits[N], rbits[N];
    ffill(in, N, -100, 100);
    in[0] = NAN, in[1] = INFINITY, in[2] = -INFINITY, in[3] = -0.0f, in[4] = 0.0f, in[5] = -NAN;
    in[6] = 2.5f / 4.0f, in[7] = -2.5f / 4.0f; /* ties of rintf (to even) */
    for (int i = 0; i < N; i++) {
        float v = in[i];
        rkeys[i] = mb_key(v);
        if (isfinite(v) && v > 0.0f) {
            int32_t b;
            memcpy(&b, &v, 4);
            b = 0x5f3759df - (b >> 1);
            float y;
            memcpy(&y, &b, 4);
            y = y * (1.5f - 0.5f * v * y * y);
            y = y * (1.5f - 0.5f * v * y * y);
            rrs[i] = y;
        } else {
            rrs[i] = 0.0f;
        }
        rcls[i] = (isnan(v) ? 1 : 0) + 2 * (isinf(v) ? 1 : 0) + 4 * (signbit(v) ? 1 : 0);
        rclean[i] = isnan(v) || isinf(v) ? 0.0f : rintf(v * 4.0f) * 0.25f;
        angle[i] = (float)i * 0.01f - 5.0f;
        p[2 * i] = (float)(i % 17) - 8.0f, p[2 * i + 1] = (float)(i % 5) + 0.5f;
        float sn = sinf(angle[i]), cs = cosf(angle[i]);
        rout[2 * i] = cs * p[2 * i] - sn * p[2 * i + 1];
        rout[2 * i + 1] = sn * p[2 * i] + cs * p[2 * i + 1];
        d[i] = (double)i * 1.25 - 300.0;
        memcpy(&rbits[i], &d[i], 8);
        int64_t flipped = rbits[i] ^ 1;
        memcpy(&rd[i], &flipped, 8);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "math_bits.cu");
        if (!t.prog) continue;
        gp_kernel *k = gpt_kernel_of(t.prog, "classify");
        gp_buffer *bi = buf(dev, in, sizeof in), *bk = buf(dev, NULL, sizeof keys),
                  *bb = buf(dev, NULL, sizeof back), *br = buf(dev, NULL, sizeof rs),
                  *bc = buf(dev, NULL, sizeof cls), *bl = buf(dev, NULL, sizeof clean);
        int n = N;
        launch(k, 1, G1(1024), G1(256), ARGS(B(bi), B(bk), B(bb), B(br), B(bc), B(bl), V(n)));
        get(bk, keys, sizeof keys), get(bb, back, sizeof back), get(br, rs, sizeof rs);
        get(bc, cls, sizeof cls), get(bl, clean, sizeof clean);
        assert_memory_equal(keys, rkeys, sizeof keys);
        assert_memory_equal(back, in, sizeof back); /* the key maps back to the same bits */
        CHECKI("classify: classes", rcls, cls, N);
        CHECKF("classify: approximate rsqrt", rrs, rs, N, 1e-12);
        CHECKF("classify: rounded", rclean, clean, N, 0);
        gp_kernel_release(k);
        k = gpt_kernel_of(t.prog, "rotate_points");
        gp_buffer *bp = buf(dev, p, sizeof p), *bo = buf(dev, NULL, sizeof out),
                  *ba = buf(dev, angle, sizeof angle);
        launch(k, 1, G1(1024), G1(256), ARGS(B(bp), B(bo), B(ba), V(n)));
        get(bo, out, sizeof out);
        CHECKF("rotate_points (sincosf)", rout, out, 2 * N, 1e-12);
        gp_kernel_release(k);
        gp_kernel *k3 = NULL;
        if (gp_kernel_create(t.prog, "flip_low_bit", &k3) == GP_OK) {
            gp_buffer *bd = buf(dev, d, sizeof d), *bt = buf(dev, NULL, sizeof bits);
            launch(k3, 1, G1(1024), G1(256), ARGS(B(bd), B(bt), V(n)));
            static double gd[N];
            get(bd, gd, sizeof gd), get(bt, bits, sizeof bits);
            assert_memory_equal(bits, rbits, sizeof bits);
            assert_memory_equal(gd, rd, sizeof gd);
            gp_buffer_release(bd), gp_buffer_release(bt), gp_kernel_release(k3);
        }
        gp_buffer_release(bi), gp_buffer_release(bk), gp_buffer_release(bb), gp_buffer_release(br),
            gp_buffer_release(bc), gp_buffer_release(bl);
        gp_buffer_release(bp), gp_buffer_release(bo), gp_buffer_release(ba);
        close_all(&t);
    }
}

static void run_nbody(void **state)
{
    (void)state;
    enum { N = 256 };
    static float pos[4 * N], acc[4 * N], ref[4 * N];
    ffill(pos, 4 * N, -1, 1);
    for (int i = 0; i < N; i++) {
        float ax = 0, ay = 0, az = 0;
        for (int j = 0; j < N; j++) {
            float rx = pos[4 * j] - pos[4 * i], ry = pos[4 * j + 1] - pos[4 * i + 1],
                  rz = pos[4 * j + 2] - pos[4 * i + 2];
            float d = rx * rx + ry * ry + rz * rz + 1e-9f;
            float s = pos[4 * j + 3] * (1.0f / sqrtf(d * d * d));
            ax += rx * s, ay += ry * s, az += rz * s;
        }
        ref[4 * i] = ax, ref[4 * i + 1] = ay, ref[4 * i + 2] = az, ref[4 * i + 3] = 0;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "nbody.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "calculate_forces");
        gp_buffer *bp = buf(dev, pos, sizeof pos), *ba = buf(dev, NULL, sizeof acc);
        int n = N;
        launch(k, 1, G1(N), G1(64), ARGS(B(bp), B(ba), V(n)));
        get(ba, acc, sizeof acc);
        CHECKF("calculate_forces", ref, acc, 4 * N, 1e-8);
        gp_buffer_release(bp), gp_buffer_release(ba), gp_kernel_release(k), close_all(&t);
    }
}

static void keep_print(void *user, const char *text, size_t len)
{
    gp_strbuf_append(user, text, len);
}

/* arrays sized by local constants: a coefficient table, and shared tiles sized from
 * bytes / sizeof(T) that the translation moves to the top of the kernel */
/* got within `ulps` units in the last place of ref (NaN where ref is NaN, infinities equal) */
static bool within_ulps(const char *what, const float *ref, const float *got, int n, int ulps)
{
    for (int i = 0; i < n; i++) {
        bool ok;
        if (isnan(ref[i]) || isinf(ref[i]))
            ok = isnan(ref[i]) ? isnan(got[i]) : got[i] == ref[i];
        else {
            float a = fabsf(ref[i]);
            float ulp = nextafterf(a, INFINITY) - a;
            ok = !isnan(got[i]) && fabsf(got[i] - ref[i]) <= (float)ulps * ulp;
        }
        if (!ok) {
            fprintf(stderr, "%s: element %d is %.9g, the reference %.9g\n", what, i, got[i],
                    ref[i]);
            return false;
        }
    }
    return true;
}

static void run_math_extra(void **state)
{
    (void)state;
    enum { N = 1000 };
    static float x[N], y[N], h[N], c[N], e[N], l[N], ld[N], w[N];
    static float rh[N], rc[N], re[N], rl[N], rld[N], rw[N];
    static int64_t bins[N], rbins[N];
    static uint64_t keys[N], rkeys[N];
    ffill(x, N, -100, 100), ffill(y, N, -50, 50);
    const float sx[8] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 3e38f, 1e-40f, -27.0f};
    const float sy[8] = {0.0f, 5.0f, INFINITY, 1.0f, 2.0f, 3e38f, 1e-40f, NAN};
    memcpy(x, sx, sizeof sx), memcpy(y, sy, sizeof sy);
    uint32_t rt[3] = {0, N - 1, 0};
    for (int i = 0; i < N; i++) {
        rh[i] = hypotf(x[i], y[i]);
        rc[i] = cbrtf(x[i]);
        re[i] = expm1f(x[i] * 0.01f);
        rl[i] = log1pf(fabsf(y[i]) * 0.001f);
        rld[i] = ldexpf(x[i], i % 300 - 150);
        if (i >= 8) /* a float outside int64_t's range converts to nothing defined */
            rbins[i] =
                lroundf(x[i]) + 1000 * lrintf(y[i]) + 1000000 * (int64_t)nearbyintf(x[i] * 0.5f);
        rkeys[i] = ((uint64_t)i * 0x9E3779B97F4A7C15ull) ^ 0xFFFFull;
        float s = 0.0f;
        for (int k = -1; k <= 1; k++)
            if (i + k >= 0 && i + k < N) s += x[i + k];
        rw[i] = s + x[i];
        rt[0] += x[i] > 0.0f;
        rt[2] |= 1u << (i % 32);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "math_extra.cu");
        if (!t.prog) continue;
        gp_kernel *k = gpt_kernel_of(t.prog, "math_extra");
        gp_buffer *bx = buf(dev, x, sizeof x), *by = buf(dev, y, sizeof y),
                  *bh = buf(dev, NULL, sizeof h), *bc = buf(dev, NULL, sizeof c),
                  *be = buf(dev, NULL, sizeof e), *bl = buf(dev, NULL, sizeof l),
                  *bld = buf(dev, NULL, sizeof ld), *bb = buf(dev, NULL, sizeof bins),
                  *bk = buf(dev, NULL, sizeof keys), *bw = buf(dev, NULL, sizeof w),
                  *bt = buf(dev, (uint32_t[3]){0, 0, 0}, 3 * sizeof(uint32_t));
        int n = N;
        launch(k, 1, G1(4 * 256), G1(256),
               ARGS(B(bx), B(by), B(bh), B(bc), B(be), B(bl), B(bld), B(bb), B(bk), V(n)));
        get(bh, h, sizeof h), get(bc, c, sizeof c), get(be, e, sizeof e), get(bl, l, sizeof l);
        get(bld, ld, sizeof ld), get(bb, bins, sizeof bins), get(bk, keys, sizeof keys);
        assert_true(within_ulps("hypotf", rh, h, N, 3));
        assert_true(within_ulps("cbrtf", rc, c, N, 2));
        assert_true(within_ulps("expm1f", re, e, N, 3));
        assert_true(within_ulps("log1pf", rl, l, N, 3));
        assert_true(within_ulps("ldexpf", rld, ld, N, 0));
        assert_memory_equal(bins + 8, rbins + 8, (N - 8) * sizeof *bins);
        assert_memory_equal(keys, rkeys, sizeof keys);
        gp_kernel_release(k);
        k = gpt_kernel_of(t.prog, "window_sum");
        launch(k, 1, G1(4 * 256), G1(256), ARGS(B(bx), B(bw), V(n)));
        get(bw, w, sizeof w);
        CHECKF("window_sum (two counters in a for header)", rw, w, N, 0);
        gp_kernel_release(k);
        k = gpt_kernel_of(t.prog, "scoped_totals");
        launch(k, 1, G1(4 * 256), G1(256), ARGS(B(bx), B(bt), V(n)));
        uint32_t tot[3];
        get(bt, tot, sizeof tot);
        assert_memory_equal(tot, rt, sizeof tot);
        gp_kernel_release(k);
        gp_buffer *all[] = {bx, by, bh, bc, be, bl, bld, bb, bk, bw, bt};
        for (size_t i = 0; i < sizeof all / sizeof *all; i++)
            gp_buffer_release(all[i]);
        close_all(&t);
    }
}

static void run_block_rows(void **state)
{
    (void)state;
    enum { NUM = 512, BS = 128 };
    static float p[NUM * NUM], sums[(NUM / BS) * NUM], ref[(NUM / BS) * NUM];
    ffill(p, NUM * NUM, -1, 1);
    for (int bx = 0; bx < NUM / BS; bx++)
        for (int row = 0; row < NUM; row++) {
            float c[BS];
            for (int t = 0; t < BS; t++)
                c[t] = p[row * NUM + bx * BS + t] * p[row * NUM + bx * BS + t];
            for (int i = BS >> 1; i != 0; i >>= 1)
                for (int t = 0; t < i; t++)
                    c[t] += c[t + i];
            ref[row + NUM * bx] = c[0];
        }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "block_rows.cu");
        if (!t.prog) continue;
        gp_kernel *k = gpt_kernel_of(t.prog, "sum_squares");
        gp_buffer *bp = buf(dev, p, sizeof p), *bs = buf(dev, NULL, sizeof sums);
        /* the group the file's launches give, then none (the runtime chooses the required one) */
        launch(k, 2, G2(NUM, NUM), G2(BS, 1), ARGS(B(bp), B(bs)));
        get(bs, sums, sizeof sums);
        CHECKF("sum_squares in 128 x 1 groups", ref, sums, (NUM / BS) * NUM, 0);
        memset(sums, 0, sizeof sums);
        GPT_CHECK(gp_buffer_write(bs, 0, sums, sizeof sums));
        launch(k, 2, G2(NUM, NUM), NULL, ARGS(B(bp), B(bs)));
        get(bs, sums, sizeof sums);
        CHECKF("sum_squares in the group the runtime chose", ref, sums, (NUM / BS) * NUM, 0);
        size_t global[2] = {NUM, NUM}, other[2] = {64, 2};
        gp_arg a[] = {gp_arg_buffer(bp), gp_arg_buffer(bs)};
        assert_int_equal(gp_kernel_launch(NULL, k, 2, global, other, 2, a), GP_ERR_LAUNCH);
        assert_non_null(strstr(gp_last_error(), "requires a group of 128 x 1 x 1"));
        gp_kernel_release(k);
        gp_buffer_release(bp), gp_buffer_release(bs);
        close_all(&t);
    }
}

static void run_block_reduce_2d(void **state)
{
    (void)state;
    enum { W = 64, H = 48, T = 16, N = 1000, TH = 256, NB = (N + TH - 1) / TH };
    static float img[W * H], sums[(W / T) * (H / T)], sref[(W / T) * (H / T)];
    static float in[N], out[NB], oref[NB];
    ffill(img, W * H, -1, 1), ffill(in, N, 0, 1);
    for (int by = 0; by < H / T; by++)
        for (int bx = 0; bx < W / T; bx++) {
            float c[T * T];
            for (int ty = 0; ty < T; ty++)
                for (int tx = 0; tx < T; tx++)
                    c[ty * T + tx] = img[(by * T + ty) * W + bx * T + tx];
            for (int stride = T * T / 2; stride > 0; stride >>= 1)
                for (int t = 0; t < stride; t++)
                    c[t] += c[t + stride];
            sref[by * (W / T) + bx] = c[0];
        }
    for (int bx = 0; bx < NB; bx++) {
        float c[TH];
        for (int t = 0; t < TH; t++)
            c[t] = bx * TH + t < N ? in[bx * TH + t] : 0.0f;
        if (bx != NB - 1) {
            for (int i = 2; i <= TH; i *= 2)
                for (int t = i - 1; t < TH; t += i)
                    c[t] += c[t - i / 2];
            oref[bx] = c[TH - 1];
        } else {
            float acc = 0.0f;
            for (int j = 0; j < N - bx * TH; j++)
                acc += c[j];
            oref[bx] = acc;
        }
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "block_reduce_2d.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "tile_sum");
        gp_buffer *bi = buf(dev, img, sizeof img), *bs = buf(dev, NULL, sizeof sums);
        int w = W;
        launch(k, 2, G2(W, H), G2(T, T), ARGS(B(bi), B(bs), V(w)));
        get(bs, sums, sizeof sums);
        CHECKF("tile_sum", sref, sums, (W / T) * (H / T), 0);
        gp_kernel_release(k);
        k = gpt_kernel_of(t.prog, "partial_sums");
        gp_buffer *bin = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof out);
        int n = N;
        launch(k, 1, G1(NB * TH), G1(TH), ARGS(B(bin), B(bo), V(n)));
        get(bo, out, sizeof out);
        CHECKF("partial_sums", oref, out, NB, 0);
        gp_kernel_release(k);
        gp_buffer_release(bi), gp_buffer_release(bs), gp_buffer_release(bin), gp_buffer_release(bo);
        close_all(&t);
    }
}

static void run_constant_sizes(void **state)
{
    (void)state;
    enum { N = 1000, BLOCKS = 8, WORDS = 256, THREADS = 64 };
    static float x[N], out[N], ref[N];
    static uint32_t data[BLOCKS * WORDS], got[BLOCKS * WORDS], dref[BLOCKS * WORDS];
    uint32_t odd[BLOCKS], oref[BLOCKS];
    ffill(x, N, -1, 1);
    const float coef[7] = {1.0f, -0.5f, 0.25f, 0.125f, 1.0f, 0.5f, 0.0625f};
    for (int i = 0; i < N; i++) {
        float p = 0.0f, q = 0.0f;
        for (int j = 3; j >= 0; j--)
            p = coef[j] + x[i] * p;
        for (int j = 6; j >= 4; j--)
            q = coef[j] + x[i] * q;
        ref[i] = p / q;
    }
    for (int i = 0; i < BLOCKS * WORDS; i++)
        data[i] = (uint32_t)(i * 2654435761u >> 7);
    for (int b = 0; b < BLOCKS; b++) {
        oref[b] = 0;
        for (int j = 0; j < WORDS; j++) {
            dref[b * WORDS + j] = data[b * WORDS + WORDS - 1 - j];
            oref[b] += data[b * WORDS + j] & 1;
        }
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "constant_sizes.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "rational");
        gp_buffer *bx = buf(dev, x, sizeof x), *bo = buf(dev, NULL, sizeof out);
        int n = N;
        launch(k, 1, G1(4 * 256), G1(256), ARGS(B(bo), B(bx), V(n)));
        get(bo, out, sizeof out);
        CHECKF("rational", ref, out, N, 1e-5f);
        gp_kernel *r = gpt_kernel_of(t.prog, "reverse_tiles_uint32_t");
        gp_buffer *bd = buf(dev, data, sizeof data), *bodd = buf(dev, NULL, sizeof odd);
        launch(r, 1, G1(BLOCKS * THREADS), G1(THREADS), ARGS(B(bd), B(bodd)));
        get(bd, got, sizeof got);
        get(bodd, odd, sizeof odd);
        CHECKI("reverse_tiles data", dref, got, BLOCKS * WORDS);
        CHECKI("reverse_tiles odd", oref, odd, BLOCKS);
        gp_buffer_release(bx), gp_buffer_release(bo), gp_buffer_release(bd);
        gp_buffer_release(bodd);
        gp_kernel_release(k), gp_kernel_release(r), close_all(&t);
    }
}

static void run_debug_printf(void **state)
{
    (void)state;
    enum { R = 20, C = 33 };
    static float m[R * C], s[R], ref[R * C];
    ffill(m, R * C, -1, 1), ffill(s, R, 0, 2);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            ref[r * C + c] = m[r * C + c] * s[r];
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "debug_printf.cu"); /* dump_rows' printf became gp_printf */
        gp_kernel *k = gpt_kernel_of(t.prog, "scale_rows");
        gp_buffer *bm = buf(dev, m, sizeof m), *bs = buf(dev, s, sizeof s);
        int rows = R, cols = C;
        launch(k, 2, G2(64, 32), G2(16, 8), ARGS(B(bm), B(bs), V(rows), V(cols)));
        float got[R * C];
        get(bm, got, sizeof got);
        CHECKF("scale_rows", ref, got, R * C, 0);
        /* the CPU's output comes through the print handler: one whole line per row */
        gp_kernel *d = gpt_kernel_of(t.prog, "dump_rows");
        gp_strbuf text = GP_STRBUF_INIT;
        gp_print_set_handler(keep_print, &text);
        launch(d, 1, G1(32), G1(32), ARGS(B(bm), V(rows), V(cols)));
        GPT_CHECK(gp_device_synchronize(dev));
        gp_print_set_handler(NULL, NULL);
        gp_device_info info;
        GPT_CHECK(gp_device_get_info(dev, &info));
        if (info.backend == GP_BACKEND_CPU) {
            assert_non_null(strstr(gp_strbuf_cstr(&text), "row 0: "));
            assert_non_null(strstr(gp_strbuf_cstr(&text), "\nrow 19: "));
            int lines = 0;
            for (const char *q = gp_strbuf_cstr(&text); *q; q++)
                lines += *q == '\n';
            assert_int_equal(lines, R);
        }
        gp_strbuf_free(&text);
        gp_kernel_release(d);
        gp_buffer_release(bm), gp_buffer_release(bs), gp_kernel_release(k), close_all(&t);
    }
}

/* asserts on indices: silent where they hold, CUDA's message (one line per failing work-item)
 * where they do not, and the work-item goes on */
static void run_checked_gather(void **state)
{
    (void)state;
    enum { M = 1000, NROWS = 64, NKEYS = 5000, BUCKETS = 16 };
    static float src[NROWS], dst[M], ref[M];
    static int rows[M], keys[NKEYS];
    unsigned counts[BUCKETS], cref[BUCKETS] = {0};
    ffill(src, NROWS, -1, 1);
    for (int i = 0; i < M; i++)
        rows[i] = (i * 7) % NROWS;
    rows[5] = -3;   /* block 0, thread 5: the first assert fails */
    rows[700] = 80; /* block 5, thread 60: the second */
    for (int i = 0; i < M; i++)
        ref[i] = src[rows[i] < 0 ? 0 : rows[i] >= NROWS ? NROWS - 1 : rows[i]];
    for (int i = 0; i < NKEYS; i++)
        keys[i] = (i * 31 + 7) % 1000, cref[keys[i] % BUCKETS]++;
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "checked_gather.cu");
        gp_kernel *g = gpt_kernel_of(t.prog, "gather_rows");
        gp_kernel *c = gpt_kernel_of(t.prog, "count_buckets");
        gp_buffer *bs = buf(dev, src, sizeof src), *br = buf(dev, rows, sizeof rows),
                  *bd = buf(dev, NULL, sizeof dst), *bk = buf(dev, keys, sizeof keys),
                  *bc = buf(dev, NULL, sizeof counts);
        int nrows = NROWS, m = M, nkeys = NKEYS;
        gp_strbuf text = GP_STRBUF_INIT;
        gp_print_set_handler(keep_print, &text);
        launch(g, 1, G1((M + 127) / 128 * 128), G1(128), ARGS(B(bs), B(br), B(bd), V(nrows), V(m)));
        launch(c, 1, G1((NKEYS + 255) / 256 * 256), G1(256), ARGS(B(bk), B(bc), V(nkeys)));
        GPT_CHECK(gp_device_synchronize(dev));
        gp_print_set_handler(NULL, NULL);
        get(bd, dst, sizeof dst);
        get(bc, counts, sizeof counts);
        CHECKF("gather_rows", ref, dst, M, 0);
        CHECKI("count_buckets", cref, counts, BUCKETS);
        const char *out = gp_strbuf_cstr(&text);
        int lines = 0;
        for (const char *q = out; *q; q++)
            lines += *q == '\n';
        if (lines != 2) fail_msg("%d lines printed:\n%s", lines, out);
        assert_non_null(strstr(out, "checked_gather.cu:15: gather_rows: block: [0,0,0], thread: "
                                    "[5,0,0] Assertion `r >= 0 && \"row index must not be "
                                    "negative\"` failed.\n"));
        assert_non_null(strstr(out, "checked_gather.cu:16: gather_rows: block: [5,0,0], thread: "
                                    "[60,0,0] Assertion `r < nrows` failed.\n"));
        gp_strbuf_free(&text);
        gp_buffer_release(bs), gp_buffer_release(br), gp_buffer_release(bd);
        gp_buffer_release(bk), gp_buffer_release(bc);
        gp_kernel_release(g), gp_kernel_release(c), close_all(&t);
    }
}

/* ---- llm.c style ------------------------------------------------------------------------ */
static void layernorm_ref(float *out, float *mean, float *rstd, const float *inp, const float *w,
                          const float *b, int N, int C)
{
    for (int r = 0; r < N; r++) {
        const float *x = inp + r * C;
        double m = 0, v = 0;
        for (int i = 0; i < C; i++)
            m += x[i];
        m /= C;
        for (int i = 0; i < C; i++)
            v += (x[i] - m) * (x[i] - m);
        v /= C;
        float s = (float)(1.0 / sqrt(v + 1e-5));
        for (int i = 0; i < C; i++)
            out[r * C + i] = s * (x[i] - (float)m) * w[i] + b[i];
        mean[r] = (float)m, rstd[r] = s;
    }
}

static void run_layernorm_forward(void **state)
{
    (void)state;
    enum { N = 24, C = 80 };
    static float inp[N * C], w[C], b[C], out[N * C], mean[N], rstd[N], rout[N * C], rmean[N],
        rrstd[N];
    ffill(inp, N * C, -2, 2), ffill(w, C, 0.5f, 1.5f), ffill(b, C, -0.5f, 0.5f);
    layernorm_ref(rout, rmean, rrstd, inp, w, b, N, C);
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "layernorm_forward.cu");
        if (!t.prog) continue;
        gp_buffer *bo = buf(dev, NULL, sizeof out), *bm = buf(dev, NULL, sizeof mean),
                  *br = buf(dev, NULL, sizeof rstd), *bi = buf(dev, inp, sizeof inp),
                  *bw = buf(dev, w, sizeof w), *bb = buf(dev, b, sizeof b);
        int n = N, c = C;
        gp_kernel *k1 = gpt_kernel_of(t.prog, "layernorm_forward_kernel1");
        launch(k1, 1, G1(32), G1(32), ARGS(B(bo), B(bm), B(br), B(bi), B(bw), B(bb), V(n), V(c)));
        get(bo, out, sizeof out), get(bm, mean, sizeof mean), get(br, rstd, sizeof rstd);
        CHECKF("layernorm kernel1 out", rout, out, N * C, 1e-10);
        CHECKF("layernorm kernel1 mean", rmean, mean, N, 1e-10);
        CHECKF("layernorm kernel1 rstd", rrstd, rstd, N, 1e-10);
        /* kernel3, one warp a row; mean is an optional buffer the kernel tests: NULL here */
        gp_kernel *k3 = gpt_kernel_of(t.prog, "layernorm_forward_kernel3");
        float sentinel[N];
        for (int i = 0; i < N; i++)
            sentinel[i] = -7.0f;
        GPT_CHECK(gp_buffer_write(br, 0, sentinel, sizeof sentinel));
        launch(k3, 1, G1(N * 32), G1(64),
               ARGS(B(bo), gp_arg_null(), B(br), B(bi), B(bw), B(bb), V(n), V(c)));
        get(bo, out, sizeof out), get(br, rstd, sizeof rstd);
        CHECKF("layernorm kernel3 out", rout, out, N * C, 1e-10);
        CHECKF("layernorm kernel3 rstd", rrstd, rstd, N, 1e-10);
        gp_buffer_release(bo), gp_buffer_release(bm), gp_buffer_release(br), gp_buffer_release(bi);
        gp_buffer_release(bw), gp_buffer_release(bb);
        gp_kernel_release(k1), gp_kernel_release(k3), close_all(&t);
    }
}

static void run_softmax_forward(void **state)
{
    (void)state;
    enum { N = 12, C = 300 };
    static float inp[N * C], out[N * C], ref[N * C];
    ffill(inp, N * C, -4, 4);
    for (int r = 0; r < N; r++) {
        float m = -INFINITY;
        for (int j = 0; j < C; j++)
            m = fmaxf(m, inp[r * C + j]);
        double s = 0;
        for (int j = 0; j < C; j++)
            s += expf(inp[r * C + j] - m);
        for (int j = 0; j < C; j++)
            ref[r * C + j] = expf(inp[r * C + j] - m) / (float)s;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "softmax_forward.cu");
        if (!t.prog) continue;
        gp_buffer *bi = buf(dev, inp, sizeof inp), *bo = buf(dev, NULL, sizeof out);
        int n = N, c = C;
        gp_kernel *k1 = gpt_kernel_of(t.prog, "softmax_forward_kernel1");
        launch(k1, 1, G1(32), G1(32), ARGS(B(bo), B(bi), V(n), V(c)));
        get(bo, out, sizeof out);
        CHECKF("softmax kernel1", ref, out, N * C, 1e-10);
        gp_kernel *k4 = gpt_kernel_of(t.prog, "softmax_forward_kernel4");
        launch(k4, 1, G1(N * 128), G1(128),
               ARGS(B(bo), B(bi), V(n), V(c), gp_arg_shared(2 * 4 * 4)));
        get(bo, out, sizeof out);
        CHECKF("softmax kernel4", ref, out, N * C, 1e-10);
        gp_buffer_release(bi), gp_buffer_release(bo);
        gp_kernel_release(k1), gp_kernel_release(k4), close_all(&t);
    }
}

static void run_gelu_forward(void **state)
{
    (void)state;
    enum { N = 1000 };
    static float x[N], dout[N], out[N], din[N], rout[N], rdin[N];
    ffill(x, N, -3, 3), ffill(dout, N, -1, 1);
    const double s = sqrt(2.0 / 3.14159265358979323846);
    for (int i = 0; i < N; i++) {
        double xi = x[i], cube = 0.044715 * xi * xi * xi, a = s * (xi + cube);
        rout[i] = (float)(0.5 * xi * (1.0 + tanh(a)));
        double sech = 1.0 / (cosh(a) * cosh(a));
        rdin[i] = (float)((0.5 * (1.0 + tanh(a)) +
                           xi * 0.5 * sech * s * (1.0 + 3.0 * 0.044715 * xi * xi)) *
                          dout[i]);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "gelu_forward.cu");
        gp_buffer *bx = buf(dev, x, sizeof x), *bo = buf(dev, NULL, sizeof out),
                  *bd = buf(dev, dout, sizeof dout), *bi = buf(dev, NULL, sizeof din);
        int n = N;
        gp_kernel *kf = gpt_kernel_of(t.prog, "gelu_forward_kernel1"),
                  *kb = gpt_kernel_of(t.prog, "gelu_backward_kernel");
        launch(kf, 1, G1(1024), G1(128), ARGS(B(bo), B(bx), V(n)));
        launch(kb, 1, G1(1024), G1(128), ARGS(B(bi), B(bx), B(bd), V(n)));
        get(bo, out, sizeof out), get(bi, din, sizeof din);
        CHECKF("gelu forward", rout, out, N, 1e-10);
        CHECKF("gelu backward", rdin, din, N, 1e-10);
        gp_buffer_release(bx), gp_buffer_release(bo), gp_buffer_release(bd), gp_buffer_release(bi);
        gp_kernel_release(kf), gp_kernel_release(kb), close_all(&t);
    }
}

static void run_adamw(void **state)
{
    (void)state;
    enum { N = 777 };
    static float p0[N], g[N], m0[N], v0[N], p[N], m[N], v[N], rp[N], rm[N], rv[N];
    ffill(p0, N, -1, 1), ffill(g, N, -0.1f, 0.1f), ffill(m0, N, -0.01f, 0.01f),
        ffill(v0, N, 0, 0.01f);
    float lr = 1e-3f, b1 = 0.9f, b2 = 0.999f, eps = 1e-8f, wd = 0.01f;
    int step = 3;
    float c1 = 1.0f - powf(b1, (float)step), c2 = 1.0f - powf(b2, (float)step);
    for (int i = 0; i < N; i++) {
        rm[i] = b1 * m0[i] + (1.0f - b1) * g[i];
        rv[i] = b2 * v0[i] + (1.0f - b2) * g[i] * g[i];
        float mh = rm[i] / c1, vh = rv[i] / c2;
        rp[i] = p0[i] - lr * (mh / (sqrtf(vh) + eps) + wd * p0[i]);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "adamw.cu");
        const char *names[] = {"adamw_kernel1", "adamw_kernel2"};
        for (int q = 0; q < 2; q++) {
            gp_buffer *bp = buf(dev, p0, sizeof p0), *bg = buf(dev, g, sizeof g),
                      *bm = buf(dev, m0, sizeof m0), *bv = buf(dev, v0, sizeof v0);
            int64_t n = N; /* `long num_parameters`: 8 bytes */
            gp_kernel *k = gpt_kernel_of(t.prog, names[q]);
            if (q == 0)
                launch(k, 1, G1(1024), G1(256),
                       ARGS(B(bp), B(bg), B(bm), B(bv), V(n), V(lr), V(b1), V(b2), V(c1), V(c2),
                            V(eps), V(wd)));
            else
                launch(k, 1, G1(1024), G1(256),
                       ARGS(B(bp), B(bg), B(bm), B(bv), V(n), V(lr), V(b1), V(b2), V(step), V(eps),
                            V(wd)));
            get(bp, p, sizeof p), get(bm, m, sizeof m), get(bv, v, sizeof v);
            CHECKF(names[q], rp, p, N, 1e-10);
            CHECKF("adamw m", rm, m, N, 1e-10);
            CHECKF("adamw v", rv, v, N, 1e-10);
            gp_buffer_release(bp), gp_buffer_release(bg), gp_buffer_release(bm),
                gp_buffer_release(bv);
            gp_kernel_release(k);
        }
        close_all(&t);
    }
}

static void run_encoder_forward(void **state)
{
    (void)state;
    enum { Bn = 2, T = 5, C = 24, V = 11 };
    static int32_t inp[Bn * T];
    static float wte[V * C], wpe[T * C], out[Bn * T * C], ref[Bn * T * C];
    for (int i = 0; i < Bn * T; i++)
        inp[i] = (i * 7) % V;
    ffill(wte, V * C, -1, 1), ffill(wpe, T * C, -1, 1);
    for (int b = 0; b < Bn; b++)
        for (int t = 0; t < T; t++)
            for (int c = 0; c < C; c++)
                ref[(b * T + t) * C + c] = wte[inp[b * T + t] * C + c] + wpe[t * C + c];
    FOR_EACH_DEVICE(dev)
    {
        built tr = build(dev, "encoder_forward.cu");
        gp_buffer *bo = buf(dev, NULL, sizeof out), *bi = buf(dev, inp, sizeof inp),
                  *be = buf(dev, wte, sizeof wte), *bp = buf(dev, wpe, sizeof wpe);
        int b = Bn, t = T, c = C;
        gp_kernel *k1 = gpt_kernel_of(tr.prog, "encoder_forward_kernel1"),
                  *k2 = gpt_kernel_of(tr.prog, "encoder_forward_kernel2");
        launch(k1, 1, G1(32), G1(32), ARGS(B(bo), B(bi), B(be), B(bp), V(b), V(t), V(c)));
        get(bo, out, sizeof out);
        CHECKF("encoder kernel1", ref, out, Bn * T * C, 0);
        unsigned char zero = 0;
        GPT_CHECK(gp_buffer_fill(bo, 0, &zero, 1, sizeof out));
        launch(k2, 1, G1(256), G1(64), ARGS(B(bo), B(bi), B(be), B(bp), V(b), V(t), V(c)));
        get(bo, out, sizeof out);
        CHECKF("encoder kernel2", ref, out, Bn * T * C, 0);
        gp_buffer_release(bo), gp_buffer_release(bi), gp_buffer_release(be), gp_buffer_release(bp);
        gp_kernel_release(k1), gp_kernel_release(k2), close_all(&tr);
    }
}

static void run_crossentropy_forward(void **state)
{
    (void)state;
    enum { Bn = 2, T = 3, V = 17 };
    static float probs[Bn * T * V], losses[Bn * T], rl[Bn * T], dl[Bn * T], dlog[Bn * T * V],
        rdlog[Bn * T * V];
    static int32_t tg[Bn * T];
    ffill(probs, Bn * T * V, 0.01f, 1), ffill(dl, Bn * T, -1, 1), ffill(rdlog, Bn * T * V, -1, 1);
    memcpy(dlog, rdlog, sizeof dlog);
    for (int i = 0; i < Bn * T; i++) {
        tg[i] = (i * 5) % V;
        rl[i] = -logf(probs[i * V + tg[i]]);
        for (int v = 0; v < V; v++)
            rdlog[i * V + v] += (probs[i * V + v] - (v == tg[i] ? 1.0f : 0.0f)) * dl[i];
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "crossentropy_forward.cu");
        gp_buffer *bl = buf(dev, NULL, sizeof losses), *bp = buf(dev, probs, sizeof probs),
                  *bt = buf(dev, tg, sizeof tg), *bd = buf(dev, dl, sizeof dl),
                  *bg = buf(dev, dlog, sizeof dlog);
        int b = Bn, tt = T, v = V;
        gp_kernel *kf = gpt_kernel_of(t.prog, "crossentropy_forward_kernel1"),
                  *kb = gpt_kernel_of(t.prog, "crossentropy_softmax_backward_kernel1");
        launch(kf, 1, G1(32), G1(32), ARGS(B(bl), B(bp), B(bt), V(b), V(tt), V(v)));
        launch(kb, 1, G1(128), G1(32), ARGS(B(bg), B(bd), B(bp), B(bt), V(b), V(tt), V(v)));
        float got[Bn * T * V];
        get(bl, losses, sizeof losses), get(bg, got, sizeof got);
        CHECKF("crossentropy forward", rl, losses, Bn * T, 1e-12);
        CHECKF("crossentropy backward", rdlog, got, Bn * T * V, 1e-12);
        gp_buffer_release(bl), gp_buffer_release(bp), gp_buffer_release(bt), gp_buffer_release(bd);
        gp_buffer_release(bg), gp_kernel_release(kf), gp_kernel_release(kb), close_all(&t);
    }
}

static void run_matmul_forward_bias(void **state)
{
    (void)state;
    enum { BT = 10, C = 16, OC = 12 };
    static float inp[BT * C], w[OC * C], bias[OC], out[BT * OC], ref0[BT * OC], ref1[BT * OC];
    ffill(inp, BT * C, -1, 1), ffill(w, OC * C, -1, 1), ffill(bias, OC, -1, 1);
    for (int r = 0; r < BT; r++)
        for (int o = 0; o < OC; o++) {
            float v = 0;
            for (int i = 0; i < C; i++)
                v += inp[r * C + i] * w[o * C + i];
            ref0[r * OC + o] = v, ref1[r * OC + o] = v + bias[o];
        }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "matmul_forward_bias.cu");
        gp_buffer *bo = buf(dev, NULL, sizeof out), *bi = buf(dev, inp, sizeof inp),
                  *bw = buf(dev, w, sizeof w), *bb = buf(dev, bias, sizeof bias);
        int bt = BT, c = C, oc = OC, one = 1;
        gp_kernel *k = gpt_kernel_of(t.prog, "matmul_forward_kernel1"),
                  *ka = gpt_kernel_of(t.prog, "add_bias");
        /* the host passes NULL for the bias: gp_arg_null() */
        launch(k, 2, G2(16, 16), G2(8, 8),
               ARGS(B(bo), B(bi), B(bw), gp_arg_null(), V(bt), V(c), V(oc)));
        get(bo, out, sizeof out);
        CHECKF("matmul_forward_kernel1 without bias", ref0, out, BT * OC, 1e-12);
        launch(ka, 1, G1(64), G1(32), ARGS(B(bo), B(bb), V(one), V(bt), V(oc)));
        get(bo, out, sizeof out);
        CHECKF("add_bias", ref1, out, BT * OC, 1e-12);
        launch(k, 2, G2(16, 16), G2(8, 8), ARGS(B(bo), B(bi), B(bw), B(bb), V(bt), V(c), V(oc)));
        get(bo, out, sizeof out);
        CHECKF("matmul_forward_kernel1 with bias", ref1, out, BT * OC, 1e-12);
        gp_buffer_release(bo), gp_buffer_release(bi), gp_buffer_release(bw), gp_buffer_release(bb);
        gp_kernel_release(k), gp_kernel_release(ka), close_all(&t);
    }
}

static void run_online_softmax(void **state)
{
    (void)state;
    enum { N = 40, C = 33 };
    static float inp[N * C], out[N * C], ref[N * C];
    ffill(inp, N * C, -3, 3);
    for (int r = 0; r < N; r++) {
        float m = -INFINITY, d = 0, mx = -FLT_MAX;
        for (int i = 0; i < C; i++) {
            float x = inp[r * C + i], mn = fmaxf(m, x);
            d = d * expf(m - mn) + expf(x - mn);
            m = mn;
            mx = fmaxf(mx, x);
        }
        for (int i = 0; i < C; i++)
            ref[r * C + i] = expf(inp[r * C + i] - m) / d + (mx - m);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "online_softmax.cu");
        gp_buffer *bi = buf(dev, inp, sizeof inp), *bo = buf(dev, NULL, sizeof out);
        int n = N, c = C;
        gp_kernel *k = gpt_kernel_of(t.prog, "softmax_online");
        launch(k, 1, G1(64), G1(32), ARGS(B(bo), B(bi), V(n), V(c)));
        get(bo, out, sizeof out);
        CHECKF("softmax_online (references)", ref, out, N * C, 1e-10);
        gp_buffer_release(bi), gp_buffer_release(bo), gp_kernel_release(k), close_all(&t);
    }
}

/* a struct returned, kept and re-assigned as typed braced lists (SoftmaxParams{...}) */
static void run_softmax_params(void **state)
{
    (void)state;
    enum { NB = 100, NV = 37 };
    static float logits[NB * NV], probs[NB * NV], losses[NB], pref[NB * NV], lref[NB];
    static int targets[NB];
    ffill(logits, NB * NV, -4, 4);
    for (int b = 0; b < NB; b++) {
        targets[b] = (b * 13) % NV;
        const float *row = logits + b * NV;
        float mx = -INFINITY, sum = 0.0f;
        for (int i = 0; i < NV; i++)
            mx = fmaxf(mx, row[i]);
        for (int i = 0; i < NV; i++)
            sum += expf(row[i] - mx);
        float scale = 1.f / sum;
        lref[b] = -logf(expf(row[targets[b]] - mx) * scale);
        for (int i = 0; i < NV; i++)
            pref[b * NV + i] = expf(row[i] - mx) * scale;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "softmax_params.cu");
        gp_buffer *bp = buf(dev, NULL, sizeof probs), *bl = buf(dev, logits, sizeof logits),
                  *bt = buf(dev, targets, sizeof targets), *bo = buf(dev, NULL, sizeof losses);
        int nb = NB, nv = NV;
        gp_kernel *k = gpt_kernel_of(t.prog, "softmax_rows");
        launch(k, 1, G1((NB + 63) / 64 * 64), G1(64),
               ARGS(B(bp), B(bl), B(bt), B(bo), V(nb), V(nv)));
        get(bp, probs, sizeof probs);
        get(bo, losses, sizeof losses);
        CHECKF("softmax_rows probs", pref, probs, NB * NV, 1e-5);
        CHECKF("softmax_rows losses", lref, losses, NB, 1e-5);
        static float sm[2 * NB], smref[2 * NB];
        for (int b = 0; b < NB; b++) { /* combine({-inf, 0}, {x0, 1}), then {xi, 1} */
            float m = -INFINITY, s = 0.0f;
            for (int i = 0; i < NV; i++) {
                float x = logits[b * NV + i], nm = fmaxf(m, x);
                s = s * expf(m - nm) + 1.0f * expf(x - nm);
                m = nm;
            }
            smref[2 * b] = m, smref[2 * b + 1] = s;
        }
        gp_buffer *bs = buf(dev, NULL, sizeof sm);
        gp_kernel *k2 = gpt_kernel_of(t.prog, "row_sum_max");
        launch(k2, 1, G1((NB + 63) / 64 * 64), G1(64), ARGS(B(bl), B(bs), V(nb), V(nv)));
        get(bs, sm, sizeof sm);
        CHECKF("row_sum_max", smref, sm, 2 * NB, 1e-6);
        gp_buffer_release(bs), gp_kernel_release(k2);
        gp_buffer_release(bp), gp_buffer_release(bl), gp_buffer_release(bt);
        gp_buffer_release(bo), gp_kernel_release(k), close_all(&t);
    }
}

/* PyTorch's persistent warp softmax: one instance per row length (log2 2, 5, 7), a warp of
 * 4 lanes for rows of up to 4 (shuffles of width 4), functor reductions, vector copies of 4 */
static void run_softmax_warp_persistent(void **state)
{
    (void)state;
    enum { ROWS = 37, MAXC = 100 };
    static float in[ROWS * MAXC], out[ROWS * MAXC], ref[ROWS * MAXC];
    static const int counts[3] = {3, 20, 100}, logs[3] = {2, 5, 7};
    const float scale = 0.75f;
    for (int i = 0; i < ROWS * MAXC; i++)
        in[i] = 3.0f * sinf(0.37f * (float)i) + 0.01f * (float)(i % 17);
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "softmax_warp_persistent.cu");
        if (!t.prog) continue; /* shuffles: SIMD groups of 32 lanes only */
        for (int q = 0; q < 3; q++) {
            int c = counts[q], pow2 = 1 << logs[q];
            for (int r = 0; r < ROWS; r++) {
                float mx = -INFINITY, sum = 0.0f;
                for (int i = 0; i < c; i++)
                    mx = fmaxf(mx, in[r * c + i] * scale);
                for (int i = 0; i < c; i++)
                    sum += expf(in[r * c + i] * scale - mx);
                for (int i = 0; i < c; i++)
                    ref[r * c + i] = expf(in[r * c + i] * scale - mx) / sum;
            }
            int warp = pow2 < 32 ? pow2 : 32, per_warp = pow2 <= 128 ? 2 : 1;
            int warps = 128 / warp, blocks = (ROWS + warps * per_warp - 1) / (warps * per_warp);
            char name[64];
            snprintf(name, sizeof name, "softmax_warp_forward_%d", logs[q]);
            gp_kernel *k = gpt_kernel_of(t.prog, name);
            gp_buffer *bi = buf(dev, in, sizeof(float) * (size_t)(ROWS * c)),
                      *bo = buf(dev, NULL, sizeof(float) * (size_t)(ROWS * c));
            int rows = ROWS;
            launch(k, 2, G2((size_t)(blocks * warp), (size_t)warps),
                   G2((size_t)warp, (size_t)warps),
                   ARGS(B(bo), B(bi), V(scale), V(rows), V(c), V(c)));
            get(bo, out, sizeof(float) * (size_t)(ROWS * c));
            CHECKF(name, ref, out, ROWS * c, 1e-5);
            gp_buffer_release(bi), gp_buffer_release(bo), gp_kernel_release(k);
        }
        close_all(&t);
    }
}

/* CUDA's shuffles with a width, each written here from CUDA's definition */
static int seg_ref(const int *in, int t, int op, int d, int w)
{
    int lane = t % 32, base = t - lane, seg = lane / w * w, src;
    switch (op) {
    case 0: /* down: own value where lane + d leaves the segment */
        src = lane % w + d < w ? lane + d : lane;
        break;
    case 1: /* up: own value in the segment's first d lanes */
        src = lane % w >= d ? lane - d : lane;
        break;
    case 2: /* xor: a later segment gives one's own value, an earlier one its value */
        src = (lane ^ d) >= seg + w ? lane : (lane ^ d);
        break;
    default: /* indexed (srcLane = d + threadIdx.x): modulo the width, within the segment */
        src = seg + (d + t % 128) % w;
        break;
    }
    return in[base + src];
}

static void run_warp_segments(void **state)
{
    (void)state;
    enum { N = 256 };
    static int32_t in[N], out[4 * N], ref[4 * N];
    static float f[N], s[N / 16], sref[N / 16];
    for (int i = 0; i < N; i++)
        in[i] = i * 7 + 1000, f[i] = (float)((i * 13) % 29) - 14.0f;
    for (int g = 0; g < N / 16; g++) {
        sref[g] = 0.0f;
        for (int i = 0; i < 16; i++)
            sref[g] += f[g * 16 + i];
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "warp_segments.cu");
        if (!t.prog) continue; /* shuffles: SIMD groups of 32 lanes only */
        static const int widths[2] = {8, 16}, offsets[4] = {1, 3, 9, 17};
        for (int wi = 0; wi < 2; wi++)
            for (int di = 0; di < 4; di++) {
                int w = widths[wi], d = offsets[di];
                for (int i = 0; i < N; i++)
                    for (int op = 0; op < 4; op++)
                        ref[4 * i + op] = seg_ref(in, i, op, d, w);
                char name[48];
                snprintf(name, sizeof name, "segment_shuffles_%d", w);
                gp_kernel *k = gpt_kernel_of(t.prog, name);
                gp_buffer *bi = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof out);
                launch(k, 1, G1(N), G1(128), ARGS(B(bi), B(bo), V(d)));
                get(bo, out, sizeof out);
                char what[64];
                snprintf(what, sizeof what, "%s, offset %d", name, d);
                CHECKI(what, ref, out, 4 * N);
                gp_buffer_release(bi), gp_buffer_release(bo), gp_kernel_release(k);
            }
        gp_kernel *k = gpt_kernel_of(t.prog, "segment_sums");
        gp_buffer *bf = buf(dev, f, sizeof f), *bs = buf(dev, NULL, sizeof s);
        launch(k, 1, G1(N), G1(128), ARGS(B(bf), B(bs)));
        get(bs, s, sizeof s);
        CHECKF("segment_sums", sref, s, N / 16, 0);
        gp_buffer_release(bf), gp_buffer_release(bs), gp_kernel_release(k), close_all(&t);
    }
}

/* bf16 as CUDA rounds a float to it (to nearest, ties to even), and back */
static uint16_t to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t lsb = (x >> 16) & 1u;
    return (uint16_t)((x + 0x7fffu + lsb) >> 16);
}
static float from_bf16(uint16_t h)
{
    uint32_t x = (uint32_t)h << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* llm.c's Packed128 over bf16 and float: static members, operator[] and its const twin, memcpy
 * of the payload, 128-bit loads and stores */
static void run_packed128(void **state)
{
    (void)state;
    enum { N = 1 << 12 };
    static uint16_t a[N], b[N], out[N], ref[N], ones[N];
    static float sums[N / 8], sref[N / 8], f[N], g[N], gref[N];
    for (int i = 0; i < N; i++) {
        a[i] = to_bf16(sinf(0.01f * (float)i) * 3.0f);
        b[i] = to_bf16(cosf(0.013f * (float)i) * 2.0f);
        ref[i] = to_bf16(from_bf16(a[i]) + from_bf16(b[i]));
        f[i] = (float)(i % 97) * 0.25f - 7.0f;
        gref[i] = 0.0f + f[i] * 0.5f;
    }
    for (int r = 0; r < N / 8; r++) {
        sref[r] = 0.0f;
        for (int k = 0; k < 8; k++)
            sref[r] += from_bf16(a[r * 8 + k]);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "packed128.cu");
        int n = N;
        gp_buffer *bo = buf(dev, NULL, sizeof out), *ba = buf(dev, a, sizeof a),
                  *bb = buf(dev, b, sizeof b);
        gp_kernel *k = gpt_kernel_of(t.prog, "residual_forward_kernel2");
        launch(k, 1, G1(N / 8), G1(128), ARGS(B(bo), B(ba), B(bb), V(n)));
        get(bo, out, sizeof out);
        assert_memory_equal(out, ref, sizeof out);
        gp_kernel_release(k);
        gp_buffer *bs = buf(dev, NULL, sizeof sums);
        k = gpt_kernel_of(t.prog, "row_sums");
        launch(k, 1, G1(N / 8), G1(128), ARGS(B(bs), B(bo), B(ba), V(n)));
        get(bs, sums, sizeof sums), get(bo, ones, sizeof ones);
        CHECKF("row_sums", sref, sums, N / 8, 0);
        for (int i = 0; i < N; i++)
            assert_int_equal(ones[i], 0x3f80); /* bf16 1.0 */
        gp_kernel_release(k);
        gp_buffer *bf = buf(dev, f, sizeof f), *bg = buf(dev, NULL, sizeof g);
        k = gpt_kernel_of(t.prog, "scale_add");
        float s = 0.5f;
        launch(k, 1, G1(N / 4), G1(128), ARGS(B(bg), B(bf), V(s), V(n)));
        get(bg, g, sizeof g);
        CHECKF("scale_add", gref, g, N, 0);
        gp_kernel_release(k);
        gp_buffer_release(bo), gp_buffer_release(ba), gp_buffer_release(bb);
        gp_buffer_release(bs), gp_buffer_release(bf), gp_buffer_release(bg), close_all(&t);
    }
}

/* float atomics on shared memory, then on global memory (llm.c's bias gradient) */
static void run_bias_backward_shared(void **state)
{
    (void)state;
    enum { ROWS = 1000, C = 48 };
    static float dout[ROWS * C], dbias[C], ref[C];
    for (int i = 0; i < ROWS * C; i++) /* multiples of 1/8: exact sums in any order */
        dout[i] = (float)((i * 7) % 41 - 20) * 0.125f;
    for (int c = 0; c < C; c++) {
        ref[c] = 0.0f;
        for (int r = 0; r < ROWS; r++)
            ref[c] += dout[r * C + c];
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "bias_backward_shared.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "bias_backward_shared");
        gp_buffer *bd = buf(dev, NULL, sizeof dbias), *bo = buf(dev, dout, sizeof dout);
        int rows = ROWS, c = C;
        launch(k, 1, G1((ROWS + 31) / 32 * 128), G1(128), ARGS(B(bd), B(bo), V(rows), V(c)));
        get(bd, dbias, sizeof dbias);
        CHECKF("bias_backward_shared", ref, dbias, C, 0);
        gp_buffer_release(bd), gp_buffer_release(bo), gp_kernel_release(k), close_all(&t);
    }
}

/* barriers that count, and a shared scalar in a helper */
static void run_block_votes(void **state)
{
    (void)state;
    enum { N = 1000, BS = 128, NB = 8 };
    static int32_t v[N], out[4 * NB], ref[4 * NB];
    for (int i = 0; i < N; i++) /* block 2 all even, block 5 has a big one, block 6 a negative */
        v[i] = (i / BS == 2)                   ? 2 * (i % 61)
               : (i / BS == 5 && i % BS == 77) ? 5000
               : (i / BS == 6 && i % BS == 3)  ? -4
                                               : (i * 37) % 101;
    for (int b = 0; b < NB; b++) {
        int above = 0, even = 1, big = 0, neg = 0;
        for (int t = 0; t < BS; t++) {
            int i = b * BS + t, x = i < N ? v[i] : 0;
            above += x > 50;
            even &= (x & 1) == 0;
            big |= x > 1000;
            neg |= i < N && v[i] < 0;
        }
        ref[4 * b] = above, ref[4 * b + 1] = even, ref[4 * b + 2] = big, ref[4 * b + 3] = neg;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "block_votes.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "block_votes");
        gp_buffer *bo = buf(dev, NULL, sizeof out), *bv = buf(dev, v, sizeof v);
        int n = N, th = 50;
        launch(k, 1, G1(NB * BS), G1(BS), ARGS(B(bo), B(bv), V(n), V(th)));
        get(bo, out, sizeof out);
        CHECKI("block_votes", ref, out, 4 * NB);
        gp_buffer_release(bo), gp_buffer_release(bv), gp_kernel_release(k), close_all(&t);
    }
}

/* class templates: a Welford accumulator per value type (constructors, member functions), a
 * shape passed by value, a member function of a field that is an instance */
static void run_welford_rows(void **state)
{
    (void)state;
    enum { ROWS = 300, COLS = 17, NP = 1000 };
    static float x[ROWS * COLS], mean[ROWS], var[ROWS], tail[ROWS], mref[ROWS], vref[ROWS],
        tref[ROWS];
    static float a[NP], b[NP], out[NP], oref[NP];
    ffill(x, ROWS * COLS, -2, 2), ffill(a, NP, -1, 1), ffill(b, NP, -1, 1);
    for (int r = 0; r < ROWS; r++) {
        float m = 0, m2 = 0;
        int n = 0;
        for (int c = 0; c < COLS; c++) {
            float v = x[r * COLS + c];
            n += 1;
            float d = v - m;
            m += d / (float)n;
            m2 += d * (v - m);
        }
        mref[r] = m, vref[r] = m2 / (float)(n - 1), tref[r] = x[r * COLS + 15];
    }
    for (int i = 0; i < NP; i++) {
        float m = a[i] + (b[i] - a[i]) / 2.0f;
        oref[i] = m + (b[i] - a[i]) * (b[i] - m) + (float)(i % 3);
    }
    struct {
        int sizes[4];
    } dims = {{3, 4, 5, 0}};
    int64_t coords[60 * 3], cref[60 * 3];
    for (int i = 0; i < 60; i++)
        cref[i * 3 + 0] = i / 20, cref[i * 3 + 1] = i / 5 % 4, cref[i * 3 + 2] = i % 5;
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "welford_rows.cu");
        gp_buffer *bx = buf(dev, x, sizeof x), *bm = buf(dev, NULL, sizeof mean),
                  *bv = buf(dev, NULL, sizeof var), *bt = buf(dev, NULL, sizeof tail);
        int rows = ROWS, cols = COLS;
        gp_kernel *k = gpt_kernel_of(t.prog, "row_moments_float");
        launch(k, 1, G1((ROWS + 127) / 128 * 128), G1(128),
               ARGS(B(bx), B(bm), B(bv), B(bt), V(rows), V(cols)));
        get(bm, mean, sizeof mean), get(bv, var, sizeof var), get(bt, tail, sizeof tail);
        CHECKF("row_moments mean", mref, mean, ROWS, 1e-5);
        CHECKF("row_moments var", vref, var, ROWS, 1e-5);
        CHECKF("row_moments tail", tref, tail, ROWS, 0);
        gp_buffer *bc = buf(dev, NULL, sizeof coords);
        int ndim = 3, n = 60;
        gp_kernel *u = gpt_kernel_of(t.prog, "unravel_int");
        launch(u, 1, G1(64), G1(64), ARGS(B(bc), V(dims), V(ndim), V(n)));
        get(bc, coords, sizeof coords);
        assert_memory_equal(coords, cref, sizeof coords);
        gp_buffer *ba = buf(dev, a, sizeof a), *bb = buf(dev, b, sizeof b),
                  *bo = buf(dev, NULL, sizeof out);
        int np = NP;
        gp_kernel *mp = gpt_kernel_of(t.prog, "merge_pairs");
        launch(mp, 1, G1((NP + 255) / 256 * 256), G1(256), ARGS(B(ba), B(bb), B(bo), V(np)));
        get(bo, out, sizeof out);
        CHECKF("merge_pairs", oref, out, NP, 1e-5);
        gp_buffer_release(bx), gp_buffer_release(bm), gp_buffer_release(bv);
        gp_buffer_release(bt), gp_buffer_release(bc), gp_buffer_release(ba);
        gp_buffer_release(bb), gp_buffer_release(bo);
        gp_kernel_release(k), gp_kernel_release(u), gp_kernel_release(mp), close_all(&t);
    }
}

/* shared memory at file scope: a static array a helper and the kernel share, the dynamic block
 * a helper fills */
static void run_file_scope_shared(void **state)
{
    (void)state;
    enum { N = 1000, T = 128, G = (N + T - 1) / T, ROWS = 6, COLS = 300 };
    static float in[N], sums[G], sref[G] = {0}, m[ROWS * COLS], rev[ROWS * COLS], rref[ROWS * COLS];
    for (int i = 0; i < N; i++)
        in[i] = (float)(i % 13) - 6.0f, sref[i / T] += in[i];
    for (int i = 0; i < ROWS * COLS; i++) /* (not ffill: the later tests' data stay theirs) */
        m[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            rref[r * COLS + c] = m[r * COLS + COLS - 1 - c];
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "file_scope_shared.cu");
        gp_buffer *bi = buf(dev, in, sizeof in), *bs = buf(dev, NULL, sizeof sums);
        int n = N, cols = COLS;
        gp_kernel *k = gpt_kernel_of(t.prog, "row_sums");
        launch(k, 1, G1(G * T), G1(T), ARGS(B(bi), B(bs), V(n)));
        get(bs, sums, sizeof sums);
        CHECKF("row_sums", sref, sums, G, 0);
        gp_buffer *bm = buf(dev, m, sizeof m), *br = buf(dev, NULL, sizeof rev);
        gp_kernel *r = gpt_kernel_of(t.prog, "reverse_rows");
        launch(r, 1, G1(ROWS * 64), G1(64),
               ARGS(B(bm), B(br), V(cols), gp_arg_shared(COLS * sizeof(float))));
        get(br, rev, sizeof rev);
        CHECKF("reverse_rows", rref, rev, ROWS * COLS, 0);
        gp_buffer_release(bi), gp_buffer_release(bs), gp_buffer_release(bm);
        gp_buffer_release(br), gp_kernel_release(k), gp_kernel_release(r), close_all(&t);
    }
}

/* byte and word shuffles: each intrinsic against a reference written another way (byte
 * arrays, the shifts spelled out, 128-bit products) */
static uint32_t byte_perm_ref(uint32_t x, uint32_t y, uint32_t s)
{
    uint8_t b[8];
    for (int k = 0; k < 4; k++)
        b[k] = (uint8_t)(x >> (8 * k)), b[4 + k] = (uint8_t)(y >> (8 * k));
    uint32_t r = 0;
    for (int k = 0; k < 4; k++)
        r |= (uint32_t)b[(s >> (4 * k)) & 7] << (8 * k);
    return r;
}
static uint32_t fsl_ref(uint32_t lo, uint32_t hi, uint32_t s)
{
    return s == 0 ? hi : s >= 32 ? lo : (hi << s) | (lo >> (32 - s));
}
static uint32_t fsr_ref(uint32_t lo, uint32_t hi, uint32_t s)
{
    return s == 0 ? lo : s >= 32 ? hi : (lo >> s) | (hi << (32 - s));
}
/* the high 64 bits of a * b, by 16-bit limbs (long multiplication) */
static uint64_t mul64hi_ref(uint64_t a, uint64_t b)
{
    uint32_t r[8] = {0};
    for (int i = 0; i < 4; i++) {
        uint32_t carry = 0;
        for (int j = 0; j < 4; j++) {
            uint32_t t =
                (uint32_t)((a >> (16 * i)) & 0xffff) * (uint32_t)((b >> (16 * j)) & 0xffff) +
                r[i + j] + carry;
            r[i + j] = t & 0xffff;
            carry = t >> 16;
        }
        r[i + 4] += carry;
    }
    return (uint64_t)r[4] | (uint64_t)r[5] << 16 | (uint64_t)r[6] << 32 | (uint64_t)r[7] << 48;
}
static void run_byte_shuffles(void **state)
{
    (void)state;
    enum { N = 300 };
    static uint32_t a[N], b[N], out[8 * N], ref[8 * N];
    for (int i = 0; i < N; i++) {
        a[i] = (uint32_t)i * 2654435761u ^ 0x9e3779b9u * (uint32_t)(i % 5);
        b[i] = i < 4 ? (i == 0   ? 0u
                        : i == 1 ? 0xffffffffu
                        : i == 2 ? 0x80000000u
                                 : 1u)
                     : (uint32_t)(i * 40503) ^ (uint32_t)i << 24;
        uint32_t x = a[i], y = b[i], sh = (uint32_t)(i % 40);
        uint32_t *r = ref + 8 * i;
        r[0] = byte_perm_ref(x, 0, 0x0123);
        r[1] = byte_perm_ref(x, y, 0x7531u + (uint32_t)(i % 7));
        r[2] = fsl_ref(x, x, sh & 31) ^ fsr_ref(x, y, sh & 31);
        r[3] = fsl_ref(x, y, sh < 32 ? sh : 32) + fsr_ref(x, y, sh < 32 ? sh : 32);
        r[4] = (uint32_t)(((uint64_t)x * y) >> 32) ^
               (uint32_t)(int32_t)(((int64_t)(int32_t)x * (int32_t)y) >> 32);
        uint32_t ud = x > y ? x - y : y - x;
        int64_t sd = (int64_t)(int32_t)x - (int32_t)y;
        r[5] = (ud + 7u) + ((uint32_t)(sd < 0 ? -sd : sd) + 3u);
        r[6] = (uint32_t)(((uint64_t)x + y) >> 1) ^ (uint32_t)(((uint64_t)x + y + 1) >> 1) ^
               (uint32_t)(int32_t)(((int64_t)(int32_t)x + (int32_t)y + 1) >> 1);
        uint64_t p = (uint64_t)x << 21 | y, q = (uint64_t)y << 29 | x, w = (uint64_t)x << 32 | y;
        uint64_t rev = 0;
        for (int k = 0; k < 64; k++)
            rev |= ((w >> k) & 1ull) << (63 - k);
        r[7] = (uint32_t)(mul64hi_ref(p, q) ^ rev);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "byte_shuffles.cu");
        gp_buffer *ba = buf(dev, a, sizeof a), *bb = buf(dev, b, sizeof b),
                  *bo = buf(dev, NULL, sizeof out);
        int n = N;
        gp_kernel *k = gpt_kernel_of(t.prog, "shuffle_words");
        launch(k, 1, G1((N + 127) / 128 * 128), G1(128), ARGS(B(ba), B(bb), B(bo), V(n)));
        get(bo, out, sizeof out);
        CHECKI("shuffle_words", ref, out, 8 * N);
        gp_buffer_release(ba), gp_buffer_release(bb), gp_buffer_release(bo);
        gp_kernel_release(k), close_all(&t);
    }
}

/* auto: row pointers, a 64-bit index and literals typed as C++ types them (a logical shift of
 * 0xffffffff, a division of 3000000000 that does not overflow) */
static void run_auto_rows(void **state)
{
    (void)state;
    enum { R = 64, C = 100 };
    static float in[R * C], out[R * C], ref[R * C];
    static unsigned int bits[R], bits_ref[R];
    static long long wide[R], wide_ref[R];
    ffill(in, R * C, -2, 2);
    for (int r = 0; r < R; r++) {
        for (int c = 0; c < C; c++)
            ref[r * C + c] = in[r * C + c] * (1.0f + 0.5f * (float)r);
        size_t idx = (size_t)r * C + C - 1;
        bits_ref[r] = (0xffffffffu >> (r % 8)) ^ (unsigned int)idx;
        wide_ref[r] = 3000000000LL / 3 + r - (long long)idx;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "auto_rows.cu");
        gp_buffer *bi = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof out),
                  *bb = buf(dev, NULL, sizeof bits), *bw = buf(dev, NULL, sizeof wide);
        int rows = R, cols = C;
        gp_kernel *k = gpt_kernel_of(t.prog, "scale_rows");
        launch(k, 1, G1(R * 32), G1(32), ARGS(B(bi), B(bo), B(bb), B(bw), V(rows), V(cols)));
        get(bo, out, sizeof out), get(bb, bits, sizeof bits), get(bw, wide, sizeof wide);
        CHECKF("scale_rows", ref, out, R * C, 0);
        CHECKI("scale_rows bits", bits_ref, bits, R);
        CHECKI("scale_rows wide", wide_ref, wide, 2 * R);
        gp_buffer_release(bi), gp_buffer_release(bo), gp_buffer_release(bb);
        gp_buffer_release(bw), gp_kernel_release(k), close_all(&t);
    }
}

/* structs with constructors and member functions: each lowered to a function of its own */
static void run_struct_members(void **state)
{
    (void)state;
    enum { W = 37, H = 11, N = W * H };
    static float in[N], mean[N], low[N], mean_ref[N], low_ref[N];
    ffill(in, N, -1, 1);
    for (int i = 0; i < N; i++) {
        int col = i % W, row = i / W, count = 0;
        float sum = 0.0f, lo = 1e30f;
        float v[4] = {in[row * W + col], in[row * W + (col + 1) % W], in[row * W + (col + 2) % W],
                      in[row * W] * 0.5f};
        for (int k = 0; k < 4; k++) {
            sum += v[k];
            if (v[k] < lo) lo = v[k];
            count++;
        }
        mean_ref[row * W + col] = sum / (float)count;
        low_ref[i] = lo + (float)count + (float)((col + 2) % W);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "struct_members.cu");
        gp_buffer *bi = buf(dev, in, sizeof in), *bm = buf(dev, NULL, sizeof mean),
                  *bl = buf(dev, NULL, sizeof low);
        int w = W, h = H;
        gp_kernel *k = gpt_kernel_of(t.prog, "window_stats");
        launch(k, 1, G1((N + 63) / 64 * 64), G1(64), ARGS(B(bi), B(bm), B(bl), V(w), V(h)));
        get(bm, mean, sizeof mean), get(bl, low, sizeof low);
        CHECKF("window_stats mean", mean_ref, mean, N, 1e-6);
        CHECKF("window_stats low", low_ref, low, N, 0);
        gp_buffer_release(bi), gp_buffer_release(bm), gp_buffer_release(bl);
        gp_kernel_release(k), close_all(&t);
    }
}

static void run_matmul_backward_bias(void **state)
{
    (void)state;
    enum { Bn = 2, T = 50, OC = 8 };
    static float dout[Bn * T * OC], db[OC], ref[OC];
    ffill(dout, Bn * T * OC, -1, 1);
    for (int o = 0; o < OC; o++) {
        double s = 0;
        for (int i = 0; i < Bn * T; i++)
            s += dout[i * OC + o];
        ref[o] = 1.0f + (float)s;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "matmul_backward_bias.cu");
        if (!t.prog) continue;
        float ones[OC];
        for (int o = 0; o < OC; o++)
            ones[o] = 1.0f;
        gp_buffer *bd = buf(dev, dout, sizeof dout), *bb = buf(dev, ones, sizeof ones);
        int b = Bn, tt = T, oc = OC;
        gp_kernel *k2 = gpt_kernel_of(t.prog, "matmul_backward_bias_kernel2"),
                  *k3 = gpt_kernel_of(t.prog, "matmul_backward_bias_kernel3");
        launch(k2, 1, G1(OC / 4 * 128), G1(128), ARGS(B(bb), B(bd), V(b), V(tt), V(oc)));
        get(bb, db, sizeof db);
        CHECKF("matmul_backward_bias_kernel2", ref, db, OC, 1e-10);
        GPT_CHECK(gp_buffer_write(bb, 0, ones, sizeof ones));
        launch(k3, 1, G1(OC * 128), G1(128),
               ARGS(B(bb), B(bd), V(b), V(tt), V(oc), gp_arg_shared(4 * 4)));
        get(bb, db, sizeof db);
        CHECKF("matmul_backward_bias_kernel3", ref, db, OC, 1e-10);
        gp_buffer_release(bd), gp_buffer_release(bb);
        gp_kernel_release(k2), gp_kernel_release(k3), close_all(&t);
    }
}

static void run_tile16_segments(void **state)
{
    (void)state;
    enum { N = 200, G = 64, NG = (N + G - 1) / G * G };
    static int32_t in[N], out[8 * N], ref[8 * N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 13) % 23 - 5;
    for (int i = 0; i < N; i++) {
        int seg = i / 16 * 16, lane = i % 16, v[16];
        for (int l = 0; l < 16; l++)
            v[l] = seg + l < N ? in[seg + l] : 0;
        int sum = 0;
        for (int l = 0; l < 16; l++)
            sum += v[l];
        /* shfl_down steps: lane 0 ends with the sum; ranks past the end keep their own */
        ref[8 * i + 0] = lane == 0 ? sum : -1;
        ref[8 * i + 1] = sum; /* the butterfly gives every lane the sum */
        ref[8 * i + 2] = v[0];
        ref[8 * i + 3] = lane >= 1 ? v[lane - 1] : v[lane];
        uint32_t pos = 0;
        int anyn = 0, allnz = 1;
        for (int l = 0; l < 16; l++)
            pos |= (uint32_t)(v[l] > 0) << l, anyn |= v[l] < 0, allnz &= v[l] != 0;
        ref[8 * i + 4] = (int)pos;
        ref[8 * i + 5] = anyn * 2 + allnz;
        int e = i / 8 * 8, mx = INT32_MIN, mn = INT32_MAX;
        for (int l = 0; l < 8; l++) {
            int x = e + l < N ? in[e + l] : 0;
            mx = x > mx ? x : mx, mn = x < mn ? x : mn;
        }
        ref[8 * i + 6] = mx;
        ref[8 * i + 7] = mn + (i % G) / 16;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "tile16_segments.cu");
        if (!t.prog) continue;
        gp_buffer *bi = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof out);
        int n = N;
        gp_kernel *k = gpt_kernel_of(t.prog, "segments");
        launch(k, 1, G1(NG), G1(G), ARGS(B(bi), B(bo), V(n)));
        get(bo, out, sizeof out);
        CHECKI("thread_block_tile<16> and tiled_partition(block, 8)", ref, out, 8 * N);
        gp_buffer_release(bi), gp_buffer_release(bo), gp_kernel_release(k), close_all(&t);
    }
}

#define ML_TESTS                                                                                   \
    cmocka_unit_test(run_layernorm_forward), cmocka_unit_test(run_softmax_forward),                \
        cmocka_unit_test(run_gelu_forward), cmocka_unit_test(run_adamw),                           \
        cmocka_unit_test(run_encoder_forward), cmocka_unit_test(run_crossentropy_forward),         \
        cmocka_unit_test(run_matmul_forward_bias), cmocka_unit_test(run_online_softmax),           \
        cmocka_unit_test(run_softmax_params), cmocka_unit_test(run_softmax_warp_persistent),       \
        cmocka_unit_test(run_warp_segments), cmocka_unit_test(run_packed128),                      \
        cmocka_unit_test(run_bias_backward_shared), cmocka_unit_test(run_block_votes),             \
        cmocka_unit_test(run_welford_rows), cmocka_unit_test(run_file_scope_shared),               \
        cmocka_unit_test(run_byte_shuffles), cmocka_unit_test(run_matmul_backward_bias),           \
        cmocka_unit_test(run_tile16_segments),
/* ---- Rodinia and Parboil style ------------------------------------------------------------ */
static void run_bfs(void **state)
{
    (void)state;
    enum { NODES = 9 };
    /* a small graph: node i has edges to i+1 and 2i (when they exist) */
    int32_t start[NODES], count[NODES], edges[2 * NODES], cost[NODES];
    int ne = 0;
    for (int i = 0; i < NODES; i++) {
        start[i] = ne;
        if (i + 1 < NODES) edges[ne++] = i + 1;
        if (2 * i < NODES && 2 * i != i) edges[ne++] = 2 * i;
        count[i] = ne - start[i];
        cost[i] = i == 0 ? 0 : -1;
    }
    uint8_t mask[NODES] = {1}, upd[NODES] = {0}, vis[NODES] = {1}, over = 0;
    /* the reference: one level of the search from node 0 */
    int32_t rcost[NODES];
    memcpy(rcost, cost, sizeof rcost);
    uint8_t rmask[NODES] = {0}, rvis[NODES] = {1};
    for (int e = start[0]; e < start[0] + count[0]; e++)
        rcost[edges[e]] = 1, rmask[edges[e]] = 1, rvis[edges[e]] = 1;
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "bfs.cu");
        gp_kernel *k1 = gpt_kernel_of(t.prog, "Kernel"), *k2 = gpt_kernel_of(t.prog, "Kernel2");
        gp_buffer *bs = buf(dev, start, sizeof start), *bc = buf(dev, count, sizeof count),
                  *be = buf(dev, edges, (size_t)ne * 4), *bm = buf(dev, mask, sizeof mask),
                  *bu = buf(dev, upd, sizeof upd), *bv = buf(dev, vis, sizeof vis),
                  *bco = buf(dev, cost, sizeof cost), *bo = buf(dev, &over, 1);
        int n = NODES;
        /* MAX_THREADS_PER_BLOCK is the kernels' stride: one group of 512 */
        launch(k1, 1, G1(512), G1(512),
               ARGS(B(bs), B(bc), B(be), B(bm), B(bu), B(bv), B(bco), V(n)));
        launch(k2, 1, G1(512), G1(512), ARGS(B(bm), B(bu), B(bv), B(bo), V(n)));
        int32_t gc[NODES];
        uint8_t gm[NODES], gv[NODES], go;
        get(bco, gc, sizeof gc), get(bm, gm, sizeof gm), get(bv, gv, sizeof gv), get(bo, &go, 1);
        CHECKI("bfs cost", rcost, gc, NODES);
        for (int i = 0; i < NODES; i++)
            if (gm[i] != rmask[i] || gv[i] != rvis[i]) fail_msg("bfs masks at node %d", i);
        assert_int_equal(go, 1);
        gp_buffer_release(bs), gp_buffer_release(bc), gp_buffer_release(be), gp_buffer_release(bm);
        gp_buffer_release(bu), gp_buffer_release(bv), gp_buffer_release(bco), gp_buffer_release(bo);
        gp_kernel_release(k1), gp_kernel_release(k2), close_all(&t);
    }
}

static void run_pathfinder(void **state)
{
    (void)state;
    enum { ROWS = 9, COLS = 600, PH = 4, BS = 256 };
    static int32_t wall[ROWS * COLS], ref[COLS], prev[COLS];
    for (int i = 0; i < ROWS * COLS; i++)
        wall[i] = (i * 7919) % 10;
    memcpy(ref, wall, sizeof ref);
    for (int r = 1; r < ROWS; r++) {
        memcpy(prev, ref, sizeof prev);
        for (int c = 0; c < COLS; c++) {
            int m = prev[c];
            if (c > 0 && prev[c - 1] < m) m = prev[c - 1];
            if (c < COLS - 1 && prev[c + 1] < m) m = prev[c + 1];
            ref[c] = m + wall[r * COLS + c];
        }
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "pathfinder.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "dynproc_kernel");
        gp_buffer *bw = buf(dev, wall + COLS, sizeof wall - COLS * 4);
        gp_buffer *res[2] = {buf(dev, wall, COLS * 4), buf(dev, NULL, COLS * 4)};
        int cols = COLS, rows = ROWS, border = PH;
        int small = BS - PH * 2, blockCols = COLS / small + (COLS % small == 0 ? 0 : 1);
        int src = 1, dst = 0;
        for (int r = 0; r < ROWS - 1; r += PH) { /* calc_path */
            int tmp = src;
            src = dst, dst = tmp;
            int it = PH < ROWS - r - 1 ? PH : ROWS - r - 1;
            launch(k, 1, G1((size_t)blockCols * BS), G1(BS),
                   ARGS(V(it), B(bw), B(res[src]), B(res[dst]), V(cols), V(rows), V(r), V(border)));
        }
        int32_t got[COLS];
        get(res[dst], got, sizeof got);
        CHECKI("pathfinder", ref, got, COLS);
        gp_buffer_release(bw), gp_buffer_release(res[0]), gp_buffer_release(res[1]);
        gp_kernel_release(k), close_all(&t);
    }
}

static void run_hotspot(void **state)
{
    (void)state;
    enum { R = 30, C = 40, BS = 16 };
    static float temp[R * C], power[R * C], out[R * C], ref[R * C];
    ffill(temp, R * C, 320, 340), ffill(power, R * C, 0, 0.01f);
    float Cap = 0.5f, Rx = 2.0f, Ry = 3.0f, Rz = 4.0f, step = 0.01f, te = 0.001f;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int n = r > 0 ? r - 1 : 0, s = r < R - 1 ? r + 1 : R - 1;
            int w = c > 0 ? c - 1 : 0, e = c < C - 1 ? c + 1 : C - 1;
            float t0 = temp[r * C + c];
            ref[r * C + c] = t0 + step / Cap *
                                      (power[r * C + c] +
                                       (temp[s * C + c] + temp[n * C + c] - 2.0f * t0) * (1 / Ry) +
                                       (temp[r * C + e] + temp[r * C + w] - 2.0f * t0) * (1 / Rx) +
                                       (80.0f - t0) * (1 / Rz));
        }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "hotspot.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "calculate_temp");
        gp_buffer *bp = buf(dev, power, sizeof power), *bt = buf(dev, temp, sizeof temp),
                  *bo = buf(dev, NULL, sizeof out);
        int it = 1, cols = C, rows = R, bcols = 1, brows = 1;
        int small = BS - 2, gx = C / small + (C % small ? 1 : 0),
            gy = R / small + (R % small ? 1 : 0);
        launch(k, 2, G2((size_t)gx * BS, (size_t)gy * BS), G2(BS, BS),
               ARGS(V(it), B(bp), B(bt), B(bo), V(cols), V(rows), V(bcols), V(brows), V(Cap), V(Rx),
                    V(Ry), V(Rz), V(step), V(te)));
        get(bo, out, sizeof out);
        CHECKF("hotspot", ref, out, R * C, 1e-12);
        gp_buffer_release(bp), gp_buffer_release(bt), gp_buffer_release(bo);
        gp_kernel_release(k), close_all(&t);
    }
}

static void run_backprop_layerforward(void **state)
{
    (void)state;
    enum { IN = 32, HID = 16, H = 16, Wd = 16 };
    static float input[IN + 1], w[(IN + 1) * (HID + 1)], partial[(IN / H) * HID],
        rpart[(IN / H) * HID], rw[(IN + 1) * (HID + 1)], gw[(IN + 1) * (HID + 1)];
    ffill(input, IN + 1, 0, 1), ffill(w, (IN + 1) * (HID + 1), -1, 1);
    memcpy(rw, w, sizeof w);
    for (int by = 0; by < IN / H; by++) {
        float wm[H][Wd];
        for (int ty = 0; ty < H; ty++)
            for (int tx = 0; tx < Wd; tx++) {
                int index = (HID + 1) * H * by + (HID + 1) * ty + tx + 1 + (HID + 1);
                wm[ty][tx] = w[index] * input[H * by + ty + 1];
            }
        for (int i = 1; i <= 4; i++) {
            int p = 1 << i;
            for (int ty = 0; ty < H; ty += p)
                for (int tx = 0; tx < Wd; tx++)
                    wm[ty][tx] += wm[ty + p / 2][tx];
        }
        for (int ty = 0; ty < H; ty++)
            for (int tx = 0; tx < Wd; tx++)
                rw[(HID + 1) * H * by + (HID + 1) * ty + tx + 1 + (HID + 1)] = wm[ty][tx];
        for (int ty = 0; ty < H; ty++)
            rpart[by * HID + ty] = wm[0][ty];
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "backprop_layerforward.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "bpnn_layerforward_CUDA");
        gp_buffer *bi = buf(dev, input, sizeof input), *bo = buf(dev, NULL, 4 * (HID + 1)),
                  *bw = buf(dev, w, sizeof w), *bp = buf(dev, NULL, sizeof partial);
        int in = IN, hid = HID;
        launch(k, 2, G2(16, IN), G2(16, 16), ARGS(B(bi), B(bo), B(bw), B(bp), V(in), V(hid)));
        get(bp, partial, sizeof partial), get(bw, gw, sizeof gw);
        CHECKF("bpnn_layerforward partial sums", rpart, partial, (IN / H) * HID, 1e-12);
        CHECKF("bpnn_layerforward weights", rw, gw, (IN + 1) * (HID + 1), 1e-12);
        gp_buffer_release(bi), gp_buffer_release(bo), gp_buffer_release(bw), gp_buffer_release(bp);
        gp_kernel_release(k), close_all(&t);
    }
}

static void run_gaussian(void **state)
{
    (void)state;
    enum { S = 7 };
    static float a[S * S], b[S], m[S * S], ra[S * S], rb[S], rm[S * S];
    ffill(a, S * S, 1, 2), ffill(b, S, -1, 1);
    memcpy(ra, a, sizeof a), memcpy(rb, b, sizeof b);
    memset(m, 0, sizeof m), memset(rm, 0, sizeof rm);
    for (int t = 0; t < S - 1; t++) {
        for (int i = t + 1; i < S; i++)
            rm[S * i + t] = ra[S * i + t] / ra[S * t + t];
        for (int x = 0; x < S - 1 - t; x++) {
            for (int y = 0; y < S - t; y++)
                ra[S * (x + 1 + t) + (y + t)] -= rm[S * (x + 1 + t) + t] * ra[S * t + (y + t)];
            rb[x + 1 + t] -= rm[S * (x + 1 + t) + t] * rb[t];
        }
    }
    FOR_EACH_DEVICE(dev)
    {
        built tr = build(dev, "gaussian.cu");
        gp_kernel *k1 = gpt_kernel_of(tr.prog, "Fan1"), *k2 = gpt_kernel_of(tr.prog, "Fan2");
        gp_buffer *bm = buf(dev, m, sizeof m), *ba = buf(dev, a, sizeof a),
                  *bb = buf(dev, b, sizeof b);
        int size = S;
        for (int t = 0; t < S - 1; t++) {
            int j1 = S - t;
            launch(k1, 1, G1(512), G1(512), ARGS(B(bm), B(ba), V(size), V(t)));
            launch(k2, 2, G2(8, 8), G2(4, 4), ARGS(B(bm), B(ba), B(bb), V(size), V(j1), V(t)));
        }
        float ga[S * S], gb[S], gm[S * S];
        get(ba, ga, sizeof ga), get(bb, gb, sizeof gb), get(bm, gm, sizeof gm);
        CHECKF("gaussian a", ra, ga, S * S, 1e-10);
        CHECKF("gaussian b", rb, gb, S, 1e-10);
        CHECKF("gaussian m", rm, gm, S * S, 1e-10);
        gp_buffer_release(bm), gp_buffer_release(ba), gp_buffer_release(bb);
        gp_kernel_release(k1), gp_kernel_release(k2), close_all(&tr);
    }
}

static void run_kmeans_assign(void **state)
{
    (void)state;
    enum { NP = 300, NF = 5, NC = 4 };
    static float feat[NP * NF], inv[NP * NF], rinv[NP * NF], clusters[NC * NF];
    static int32_t member[NP], rmember[NP];
    ffill(feat, NP * NF, 0, 10), ffill(clusters, NC * NF, 0, 10);
    for (int p = 0; p < NP; p++)
        for (int f = 0; f < NF; f++)
            rinv[p + NP * f] = feat[p * NF + f];
    for (int p = 0; p < NP; p++) {
        float best = FLT_MAX;
        int idx = -1;
        for (int c = 0; c < NC; c++) {
            float d = 0;
            for (int f = 0; f < NF; f++) {
                float x = rinv[p + f * NP] - clusters[c * NF + f];
                d += x * x;
            }
            if (d < best) best = d, idx = c;
        }
        rmember[p] = idx;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "kmeans_assign.cu");
        gp_kernel *ki = gpt_kernel_of(t.prog, "invert_mapping"),
                  *kp = gpt_kernel_of(t.prog, "kmeansPoint");
        gp_buffer *bf = buf(dev, feat, sizeof feat), *binv = buf(dev, NULL, sizeof inv),
                  *bm = buf(dev, NULL, sizeof member), *bc = buf(dev, clusters, sizeof clusters),
                  *bx = buf(dev, NULL, 64), *by = buf(dev, NULL, 64);
        int np = NP, nf = NF, nc = NC;
        launch(ki, 1, G1(512), G1(256), ARGS(B(bf), B(binv), V(np), V(nf)));
        launch(kp, 2, G2(2 * 256, 1), G2(256, 1),
               ARGS(B(binv), V(nf), V(np), V(nc), B(bm), B(bc), B(bx), B(by)));
        get(binv, inv, sizeof inv), get(bm, member, sizeof member);
        CHECKF("invert_mapping", rinv, inv, NP * NF, 0);
        CHECKI("kmeansPoint", rmember, member, NP);
        gp_buffer_release(bf), gp_buffer_release(binv), gp_buffer_release(bm),
            gp_buffer_release(bc);
        gp_buffer_release(bx), gp_buffer_release(by);
        gp_kernel_release(ki), gp_kernel_release(kp), close_all(&t);
    }
}

static void run_sgemm_tiled(void **state)
{
    (void)state;
    enum { M = 128, N = 32, K = 16 };
    static float A[M * K], Bm[N * K], Cm[M * N], ref[M * N];
    ffill(A, M * K, -1, 1), ffill(Bm, N * K, -1, 1), ffill(Cm, M * N, -1, 1);
    float alpha = 1.5f, beta = 0.5f;
    /* column-major, C = alpha * A * B^T + beta * C with lda = M, ldb = N, ldc = M */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int k = 0; k < K; k++)
                s += A[i + k * M] * Bm[j + k * N];
            ref[i + j * M] = Cm[i + j * M] * beta + alpha * s;
        }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "sgemm_tiled.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "mysgemmNT");
        gp_buffer *ba = buf(dev, A, sizeof A), *bb = buf(dev, Bm, sizeof Bm),
                  *bc = buf(dev, Cm, sizeof Cm);
        int lda = M, ldb = N, ldc = M, kk = K;
        launch(k, 2, G2(M / 128 * 16, N / 16 * 8), G2(16, 8),
               ARGS(B(ba), V(lda), B(bb), V(ldb), B(bc), V(ldc), V(kk), V(alpha), V(beta)));
        float got[M * N];
        get(bc, got, sizeof got);
        CHECKF("mysgemmNT", ref, got, M * N, 1e-10);
        gp_buffer_release(ba), gp_buffer_release(bb), gp_buffer_release(bc);
        gp_kernel_release(k), close_all(&t);
    }
}

static void run_mri_q(void **state)
{
    (void)state;
    enum { NK = 100, NX = 256, KE = 1024 };
    static float phiR[NK], phiI[NK], phiMag[NK], kx[KE], ky[KE], kz[KE], kmag[KE], x[NX], y[NX],
        z[NX], Qr[NX], Qi[NX], rQr[NX], rQi[NX], rmag[NK];
    ffill(phiR, NK, -1, 1), ffill(phiI, NK, -1, 1);
    ffill(kx, NK, -1, 1), ffill(ky, NK, -1, 1), ffill(kz, NK, -1, 1);
    ffill(x, NX, -1, 1), ffill(y, NX, -1, 1), ffill(z, NX, -1, 1);
    for (int k = 0; k < NK; k++)
        rmag[k] = phiR[k] * phiR[k] + phiI[k] * phiI[k];
    for (int i = 0; i < NX; i++) {
        double qr = 0, qi = 0;
        for (int k = 0; k < NK; k++) {
            float e = 6.2831853071795864769252867665590058f *
                      (kx[k] * x[i] + ky[k] * y[i] + kz[k] * z[i]);
            qr += rmag[k] * cosf(e), qi += rmag[k] * sinf(e);
        }
        rQr[i] = (float)qr, rQi[i] = (float)qi;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "mri_q.cu");
        gp_kernel *kp = gpt_kernel_of(t.prog, "ComputePhiMag_GPU"),
                  *kq = gpt_kernel_of(t.prog, "ComputeQ_GPU");
        gp_buffer *br = buf(dev, phiR, sizeof phiR), *bi = buf(dev, phiI, sizeof phiI),
                  *bm = buf(dev, NULL, sizeof phiMag);
        int nk = NK, base = 0;
        launch(kp, 1, G1(512), G1(512), ARGS(B(br), B(bi), B(bm), V(nk)));
        get(bm, phiMag, sizeof phiMag);
        CHECKF("ComputePhiMag", rmag, phiMag, NK, 1e-12);
        /* the host's cudaMemcpyToSymbol calls become writes of these buffers */
        memcpy(kmag, phiMag, sizeof phiMag);
        gp_buffer *bkx = buf(dev, kx, sizeof kx), *bky = buf(dev, ky, sizeof ky),
                  *bkz = buf(dev, kz, sizeof kz), *bkm = buf(dev, kmag, sizeof kmag);
        gp_buffer *bx = buf(dev, x, sizeof x), *by = buf(dev, y, sizeof y),
                  *bz = buf(dev, z, sizeof z), *bqr = buf(dev, NULL, sizeof Qr),
                  *bqi = buf(dev, NULL, sizeof Qi);
        launch(kq, 1, G1(NX), G1(256),
               ARGS(V(nk), V(base), B(bx), B(by), B(bz), B(bqr), B(bqi), B(bkx), B(bky), B(bkz),
                    B(bkm)));
        get(bqr, Qr, sizeof Qr), get(bqi, Qi, sizeof Qi);
        CHECKF("ComputeQ Qr", rQr, Qr, NX, 1e-8);
        CHECKF("ComputeQ Qi", rQi, Qi, NX, 1e-8);
        gp_buffer_release(br), gp_buffer_release(bi), gp_buffer_release(bm);
        gp_buffer_release(bkx), gp_buffer_release(bky), gp_buffer_release(bkz),
            gp_buffer_release(bkm);
        gp_buffer_release(bx), gp_buffer_release(by), gp_buffer_release(bz);
        gp_buffer_release(bqr), gp_buffer_release(bqi);
        gp_kernel_release(kp), gp_kernel_release(kq), close_all(&t);
    }
}

static void run_stencil7(void **state)
{
    (void)state;
    enum { NX = 12, NY = 10, NZ = 6 };
    static float a[NX * NY * NZ], out[NX * NY * NZ], ref[NX * NY * NZ];
    ffill(a, NX * NY * NZ, 0, 1);
    float c0 = 1.0f / 6.0f, c1 = 1.0f / 36.0f;
#define AT(i, j, k) a[(i) + NX * ((j) + NY * (k))]
    memset(ref, 0, sizeof ref);
    for (int k = 1; k < NZ - 1; k++)
        for (int j = 1; j < NY - 1; j++)
            for (int i = 1; i < NX - 1; i++)
                ref[i + NX * (j + NY * k)] = (AT(i, j, k + 1) + AT(i, j, k - 1) + AT(i, j + 1, k) +
                                              AT(i, j - 1, k) + AT(i + 1, j, k) + AT(i - 1, j, k)) *
                                                 c1 -
                                             AT(i, j, k) * c0;
#undef AT
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "stencil7.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "naive_kernel");
        gp_buffer *ba = buf(dev, a, sizeof a), *bo = buf(dev, NULL, sizeof out);
        int nx = NX, ny = NY, nz = NZ;
        launch(k, 3, G3(16, 8, 4), G3(8, 8, 4),
               ARGS(V(c0), V(c1), B(ba), B(bo), V(nx), V(ny), V(nz)));
        get(bo, out, sizeof out);
        CHECKF("stencil7", ref, out, NX * NY * NZ, 1e-12);
        gp_buffer_release(ba), gp_buffer_release(bo), gp_kernel_release(k), close_all(&t);
    }
}

static void run_daxpy_double(void **state)
{
    (void)state;
    enum { N = 1000 };
    static double x[N], y[N], r1[N], r2[N], got[N];
    for (int i = 0; i < N; i++)
        x[i] = sin(i * 0.01), y[i] = cos(i * 0.02);
    for (int i = 0; i < N; i++)
        r1[i] = 2.5 * x[i] + y[i], r2[i] = sqrt(x[i] * x[i] + 1.0) * exp(-fabs(x[i]));
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "daxpy_double.cu");
        if (!t.prog) continue;
        gp_kernel *k1 = gpt_kernel_of(t.prog, "daxpy"), *k2 = gpt_kernel_of(t.prog, "scaled_norm");
        gp_buffer *bx = buf(dev, x, sizeof x), *by = buf(dev, y, sizeof y),
                  *bo = buf(dev, NULL, sizeof got);
        int n = N;
        double a = 2.5;
        launch(k1, 1, G1(1024), G1(256), ARGS(V(n), V(a), B(bx), B(by)));
        get(by, got, sizeof got);
        for (int i = 0; i < N; i++)
            if (fabs(got[i] - r1[i]) > 1e-14 * (1 + fabs(r1[i]))) fail_msg("daxpy %d", i);
        launch(k2, 1, G1(1024), G1(256), ARGS(V(n), B(bx), B(bo)));
        get(bo, got, sizeof got);
        for (int i = 0; i < N; i++)
            if (fabs(got[i] - r2[i]) > 1e-13 * (1 + fabs(r2[i]))) fail_msg("scaled_norm %d", i);
        gp_buffer_release(bx), gp_buffer_release(by), gp_buffer_release(bo);
        gp_kernel_release(k1), gp_kernel_release(k2), close_all(&t);
    }
}

/* Structs in buffers and by value, size_t and bool parameters, an overloaded helper. */
static void run_graph_structs(void **state)
{
    (void)state;
    uint32_t seed = g_seed; /* the later tests draw the data they always drew */
    enum { N = 256 };
    struct node {
        int32_t starting, no_of_edges;
    } nodes[N];
    struct latlong {
        float lat, lng;
        int32_t id;
    } loc[N], q = {30.0f, 90.0f, 0};
    int32_t edges[2 * N], ref[N];
    float rdist[N];
    for (int i = 0; i < 2 * N; i++)
        edges[i] = (i * 7) % 13;
    for (int i = 0; i < N; i++) {
        nodes[i].starting = i;
        nodes[i].no_of_edges = i % 3;
        int s = 0;
        for (int e = i; e < i + i % 3; e++)
            s += edges[e];
        ref[i] = s * 2; /* weight(int) */
        loc[i].lat = frand(-90.0f, 90.0f), loc[i].lng = frand(-180.0f, 180.0f), loc[i].id = i;
        rdist[i] = sqrtf((q.lat - loc[i].lat) * (q.lat - loc[i].lat) +
                         (q.lng - loc[i].lng) * (q.lng - loc[i].lng)) *
                   0.5f; /* weight(float) */
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "graph_structs.cu");
        gp_kernel *k1 = gpt_kernel_of(t.prog, "degree_sum"), *k2 = gpt_kernel_of(t.prog, "euclid");
        gp_buffer *bn = buf(dev, nodes, sizeof nodes), *be = buf(dev, edges, sizeof edges),
                  *bo = buf(dev, NULL, N * 4), *bl = buf(dev, loc, sizeof loc),
                  *bd = buf(dev, NULL, N * 4);
        uint64_t n = N;
        int32_t twice = 1, nrec = N;
        launch(k1, 1, G1(N), G1(64), ARGS(B(bn), B(be), B(bo), V(n), V(twice)));
        launch(k2, 1, G1(N), G1(64), ARGS(B(bl), B(bd), V(nrec), V(q)));
        int32_t got[N];
        float dist[N];
        get(bo, got, sizeof got), get(bd, dist, sizeof dist);
        CHECKI("degree_sum", ref, got, N);
        CHECKF("euclid", rdist, dist, N, 1e-5f);
        gp_buffer_release(bn), gp_buffer_release(be), gp_buffer_release(bo);
        gp_buffer_release(bl), gp_buffer_release(bd);
        gp_kernel_release(k1), gp_kernel_release(k2), close_all(&t);
    }
    g_seed = seed;
}

/* Two-dimensional __shared__ tiles declared in a templated helper, one instance per block. */
static void run_matrix_mul_helper(void **state)
{
    (void)state;
    uint32_t seed = g_seed; /* the later tests draw the data they always drew */
    enum { N = 64 };
    static float a[N * N], b[N * N], ref[N * N], got[N * N];
    ffill(a, N * N, -1.0f, 1.0f);
    ffill(b, N * N, -1.0f, 1.0f);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float s = 0.0f;
            for (int k = 0; k < N; k++)
                s += a[i * N + k] * b[k * N + j];
            ref[i * N + j] = s;
        }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "matrix_mul_helper.cu");
        static const char *const names[] = {"matrixMul_bs16", "matrixMul_bs8"};
        static const size_t bs[] = {16, 8};
        gp_buffer *ba = buf(dev, a, sizeof a), *bb = buf(dev, b, sizeof b);
        for (int v = 0; v < 2; v++) {
            gp_kernel *k = gpt_kernel_of(t.prog, names[v]);
            gp_buffer *bc = buf(dev, NULL, sizeof got);
            int n = N;
            launch(k, 2, G2(N, N), G2(bs[v], bs[v]), ARGS(B(bc), B(ba), B(bb), V(n), V(n)));
            get(bc, got, sizeof got);
            CHECKF(names[v], ref, got, N * N, 1e-4f);
            gp_buffer_release(bc), gp_kernel_release(k);
        }
        gp_buffer_release(ba), gp_buffer_release(bb), close_all(&t);
    }
    g_seed = seed;
}

/* half values through CUDA's conversions: 1, -2, 0.5, 3 (exact in half) and their results. */
static void run_half_convert(void **state)
{
    (void)state;
    enum { N = 64 };
    static const uint16_t bits[4] = {0x3C00, 0xC000, 0x3800, 0x4200}; /* 1, -2, 0.5, 3 */
    static const float vals[4] = {1.0f, -2.0f, 0.5f, 3.0f};
    uint16_t x[N], y[N];
    float ref[N], o[N];
    for (int i = 0; i < N; i++) {
        x[i] = bits[i % 4];
        ref[i] = vals[i % 4] * 2.0f + fabsf(vals[i % 4]) - vals[i % 4];
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "half_convert.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "half_scale");
        gp_buffer *bx = buf(dev, x, sizeof x), *by = buf(dev, NULL, sizeof y),
                  *bo = buf(dev, NULL, sizeof o);
        float s = 2.0f;
        int n = N;
        launch(k, 1, G1(N), G1(N), ARGS(B(bx), B(by), B(bo), V(s), V(n)));
        get(bo, o, sizeof o), get(by, y, sizeof y);
        CHECKF("half_scale", ref, o, N, 0.0f);
        /* 2 + 1 - 1 = 2 (0x4000), -4 + 2 + 2 = 0 (0x0000), 1 (0x3C00), 6 (0x4600) */
        static const uint16_t yb[4] = {0x4000, 0x0000, 0x3C00, 0x4600};
        for (int i = 0; i < N; i++)
            if (y[i] != yb[i % 4]) fail_msg("half_scale y[%d] = %#x, want %#x", i, y[i], yb[i % 4]);
        gp_buffer_release(bx), gp_buffer_release(by), gp_buffer_release(bo);
        gp_kernel_release(k), close_all(&t);
    }
}

/* IEEE half <-> float for the references below: to nearest even, subnormals, infinities. */
static uint16_t ref_f2h(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
    int exp = (int)((x >> 23) & 0xffu);
    if (exp == 255) return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0u));
    int e = exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7c00u);
    uint32_t h, rem, halfway;
    if (e <= 0) {
        if (e < -10) return (uint16_t)sign;
        mant |= 0x800000u;
        int shift = 14 - e;
        h = mant >> shift;
        rem = mant & ((1u << shift) - 1u);
        halfway = 1u << (shift - 1);
    } else {
        h = ((uint32_t)e << 10) | (mant >> 13);
        rem = mant & 0x1fffu;
        halfway = 0x1000u;
    }
    if (rem > halfway || (rem == halfway && (h & 1u))) h++;
    return (uint16_t)(sign | h);
}

static float ref_h2f(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
    if (e == 31) {
        x = sign | 0x7f800000u | (m << 13);
    } else if (e == 0) {
        float v = (float)m / 16777216.0f; /* m * 2^-24 */
        return sign ? -v : v;
    } else {
        x = sign | ((e + 112u) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

/* __half2 and __half intrinsics: each result against the same operation computed in float and
 * rounded to half, bit for bit. */
static void run_half2_math(void **state)
{
    (void)state;
    enum { N = 64 };
    uint16_t x[2 * N], y[2 * N], y0[2 * N], p[N], q[N], r[2 * N];
    float diff[N], diff_ref[N];
    int flag[N];
    for (int i = 0; i < N; i++) {
        x[2 * i] = ref_f2h((float)(i % 9 - 4) * 0.375f);
        x[2 * i + 1] = ref_f2h((float)(i % 5) * 1.25f - 2.0f);
        y0[2 * i] = ref_f2h((float)(i % 7) * 0.1f);
        y0[2 * i + 1] = ref_f2h(3.0f - (float)(i % 11) * 0.7f);
        p[i] = ref_f2h((float)(i % 6) * 0.5f - 1.0f);
        q[i] = ref_f2h(i % 4 == 0 ? ref_h2f(p[i]) : (float)(i % 13) * 0.3f - 1.5f);
    }
    const float a[2] = {2.0f, -0.5f};
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "half2_math.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "half2_axpy");
        memcpy(y, y0, sizeof y);
        gp_buffer *bx = buf(dev, x, sizeof x), *by = buf(dev, y, sizeof y),
                  *bd = buf(dev, NULL, sizeof diff);
        uint16_t av[2] = {ref_f2h(a[0]), ref_f2h(a[1])};
        int n = N;
        launch(k, 1, G1(N), G1(32), ARGS(B(bx), B(by), V(av), B(bd), V(n)));
        get(by, y, sizeof y), get(bd, diff, sizeof diff);
        for (int i = 0; i < N; i++) {
            uint16_t v[2];
            for (int c = 0; c < 2; c++) {
                v[c] = ref_f2h(ref_h2f(av[c]) * ref_h2f(x[2 * i + c]) + ref_h2f(y0[2 * i + c]));
                float neg = -ref_h2f(x[2 * i + c]);
                uint16_t want = ref_h2f(v[c]) > neg ? v[c] : ref_f2h(neg);
                if (y[2 * i + c] != want)
                    fail_msg("half2_axpy y[%d].%c = %#x, want %#x", i, "xy"[c], y[2 * i + c], want);
            }
            diff_ref[i] = ref_h2f(v[0]) - ref_h2f(v[1]) + 0.25f;
        }
        CHECKF("half2_axpy diff", diff_ref, diff, N, 0.0f);
        gp_buffer_release(bx), gp_buffer_release(by), gp_buffer_release(bd);
        gp_kernel_release(k);

        k = gpt_kernel_of(t.prog, "half_pick");
        gp_buffer *bp = buf(dev, p, sizeof p), *bq = buf(dev, q, sizeof q),
                  *br = buf(dev, NULL, sizeof r), *bf = buf(dev, NULL, sizeof flag);
        launch(k, 1, G1(N), G1(32), ARGS(B(bp), B(bq), B(br), B(bf), V(n)));
        get(br, r, sizeof r), get(bf, flag, sizeof flag);
        for (int i = 0; i < N; i++) {
            float fp = ref_h2f(p[i]), fq = ref_h2f(q[i]);
            uint16_t sum = ref_f2h(fp + fq), prod = ref_f2h(fp * fq);
            uint16_t pick = ref_h2f(sum) < ref_h2f(prod) ? prod : ref_f2h(ref_h2f(sum) - 0.5f);
            if (r[i] != pick) fail_msg("half_pick r[%d] = %#x, want %#x", i, r[i], pick);
            if (r[N + i] != prod)
                fail_msg("half_pick r[%d] = %#x, want %#x", N + i, r[N + i], prod);
            int want = (fp >= fq) + 2 * (fp == fq);
            if (flag[i] != want) fail_msg("half_pick flag[%d] = %d, want %d", i, flag[i], want);
        }
        gp_buffer_release(bp), gp_buffer_release(bq), gp_buffer_release(br), gp_buffer_release(bf);
        gp_kernel_release(k), close_all(&t);
    }
}

/* Operators on the file's own struct: each use a call of the file's operator function. */
static void run_struct_operators(void **state)
{
    (void)state;
    enum { N = 100 };
    float x[2 * N], y[2 * N], out[2 * N], ref[2 * N];
    int same[N], same_ref[N];
    const float w[2] = {0.0f, 1.0f};
    for (int i = 0; i < N; i++) {
        x[2 * i] = (float)(i % 7) - 3.0f, x[2 * i + 1] = (float)(i % 5) * 0.5f;
        /* every third y is w * x exactly: (-x.im, x.re) */
        y[2 * i] = i % 3 ? (float)(i % 4) : -x[2 * i + 1];
        y[2 * i + 1] = i % 3 ? 1.5f : x[2 * i];
        float wr = w[0] * x[2 * i] - w[1] * x[2 * i + 1],
              wi = w[0] * x[2 * i + 1] + w[1] * x[2 * i];
        ref[2 * i] = wr + 0.5f * y[2 * i] - x[2 * i];
        ref[2 * i + 1] = wi + 0.5f * y[2 * i + 1] - x[2 * i + 1];
        same_ref[i] = wr == y[2 * i] && wi == y[2 * i + 1];
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "struct_operators.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "twiddle");
        gp_buffer *bo = buf(dev, NULL, sizeof out), *bx = buf(dev, x, sizeof x),
                  *by = buf(dev, y, sizeof y), *bs = buf(dev, NULL, sizeof same);
        int n = N;
        launch(k, 1, G1(128), G1(64), ARGS(B(bo), B(bx), B(by), V(w), B(bs), V(n)));
        get(bo, out, sizeof out), get(bs, same, sizeof same);
        CHECKF("twiddle", ref, out, 2 * N, 1e-6f);
        for (int i = 0; i < N; i++)
            if (same[i] != same_ref[i]) fail_msg("twiddle same[%d] = %d", i, same[i]);
        gp_buffer_release(bo), gp_buffer_release(bx), gp_buffer_release(by);
        gp_buffer_release(bs), gp_kernel_release(k);
        /* the member operators: v = a[i] * s + a[i + 1]; v += a[i] */
        float s = 0.5f, blended[2 * N], bref[2 * N];
        for (int i = 0; i < N; i++)
            for (int c = 0; c < 2; c++)
                bref[2 * i + c] = x[2 * i + c] * s + x[2 * ((i + 1) % N) + c] + x[2 * i + c];
        k = gpt_kernel_of(t.prog, "blend");
        bx = buf(dev, x, sizeof x), bo = buf(dev, NULL, sizeof blended);
        launch(k, 1, G1(128), G1(64), ARGS(B(bo), B(bx), V(s), V(n)));
        get(bo, blended, sizeof blended);
        CHECKF("blend", bref, blended, 2 * N, 1e-6f);
        gp_buffer_release(bo), gp_buffer_release(bx), gp_kernel_release(k), close_all(&t);
    }
}

/* bfloat16 through CUDA's conversions, and __float2bfloat16's rounding to nearest even. */
static void run_bf16_convert(void **state)
{
    (void)state;
    enum { N = 64 };
    static const uint16_t bits[4] = {0x3F80, 0xC000, 0x3F00, 0x4040}; /* 1, -2, 0.5, 3 */
    static const uint16_t want[4] = {0x4040, 0xC0C0, 0x3FC0, 0x4110}; /* 3, -6, 1.5, 9 */
    /* 1 + 2^-8 and 1 + 3 * 2^-8 are ties: to even (0x3F80, 0x3F82); -0.0 and a plain value */
    static const float fv[4] = {1.00390625f, 1.01171875f, -0.0f, 2.5f};
    static const uint16_t fb[4] = {0x3F80, 0x3F82, 0x8000, 0x4020};
    uint16_t in[N], out[N], rounded[N];
    float f[N];
    for (int i = 0; i < N; i++)
        in[i] = bits[i % 4], f[i] = fv[i % 4];
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "bf16_convert.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "bf16_scale");
        gp_buffer *bo = buf(dev, NULL, sizeof out), *bi = buf(dev, in, sizeof in),
                  *bf = buf(dev, f, sizeof f), *br = buf(dev, NULL, sizeof rounded);
        float s = 2.0f;
        int n = N;
        launch(k, 1, G1(N), G1(N), ARGS(B(bo), B(bi), B(bf), B(br), V(s), V(n)));
        get(bo, out, sizeof out), get(br, rounded, sizeof rounded);
        for (int i = 0; i < N; i++) {
            if (out[i] != want[i % 4]) fail_msg("bf16_scale out[%d] = %#x", i, out[i]);
            if (rounded[i] != fb[i % 4]) fail_msg("bf16 rounding [%d] = %#x", i, rounded[i]);
        }
        gp_buffer_release(bo), gp_buffer_release(bi), gp_buffer_release(bf);
        gp_buffer_release(br), gp_kernel_release(k), close_all(&t);
    }
}

#define HPC_TESTS                                                                                  \
    cmocka_unit_test(run_bfs), cmocka_unit_test(run_pathfinder), cmocka_unit_test(run_hotspot),    \
        cmocka_unit_test(run_backprop_layerforward), cmocka_unit_test(run_gaussian),               \
        cmocka_unit_test(run_kmeans_assign), cmocka_unit_test(run_sgemm_tiled),                    \
        cmocka_unit_test(run_mri_q), cmocka_unit_test(run_stencil7),                               \
        cmocka_unit_test(run_daxpy_double), cmocka_unit_test(run_matrix_mul_helper),               \
        cmocka_unit_test(run_graph_structs), cmocka_unit_test(run_half_convert),                   \
        cmocka_unit_test(run_bf16_convert), cmocka_unit_test(run_half2_math),                      \
        cmocka_unit_test(run_struct_operators),

/* ---- more CUDA samples, Rodinia and llm.c --------------------------------------------------- */
static float cnd_ref(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
                A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
    float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    return d > 0 ? 1.0f - c : c;
}

static void run_black_scholes(void **state)
{
    (void)state;
    enum { N = 2000 }; /* options, two per work-item */
    static float S[N], X[N], T[N], call[N], put[N], rcall[N], rput[N];
    ffill(S, N, 5, 30), ffill(X, N, 1, 100), ffill(T, N, 0.25f, 10);
    const float R = 0.02f, V = 0.30f;
    for (int i = 0; i < N; i++) {
        float sqrtT = sqrtf(T[i]);
        float d1 = (logf(S[i] / X[i]) + (R + 0.5f * V * V) * T[i]) / (V * sqrtT);
        float d2 = d1 - V * sqrtT, c1 = cnd_ref(d1), c2 = cnd_ref(d2), e = expf(-R * T[i]);
        rcall[i] = S[i] * c1 - X[i] * e * c2;
        rput[i] = X[i] * e * (1.0f - c2) - S[i] * (1.0f - c1);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "black_scholes.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "BlackScholesGPU");
        gp_buffer *bc = buf(dev, NULL, sizeof call), *bp = buf(dev, NULL, sizeof put),
                  *bs = buf(dev, S, sizeof S), *bx = buf(dev, X, sizeof X),
                  *bt = buf(dev, T, sizeof T);
        int n = N;
        float r = R, v = V;
        launch(k, 1, G1((N / 2 + 127) / 128 * 128), G1(128),
               ARGS(B(bc), B(bp), B(bs), B(bx), B(bt), V(r), V(v), V(n)));
        get(bc, call, sizeof call), get(bp, put, sizeof put);
        CHECKF("BlackScholes call", rcall, call, N, 1e-10);
        CHECKF("BlackScholes put", rput, put, N, 1e-10);
        gp_buffer_release(bc), gp_buffer_release(bp), gp_buffer_release(bs);
        gp_buffer_release(bx), gp_buffer_release(bt), gp_kernel_release(k), close_all(&t);
    }
}

static int max3(int a, int b, int c)
{
    int k = a <= b ? b : a;
    return k <= c ? c : k;
}

static void run_needle(void **state)
{
    (void)state;
    enum { BS = 16, NB = 4, COLS = NB * BS + 1 }; /* a (COLS x COLS) score matrix */
    static int32_t ref[COLS * COLS], mat[COLS * COLS], want[COLS * COLS];
    const int penalty = 10;
    for (int i = 0; i < COLS * COLS; i++)
        ref[i] = (int32_t)((i * 37 + 11) % 21) - 10;
    for (int i = 0; i < COLS * COLS; i++)
        mat[i] = 0;
    for (int i = 0; i < COLS; i++)
        mat[i * COLS] = -i * penalty, mat[i] = -i * penalty;
    /* the whole recurrence, cell by cell: what the blocked sweep computes */
    memcpy(want, mat, sizeof mat);
    for (int i = 1; i < COLS; i++)
        for (int j = 1; j < COLS; j++)
            want[i * COLS + j] =
                max3(want[(i - 1) * COLS + j - 1] + ref[i * COLS + j],
                     want[i * COLS + j - 1] - penalty, want[(i - 1) * COLS + j] - penalty);
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "needle.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "needle_cuda_shared_1");
        gp_buffer *br = buf(dev, ref, sizeof ref), *bm = buf(dev, mat, sizeof mat);
        int cols = COLS, pen = penalty, bw = NB;
        /* the upper-left triangle of blocks, one anti-diagonal band a launch, as runTest */
        for (int i = 1; i <= NB; i++)
            launch(k, 1, G1((size_t)i * BS), G1(BS),
                   ARGS(B(br), B(bm), V(cols), V(pen), V(i), V(bw)));
        static int32_t got[COLS * COLS];
        get(bm, got, sizeof got);
        /* the cells of those blocks: rows and columns 1.., block (by, bx) with bx + by < NB */
        static int32_t r2[COLS * COLS], g2[COLS * COLS];
        int n = 0;
        for (int by = 0; by < NB; by++)
            for (int bx = 0; bx + by < NB; bx++)
                for (int y = 0; y < BS; y++)
                    for (int x = 0; x < BS; x++) {
                        int at = (1 + by * BS + y) * COLS + 1 + bx * BS + x;
                        r2[n] = want[at], g2[n++] = got[at];
                    }
        CHECKI("needle", r2, g2, (size_t)n);
        gp_buffer_release(br), gp_buffer_release(bm), gp_kernel_release(k), close_all(&t);
    }
}

static void run_srad(void **state)
{
    (void)state;
    enum { BS = 16, R = 32, C = 48 };
    static float J[R * C], E[R * C], W[R * C], Nn[R * C], Ss[R * C], Cc[R * C];
    static float rE[R * C], rW[R * C], rN[R * C], rS[R * C], rC[R * C];
    ffill(J, R * C, 0.5f, 2.0f);
    const float q0sqr = 0.05f;
    for (int y = 0; y < R; y++)
        for (int x = 0; x < C; x++) {
            /* the neighbours, clamped at the image border as the kernel's edge cases do */
            float jc = J[y * C + x];
            float n = J[(y > 0 ? y - 1 : 0) * C + x] - jc,
                  s = J[(y < R - 1 ? y + 1 : y) * C + x] - jc;
            float w = J[y * C + (x > 0 ? x - 1 : 0)] - jc,
                  e = J[y * C + (x < C - 1 ? x + 1 : x)] - jc;
            float g2 = (n * n + s * s + w * w + e * e) / (jc * jc), l = (n + s + w + e) / jc;
            float num = (float)((0.5 * g2) - ((1.0 / 16.0) * (l * l)));
            float den = (float)(1 + (.25 * l));
            float qsqr = num / (den * den);
            den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
            float c = (float)(1.0 / (1.0 + den));
            rC[y * C + x] = c < 0 ? 0 : c > 1 ? 1 : c;
            rE[y * C + x] = e, rW[y * C + x] = w, rN[y * C + x] = n, rS[y * C + x] = s;
        }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "srad.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "srad_cuda_1");
        gp_buffer *be = buf(dev, NULL, sizeof E), *bw = buf(dev, NULL, sizeof W),
                  *bn = buf(dev, NULL, sizeof Nn), *bs = buf(dev, NULL, sizeof Ss),
                  *bj = buf(dev, J, sizeof J), *bc = buf(dev, NULL, sizeof Cc);
        int cols = C, rows = R;
        float q = q0sqr;
        launch(k, 2, G2(C, R), G2(BS, BS),
               ARGS(B(be), B(bw), B(bn), B(bs), B(bj), B(bc), V(cols), V(rows), V(q)));
        get(be, E, sizeof E), get(bw, W, sizeof W), get(bn, Nn, sizeof Nn);
        get(bs, Ss, sizeof Ss), get(bc, Cc, sizeof Cc);
        CHECKF("srad E", rE, E, R * C, 1e-12), CHECKF("srad W", rW, W, R * C, 1e-12);
        CHECKF("srad N", rN, Nn, R * C, 1e-12), CHECKF("srad S", rS, Ss, R * C, 1e-12);
        CHECKF("srad c", rC, Cc, R * C, 1e-10);
        gp_buffer_release(be), gp_buffer_release(bw), gp_buffer_release(bn);
        gp_buffer_release(bs), gp_buffer_release(bj), gp_buffer_release(bc);
        gp_kernel_release(k), close_all(&t);
    }
}

static void run_attention_forward(void **state)
{
    (void)state;
    enum { Bb = 2, T = 8, NH = 2, HS = 4, C = NH * HS, NR = Bb * NH * T };
    static float inp[Bb * T * 3 * C], q[Bb * T * C], k[Bb * T * C], v[Bb * T * C];
    static float rq[Bb * T * C], rk[Bb * T * C], rv[Bb * T * C], out[Bb * T * C], rout[Bb * T * C];
    static float att[NR * T], ratt[NR * T], satt[NR * T];
    ffill(inp, Bb * T * 3 * C, -1, 1), ffill(att, NR * T, -3, 3);
    /* permute: (B, T, 3, NH, HS) into three (B, NH, T, HS) */
    for (int b = 0; b < Bb; b++)
        for (int h = 0; h < NH; h++)
            for (int n = 0; n < T; n++)
                for (int d = 0; d < HS; d++) {
                    int o = ((b * NH + h) * T + n) * HS + d,
                        i = ((b * T + n) * 3 * NH + h) * HS + d;
                    rq[o] = inp[i], rk[o] = inp[i + NH * HS], rv[o] = inp[i + 2 * NH * HS];
                }
    /* unpermute of rq: (B, NH, T, HS) back into (B, T, NH, HS) */
    for (int b = 0; b < Bb; b++)
        for (int h = 0; h < NH; h++)
            for (int n = 0; n < T; n++)
                for (int d = 0; d < HS; d++)
                    rout[((b * T + n) * NH + h) * HS + d] = rq[((b * NH + h) * T + n) * HS + d];
    /* causal softmax of each row, scaled */
    const float scale = 0.5f;
    for (int r = 0; r < NR; r++) {
        int own = r % T;
        float m = -FLT_MAX;
        for (int j = 0; j <= own; j++)
            m = fmaxf(m, att[r * T + j]);
        double sum = 0;
        for (int j = 0; j <= own; j++)
            sum += expf(scale * (att[r * T + j] - m));
        for (int j = 0; j < T; j++)
            ratt[r * T + j] = j <= own ? expf(scale * (att[r * T + j] - m)) / (float)sum : 0.0f;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "attention_forward.cu");
        if (!t.prog) continue; /* softmax_forward_kernel5 needs SIMD groups: not OpenCL */
        gp_kernel *kp = gpt_kernel_of(t.prog, "permute_kernel"),
                  *ku = gpt_kernel_of(t.prog, "unpermute_kernel");
        gp_kernel *ks = gpt_kernel_of(t.prog, "softmax_forward_kernel5");
        gp_buffer *bi = buf(dev, inp, sizeof inp), *bq = buf(dev, NULL, sizeof q),
                  *bk = buf(dev, NULL, sizeof k), *bv = buf(dev, NULL, sizeof v),
                  *bo = buf(dev, NULL, sizeof out), *ba = buf(dev, att, sizeof att);
        int b_ = Bb, n_ = T, nh = NH, hs = HS, nr = Bb * NH, tt = T;
        launch(kp, 1, G1(Bb * NH * T * HS), G1(64),
               ARGS(B(bq), B(bk), B(bv), B(bi), V(b_), V(n_), V(nh), V(hs)));
        get(bq, q, sizeof q), get(bk, k, sizeof k), get(bv, v, sizeof v);
        CHECKF("permute q", rq, q, Bb * T * C, 0), CHECKF("permute k", rk, k, Bb * T * C, 0);
        CHECKF("permute v", rv, v, Bb * T * C, 0);
        launch(ku, 1, G1(Bb * NH * T * HS), G1(64), ARGS(B(bq), B(bo), V(b_), V(n_), V(nh), V(hs)));
        get(bo, out, sizeof out);
        CHECKF("unpermute", rout, out, Bb * T * C, 0);
        /* one warp a row; the upper triangle is left as it was */
        float sc = scale;
        launch(ks, 1, G1(NR * 32), G1(64), ARGS(B(ba), V(sc), B(ba), V(nr), V(tt)));
        get(ba, satt, sizeof satt);
        for (int r = 0; r < NR; r++)
            for (int j = r % T + 1; j < T; j++)
                satt[r * T + j] = 0.0f;
        CHECKF("softmax_forward_kernel5", ratt, satt, NR * T, 1e-10);
        gp_buffer_release(bi), gp_buffer_release(bq), gp_buffer_release(bk);
        gp_buffer_release(bv), gp_buffer_release(bo), gp_buffer_release(ba);
        gp_kernel_release(kp), gp_kernel_release(ku), gp_kernel_release(ks), close_all(&t);
    }
}

static void run_spmv_csr(void **state)
{
    (void)state;
    enum { ROWS = 300, MAXNZ = 40 };
    static int32_t ptr[ROWS + 1], idx[ROWS * MAXNZ];
    static float val[ROWS * MAXNZ], x[ROWS], y[ROWS], ref[ROWS];
    int nnz = 0;
    for (int r = 0; r < ROWS; r++) {
        ptr[r] = nnz;
        int len = (r * 7) % MAXNZ; /* empty rows too, and rows longer than a warp */
        for (int j = 0; j < len; j++)
            idx[nnz] = (r * 13 + j * 29) % ROWS, val[nnz++] = frand(-1, 1);
    }
    ptr[ROWS] = nnz;
    ffill(x, ROWS, -1, 1);
    for (int r = 0; r < ROWS; r++) {
        float s = 0;
        for (int j = ptr[r]; j < ptr[r + 1]; j++)
            s += val[j] * x[idx[j]];
        ref[r] = s;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "spmv_csr.cu");
        if (!t.prog) continue; /* spmv_csr_warp_shfl needs SIMD groups: not OpenCL */
        gp_kernel *ks = gpt_kernel_of(t.prog, "spmv_csr_scalar_kernel");
        gp_kernel *kw = gpt_kernel_of(t.prog, "spmv_csr_warp_shfl");
        gp_buffer *bp = buf(dev, ptr, sizeof ptr), *bi = buf(dev, idx, sizeof idx),
                  *bv = buf(dev, val, sizeof val), *bx = buf(dev, x, sizeof x),
                  *by = buf(dev, NULL, sizeof y);
        int rows = ROWS;
        launch(ks, 1, G1((ROWS + 127) / 128 * 128), G1(128),
               ARGS(V(rows), B(bp), B(bi), B(bv), B(bx), B(by)));
        get(by, y, sizeof y); /* y += the row's dot product, y zero */
        CHECKF("spmv scalar", ref, y, ROWS, 1e-10);
        launch(kw, 1, G1(ROWS * 32), G1(128), ARGS(V(rows), B(bp), B(bi), B(bv), B(bx), B(by)));
        get(by, y, sizeof y);
        CHECKF("spmv warp", ref, y, ROWS, 1e-10);
        gp_buffer_release(bp), gp_buffer_release(bi), gp_buffer_release(bv);
        gp_buffer_release(bx), gp_buffer_release(by);
        gp_kernel_release(ks), gp_kernel_release(kw), close_all(&t);
    }
}

static uint32_t brev_ref(uint32_t v)
{
    uint32_t r = 0;
    for (int b = 0; b < 32; b++)
        r |= ((v >> b) & 1u) << (31 - b);
    return r;
}

static int popc64_ref(uint64_t v)
{
    int n = 0;
    for (; v; v >>= 1)
        n += (int)(v & 1u);
    return n;
}

static int ffs64_ref(uint64_t v)
{
    for (int b = 0; b < 64; b++)
        if ((v >> b) & 1u) return b + 1;
    return 0;
}

static int clz64_ref(uint64_t v)
{
    for (int b = 63; b >= 0; b--)
        if ((v >> b) & 1u) return 63 - b;
    return 64;
}

static void run_bit_ops(void **state)
{
    (void)state;
    enum { LOG2N = 9, N = 1 << LOG2N, M = 200, NB = 37 };
    static float in[N], out[N], ref[N];
    static uint32_t x[M], keys[M];
    static uint64_t wide[M];
    static int32_t w[M], l2[M], lo[M], bk[M], rw[M], rl2[M], rlo[M], rbk[M];
    ffill(in, N, -1, 1);
    for (int i = 0; i < N; i++)
        ref[brev_ref((uint32_t)i) >> (32 - LOG2N)] = in[i];
    for (int i = 0; i < M; i++) {
        x[i] = i < 3 ? (uint32_t)(i == 0   ? 0
                                  : i == 1 ? 0x80000000u
                                           : 1u)
                     : (uint32_t)i * 2654435761u ^ (uint32_t)(i << 7);
        wide[i] = ((uint64_t)x[i] << (i % 33)) ^ (uint64_t)(i * 977);
        keys[i] = (uint32_t)i * 40503u + 7u;
        rw[i] = popc64_ref(x[i]) + popc64_ref(wide[i]);
        int l = -1;
        for (int b = 31; b >= 0 && l < 0; b--)
            if ((x[i] >> b) & 1u) l = b;
        rl2[i] = l;
        rlo[i] = ffs64_ref(x[i]) + 100 * ffs64_ref(wide[i]) + 10000 * clz64_ref(wide[i]);
        uint32_t h = (uint32_t)(((uint64_t)keys[i] * 2654435761u) >> 32) ^ (keys[i] * 2654435761u);
        int b = (int)(h % NB) - 2;
        b = b < 0 ? 0 : b;
        rbk[i] = b < NB - 5 ? b : NB - 5;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "bit_ops.cu");
        gp_kernel *kp = gpt_kernel_of(t.prog, "bit_reverse_permute"),
                  *ks = gpt_kernel_of(t.prog, "bit_stats"),
                  *kh = gpt_kernel_of(t.prog, "hash_bucket");
        gp_buffer *bi = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof out);
        int log2n = LOG2N, m = M, nb = NB;
        launch(kp, 1, G1(N), G1(128), ARGS(B(bo), B(bi), V(log2n)));
        get(bo, out, sizeof out);
        CHECKF("bit_reverse_permute", ref, out, N, 0);
        gp_buffer *bw = buf(dev, NULL, sizeof w), *bl = buf(dev, NULL, sizeof l2),
                  *blo = buf(dev, NULL, sizeof lo), *bx = buf(dev, x, sizeof x),
                  *bwd = buf(dev, wide, sizeof wide), *bk2 = buf(dev, keys, sizeof keys),
                  *bb = buf(dev, NULL, sizeof bk);
        launch(ks, 1, G1(256), G1(64), ARGS(B(bw), B(bl), B(blo), B(bx), B(bwd), V(m)));
        get(bw, w, sizeof w), get(bl, l2, sizeof l2), get(blo, lo, sizeof lo);
        CHECKI("__popc + __popcll", rw, w, M), CHECKI("31 - __clz", rl2, l2, M);
        CHECKI("__ffs, __ffsll, __clzll", rlo, lo, M);
        launch(kh, 1, G1(256), G1(64), ARGS(B(bb), B(bk2), V(m), V(nb)));
        get(bb, bk, sizeof bk);
        CHECKI("__umulhi hash, min(max())", rbk, bk, M);
        gp_buffer_release(bi), gp_buffer_release(bo), gp_buffer_release(bw);
        gp_buffer_release(bl), gp_buffer_release(blo), gp_buffer_release(bx);
        gp_buffer_release(bwd), gp_buffer_release(bk2), gp_buffer_release(bb);
        gp_kernel_release(kp), gp_kernel_release(ks), gp_kernel_release(kh), close_all(&t);
    }
}

/* half_ops.cu: cuda_fp16.h's operators on __half, each rounded to half. */
static void run_half_ops(void **state)
{
    (void)state;
    enum { N = 4096 };
    static uint16_t w[N], g[N], m[N], rw[N], got[N];
    static int32_t rs[N], sg[N];
    uint16_t lr = ref_f2h(0.125f);
    for (int i = 0; i < N; i++) {
        w[i] = ref_f2h(frand(-4, 4));
        g[i] = ref_f2h(i % 17 == 0 ? 0.5f : frand(-2, 2));
        m[i] = ref_f2h(i % 17 == 0 ? 0.5f : frand(0.25f, 2));
        float lrf = ref_h2f(lr), gf = ref_h2f(g[i]), mf = ref_h2f(m[i]);
        float step = ref_h2f(ref_f2h(ref_h2f(ref_f2h(lrf * gf)) + mf));
        float damped = ref_h2f(ref_f2h(step / ref_h2f(ref_f2h(lrf + mf))));
        rw[i] = ref_f2h(ref_h2f(w[i]) - damped);
        rs[i] = (gf > mf ? 1 : gf == mf ? 0 : -1) + (-gf >= mf ? 10 : 0);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "half_ops.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "half_update");
        gp_buffer *bw = buf(dev, w, sizeof w), *bg = buf(dev, g, sizeof g),
                  *bm = buf(dev, m, sizeof m), *bs = buf(dev, NULL, sizeof sg);
        int32_t n = N;
        launch(k, 1, G1(N), G1(256), ARGS(B(bw), B(bg), B(bm), V(lr), B(bs), V(n)));
        get(bw, got, sizeof got), get(bs, sg, sizeof sg);
        assert_memory_equal(got, rw, sizeof got); /* every operation rounded as CUDA's */
        assert_memory_equal(sg, rs, sizeof sg);
        /* the math functions: within a half's rounding of the float reference (a device's
         * expf or logf may be a float ulp away, which can move the rounded half by one) */
        gp_kernel *km = gpt_kernel_of(t.prog, "half_math");
        static uint16_t x[N], y[N], p[2 * N], q[2 * N];
        for (int i = 0; i < N; i++)
            x[i] = ref_f2h(frand(-2, 2)), p[2 * i] = ref_f2h(frand(-3, 3)),
            p[2 * i + 1] = ref_f2h(frand(0, 1));
        gp_buffer *bx = buf(dev, x, sizeof x), *by = buf(dev, NULL, sizeof y),
                  *bp = buf(dev, p, sizeof p), *bq = buf(dev, NULL, sizeof q);
        launch(km, 1, G1(N), G1(256), ARGS(B(bx), B(by), B(bp), B(bq), V(n)));
        get(by, y, sizeof y), get(bq, q, sizeof q);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            float a = ref_h2f(ref_f2h(expf(ref_h2f(x[i]))));
            float b = ref_h2f(ref_f2h(sqrtf(a)));
            float c = ref_h2f(ref_f2h(floorf(ref_h2f(ref_f2h(b * 4.0f)))));
            float r = ref_h2f(ref_f2h(1.0f / b)), l = ref_h2f(ref_f2h(logf(a)));
            float want = ref_h2f(ref_f2h(ref_h2f(ref_f2h(c + r)) - l));
            bad += fabsf(ref_h2f(y[i]) - want) > 4e-3f * fmaxf(fabsf(want), 1.0f);
            for (int h = 0; h < 2; h++) {
                float e = ref_h2f(ref_f2h(exp2f(ref_h2f(p[2 * i + h]))));
                float v = ref_h2f(ref_f2h(log2f(e)));
                bad += fabsf(ref_h2f(q[2 * i + h]) - v) > 4e-3f * fmaxf(fabsf(v), 1.0f);
            }
        }
        assert_int_equal(bad, 0);
        gp_buffer_release(bx), gp_buffer_release(by), gp_buffer_release(bp);
        gp_buffer_release(bq), gp_kernel_release(km);
        gp_buffer_release(bw), gp_buffer_release(bg), gp_buffer_release(bm);
        gp_buffer_release(bs), gp_kernel_release(k), close_all(&t);
    }
}

/* intrinsic_conversions.cu: rounding-mode conversions, a double's halves, __mulhi, __umulhi,
 * __urhadd and double arithmetic intrinsics, against the same computed here. */
static void run_intrinsic_conversions(void **state)
{
    (void)state;
    enum { N = 1000 };
    static float f[N];
    static double d[N], od[2 * N], rod[2 * N];
    static int32_t o[8 * N], ro[8 * N];
    static uint32_t u[N], ru[N];
    for (int i = 0; i < N; i++) {
        f[i] = i % 10 == 0 ? (float)(i / 10) + 0.5f : frand(-100, 100); /* ties to even too */
        d[i] = i % 7 == 0 ? -2.5 - i : (double)frand(-1e6f, 1e6f) / 3.0;
        int64_t bits;
        memcpy(&bits, &d[i], sizeof bits);
        int32_t hi = (int32_t)(bits >> 32), lo = (int32_t)(uint32_t)bits;
        int32_t *r = ro + 8 * i;
        r[0] = (int32_t)rintf(f[i]), r[1] = (int32_t)floorf(f[i]), r[2] = (int32_t)ceilf(f[i]);
        r[3] = (int32_t)rint(d[i]), r[4] = hi, r[5] = lo;
        r[6] = (int32_t)(((int64_t)hi * 123456789) >> 32);
        r[7] = (int32_t)(uint32_t)rintf(fabsf(f[i]));
        rod[2 * i] = d[i] + 1.0 / (d[i] + 3.0);
        rod[2 * i + 1] = fma(d[i], 2.0, sqrt(fabs(d[i])));
        uint32_t x = (uint32_t)i * 2654435761u;
        ru[i] = (uint32_t)(((uint64_t)x * 40503u) >> 32) +
                (uint32_t)(((uint64_t)0xffffffffu + (uint64_t)i + 1) >> 1);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "intrinsic_conversions.cu");
        if (!t.prog) continue; /* no double precision here: said so above */
        gp_kernel *k = gpt_kernel_of(t.prog, "conv");
        gp_buffer *bf = buf(dev, f, sizeof f), *bd = buf(dev, d, sizeof d),
                  *bo = buf(dev, NULL, sizeof o), *bod = buf(dev, NULL, sizeof od),
                  *bu = buf(dev, NULL, sizeof u);
        int32_t n = N;
        launch(k, 1, G1(1024), G1(128), ARGS(B(bf), B(bd), B(bo), B(bod), B(bu), V(n)));
        get(bo, o, sizeof o), get(bod, od, sizeof od), get(bu, u, sizeof u);
        assert_memory_equal(o, ro, sizeof o);
        assert_memory_equal(u, ru, sizeof u);
        int bad = 0;
        for (int i = 0; i < 2 * N; i++)
            bad += fabs(od[i] - rod[i]) > 1e-12 * fmax(fabs(rod[i]), 1.0);
        assert_int_equal(bad, 0);
        gp_buffer_release(bf), gp_buffer_release(bd), gp_buffer_release(bo);
        gp_buffer_release(bod), gp_buffer_release(bu), gp_kernel_release(k), close_all(&t);
    }
}

/* texture_refs.cu: texture references bound to linear memory, read with tex1Dfetch, are the
 * bound buffers, passed after the kernel's own parameters. */
static void run_texture_refs(void **state)
{
    (void)state;
    enum { NP = 2000, NC = 5, NF = 4 };
    static float features[NP * NF], clusters[NC * NF];
    static int32_t got[NP], want[NP];
    for (int i = 0; i < NP * NF; i++)
        features[i] = frand(-10, 10);
    for (int i = 0; i < NC * NF; i++)
        clusters[i] = frand(-10, 10);
    for (int p = 0; p < NP; p++) {
        float best_d = FLT_MAX;
        want[p] = 0;
        for (int c = 0; c < NC; c++) {
            float d = 0.0f;
            for (int f = 0; f < NF; f++) {
                float diff = features[f * NP + p] - clusters[c * NF + f];
                d += diff * diff;
            }
            if (d < best_d) best_d = d, want[p] = c;
        }
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "texture_refs.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "assign");
        gp_buffer *bm = buf(dev, NULL, sizeof got), *bf = buf(dev, features, sizeof features),
                  *bc = buf(dev, clusters, sizeof clusters);
        int32_t np = NP, nc = NC;
        launch(k, 1, G1(2048), G1(256), ARGS(B(bm), V(np), V(nc), B(bf), B(bc)));
        get(bm, got, sizeof got);
        assert_memory_equal(got, want, sizeof got);
        gp_buffer_release(bm), gp_buffer_release(bf), gp_buffer_release(bc);
        gp_kernel_release(k), close_all(&t);
    }
}

/* CUDA's float3 in memory: 12 bytes */
typedef struct {
    float x, y, z;
} f3;

/* packed_points.cu: float3 and uchar3 arrays in CUDA's 12- and 3-byte layout, a float3 by
 * value, a pointer into the array, components written in place. */
static void run_packed_points(void **state)
{
    (void)state;
    enum { N = 1000 };
    typedef struct {
        uint8_t x, y, z;
    } u3;
    _Static_assert(sizeof(f3) == 12 && sizeof(u3) == 3, "CUDA's float3 and uchar3 sizes");
    static f3 in[N], out[N], rout[N];
    static u3 rgb[N], rrgb[N];
    f3 axis = {0.25f, -0.5f, 1.0f};
    float lift = 0.5f, top = 4.0f;
    for (int i = 0; i < N; i++) {
        f3 p = {frand(-2, 2), frand(-2, 2), frand(-1, 3)};
        in[i] = p;
        f3 c = {axis.y * p.z - axis.z * p.y, axis.z * p.x - axis.x * p.z,
                axis.x * p.y - axis.y * p.x};
        rout[i] = (f3){p.x + c.x, p.y + c.y, p.z + c.z + lift};
        float h = fminf(fmaxf(rout[i].z / top, 0.0f), 1.0f);
        uint8_t v = (uint8_t)(h * 255.0f);
        rrgb[i] = (u3){v, (uint8_t)(255 - v), (uint8_t)(i % 2 == 0 ? 128 : 64)};
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "packed_points.cu");
        gp_kernel *k1 = gpt_kernel_of(t.prog, "swirl"), *k2 = gpt_kernel_of(t.prog, "colorize");
        gp_buffer *bi = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof out),
                  *bc = buf(dev, NULL, sizeof rgb);
        int32_t n = N;
        launch(k1, 1, G1(1024), G1(128), ARGS(B(bi), B(bo), V(axis), V(lift), V(n)));
        launch(k2, 1, G1(1024), G1(128), ARGS(B(bo), B(bc), V(n), V(top)));
        get(bo, out, sizeof out), get(bc, rgb, sizeof rgb);
        CHECKF("swirl", (const float *)rout, (const float *)out, 3 * N, 1e-5f);
        int bad = 0;
        for (int i = 0; i < N; i++) /* the byte may differ by one where h * 255 rounds apart */
            bad += abs(rgb[i].x - rrgb[i].x) > 1 || abs(rgb[i].y - rrgb[i].y) > 1 ||
                   rgb[i].z != rrgb[i].z;
        assert_int_equal(bad, 0);
        gp_buffer_release(bi), gp_buffer_release(bo), gp_buffer_release(bc);
        gp_kernel_release(k1), gp_kernel_release(k2), close_all(&t);
    }
}

/* particle_fields.cu: a struct with float3 and uchar3 fields in CUDA's layout (36 bytes), the
 * fields read, assigned whole, written in place, and brace-initialised. */
static void run_particle_fields(void **state)
{
    (void)state;
    enum { N = 1000 };
    typedef struct {
        f3 pos, vel;
        float mass;
        uint8_t color[3];
        int32_t id;
    } particle;
    _Static_assert(sizeof(particle) == 36, "CUDA's layout of the struct");
    static particle ps[N], rps[N], got[N];
    static f3 out[N], rout[N];
    f3 g = {0.0f, 0.0f, -9.8f};
    float dt = 0.01f;
    for (int i = 0; i < N; i++) {
        particle p = {{frand(-1, 1), frand(-1, 1), frand(0, 0.02f)},
                      {frand(-3, 3), frand(-3, 3), frand(-1, 1)},
                      frand(0.5f, 2.0f),
                      {0, 0, 0},
                      i * 7};
        ps[i] = p;
        f3 v = {p.vel.x + g.x * dt, p.vel.y + g.y * dt, p.vel.z + g.z * dt};
        p.vel = v;
        p.pos = (f3){p.pos.x + v.x * dt, p.pos.y + v.y * dt, p.pos.z + v.z * dt};
        float s = fminf(sqrtf(v.x * v.x + v.y * v.y + v.z * v.z) / 4.0f, 1.0f);
        p.color[0] = (uint8_t)(s * 255.0f), p.color[1] = 0, p.color[2] = (uint8_t)(p.id % 256);
        if (p.pos.z < 0.0f) p.pos.z = 0.0f;
        rps[i] = p;
        rout[i] = (f3){p.pos.x * p.mass, p.pos.y * p.mass, p.pos.z * p.mass + p.color[2]};
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "particle_fields.cu");
        gp_kernel *k1 = gpt_kernel_of(t.prog, "integrate"), *k2 = gpt_kernel_of(t.prog, "weighted");
        gp_buffer *bp = buf(dev, ps, sizeof ps), *bo = buf(dev, NULL, sizeof out);
        int32_t n = N;
        launch(k1, 1, G1(1024), G1(128), ARGS(B(bp), V(g), V(dt), V(n)));
        launch(k2, 1, G1(1024), G1(128), ARGS(B(bp), B(bo), V(n)));
        get(bp, got, sizeof got), get(bo, out, sizeof out);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            const particle *a = &got[i], *r = &rps[i];
            bad += fabsf(a->pos.x - r->pos.x) > 1e-5f || fabsf(a->pos.y - r->pos.y) > 1e-5f ||
                   fabsf(a->pos.z - r->pos.z) > 1e-5f || fabsf(a->vel.z - r->vel.z) > 1e-5f ||
                   a->mass != r->mass || a->id != r->id || abs(a->color[0] - r->color[0]) > 1 ||
                   a->color[1] != 0 || a->color[2] != r->color[2];
        }
        assert_int_equal(bad, 0);
        CHECKF("weighted", (const float *)rout, (const float *)out, 3 * N, 1e-4f);
        gp_buffer_release(bp), gp_buffer_release(bo);
        gp_kernel_release(k1), gp_kernel_release(k2), close_all(&t);
    }
}

/* atomic64_stats.cu: double atomicAdd, 64-bit add past 2^32, 64-bit CAS and packed min. */
static void run_atomic64_stats(void **state)
{
    (void)state;
    enum { N = 5000 };
    static double x[N];
    static int32_t flags[N];
    static uint32_t keys[N];
    double rs[2] = {0, 0};
    uint64_t rev = 0, rmin = UINT64_MAX;
    for (int i = 0; i < N; i++) {
        x[i] = (double)(i % 64) / 8.0 - 3.0; /* dyadic: every sum is exact in any order */
        flags[i] = i % 777 == 13;
        keys[i] = (uint32_t)((i * 2654435761u) >> 8) | 1u;
        rs[0] += x[i], rs[1] += x[i] * x[i];
        if (x[i] > 0.5) rev += 1ull << 22;
        uint64_t packed = (uint64_t)keys[i] << 32 | (uint32_t)i;
        if (packed < rmin) rmin = packed;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "atomic64_stats.cu");
        gp_kernel *k1 = gpt_kernel_of(t.prog, "moments"),
                  *k2 = gpt_kernel_of(t.prog, "first_and_min");
        double sums[2] = {0, 0};
        uint64_t ev = 0, first = 0, pmin = UINT64_MAX;
        gp_buffer *bx = buf(dev, x, sizeof x), *bs = buf(dev, sums, sizeof sums),
                  *be = buf(dev, &ev, 8), *bf = buf(dev, flags, sizeof flags),
                  *bk = buf(dev, keys, sizeof keys), *bfi = buf(dev, &first, 8),
                  *bm = buf(dev, &pmin, 8);
        int32_t n = N;
        launch(k1, 1, G1(5120), G1(256), ARGS(B(bx), B(bs), B(be), V(n)));
        launch(k2, 1, G1(5120), G1(256), ARGS(B(bf), B(bk), B(bfi), B(bm), V(n)));
        get(bs, sums, sizeof sums), get(be, &ev, 8), get(bfi, &first, 8), get(bm, &pmin, 8);
        assert_true(sums[0] == rs[0] && sums[1] == rs[1]);
        assert_true(ev == rev && ev > 0xffffffffull);
        assert_true(first >= 1 && flags[first - 1]); /* some flagged work-item claimed it */
        assert_true(pmin == rmin);
        gp_buffer_release(bx), gp_buffer_release(bs), gp_buffer_release(be);
        gp_buffer_release(bf), gp_buffer_release(bk), gp_buffer_release(bfi);
        gp_buffer_release(bm), gp_kernel_release(k1), gp_kernel_release(k2), close_all(&t);
    }
}

/* wide_vectors.cu: OpenCL's int8 and float8 declared by the file as structs (renamed in the
 * output), returned by a helper, read from a buffer and passed by value. */
typedef struct {
    _Alignas(32) float s[8];
} wv_float8;

static void run_wide_vectors(void **state)
{
    (void)state;
    enum { W = 64, N = W * 48 };
    static float f[N], out[N], ref[N];
    wv_float8 w[4], dir = {{-1, 0, 1, -1, 1, -1, 0, 1}};
    _Static_assert(sizeof(wv_float8) == 32, "CUDA pads the __align__(32) record to 32 bytes");
    for (int i = 0; i < N; i++)
        f[i] = frand(-1, 1);
    for (int j = 0; j < 4; j++)
        for (int c = 0; c < 8; c++)
            w[j].s[c] = frand(0, 1);
    for (int i = 0; i < N; i++) {
        float acc = 0.0f;
        for (int c = 0; c < 8; c++) {
            int nb = i + (int)dir.s[c] * W;
            acc += w[i % 4].s[c] * (nb >= 0 && nb < N ? f[nb] : 0.0f);
        }
        ref[i] = acc;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "wide_vectors.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "stream");
        gp_buffer *bf = buf(dev, f, sizeof f), *bo = buf(dev, NULL, sizeof out),
                  *bw = buf(dev, w, sizeof w);
        int32_t width = W, n = N;
        launch(k, 1, G1(N), G1(128), ARGS(B(bf), B(bo), B(bw), V(dir), V(width), V(n)));
        get(bo, out, sizeof out);
        CHECKF("stream", ref, out, N, 1e-5f);
        gp_buffer_release(bf), gp_buffer_release(bo), gp_buffer_release(bw);
        gp_kernel_release(k), close_all(&t);
    }
}

/* typed_records.cu: aliases, uint, enums by value and in a buffer, __align__ records. */
typedef struct {
    _Alignas(16) float x;
    float y, z;
} tr_particle;
typedef struct {
    _Alignas(8) float lo;
    float hi;
} tr_minmax;

static void run_typed_records(void **state)
{
    (void)state;
    enum { N = 1000 };
    _Static_assert(sizeof(tr_particle) == 16, "CUDA pads the aligned record to 16 bytes");
    static tr_particle parts[N];
    static unsigned char phase[N]; /* enum class Phase : unsigned char */
    static float norms[N], ref[N];
    static tr_minmax range[N], rref[N];
    for (int i = 0; i < N; i++) {
        parts[i] = (tr_particle){frand(-3, 3), frand(-3, 3), frand(-3, 3)};
        phase[i] = i % 3 == 0 ? 1 : i % 3 == 1 ? 4 : 5;
    }
    for (int mode = 0; mode < 3; mode++) {
        for (int i = 0; i < N; i++) {
            tr_particle p = parts[i];
            float v = mode == 0   ? fabsf(p.x) + fabsf(p.y) + fabsf(p.z)
                      : mode == 1 ? sqrtf(p.x * p.x + p.y * p.y + p.z * p.z)
                                  : fmaxf(fabsf(p.x), fmaxf(fabsf(p.y), fabsf(p.z)));
            ref[i] = phase[i] == 5 ? v * 2.0f : phase[i] == 4 ? v + 1.0f : v;
            rref[i].lo = fminf(fminf(p.x, p.y), p.z);
            rref[i].hi = fmaxf(fmaxf(p.x, p.y), p.z);
        }
        FOR_EACH_DEVICE(dev)
        {
            built t = build(dev, "typed_records.cu");
            gp_kernel *k = gpt_kernel_of(t.prog, "particle_stats");
            gp_buffer *bp = buf(dev, parts, sizeof parts), *bph = buf(dev, phase, sizeof phase),
                      *bn = buf(dev, NULL, sizeof norms), *br = buf(dev, NULL, sizeof range);
            unsigned n = N;
            int m = mode;
            launch(k, 1, G1(1024), G1(128), ARGS(B(bp), B(bph), B(bn), B(br), V(n), V(m)));
            get(bn, norms, sizeof norms), get(br, range, sizeof range);
            CHECKF("particle_stats norms", ref, norms, N, 1e-5f);
            CHECKF("particle_stats range", (const float *)rref, (const float *)range, 2 * N, 0);
            gp_buffer_release(bp), gp_buffer_release(bph), gp_buffer_release(bn);
            gp_buffer_release(br), gp_kernel_release(k), close_all(&t);
        }
    }
}

/* grid_arrays.cu: multi-dimensional array parameters, and local 2-D tables passed whole. */
static void run_grid_arrays(void **state)
{
    (void)state;
    enum { NX = 16, NY = 8, NZ = 8, NCOEF = 4 };
    static double phi[NX][NY][NZ], out[NX][NY][NZ], ref[NX][NY][NZ];
    static float w[NX][NY], wref[NX][NY];
    for (int x = 0; x < NX; x++)
        for (int y = 0; y < NY; y++)
            for (int z = 0; z < NZ; z++)
                phi[x][y][z] = frand(-1, 1) + x;
    for (int x = 0; x < NX; x++)
        for (int y = 0; y < NY; y++) {
            for (int z = 0; z < NZ; z++) {
                double c = phi[x][y][z], s = -6.0 * c;
                s += x > 0 ? phi[x - 1][y][z] : c;
                s += x < NX - 1 ? phi[x + 1][y][z] : c;
                s += y > 0 ? phi[x][y - 1][z] : c;
                s += y < NY - 1 ? phi[x][y + 1][z] : c;
                s += z > 0 ? phi[x][y][z - 1] : c;
                s += z < NZ - 1 ? phi[x][y][z + 1] : c;
                ref[x][y][z] = c + 0.1 * s;
            }
            float sum = 0.0f;
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < NCOEF; c++)
                    sum += ((float)(x + y) * (r + 1) - c) * (c + 1);
            wref[x][y] = sum;
        }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "grid_arrays.cu");
        if (!t.prog) continue; /* double precision: not a target here */
        gp_kernel *k = gpt_kernel_of(t.prog, "laplace_step");
        gp_buffer *bp = buf(dev, phi, sizeof phi), *bo = buf(dev, NULL, sizeof out),
                  *bw = buf(dev, NULL, sizeof w);
        launch(k, 2, G2(NZ * NX, NY), G2(NZ, NY), ARGS(B(bp), B(bo), B(bw)));
        get(bo, out, sizeof out), get(bw, w, sizeof w);
        for (int i = 0; i < NX * NY * NZ; i++)
            if (fabs((&out[0][0][0])[i] - (&ref[0][0][0])[i]) > 1e-12)
                fail_msg("laplace_step at %d: %g, want %g", i, (&out[0][0][0])[i],
                         (&ref[0][0][0])[i]);
        CHECKF("laplace_step table sums", &wref[0][0], &w[0][0], NX * NY, 0);
        gp_buffer_release(bp), gp_buffer_release(bo), gp_buffer_release(bw);
        gp_kernel_release(k), close_all(&t);
    }
}

/* union_bits.cu: unions as locals (type punning) and in a buffer. */
typedef union {
    float f;
    uint32_t ui;
} ub_un;
typedef union {
    uint32_t word;
    unsigned char bytes[4];
} ub_packed;

static void run_union_bits(void **state)
{
    (void)state;
    enum { N = 256 };
    static float in[N], absval[N], aref[N];
    static int32_t expo[N], eref[N];
    static ub_packed packed[N], pref[N];
    for (int i = 0; i < N; i++) {
        in[i] = frand(-1000, 1000) * (i % 7 == 0 ? 1e-6f : 1.0f);
        ub_un a = {in[i]};
        a.ui &= 0x7fffffffu;
        aref[i] = a.f;
        ub_un b = {in[i]};
        eref[i] = (int)((b.ui >> 23) & 0xffu) - 127;
        pref[i].word = (uint32_t)i * 2654435761u;
        pref[i].bytes[0] = (unsigned char)(pref[i].bytes[3] ^ 0x5a);
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "union_bits.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "float_bits");
        gp_buffer *bi = buf(dev, in, sizeof in), *ba = buf(dev, NULL, sizeof absval),
                  *be = buf(dev, NULL, sizeof expo), *bp = buf(dev, NULL, sizeof packed);
        int n = N;
        launch(k, 1, G1(N), G1(64), ARGS(B(bi), B(ba), B(be), B(bp), V(n)));
        get(ba, absval, sizeof absval), get(be, expo, sizeof expo), get(bp, packed, sizeof packed);
        CHECKF("float_bits |x|", aref, absval, N, 0);
        CHECKI("float_bits exponent", eref, expo, N);
        CHECKI("float_bits packed", (const int32_t *)pref, (const int32_t *)packed, N);
        gp_buffer_release(bi), gp_buffer_release(ba), gp_buffer_release(be);
        gp_buffer_release(bp), gp_kernel_release(k), close_all(&t);
    }
}

/* A kernel --partial left out: creating it from the built file names its reason. */
static void left_out_kernel_says_why(void **state)
{
    (void)state;
    static const char src[] = "__device__ float h(float x) { return (float)clock() * x; }\n"
                              "__global__ void a(float *o) { o[0] = h(o[1]); }\n"
                              "__global__ void b(float *o) { o[0] = 2.0f * o[1]; }\n";
    gp_translate_options o = {0};
    o.partial = true;
    gp_translate_result r;
    gp_translate("left.cu", src, strlen(src), &o, &r);
    assert_non_null(r.output);
    FOR_EACH_DEVICE(dev)
    {
        gp_build_options bo = {sizeof bo, 0, "left.gpk", NULL, 0, 0};
        gp_program *prog = NULL;
        GPT_CHECK(gp_program_create(dev, r.output, strlen(r.output), &bo, &prog));
        gp_kernel *k = NULL;
        assert_int_equal(gp_kernel_create(prog, "a", &k), GP_ERR_NOT_FOUND);
        if (!strstr(gp_last_error(), "kernel 'a' of left.gpk was not translated from CUDA") ||
            !strstr(gp_last_error(), "clock"))
            fail_msg("the reason: %s", gp_last_error());
        GPT_CHECK(gp_kernel_create(prog, "b", &k));
        gp_kernel_release(k);
        gp_program_release(prog);
    }
    gp_translate_result_free(&r);
}

/* CUB's block collectives: each block's dot product (float and int instances), maximum, and
 * minimum over its valid part, and the exclusive and inclusive scans with the block's total. */
static void run_cub_block_collectives(void **state)
{
    (void)state;
    enum { BS = 128, DB = 8, DN = 4000, RN = 1000, RB = (RN + BS - 1) / BS, SB = 4 };
    static float fa[DN], fb[DN], fref[DB], fout[DB], x[RN], lo[RB], hi[RB], rlo[RB], rhi[RB];
    static int32_t ia[DN], ib[DN], iref[DB], iout[DB];
    static int32_t counts[SB * BS], starts[SB * BS], ends[SB * BS], totals[SB];
    static int32_t rstarts[SB * BS], rends[SB * BS], rtotals[SB];
    ffill(fa, DN, -1.0f, 1.0f), ffill(fb, DN, -1.0f, 1.0f), ffill(x, RN, -50.0f, 50.0f);
    for (int i = 0; i < DN; i++)
        ia[i] = (i * 7) % 13 - 6, ib[i] = (i * 3) % 5 - 2;
    for (int b = 0; b < DB; b++) {
        double s = 0;
        int32_t si = 0;
        for (int t = 0; t < BS; t++)
            for (int k = b * BS + t; k < DN; k += DB * BS)
                s += (double)fa[k] * fb[k], si += ia[k] * ib[k];
        fref[b] = (float)s, iref[b] = si;
    }
    for (int b = 0; b < RB; b++) {
        rhi[b] = -1.0f, rlo[b] = FLT_MAX;
        for (int t = 0; t < BS; t++) {
            int i = b * BS + t;
            float v = i < RN ? x[i] : -1.0f;
            rhi[b] = v > rhi[b] ? v : rhi[b];
            if (i < RN) rlo[b] = v < rlo[b] ? v : rlo[b];
        }
    }
    for (int i = 0; i < SB * BS; i++)
        counts[i] = (i * 11) % 9;
    for (int b = 0; b < SB; b++) {
        int32_t s = 0;
        for (int t = 0; t < BS; t++) {
            rstarts[b * BS + t] = s;
            s += counts[b * BS + t];
            rends[b * BS + t] = s;
        }
        rtotals[b] = s;
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "cub_block_collectives.cu"); /* warp_sums is left out */
        int n = DN;
        gp_kernel *kf = gpt_kernel_of(t.prog, "dot_product_float");
        gp_buffer *ba = buf(dev, fa, sizeof fa), *bb = buf(dev, fb, sizeof fb),
                  *bo = buf(dev, NULL, sizeof fout);
        launch(kf, 1, G1(DB * BS), G1(BS), ARGS(B(ba), B(bb), B(bo), V(n)));
        get(bo, fout, sizeof fout);
        CHECKF("dot_product<float>", fref, fout, DB, 1e-4f);
        gp_buffer_release(ba), gp_buffer_release(bb), gp_buffer_release(bo);
        gp_kernel *ki = gpt_kernel_of(t.prog, "dot_product_int");
        ba = buf(dev, ia, sizeof ia), bb = buf(dev, ib, sizeof ib),
        bo = buf(dev, NULL, sizeof iout);
        launch(ki, 1, G1(DB * BS), G1(BS), ARGS(B(ba), B(bb), B(bo), V(n)));
        get(bo, iout, sizeof iout);
        CHECKI("dot_product<int>", iref, iout, DB);
        gp_buffer_release(ba), gp_buffer_release(bb), gp_buffer_release(bo);
        gp_kernel *kr = gpt_kernel_of(t.prog, "block_range");
        gp_buffer *bx = buf(dev, x, sizeof x), *bl = buf(dev, NULL, sizeof lo),
                  *bh = buf(dev, NULL, sizeof hi);
        n = RN;
        launch(kr, 1, G1(RB * BS), G1(BS), ARGS(B(bx), B(bl), B(bh), V(n)));
        get(bl, lo, sizeof lo), get(bh, hi, sizeof hi);
        CHECKF("block maximum", rhi, hi, RB, 0);
        CHECKF("block minimum of the valid part", rlo, lo, RB, 0);
        gp_buffer_release(bx), gp_buffer_release(bl), gp_buffer_release(bh);
        gp_kernel *ks = gpt_kernel_of(t.prog, "block_offsets");
        gp_buffer *bc = buf(dev, counts, sizeof counts), *bs = buf(dev, NULL, sizeof starts),
                  *be = buf(dev, NULL, sizeof ends), *bt = buf(dev, NULL, sizeof totals);
        launch(ks, 1, G1(SB * BS), G1(BS), ARGS(B(bc), B(bs), B(be), B(bt)));
        get(bs, starts, sizeof starts), get(be, ends, sizeof ends), get(bt, totals, sizeof totals);
        CHECKI("exclusive sums", rstarts, starts, SB * BS);
        CHECKI("inclusive sums", rends, ends, SB * BS);
        CHECKI("block totals", rtotals, totals, SB);
        gp_buffer_release(bc), gp_buffer_release(bs), gp_buffer_release(be), gp_buffer_release(bt);
        gp_kernel_release(kf), gp_kernel_release(ki), gp_kernel_release(kr), gp_kernel_release(ks);
        close_all(&t);
    }
}

/* Template instances reached through host templates, deduced launches, enumerators and device
 * functions as template arguments: each computes what its arguments say. */
static void run_template_dispatch(void **state)
{
    (void)state;
    enum { N = 1000 };
    static float fx[N], fy[N], fo[N], fr[N];
    static int32_t ix[N], iy[N], io[N], ir[N];
    ffill(fx, N, -4.0f, 4.0f), ffill(fy, N, -4.0f, 4.0f);
    for (int i = 0; i < N; i++)
        ix[i] = i % 17 - 8, iy[i] = i % 5;
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "template_dispatch.cu");
        int n = N;
        size_t g = (N + 255) / 256 * 256;
        float fa = 3.0f;
        int32_t ia = 3;
        /* axpy<float>, axpy<int>: deduced from the pointers */
        gp_kernel *k = gpt_kernel_of(t.prog, "axpy_float");
        gp_buffer *bx = buf(dev, fx, sizeof fx), *by = buf(dev, fy, sizeof fy);
        launch(k, 1, G1(g), G1(256), ARGS(B(by), B(bx), V(fa), V(n)));
        get(by, fo, sizeof fo);
        for (int i = 0; i < N; i++)
            fr[i] = fa * fx[i] + fy[i];
        CHECKF("axpy<float>", fr, fo, N, 1e-10);
        gp_kernel_release(k), gp_buffer_release(bx), gp_buffer_release(by);
        k = gpt_kernel_of(t.prog, "axpy_int");
        bx = buf(dev, ix, sizeof ix), by = buf(dev, iy, sizeof iy);
        launch(k, 1, G1(g), G1(256), ARGS(B(by), B(bx), V(ia), V(n)));
        get(by, io, sizeof io);
        for (int i = 0; i < N; i++)
            ir[i] = ia * ix[i] + iy[i];
        CHECKI("axpy<int>", ir, io, N);
        gp_kernel_release(k), gp_buffer_release(bx), gp_buffer_release(by);
        /* transform<T, Op::Scale> multiplies, transform<T, Op::Offset> adds */
        for (int mode = 0; mode < 2; mode++) {
            k = gpt_kernel_of(t.prog, mode ? "transform_int_1" : "transform_int_0");
            bx = buf(dev, ix, sizeof ix), by = buf(dev, NULL, sizeof io);
            launch(k, 1, G1(g), G1(256), ARGS(B(by), B(bx), V(ia), V(n)));
            get(by, io, sizeof io);
            for (int i = 0; i < N; i++)
                ir[i] = mode ? ix[i] + ia : ix[i] * ia;
            CHECKI(mode ? "transform<int, Op::Offset>" : "transform<int, Op::Scale>", ir, io, N);
            gp_kernel_release(k), gp_buffer_release(bx), gp_buffer_release(by);
            k = gpt_kernel_of(t.prog, mode ? "transform_float_1" : "transform_float_0");
            bx = buf(dev, fx, sizeof fx), by = buf(dev, NULL, sizeof fo);
            launch(k, 1, G1(g), G1(256), ARGS(B(by), B(bx), V(fa), V(n)));
            get(by, fo, sizeof fo);
            for (int i = 0; i < N; i++)
                fr[i] = mode ? fx[i] + fa : fx[i] * fa;
            CHECKF("transform<float, ...>", fr, fo, N, 1e-10);
            gp_kernel_release(k), gp_buffer_release(bx), gp_buffer_release(by);
        }
        /* map<square>, map<negate> */
        for (int f = 0; f < 2; f++) {
            k = gpt_kernel_of(t.prog, f ? "map_negate" : "map_square");
            bx = buf(dev, fx, sizeof fx), by = buf(dev, NULL, sizeof fo);
            launch(k, 1, G1(g), G1(256), ARGS(B(by), B(bx), V(n)));
            get(by, fo, sizeof fo);
            for (int i = 0; i < N; i++)
                fr[i] = f ? -fx[i] : fx[i] * fx[i];
            CHECKF(f ? "map<negate>" : "map<square>", fr, fo, N, 1e-10);
            gp_kernel_release(k), gp_buffer_release(bx), gp_buffer_release(by);
        }
        /* combine<F>(x) is combine<F>(x, 1, 0.5): the overload by the number of arguments */
        k = gpt_kernel_of(t.prog, "pairs");
        bx = buf(dev, fx, sizeof fx), by = buf(dev, NULL, sizeof fo);
        launch(k, 1, G1(g), G1(256), ARGS(B(by), B(bx), V(n)));
        get(by, fo, sizeof fo);
        for (int i = 0; i < N; i++)
            fr[i] = (fx[i] * fx[i] + 0.5f * 1.0f) + (-fx[i] + 3.0f * -2.0f);
        CHECKF("combine overloads", fr, fo, N, 1e-10);
        gp_kernel_release(k), gp_buffer_release(bx), gp_buffer_release(by);
        close_all(&t);
    }
}

/* CUB's WarpReduce: sums and maxima per warp of 32, sums per logical warp of 16 (where SIMD
 * groups of 32 lanes exist). */
static void run_cub_warp_reduce(void **state)
{
    (void)state;
    enum { BS = 128, NB = 2, N = BS * NB };
    static float x[N], out[NB * 4], mx[NB * 4], rout[NB * 4], rmx[NB * 4];
    static int32_t xi[N], oi[NB * 8], roi[NB * 8];
    ffill(x, N, -10.0f, 10.0f);
    for (int i = 0; i < N; i++)
        xi[i] = (i * 29) % 61 - 30;
    for (int w = 0; w < NB * 4; w++) {
        double s = 0;
        rmx[w] = -FLT_MAX;
        for (int l = 0; l < 32; l++) {
            s += x[w * 32 + l];
            rmx[w] = x[w * 32 + l] > rmx[w] ? x[w * 32 + l] : rmx[w];
        }
        rout[w] = (float)s;
    }
    for (int w = 0; w < NB * 8; w++) {
        roi[w] = 0;
        for (int l = 0; l < 16; l++)
            roi[w] += xi[w * 16 + l];
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "cub_warp_reduce.cu");
        if (!t.prog) continue; /* no SIMD groups of 32 lanes here: not a target */
        gp_kernel *k = gpt_kernel_of(t.prog, "warp_sums");
        gp_buffer *bx = buf(dev, x, sizeof x), *bo = buf(dev, NULL, sizeof out),
                  *bm = buf(dev, NULL, sizeof mx);
        launch(k, 1, G1(N), G1(BS), ARGS(B(bx), B(bo), B(bm)));
        get(bo, out, sizeof out), get(bm, mx, sizeof mx);
        CHECKF("warp sums", rout, out, NB * 4, 1e-10);
        CHECKF("warp maxima", rmx, mx, NB * 4, 0);
        gp_buffer_release(bx), gp_buffer_release(bo), gp_buffer_release(bm), gp_kernel_release(k);
        k = gpt_kernel_of(t.prog, "half_warps");
        bx = buf(dev, xi, sizeof xi), bo = buf(dev, NULL, sizeof oi);
        launch(k, 1, G1(N), G1(BS), ARGS(B(bx), B(bo)));
        get(bo, oi, sizeof oi);
        CHECKI("sums of 16 lanes", roi, oi, NB * 8);
        gp_buffer_release(bx), gp_buffer_release(bo), gp_kernel_release(k), close_all(&t);
    }
}

/* A device function taking a thread_group, made for the thread block that calls it. */
static void run_cg_group_function(void **state)
{
    (void)state;
    enum { BS = 256, NB = 4 };
    static int32_t in[BS * NB], out[NB], ref[NB];
    for (int i = 0; i < BS * NB; i++)
        in[i] = (i * 37) % 101 - 50;
    for (int b = 0; b < NB; b++) {
        ref[b] = 0;
        for (int t = 0; t < BS; t++)
            ref[b] += in[b * BS + t];
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "cg_group_function.cu");
        gp_kernel *k = gpt_kernel_of(t.prog, "blockSums");
        gp_buffer *bi = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof out);
        launch(k, 1, G1(BS * NB), G1(BS), ARGS(B(bi), B(bo)));
        get(bo, out, sizeof out);
        CHECKI("groupSum(block)", ref, out, NB);
        gp_buffer_release(bi), gp_buffer_release(bo), gp_kernel_release(k), close_all(&t);
    }
}

/* Kernel templates instantiated from main's local constants (nine template parameters, a bool
 * among them) and from a host template called with main's local type aliases. */
static void run_template_host_locals(void **state)
{
    (void)state;
    enum {
        H = 40,
        W = 30,
        K = 3,
        S = 2,
        P = 1,
        OH = (H + 2 * P - K) / S + 1,
        OW = (W + 2 * P - K) / S + 1,
        NG = 100
    };
    static float in[H * W], avg[OH * OW], mx[OH * OW], ravg[OH * OW], rmx[OH * OW], g[NG], rg[NG];
    static int32_t idx[NG];
    ffill(in, H * W, -5.0f, 5.0f);
    for (int i = 0; i < NG; i++)
        idx[i] = (i * 7919) % (H * W), rg[i] = in[idx[i]];
    for (int oy = 0; oy < OH; oy++)
        for (int ox = 0; ox < OW; ox++) {
            float s = 0, m = -1e30f;
            int count = 0;
            for (int y = oy * S - P; y < oy * S - P + K; y++)
                for (int x = ox * S - P; x < ox * S - P + K; x++) {
                    if (y < 0 || y >= H || x < 0 || x >= W) continue;
                    s += in[y * W + x], m = in[y * W + x] > m ? in[y * W + x] : m, count++;
                }
            ravg[oy * OW + ox] = s / (float)count, rmx[oy * OW + ox] = m;
        }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "template_host_locals.cu");
        int h = H, w = W, oh = OH, ow = OW, n = NG;
        uint8_t empty = 0; /* the functors have no fields */
        float zero = 0.0f, low = -1e30f;
        size_t gsz = (OH * OW + 127) / 128 * 128;
        gp_kernel *k = gpt_kernel_of(t.prog, "pool2d_SumPool_float_float_3_3_2_2_1_1_true");
        gp_buffer *bi = buf(dev, in, sizeof in), *bo = buf(dev, NULL, sizeof avg);
        launch(k, 1, G1(gsz), G1(128),
               ARGS(B(bi), B(bo), V(h), V(w), V(oh), V(ow), V(empty), V(zero)));
        get(bo, avg, sizeof avg);
        CHECKF("average pool (exclusive)", ravg, avg, OH * OW, 1e-6);
        gp_kernel_release(k);
        k = gpt_kernel_of(t.prog, "pool2d_MaxPool_float_float_3_3_2_2_1_1_false");
        launch(k, 1, G1(gsz), G1(128),
               ARGS(B(bi), B(bo), V(h), V(w), V(oh), V(ow), V(empty), V(low)));
        get(bo, mx, sizeof mx);
        CHECKF("max pool", rmx, mx, OH * OW, 0);
        gp_kernel_release(k), gp_buffer_release(bo);
        k = gpt_kernel_of(t.prog, "gather_float_int");
        gp_buffer *bx = buf(dev, idx, sizeof idx);
        bo = buf(dev, NULL, sizeof g);
        launch(k, 1, G1(128), G1(128), ARGS(B(bo), B(bi), B(bx), V(n)));
        get(bo, g, sizeof g);
        CHECKF("gather<data_t, index_t>", rg, g, NG, 0);
        gp_kernel_release(k), gp_buffer_release(bo), gp_buffer_release(bx), gp_buffer_release(bi);
        close_all(&t);
    }
}

/* A Blelloch scan whose bank-conflict padding is computed apart (s[a + oa]), each group
 * scanning several blocks, launched from a host template with a block of N / 2: translated for
 * that group, and exact on int and float. */
static void run_padded_scan(void **state)
{
    (void)state;
    enum { NB = 20, N1 = 128, N2 = 256 };
    static int32_t xi[NB * N1], oi[NB * N1], ri[NB * N1];
    static float xf[NB * N2], of[NB * N2], rf[NB * N2];
    for (int i = 0; i < NB * N1; i++)
        xi[i] = (i * 37) % 23 - 11;
    for (int i = 0; i < NB * N2; i++)
        xf[i] = (float)((i * 13) % 9); /* small integers: every sum exact in float */
    for (int b = 0; b < NB; b++) {
        int32_t si = 0;
        float sf = 0;
        for (int k = 0; k < N1; k++)
            ri[b * N1 + k] = si, si += xi[b * N1 + k];
        for (int k = 0; k < N2; k++)
            rf[b * N2 + k] = sf, sf += xf[b * N2 + k];
    }
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "padded_scan.cu");
        long long nb = NB; /* int64_t nblocks */
        gp_kernel *k = gpt_kernel_of(t.prog, "padded_scan_int_128");
        gp_buffer *bi = buf(dev, xi, sizeof xi), *bo = buf(dev, NULL, sizeof oi);
        launch(k, 1, G1(8 * 64), G1(64), ARGS(V(nb), B(bo), B(bi)));
        get(bo, oi, sizeof oi);
        CHECKI("scan of 128 ints per block", ri, oi, NB * N1);
        gp_kernel_release(k), gp_buffer_release(bi), gp_buffer_release(bo);
        k = gpt_kernel_of(t.prog, "padded_scan_float_256");
        bi = buf(dev, xf, sizeof xf), bo = buf(dev, NULL, sizeof of);
        launch(k, 1, G1(8 * 128), G1(128), ARGS(V(nb), B(bo), B(bi)));
        get(bo, of, sizeof of);
        CHECKF("scan of 256 floats per block", rf, of, NB * N2, 0);
        gp_kernel_release(k), gp_buffer_release(bi), gp_buffer_release(bo);
        close_all(&t);
    }
}

/* CUDA's texture fetching, written from its description for the reference: texel indices
 * with the address mode applied (wrap, clamp, border: -1), the weights of linear filtering in
 * 1.8 fixed point. */
static int tex_index(int i, int n, int mode)
{
    if (mode == 0) return ((i % n) + n) % n;              /* wrap */
    if (mode == 1) return i < 0 ? 0 : i >= n ? n - 1 : i; /* clamp */
    return i < 0 || i >= n ? -1 : i;                      /* border */
}

static float tex_weight(float f)
{
    return rintf(f * 256.0f) / 256.0f;
}

/* tex2D of float components (ncomp of them per texel) at (x, y), linear filtering */
static void tex_linear(const float *t, int ncomp, int w, int h, int mode, float x, float y,
                       float *out)
{
    x -= 0.5f, y -= 0.5f;
    float fx = floorf(x), fy = floorf(y), a = tex_weight(x - fx), b = tex_weight(y - fy);
    int i = (int)fx, j = (int)fy;
    for (int c = 0; c < ncomp; c++) {
        float v[2][2];
        for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++) {
                int ii = tex_index(i + dx, w, mode), jj = tex_index(j + dy, h, mode);
                v[dy][dx] = ii < 0 || jj < 0 ? 0.0f : t[(jj * w + ii) * ncomp + c];
            }
        out[c] = (1 - a) * (1 - b) * v[0][0] + a * (1 - b) * v[0][1] + (1 - a) * b * v[1][0] +
                 a * b * v[1][1];
    }
}

/* Texture objects made buffers and sampled as their descriptions say: linear with normalized
 * wrapping coordinates, point with clamped texels, linear float2 with a zero border, and
 * tex1Dfetch (0 outside the buffer). */
static void run_texture_objects(void **state)
{
    (void)state;
    enum { W = 64, H = 48, N = 256 };
    static float img[W * H], vel[W * H * 2], table[N], rot[W * H], rrot[W * H], adv[W * H * 2],
        radv[W * H * 2], look[N], rlook[N];
    static uint8_t gray[W * H], edg[W * H], redg[W * H];
    static int32_t keys[N];
    for (int i = 0; i < W * H; i++)
        img[i] = frand(0, 1), gray[i] = (uint8_t)((i * 97) % 251);
    for (int i = 0; i < W * H * 2; i++)
        vel[i] = frand(-6, 6);
    for (int i = 0; i < N; i++)
        table[i] = frand(-1, 1), keys[i] = (i * 37) % (N + 40) - 20; /* some outside */
    const float angle = 0.3f, dt = 0.5f;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float u = (float)x / W - 0.5f, v = (float)y / H - 0.5f;
            float tu = u * cosf(angle) - v * sinf(angle) + 0.5f;
            float tv = v * cosf(angle) + u * sinf(angle) + 0.5f;
            tex_linear(img, 1, W, H, 0, tu * W, tv * H, &rrot[y * W + x]);
            int g[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};
            float p[4];
            for (int k = 0; k < 4; k++)
                p[k] = gray[tex_index(g[k][1], H, 1) * W + tex_index(g[k][0], W, 1)];
            float gx = p[0] - p[1], gy = p[2] - p[3], m = sqrtf(gx * gx + gy * gy);
            redg[y * W + x] = (uint8_t)(m > 255.0f ? 255.0f : m);
            float here[2];
            tex_linear(vel, 2, W, H, 2, x + 0.5f, y + 0.5f, here);
            tex_linear(vel, 2, W, H, 2, x + 0.5f - dt * here[0], y + 0.5f - dt * here[1],
                       &radv[(y * W + x) * 2]);
        }
    for (int i = 0; i < N; i++)
        rlook[i] = keys[i] >= 0 && keys[i] < N ? table[keys[i]] : 0.0f;
    FOR_EACH_DEVICE(dev)
    {
        built t = build(dev, "texture_objects.cu");
        int w = W, h = H, n = N;
        float ang = angle, step = dt;
        gp_buffer *bimg = buf(dev, img, sizeof img), *bo = buf(dev, NULL, sizeof rot);
        gp_kernel *k = gpt_kernel_of(t.prog, "rotate_"); /* OpenCL's built-in rotate */
        launch(k, 2, G2(W, H), G2(16, 16), ARGS(B(bo), V(w), V(h), V(ang), B(bimg), V(w), V(h)));
        get(bo, rot, sizeof rot);
        CHECKF("linear, normalized, wrap", rrot, rot, W * H, 1e-5);
        gp_kernel_release(k), gp_buffer_release(bo), gp_buffer_release(bimg);
        gp_buffer *bg = buf(dev, gray, sizeof gray);
        bo = buf(dev, NULL, sizeof edg);
        k = gpt_kernel_of(t.prog, "edges");
        launch(k, 2, G2(W, H), G2(16, 16), ARGS(B(bo), V(w), V(h), B(bg), V(w), V(h)));
        get(bo, edg, sizeof edg);
        for (int i = 0; i < W * H; i++)
            if (edg[i] != redg[i]) fail_msg("edges[%d]: %d, want %d", i, edg[i], redg[i]);
        gp_kernel_release(k), gp_buffer_release(bo), gp_buffer_release(bg);
        gp_buffer *bv = buf(dev, vel, sizeof vel);
        bo = buf(dev, NULL, sizeof adv);
        k = gpt_kernel_of(t.prog, "advect");
        launch(k, 2, G2(W, H), G2(16, 16), ARGS(B(bo), V(w), V(h), V(step), B(bv), V(w), V(h)));
        get(bo, adv, sizeof adv);
        CHECKF("linear float2, border", radv, adv, W * H * 2, 1e-5);
        gp_kernel_release(k), gp_buffer_release(bo), gp_buffer_release(bv);
        gp_buffer *bt = buf(dev, table, sizeof table), *bk = buf(dev, keys, sizeof keys);
        bo = buf(dev, NULL, sizeof look);
        k = gpt_kernel_of(t.prog, "lookup");
        launch(k, 1, G1(N), G1(128), ARGS(B(bo), B(bk), V(n), B(bt), V(n)));
        get(bo, look, sizeof look);
        CHECKF("tex1Dfetch", rlook, look, N, 0);
        gp_kernel_release(k), gp_buffer_release(bo), gp_buffer_release(bt), gp_buffer_release(bk);
        close_all(&t);
    }
}

#define MORE_TESTS                                                                                 \
    cmocka_unit_test(run_black_scholes), cmocka_unit_test(run_needle), cmocka_unit_test(run_srad), \
        cmocka_unit_test(run_attention_forward), cmocka_unit_test(run_spmv_csr),                   \
        cmocka_unit_test(run_bit_ops), cmocka_unit_test(left_out_kernel_says_why),                 \
        cmocka_unit_test(run_typed_records), cmocka_unit_test(run_wide_vectors),                   \
        cmocka_unit_test(run_atomic64_stats), cmocka_unit_test(run_packed_points),                 \
        cmocka_unit_test(run_particle_fields), cmocka_unit_test(run_texture_refs),                 \
        cmocka_unit_test(run_intrinsic_conversions), cmocka_unit_test(run_half_ops),               \
        cmocka_unit_test(run_grid_arrays), cmocka_unit_test(run_union_bits),                       \
        cmocka_unit_test(run_cub_block_collectives), cmocka_unit_test(run_template_dispatch),      \
        cmocka_unit_test(run_cg_group_function), cmocka_unit_test(run_cub_warp_reduce),            \
        cmocka_unit_test(run_template_host_locals), cmocka_unit_test(run_padded_scan),             \
        cmocka_unit_test(run_texture_objects),

int main(void)
{
    g_nspecs = gpt_devices(g_specs, 16);
    if (g_nspecs == 0) {
        fprintf(stderr, "no device at all: even the CPU backend is missing\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(run_vector_add),
                                       cmocka_unit_test(run_reduction_kernels),
                                       cmocka_unit_test(run_reduction_warp_helper),
                                       cmocka_unit_test(run_reduction_lockstep_refused),
                                       cmocka_unit_test(run_bitonic_sort),
                                       cmocka_unit_test(run_transpose_kernels),
                                       cmocka_unit_test(run_matrix_mul),
                                       cmocka_unit_test(run_histogram64),
                                       cmocka_unit_test(run_convolution_separable),
                                       cmocka_unit_test(run_scan_blelloch),
                                       cmocka_unit_test(run_simple_atomics),
                                       cmocka_unit_test(run_dot_float4),
                                       cmocka_unit_test(run_nbody),
                                       cmocka_unit_test(run_vector_ops),
                                       cmocka_unit_test(run_math_bits),
                                       cmocka_unit_test(run_debug_printf),
                                       cmocka_unit_test(run_checked_gather),
                                       cmocka_unit_test(run_auto_rows),
                                       cmocka_unit_test(run_struct_members),
                                       cmocka_unit_test(run_constant_sizes),
                                       cmocka_unit_test(run_math_extra),
                                       cmocka_unit_test(run_block_rows),
                                       cmocka_unit_test(run_block_reduce_2d),
                                       ML_TESTS HPC_TESTS MORE_TESTS};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
