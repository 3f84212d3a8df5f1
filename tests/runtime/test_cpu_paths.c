/* test_cpu_paths.c — which path each kernel with barriers takes on the CPU backend, work-group
 * loops or fibers, and why, as the backend says it at GPUPORT_LOG=info; and that both paths
 * compute the same. Three corpora: the conformance kernels (tests/runtime/kernels/), the
 * translated corpus (tests/translate/corpus/) and tests/runtime/cpu/paths.gpk, kernels written
 * as GPU code is written (reductions, scans, tiled products, stencils, local-atomic histograms,
 * guards before barriers, barriers in uniform and non-uniform control flow). Every kernel of a
 * built file that the backend reports must be in the table below with its path; the kernels of
 * paths.gpk also run with the loops on and with GPUPORT_CPU_LOOPS=0, and their outputs must be
 * the same bit for bit (and match a C reference where one is written here). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>

#include "runtime/conformance.h"
#include "translate/corpus_flags.h"
#include "translate/translate.h"
#include "util/stderr_capture.h"

/* "loops", or a part of the reason the backend gives for fibers */
typedef struct want {
    const char *file, *kernel, *path;
} want;

#define LOOPS "loops"
static const want kWant[] = {
    /* the conformance kernels */
    {"atomic_float.gpk", "atomic_float_add_shared", LOOPS},
    {"helper.gpk", "blur", LOOPS},
    {"histogram.gpk", "histogram", LOOPS},
    {"reduce.gpk", "reduce_sum", LOOPS},
    {"scan.gpk", "scan_blocks", "the helper block_scan it calls has a barrier"},
    {"scan.gpk", "scan_totals", "the helper block_scan it calls has a barrier"},
    {"simd.gpk", "simd_ops", LOOPS},
    {"simd.gpk", "simd_reduce", LOOPS},
    {"simd.gpk", "block_sum", "the helper simd_total it calls has a barrier"},
    {"simd.gpk", "simd_sync_sum", "operation under an if whose condition is not proven uniform"},
    {"transpose.gpk", "transpose", LOOPS},
    /* paths.gpk */
    {"paths.gpk", "reduce_tree", LOOPS},
    {"paths.gpk", "reduce_dyn", LOOPS},
    {"paths.gpk", "scan_hillis", LOOPS},
    {"paths.gpk", "scan_blelloch", LOOPS},
    {"paths.gpk", "gemm_tiled", LOOPS},
    {"paths.gpk", "gemm_regblock", LOOPS},
    {"paths.gpk", "stencil_halo", LOOPS},
    {"paths.gpk", "histogram_local", LOOPS},
    {"paths.gpk", "local_atomics", LOOPS},
    {"paths.gpk", "transpose_padded", LOOPS},
    {"paths.gpk", "uniform_return", LOOPS},
    {"paths.gpk", "branch_region", LOOPS},
    {"paths.gpk", "private_carried", LOOPS},
    {"paths.gpk", "plane_sums", LOOPS},
    {"paths.gpk", "guard_return", "a work-item may return before a barrier"},
    {"paths.gpk", "data_condition",
     "a barrier or SIMD-group operation under an if whose condition is not proven uniform"},
    {"paths.gpk", "while_barrier", "a barrier or SIMD-group operation in a while loop"},
    {"paths.gpk", "break_barrier", "a break or continue leaves a loop with a barrier"},
    {"paths.gpk", "helper_barrier", "the helper pair_sum it calls has a barrier"},
    {"paths.gpk", "private_whole", "the array v lives across a barrier and is used whole"},
    {"paths.gpk", "simd_sum_down", LOOPS},
    {"paths.gpk", "simd_votes", LOOPS},
    {"paths.gpk", "simd_block_scan", LOOPS},
    {"paths.gpk", "simd_divergent", "evaluated only for some work-items"},
    {"paths.gpk", "simd_two_in_one", "not the only one of its statement"},
};
#define NWANT (sizeof kWant / sizeof *kWant)

static gp_device *g_cpu;

/* What the backend said about each kernel of one build: "loops" or "fibers: WHY". */
typedef struct said {
    char kernel[64];
    char path[300];
} said;

static int parse_log(const char *log, said *out, int cap)
{
    int n = 0;
    for (const char *p = log; p && *p && n < cap;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char line[600];
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        p = end ? end + 1 : NULL;
        const char *k = strstr(line, "gpuport: kernel '");
        if (!k) continue;
        k += strlen("gpuport: kernel '");
        const char *q = strchr(k, '\'');
        if (!q) continue;
        snprintf(out[n].kernel, sizeof out[n].kernel, "%.*s", (int)(q - k), k);
        if (!strncmp(q, "' runs as work-group loops on the CPU", 37))
            snprintf(out[n].path, sizeof out[n].path, "loops");
        else if (!strncmp(q, "' runs its work-items as fibers on the CPU: ", 44))
            snprintf(out[n].path, sizeof out[n].path, "fibers: %s", q + 44);
        else
            continue;
        n++;
    }
    return n;
}

/* Compares what the log of building `file` says with the table: every kernel reported must be
 * listed with the path it took, and every listed kernel of `file` reported (when `all`).
 * Returns the number of mismatches, each printed. */
static int compare_log(const char *file, const char *log, const want *tab, size_t ntab, bool all)
{
    int bad = 0;
    if (log && strstr(log, "the CPU front end cannot read")) {
        fprintf(stderr, "  FAIL %s: the loops pass cannot read it:\n%s", file, log);
        return 1;
    }
    said s[64];
    int n = parse_log(log, s, 64);
    bool *seen = calloc(ntab + 1, sizeof *seen);
    for (int i = 0; i < n; i++) {
        const want *w = NULL;
        for (size_t j = 0; j < ntab; j++)
            if (!strcmp(tab[j].file, file) && !strcmp(tab[j].kernel, s[i].kernel)) {
                w = &tab[j];
                seen[j] = true;
            }
        bool ok = w && (!strcmp(w->path, LOOPS)
                            ? !strcmp(s[i].path, LOOPS)
                            : !strncmp(s[i].path, "fibers: ", 8) && strstr(s[i].path, w->path));
        fprintf(stderr, "  %s %s %s: %s\n", ok ? "ok  " : "FAIL", file, s[i].kernel, s[i].path);
        if (!w)
            fprintf(stderr,
                    "       (not in the tables of test_cpu_paths.c: add it with its path)\n");
        else if (!ok)
            fprintf(stderr, "       wanted: %s\n", w->path);
        bad += !ok;
    }
    for (size_t j = 0; all && j < ntab; j++)
        if (!strcmp(tab[j].file, file) && !seen[j]) {
            fprintf(stderr, "  FAIL %s %s: the backend said nothing about it\n", file,
                    tab[j].kernel);
            bad++;
        }
    free(seen);
    return bad;
}

/* Builds `src` (named `file`) on the CPU with the work-group loops on, catching the log, and
 * compares it with the table. Returns the program, NULL when it does not build (*bad counts it
 * with the mismatches). */
static gp_program *build_logged(const char *file, const char *src, size_t len, const want *tab,
                                size_t ntab, int *bad)
{
    setenv("GPUPORT_CPU_LOOPS", "1", 1);
    gp_build_options o = {sizeof o, 0, file, NULL, 0, 0};
    gp_program *prog = NULL;
    gp_stderr_capture cap;
    gp_stderr_capture_begin(&cap);
    gp_status st = gp_program_create(g_cpu, src, len, &o, &prog);
    char *log = gp_stderr_capture_end(&cap, 1 << 16);
    if (st != GP_OK) {
        fprintf(stderr, "  FAIL %s does not build on the CPU: %s\n", file, gp_last_error());
        (*bad)++;
    } else {
        *bad += compare_log(file, log, tab, ntab, true);
    }
    free(log);
    return prog;
}

static bool has_sync(const char *s)
{
    return strstr(s, "gp_barrier") || strstr(s, "gp_simd_");
}

static void paths_conformance_kernels(void **state)
{
    (void)state;
    static const char *const files[] = {"atomic_float.gpk", "helper.gpk", "histogram.gpk",
                                        "reduce.gpk",       "scan.gpk",   "simd.gpk",
                                        "transpose.gpk"};
    int bad = 0;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        size_t len;
        char *src = gpt_kernel_source(files[i], &len);
        assert_non_null(src);
        assert_true(has_sync(src));
        gp_program_release(build_logged(files[i], src, len, kWant, NWANT, &bad));
        free(src);
    }
    /* every file of the folder with a barrier is one of the above */
    const char *root = getenv("GPUPORT_SOURCE_DIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/runtime/kernels", root ? root : ".");
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (!strstr(e->d_name, ".gpk")) continue;
        size_t len;
        char *src = gpt_kernel_source(e->d_name, &len);
        assert_non_null(src);
        bool listed = false;
        for (size_t i = 0; i < sizeof files / sizeof *files; i++)
            listed |= !strcmp(files[i], e->d_name);
        if (has_sync(src) && !listed) fail_msg("%s has barriers: add it to this test", e->d_name);
        free(src);
    }
    closedir(d);
    assert_int_equal(bad, 0);
}

/* ---- the translated corpus ------------------------------------------------------------------ */

static const want kCorpus[] = {
#include "runtime/cpu/paths_corpus.h"
};
#define NCORPUS (sizeof kCorpus / sizeof *kCorpus)

static void paths_translated_corpus(void **state)
{
    (void)state;
    const char *root = getenv("GPUPORT_SOURCE_DIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/translate/corpus", root ? root : ".");
    DIR *d = opendir(dir);
    assert_non_null(d);
    char names[128][64];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 128;)
        if (e->d_name[0] != '.' && strlen(e->d_name) < sizeof names[0] &&
            (strstr(e->d_name, ".cu") || strstr(e->d_name, ".cl")))
            snprintf(names[n++], sizeof names[0], "%.63s", e->d_name);
    closedir(d);
    int failed = 0, seen = 0;
    for (int i = 0; i < n; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%.1000s/%.63s", dir, names[i]);
        char err[512] = "";
        gp_translate_result r;
        corpus_translate(path, &r, err, sizeof err);
        if (!r.output || !has_sync(r.output) || !strstr(r.output, "\nGP_KERNEL(")) {
            gp_translate_result_free(&r);
            continue; /* refused whole (the translate tests say so), or nothing to decide */
        }
        seen++;
        gp_program_release(
            build_logged(names[i], r.output, strlen(r.output), kCorpus, NCORPUS, &failed));
        gp_translate_result_free(&r);
    }
    fprintf(stderr, "  %d translated files with barriers or SIMD-group operations\n", seen);
    assert_true(seen > 10);
    assert_int_equal(failed, 0);
}

/* ---- paths.gpk on both paths ---------------------------------------------------------------- */

typedef enum kind { K_INT, K_FLOAT, K_UINT } kind;

typedef struct run_case {
    const char *kernel;
    kind k;
    uint32_t dims;
    size_t global[3], group[3];
    int n;
    size_t nin, nout;
    size_t dyn_shared; /* bytes, for a GP_DYN_SHARED parameter */
    /* the C reference, or NULL: then the two paths are only compared with each other */
    void (*ref)(const void *in, void *out, int n);
} run_case;

enum { B = 64, T = 8 };

static void ref_reduce_tree(const void *in_, void *out_, int n)
{
    const int *in = in_;
    int *out = out_;
    for (int i = 0; i < n; i++)
        out[i / B] += in[i];
}

static void ref_scan_hillis(const void *in_, void *out_, int n)
{
    const int *in = in_;
    int *out = out_;
    for (int i = 0; i < n; i++)
        out[i] = (i % B ? out[i - 1] : 0) + in[i];
}

static void ref_simd_sum_down(const void *in_, void *out_, int n)
{
    const int *in = in_;
    int *out = out_;
    for (int i = 0; i < n; i++)
        out[i / 32] += in[i];
}

static void ref_scan_blelloch(const void *in_, void *out_, int n)
{
    const int *in = in_;
    int *out = out_;
    for (int i = 0; i < n; i++)
        out[i] = i % (2 * B) ? out[i - 1] + in[i - 1] : 0;
}

static void ref_gemm(const void *in_, void *out_, int n)
{
    const float *a = in_;
    float *c = out_;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc += a[i * n + k] * a[k * n + j];
            c[i * n + j] = acc;
        }
}

static void ref_stencil(const void *in_, void *out_, int n)
{
    const float *in = in_;
    float *out = out_;
#define AT(x, y) ((x) >= 0 && (y) >= 0 && (x) < n && (y) < n ? in[(y)*n + (x)] : 0.0f)
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            out[y * n + x] = 0.5f * AT(x, y) +
                             0.125f * (AT(x, y - 1) + AT(x, y + 1) + AT(x - 1, y) + AT(x + 1, y));
#undef AT
}

static void ref_histogram(const void *in_, void *out_, int n)
{
    const uint32_t *in = in_;
    uint32_t *out = out_;
    for (int i = 0; i < n; i++)
        out[in[i] & 255u]++;
}

static void ref_local_atomics(const void *in_, void *out_, int n)
{
    const int *in = in_;
    int *out = out_;
    for (int g = 0; g * B < n; g++) {
        int *o = out + g * 7, count = 0, lo = 1000, hi = -1000, odd = 0, sl = 0;
        for (int lid = 0; lid < B; lid++) {
            int i = g * B + lid, v = i < n ? in[i] : 0;
            if (v % 3 == 0) count++, sl += lid;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
            odd += v & 1;
        }
        o[0] = count, o[1] = lo, o[2] = hi, o[3] = 1, o[4] = odd;
        o[5] = count * (count - 1) / 2, o[6] = sl;
    }
}

static void ref_transpose(const void *in_, void *out_, int n)
{
    const float *in = in_;
    float *out = out_;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            out[x * n + y] = in[y * n + x];
}

static void ref_branch_region(const void *in_, void *out_, int n)
{
    const int *in = in_;
    int *out = out_;
    for (int i = 0; i < n; i++) {
        int g = i / B, lid = i % B, j = g * B + (lid + 1) % B;
        out[i] = g % 2 == 0 ? (j < n ? in[j] : 0) : in[i] * 2 + 1;
    }
}

static const run_case kRuns[] = {
    {"reduce_tree", K_INT, 1, {1000}, {B}, 1000, 1000, 16, 0, ref_reduce_tree},
    {"reduce_dyn", K_FLOAT, 1, {256}, {B}, 5000, 5000, 4, B * 4, NULL},
    {"scan_hillis", K_INT, 1, {1000}, {B}, 1000, 1000, 1000, 0, ref_scan_hillis},
    {"scan_blelloch", K_INT, 1, {512}, {B}, 1000, 1000, 1000, 0, ref_scan_blelloch},
    {"gemm_tiled", K_FLOAT, 2, {32, 32}, {T, T}, 32, 32 * 32, 32 * 32, 0, ref_gemm},
    {"gemm_regblock", K_FLOAT, 2, {16, 32}, {T, T}, 32, 32 * 32, 32 * 32, 0, ref_gemm},
    {"stencil_halo", K_FLOAT, 2, {40, 40}, {T, T}, 37, 37 * 37, 37 * 37, 0, ref_stencil},
    {"histogram_local", K_UINT, 1, {256}, {B}, 10000, 10000, 256, 0, ref_histogram},
    {"local_atomics", K_INT, 1, {256}, {B}, 230, 230, 4 * 7, 8, ref_local_atomics},
    {"transpose_padded", K_FLOAT, 2, {40, 40}, {T, T}, 37, 37 * 37, 37 * 37, 0, ref_transpose},
    {"uniform_return", K_INT, 1, {320}, {B}, 200, 200, 320, 0, NULL},
    {"branch_region", K_INT, 1, {320}, {B}, 300, 300, 300, 0, ref_branch_region},
    {"private_carried", K_INT, 1, {128}, {B}, 100, 100, 100, 0, NULL},
    {"plane_sums", K_INT, 3, {4, 4, 8}, {4, 4, 4}, 128, 128, 8, 0, NULL},
    {"guard_return", K_INT, 1, {128}, {B}, 100, 100, 100, 0, NULL},
    {"data_condition", K_INT, 1, {128}, {B}, 100, 100, 100, 0, NULL},
    {"while_barrier", K_INT, 1, {128}, {B}, 100, 100, 100, 0, NULL},
    {"break_barrier", K_INT, 1, {128}, {B}, 100, 100, 100, 0, NULL},
    {"helper_barrier", K_INT, 1, {128}, {B}, 100, 100, 100, 0, NULL},
    {"private_whole", K_INT, 1, {128}, {B}, 100, 100, 100, 0, NULL},
    {"simd_sum_down", K_INT, 1, {288}, {96}, 280, 280, 9, 0, ref_simd_sum_down},
    {"simd_votes", K_UINT, 1, {192}, {64}, 180, 180, 4 * 180, 0, NULL},
    {"simd_block_scan", K_INT, 1, {1000}, {B}, 1000, 1000, 1000, 0, ref_scan_hillis},
    {"simd_divergent", K_INT, 1, {128}, {B}, 100, 100, 100, 0, NULL},
    {"simd_two_in_one", K_INT, 1, {128}, {B}, 100, 100, 100, 0, NULL},
};

static void fill(const run_case *c, uint32_t *w)
{
    for (size_t i = 0; i < c->nin; i++) {
        uint32_t h = (uint32_t)i * 2654435761u + 12345u;
        if (c->k == K_FLOAT) {
            float f = (float)((h >> 8) % 2001) / 1000.0f - 1.0f;
            memcpy(&w[i], &f, 4);
        } else if (c->k == K_UINT) {
            w[i] = h ^ (h >> 13);
        } else {
            w[i] = (uint32_t)((int)((h >> 8) % 201) - 100);
        }
    }
}

/* Runs c with the program built as `prog`; returns the output words (free() them). */
static uint32_t *run_one(gp_program *prog, const run_case *c, const uint32_t *in)
{
    gp_kernel *k = gpt_kernel_of(prog, c->kernel);
    gp_buffer *bi = gpt_upload(g_cpu, in, c->nin * 4), *bo = gpt_upload(g_cpu, NULL, c->nout * 4);
    uint32_t *out = calloc(c->nout, 4);
    GPT_CHECK(gp_buffer_write(bo, 0, out, c->nout * 4));
    gp_arg args[4] = {gp_arg_buffer(bo), gp_arg_buffer(bi), gp_arg_value(&c->n, 4),
                      gp_arg_shared(c->dyn_shared)};
    GPT_CHECK(gp_kernel_launch(NULL, k, c->dims, c->global, c->group, c->dyn_shared ? 4 : 3, args));
    GPT_CHECK(gp_buffer_read(bo, 0, out, c->nout * 4));
    gp_buffer_release(bi);
    gp_buffer_release(bo);
    gp_kernel_release(k);
    return out;
}

static void paths_written_kernels(void **state)
{
    (void)state;
    const char *root = getenv("GPUPORT_SOURCE_DIR");
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/tests/runtime/cpu/paths.gpk", root ? root : ".");
    size_t len;
    char *src = gp_read_file(path, 1 << 20, false, &len, err, sizeof err);
    if (!src) fail_msg("%s", err);
    int bad = 0;
    gp_program *loops = build_logged("paths.gpk", src, len, kWant, NWANT, &bad);
    assert_int_equal(bad, 0);
    /* the fibers: another define, so that the process's program cache builds it anew */
    setenv("GPUPORT_CPU_LOOPS", "0", 1);
    const char *defs[] = {"GP_PATHS_FIBERS=1"};
    gp_build_options o = {sizeof o, 0, "paths.gpk", defs, 1, 0};
    gp_program *fibers = NULL;
    GPT_CHECK(gp_program_create(g_cpu, src, len, &o, &fibers));
    setenv("GPUPORT_CPU_LOOPS", "1", 1);
    free(src);
    for (size_t i = 0; i < sizeof kRuns / sizeof *kRuns; i++) {
        const run_case *c = &kRuns[i];
        uint32_t *in = calloc(c->nin, 4);
        fill(c, in);
        uint32_t *a = run_one(loops, c, in), *b = run_one(fibers, c, in);
        size_t diff = 0;
        for (size_t j = 0; j < c->nout; j++)
            diff += a[j] != b[j];
        bool ok = !diff;
        if (diff)
            fprintf(stderr, "  FAIL %s: %zu words differ between the paths\n", c->kernel, diff);
        if (c->ref) {
            uint32_t *r = calloc(c->nout, 4);
            c->ref(in, r, c->n);
            bool match = c->k == K_FLOAT ? gpt_floats_match(c->kernel, (const float *)r,
                                                            (const float *)b, c->nout, 1e-10)
                                         : gpt_ints_match(c->kernel, (const int32_t *)r,
                                                          (const int32_t *)b, c->nout);
            if (!match) fprintf(stderr, "  FAIL %s: not the C reference\n", c->kernel);
            ok &= match;
            free(r);
        }
        if (ok)
            fprintf(stderr, "  ok   %s: the same on both paths%s\n", c->kernel,
                    c->ref ? ", and the reference's" : "");
        bad += !ok;
        free(in), free(a), free(b);
    }
    gp_program_release(loops);
    gp_program_release(fibers);
    assert_int_equal(bad, 0);
}

int main(void)
{
    /* read once per process: before anything asks for it */
    setenv("GPUPORT_LOG", "info", 1);
    unsetenv("GPUPORT_CHECK");
    if (gp_device_open("cpu", &g_cpu) != GP_OK) {
        fprintf(stderr, "cannot open the CPU device: %s\n", gp_last_error());
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paths_conformance_kernels),
        cmocka_unit_test(paths_written_kernels),
        cmocka_unit_test(paths_translated_corpus),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    gp_device_release(g_cpu);
    return rc;
}
