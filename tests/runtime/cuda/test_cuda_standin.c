/*
 * test_cuda_standin.c — the CUDA backend against the STAND-IN libcuda.so.1 of tests/standins/
 * (compiled by this test with the system C compiler; by default one H100-like device and a 13.0
 * driver, set through its GPUPORT_STANDIN_* variables), for what can run without an NVIDIA GPU: the
 * probe's outcome and message when the library is missing, the driver is too old (35), no device is
 * visible (100), cuInit fails otherwise, or kernels cannot be compiled; and the backend's calls
 * for buffers, copies, fills, builds and launches (the stand-in keeps "device" memory in host
 * memory and records launches; it runs no kernel). Each case runs in a child process, because
 * the driver is opened once per process.
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "runtime/cuda/embedded.h"
#include "runtime/cuda/loader.h"
#include "runtime/cuda/ops.h"
#include "gpuport/gpuport.h"
#include "util/spawn.h"

static char standin[4096];
static char workdir[256];

/* The stand-in's device unless a case says otherwise. */
#define GPU0 "gpuport stand-in GPU 0|9.0|81920|132|GPU-standin-0"

/* ---- running a case in a child ---------------------------------------------------------- */

typedef void (*child_fn)(FILE *out);

/* Runs fn in a child with `env` ("K=V", NULL-terminated) added; returns what it wrote. */
static char *run_child(const char *const *env, child_fn fn)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO); /* gpuport's log lines (GPUPORT_LOG) come back too */
        for (const char *const *e = env; e && *e; e++)
            putenv((char *)*e);
        FILE *out = fdopen(fds[1], "w");
        fn(out);
        fclose(out);
        exit(0); /* not _exit: LeakSanitizer checks the child too */
    }
    close(fds[1]);
    char *buf = calloc(1, 65536);
    size_t len = 0;
    ssize_t n;
    while (len < 65535 && (n = read(fds[0], buf + len, 65535 - len)) > 0)
        len += (size_t)n;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        /* freed before failing: a block left behind would be reported in every later child */
        print_error("the child died (status %d); it wrote:\n%s\n", status, buf);
        free(buf);
        fail();
    }
    return buf;
}

static void probe_child(FILE *out)
{
    gp_selection_entry e;
    gp_cuda_op_probe(&e);
    fprintf(out, "%d %d %u %s", e.outcome, e.code, e.device_count, e.detail);
}

typedef struct probe_result {
    int outcome, code;
    unsigned count;
    char detail[600];
} probe_result;

static probe_result probe_with(const char *const *env)
{
    char *text = run_child(env, probe_child);
    probe_result r;
    memset(&r, 0, sizeof r);
    int used = 0;
    assert_int_equal(sscanf(text, "%d %d %u %n", &r.outcome, &r.code, &r.count, &used), 3);
    snprintf(r.detail, sizeof r.detail, "%s", text + used);
    printf("probe: outcome %d code %d devices %u: %s\n", r.outcome, r.code, r.count, r.detail);
    free(text);
    return r;
}

/* Whether an NVRTC can be opened, asked without touching the process-wide loader state, which
 * the children must find fresh. */
static int have_nvrtc(void)
{
    /* Kept open once found: NVRTC allocates when loaded, and unloading it would leak that. */
    static gp_cuda_nvrtc kept;
    static int found = -1;
    if (found >= 0) return found;
    char **c = gp_cuda_nvrtc_candidates(true);
    found = 0;
    for (char **p = c; p && *p && !found; p++) {
        char why[512];
        if (gp_cuda_nvrtc_open(*p, &kept, why, sizeof why) == GP_OK) found = 1;
    }
    gp_cuda_paths_free(c);
    return found;
}

/* putenv keeps the pointer: the strings live for the whole test. */
static char lib_env[4200];

/* ---- the probe ----------------------------------------------------------------------------- */

static void test_library_not_found(void **state)
{
    (void)state;
    const char *env[] = {"GPUPORT_CUDA_LIBRARY=/nonexistent/libcuda.so.1", NULL};
    probe_result r = probe_with(env);
    assert_int_equal(r.outcome, GP_SELECT_LIBRARY_NOT_FOUND);
    assert_int_equal(r.count, 0);
    assert_non_null(strstr(r.detail, "/nonexistent/libcuda.so.1"));
    assert_non_null(strstr(r.detail, "install the NVIDIA driver"));
}

static void test_available(void **state)
{
    (void)state;
    const char *env[] = {
        lib_env, "GPUPORT_STANDIN_GPUS=" GPU0 ";gpuport stand-in GPU 1|9.0|81920|132|GPU-standin-1",
        NULL};
    probe_result r = probe_with(env);
    if (!have_nvrtc() && gp_cuda_embedded_count() == 0) {
        assert_int_equal(r.outcome, GP_SELECT_LIBRARY_NOT_FOUND);
        return;
    }
    assert_int_equal(r.outcome, GP_SELECT_AVAILABLE);
    assert_int_equal(r.count, 2);
    assert_non_null(strstr(r.detail, "CUDA 13.0 driver"));
    assert_non_null(strstr(r.detail, "2 device(s)"));
}

static void test_driver_too_old(void **state)
{
    (void)state;
    const char *env[] = {lib_env, "GPUPORT_STANDIN_CUINIT=35", "GPUPORT_STANDIN_CUDA_VERSION=11040",
                         NULL};
    probe_result r = probe_with(env);
    assert_int_equal(r.outcome, GP_SELECT_INIT_ERROR);
    assert_int_equal(r.code, 35);
    assert_non_null(strstr(r.detail, "CUDA_ERROR_INSUFFICIENT_DRIVER (35)"));
    assert_non_null(strstr(r.detail, "CUDA 11.4"));
    assert_non_null(strstr(r.detail, "Update the NVIDIA driver"));
    /* With a compiler here, the message names the version its code needs and that driver. */
    if (have_nvrtc()) assert_non_null(strstr(r.detail, "or newer"));
}

static void test_driver_older_than_compiler(void **state)
{
    (void)state;
    if (!have_nvrtc()) {
        printf("no NVRTC here: the driver/compiler version check is not exercised\n");
        return;
    }
    /* A CUDA 11.8 driver; the NVRTC here is newer (13 in CI): its code would not load. */
    const char *env[] = {lib_env, "GPUPORT_STANDIN_CUDA_VERSION=11080", NULL};
    probe_result r = probe_with(env);
    assert_int_equal(r.outcome, GP_SELECT_INIT_ERROR);
    assert_int_equal(r.code, 35);
    assert_non_null(strstr(r.detail, "CUDA 11.8"));
    assert_non_null(strstr(r.detail, "Update the NVIDIA driver"));
    assert_non_null(strstr(r.detail, "nvidia-cuda-nvrtc-cu11"));
}

static void test_no_device(void **state)
{
    (void)state;
    const char *env[] = {lib_env, "GPUPORT_STANDIN_GPUS=", "CUDA_VISIBLE_DEVICES=", NULL};
    probe_result r = probe_with(env);
    assert_int_equal(r.outcome, GP_SELECT_NO_DEVICE);
    assert_int_equal(r.code, 100);
    assert_non_null(strstr(r.detail, "CUDA_ERROR_NO_DEVICE (100)"));
    assert_non_null(strstr(r.detail, "CUDA_VISIBLE_DEVICES"));
}

static void test_init_failure(void **state)
{
    (void)state;
    const char *env[] = {lib_env, "GPUPORT_STANDIN_CUINIT=803", NULL};
    probe_result r = probe_with(env);
    assert_int_equal(r.outcome, GP_SELECT_INIT_ERROR);
    assert_int_equal(r.code, 803);
    assert_non_null(strstr(r.detail, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)"));
    assert_non_null(strstr(r.detail, "reboot"));
    const char *env804[] = {lib_env, "GPUPORT_STANDIN_CUINIT=804", NULL};
    r = probe_with(env804);
    assert_int_equal(r.code, 804);
    assert_non_null(strstr(r.detail, "cuda-compat"));
}

static void test_no_compiler_and_no_ptx(void **state)
{
    (void)state;
    const char *env[] = {lib_env, "GPUPORT_NVRTC_LIBRARY=/nonexistent/libnvrtc.so.13", NULL};
    probe_result r = probe_with(env);
    if (gp_cuda_embedded_count() > 0) {
        /* Built with nvcc: the built-in kernels still run. */
        assert_int_equal(r.outcome, GP_SELECT_AVAILABLE);
        assert_non_null(strstr(r.detail, "precompiled to PTX"));
    } else {
        assert_int_equal(r.outcome, GP_SELECT_LIBRARY_NOT_FOUND);
        assert_non_null(strstr(r.detail, "no way to compile kernels"));
        assert_non_null(strstr(r.detail, "nvidia-cuda-nvrtc-cu12"));
    }
}

/* ---- the backend's calls through the stand-in --------------------------------------------- */

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(out, "FAIL line %d: %s (%s)\n", __LINE__, #cond, gp_last_error());             \
            return;                                                                                \
        }                                                                                          \
    } while (0)

extern const char gp_prelude_text[];

static void ops_child(FILE *out)
{
    gp_device_state dev;
    memset(&dev, 0, sizeof dev);
    CHECK(gp_cuda_op_device_info(0, &dev.info) == GP_OK);
    CHECK(strcmp(dev.info.arch, "sm_90") == 0 && dev.info.max_group_size == 1024);
    CHECK(strcmp(dev.info.spec, "cuda:0") == 0);
    /* the hardware as the driver reports it (the stand-in's H200 attributes) */
    CHECK(dev.info.clock_mhz == 1980 && dev.info.memory_clock_mhz == 2619);
    CHECK(dev.info.memory_bus_width == 6144 && dev.info.l2_cache_kib == 50 * 1024);
    CHECK(dev.info.pci_bus_id == (0x3bu << 8) && dev.info.compute_units == 132);
    CHECK(dev.info.simd_group_width == 32);
    CHECK(gp_cuda_op_device_open(&dev) == GP_OK);
    gp_queue q = {.dev = &dev};
    CHECK(gp_cuda_op_queue_create(&q) == GP_OK);

    /* Write, fill with every pattern width, copy, read back. */
    gp_buffer a = {.dev = &dev, .kind = GP_BUFFER_DEVICE, .size = 256};
    gp_buffer p = {.dev = &dev, .kind = GP_BUFFER_PINNED, .size = 256};
    CHECK(gp_cuda_op_buffer_create(&a) == GP_OK && gp_cuda_op_buffer_create(&p) == GP_OK);
    unsigned char src[256], got[256], want[256];
    for (int i = 0; i < 256; i++)
        src[i] = (unsigned char)i;
    CHECK(gp_cuda_op_buffer_write(&q, &a, 0, src, 256, true) == GP_OK);
    memcpy(want, src, 256);
    const unsigned char pat[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    size_t widths[] = {1, 2, 4, 8, 16};
    for (size_t w = 0; w < 5; w++) {
        size_t off = 32 + 32 * w, n = 32;
        CHECK(gp_cuda_op_buffer_fill(&q, &a, off, pat, widths[w], n, false) == GP_OK);
        for (size_t i = 0; i < n; i++)
            want[off + i] = pat[i % widths[w]];
    }
    CHECK(gp_cuda_op_queue_finish(&q) == GP_OK);
    CHECK(gp_cuda_op_buffer_copy(&q, &p, 0, &a, 0, 256, true) == GP_OK);
    void *mapped = NULL;
    CHECK(gp_cuda_op_buffer_map(&p, &mapped) == GP_OK && mapped == p.host_ptr);
    CHECK(memcmp(mapped, want, 256) == 0);
    CHECK(gp_cuda_op_buffer_read(&q, &a, 16, got, 64, true) == GP_OK);
    CHECK(memcmp(got, want + 16, 64) == 0);
    fprintf(out, "ok buffers\n");

    /* Events measure time between two points of a queue. */
    gp_event e0 = {.dev = &dev}, e1 = {.dev = &dev};
    CHECK(gp_cuda_op_event_record(&q, &e0) == GP_OK);
    usleep(2000);
    CHECK(gp_cuda_op_event_record(&q, &e1) == GP_OK);
    double ms = -1;
    CHECK(gp_cuda_op_event_elapsed_ms(&e0, &e1, &ms) == GP_OK && ms >= 1.0);
    gp_cuda_op_event_release(&e0);
    gp_cuda_op_event_release(&e1);
    fprintf(out, "ok events\n");

    /* A real NVRTC build of a dialect kernel, loaded and launched with its argument layout. */
    const gp_cuda_nvrtc *nv;
    if (gp_cuda_nvrtc_get(&nv) == GP_OK) {
        const char *user = "GP_KERNEL(scale, GP_BUF(float, y), GP_VAL(float, a), GP_VAL(int, n),\n"
                           "          GP_DYN_SHARED(float, tmp))\n"
                           "{\n    int i = gp_global_id(0);\n    if (i < n) y[i] *= a;\n}\n";
        /* sized from the prelude: a fixed buffer would cut the prelude as it grows */
        size_t cap = strlen(gp_prelude_text) + strlen(user) + 64;
        char *text = malloc(cap);
        CHECK(text != NULL);
        snprintf(text, cap, "#line 1 \"gpuport/kernel.h\"\n%s\n#line 1 \"s.gpk\"\n%s",
                 gp_prelude_text, user);
        gp_kernel_sig sig = {.name = "scale", .num_args = 4};
        gp_build_request req = {.source = text,
                                .source_len = strlen(text),
                                .source_name = "s.gpk",
                                .kernels = &sig,
                                .num_kernels = 1};
        gp_program prog = {.dev = &dev};
        CHECK(gp_cuda_op_program_build(&prog, &req) == GP_OK);
        gp_kernel k = {.program = &prog, .sig = &sig};
        CHECK(gp_cuda_op_kernel_create(&k) == GP_OK && k.max_group_size == 1024);
        float av = 2.5f;
        int nv_ = 1000;
        gp_arg args[4] = {gp_arg_buffer(&a), gp_arg_value(&av, 4), gp_arg_value(&nv_, 4),
                          gp_arg_shared(512)};
        gp_launch l = {.dims = 1,
                       .group = {128, 1, 1},
                       .num_groups = {8, 1, 1},
                       .num_args = 4,
                       .args = args,
                       .dyn_shared_bytes = 512};
        CHECK(gp_cuda_op_kernel_launch(&q, &k, &l) == GP_OK);
        void *h = dlopen(standin, RTLD_NOW | RTLD_NOLOAD);
        CHECK(h != NULL);
        int (*last)(unsigned *) = (int (*)(unsigned *))dlsym(h, "gp_standin_cuda_last_launch");
        const void *(*param)(int) = (const void *(*)(int))dlsym(h, "gp_standin_cuda_last_param");
        CHECK(last && param);
        unsigned grid[7];
        CHECK(last(grid) == 1);
        CHECK(grid[0] == 8 && grid[1] == 1 && grid[2] == 1 && grid[3] == 128 && grid[4] == 1 &&
              grid[5] == 1 && grid[6] == 512);
        CUdeviceptr y;
        memcpy(&y, param(0), sizeof y);
        CHECK(y == (CUdeviceptr)(uintptr_t)a.impl);
        CHECK(memcmp(param(1), &av, 4) == 0 && memcmp(param(2), &nv_, 4) == 0);
        unsigned dyn;
        memcpy(&dyn, param(3), 4);
        CHECK(dyn == 512);
        dlclose(h);
        gp_cuda_op_kernel_release(&k);
        gp_cuda_op_program_release(&prog);
        free(text);
        fprintf(out, "ok launch\n");
    } else {
        fprintf(out, "no NVRTC: build and launch not exercised\n");
    }
    gp_cuda_op_buffer_release(&a);
    gp_cuda_op_buffer_release(&p);
    gp_cuda_op_queue_release(&q);
    gp_cuda_op_device_close(&dev);
    fprintf(out, "ALL OK\n");
}

static void test_backend_calls(void **state)
{
    (void)state;
    const char *env[] = {lib_env, NULL};
    char *text = run_child(env, ops_child);
    printf("%s", text);
    assert_non_null(strstr(text, "ok buffers"));
    assert_non_null(strstr(text, "ok events"));
    assert_non_null(strstr(text, "ALL OK"));
    free(text);
}

/* ---- through the public API: `auto` and its record ------------------------------------------ */

static void auto_child(FILE *out)
{
    gp_device *dev = NULL;
    gp_status st = gp_device_open("auto", &dev);
    if (st != GP_OK) {
        fprintf(out, "open failed: %s\n", gp_last_error());
        return;
    }
    gp_selection_entry e[GP_BACKEND_COUNT];
    uint32_t n = 0;
    gp_device_selection(dev, e, GP_BACKEND_COUNT, &n);
    for (uint32_t i = 0; i < n; i++)
        fprintf(out, "%s %d %d %s\n", gp_backend_name((gp_backend)e[i].backend), e[i].outcome,
                e[i].code, e[i].detail);
    gp_device_release(dev);
    /* Asked for by name, CUDA never falls back: the error carries the reason. */
    st = gp_device_open("cuda", &dev);
    fprintf(out, "cuda-by-name %d %s\n", st, st == GP_OK ? "" : gp_last_error());
    if (st == GP_OK) gp_device_release(dev);
}

/* The record's line for `backend`: outcome and code, detail in *detail. */
static int record_line(const char *text, const char *backend, int *outcome, int *code,
                       const char **detail)
{
    char key[32];
    snprintf(key, sizeof key, "\n%s ", backend);
    char *whole = NULL;
    if (asprintf(&whole, "\n%s", text) < 0) return 0;
    const char *p = strstr(whole, key);
    int ok = p && sscanf(p + strlen(key), "%d %d", outcome, code) == 2;
    if (ok && detail) *detail = text + (p - whole) + strlen(key) - 1;
    free(whole);
    return ok;
}

static void test_auto_falls_back_with_reason(void **state)
{
    (void)state;
    const char *env[] = {lib_env, "GPUPORT_STANDIN_CUINIT=35", "GPUPORT_STANDIN_CUDA_VERSION=11040",
                         "GPUPORT_DEVICE=", NULL};
    char *text = run_child(env, auto_child);
    printf("%s", text);
    int outcome = -1, code = -1;
    const char *detail = NULL;
    assert_true(record_line(text, "cuda", &outcome, &code, &detail));
    assert_int_equal(outcome, GP_SELECT_INIT_ERROR);
    assert_int_equal(code, 35);
    assert_non_null(strstr(detail, "CUDA_ERROR_INSUFFICIENT_DRIVER (35)"));
    /* A later backend (Metal on a Mac, OpenCL, or the CPU) took over, and says so. */
    int mtl = -1, ocl = -1, cpu = -1, c2 = 0;
    record_line(text, "metal", &mtl, &c2, NULL);
    record_line(text, "opencl", &ocl, &c2, NULL);
    assert_true(record_line(text, "cpu", &cpu, &c2, NULL));
    assert_true(mtl == GP_SELECT_CHOSEN || ocl == GP_SELECT_CHOSEN || cpu == GP_SELECT_CHOSEN);
    assert_non_null(strstr(text, "cuda-by-name -"));
    assert_non_null(strstr(strstr(text, "cuda-by-name"), "INSUFFICIENT_DRIVER"));
    free(text);

    const char *env_missing[] = {"GPUPORT_CUDA_LIBRARY=/nonexistent/libcuda.so.1",
                                 "GPUPORT_DEVICE=", NULL};
    text = run_child(env_missing, auto_child);
    assert_true(record_line(text, "cuda", &outcome, &code, &detail));
    assert_int_equal(outcome, GP_SELECT_LIBRARY_NOT_FOUND);
    assert_non_null(strstr(detail, "/nonexistent/libcuda.so.1"));
    free(text);

    const char *env_none[] = {lib_env, "GPUPORT_STANDIN_GPUS=", "GPUPORT_DEVICE=", NULL};
    text = run_child(env_none, auto_child);
    assert_true(record_line(text, "cuda", &outcome, &code, &detail));
    assert_int_equal(outcome, GP_SELECT_NO_DEVICE);
    assert_int_equal(code, 100);
    free(text);
}

static void public_api_child(FILE *out)
{
    gp_device *dev = NULL;
    if (gp_device_open("auto", &dev) != GP_OK) {
        fprintf(out, "open failed: %s\n", gp_last_error());
        return;
    }
    gp_device_info info;
    gp_device_get_info(dev, &info);
    fprintf(out, "chosen %s %s\n", gp_backend_name((gp_backend)info.backend), info.name);
    gp_buffer *y = NULL;
    float host[300], back[300];
    for (int i = 0; i < 300; i++)
        host[i] = (float)i;
    if (gp_buffer_create(dev, GP_BUFFER_DEVICE, sizeof host, &y) != GP_OK ||
        gp_buffer_write(y, 0, host, sizeof host) != GP_OK ||
        gp_buffer_read(y, 0, back, sizeof back) != GP_OK || memcmp(host, back, sizeof host) != 0) {
        fprintf(out, "buffer round trip failed: %s\n", gp_last_error());
        return;
    }
    fprintf(out, "ok buffer\n");
    gp_program *prog = NULL;
    if (gp_program_create_builtin(dev, "basic", &prog) != GP_OK) {
        fprintf(out, "builtin failed: %s\n", gp_last_error());
        return;
    }
    gp_kernel *k = NULL;
    if (gp_kernel_create(prog, "gp_saxpy", &k) != GP_OK) {
        fprintf(out, "kernel failed: %s\n", gp_last_error());
        return;
    }
    float a = 3.0f;
    int n = 300;
    gp_arg args[] = {gp_arg_buffer(y), gp_arg_buffer(y), gp_arg_value(&a, sizeof a),
                     gp_arg_value(&n, sizeof n)};
    size_t global = 300, group = 64;
    gp_status st = gp_kernel_launch(NULL, k, 1, &global, &group, 4, args);
    fprintf(out, "launch %d %s\n", st, st == GP_OK ? "" : gp_last_error());
    /* A wrong argument is refused before the driver sees it. */
    st = gp_kernel_launch(NULL, k, 1, &global, &group, 3, args);
    fprintf(out, "bad-launch %d\n", st);
    gp_kernel_release(k);
    gp_program_release(prog);
    gp_buffer_release(y);
    gp_device_release(dev);
    fprintf(out, "ALL OK\n");
}

static void test_public_api_reaches_the_driver(void **state)
{
    (void)state;
    if (!have_nvrtc()) {
        printf("no NVRTC here: the build through the public API is not exercised\n");
        return;
    }
    const char *env[] = {lib_env, "GPUPORT_DEVICE=", "GPUPORT_CACHE_DIR=/nonexistent-cache/x",
                         NULL};
    char *text = run_child(env, public_api_child);
    printf("%s", text);
    assert_non_null(strstr(text, "chosen cuda gpuport stand-in GPU 0"));
    assert_non_null(strstr(text, "ok buffer"));
    assert_non_null(strstr(text, "launch 0"));
    assert_non_null(strstr(text, "bad-launch -1"));
    assert_non_null(strstr(text, "ALL OK"));
    free(text);
}

/* Memory and streams of another library (what PyTorch and CuPy hand over): a device pointer used
 * in place, at an offset; a stream of theirs that launches go on and that waits for gpuport's. */
static void foreign_child(FILE *out)
{
    gp_device *dev = NULL;
    CHECK(gp_device_open("cuda", &dev) == GP_OK);
    void *h = dlopen(standin, RTLD_NOW | RTLD_NOLOAD);
    CHECK(h != NULL);
    CUresult (*stream_create)(void **, unsigned) =
        (CUresult(*)(void **, unsigned))dlsym(h, "cuStreamCreate");
    CUresult (*stream_destroy)(void *) = (CUresult(*)(void *))dlsym(h, "cuStreamDestroy_v2");
    CUresult (*mem_alloc)(CUdeviceptr *, size_t) =
        (CUresult(*)(CUdeviceptr *, size_t))dlsym(h, "cuMemAlloc_v2");
    CUresult (*mem_free)(CUdeviceptr) = (CUresult(*)(CUdeviceptr))dlsym(h, "cuMemFree_v2");
    void (*stream_log)(void **) = (void (*)(void **))dlsym(h, "gp_standin_cuda_stream_log");
    CHECK(stream_create && stream_destroy && mem_alloc && mem_free && stream_log);

    CUdeviceptr theirs = 0; /* the other library's allocation */
    CHECK(mem_alloc(&theirs, 4096) == 0);
    gp_buffer *w = NULL;
    CHECK(gp_buffer_wrap(dev, GP_MEMORY_NATIVE, (void *)(uintptr_t)theirs, 256, 1024, &w) == GP_OK);
    gp_buffer_kind kind;
    CHECK(gp_buffer_kind_of(w, &kind) == GP_OK && kind == GP_BUFFER_DEVICE);
    void *native = NULL, *host = (void *)1;
    size_t off = 1;
    CHECK(gp_buffer_native(w, &native, &off, &host) == GP_OK);
    CHECK((CUdeviceptr)(uintptr_t)native == theirs + 256 && off == 0 && host == NULL);
    /* copies reach it: the stand-in's device memory is host memory, so the bytes can be checked */
    unsigned char bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(gp_buffer_write(w, 8, bytes, 8) == GP_OK);
    CHECK(memcmp((unsigned char *)(uintptr_t)theirs + 264, bytes, 8) == 0);
    int host_mem[4];
    gp_buffer *refused = NULL;
    CHECK(gp_buffer_wrap(dev, GP_MEMORY_HOST, host_mem, 0, sizeof host_mem, &refused) ==
          GP_ERR_UNSUPPORTED);
    CHECK(strstr(gp_last_error(), "copy the data") != NULL);
    fprintf(out, "ok wrap\n");

    void *their_stream = NULL;
    CHECK(stream_create(&their_stream, 0) == 0);
    gp_queue *q = NULL;
    CHECK(gp_queue_wrap(dev, their_stream, &q) == GP_OK);
    void *got = NULL;
    CHECK(gp_queue_native(q, &got) == GP_OK && got == their_stream);
    gp_queue *def = NULL;
    CHECK(gp_device_queue(dev, &def) == GP_OK);
    CHECK(gp_queue_native(def, &got) == GP_OK && got != their_stream);
    void *log[5];
    if (have_nvrtc()) {
        gp_program *prog = NULL;
        gp_kernel *k = NULL;
        CHECK(gp_program_create_builtin(dev, "basic", &prog) == GP_OK);
        CHECK(gp_kernel_create(prog, "gp_saxpy", &k) == GP_OK);
        float a = 2.0f;
        int n = 256;
        gp_arg args[] = {gp_arg_buffer(w), gp_arg_buffer(w), gp_arg_value(&a, sizeof a),
                         gp_arg_value(&n, sizeof n)};
        size_t global = 256;
        CHECK(gp_kernel_launch(q, k, 1, &global, NULL, 4, args) == GP_OK);
        stream_log(log);
        const void *(*param)(int) = (const void *(*)(int))dlsym(h, "gp_standin_cuda_last_param");
        CUdeviceptr p0;
        memcpy(&p0, param(0), sizeof p0);
        CHECK(log[0] == their_stream && p0 == theirs + 256);
        gp_kernel_release(k);
        gp_program_release(prog);
        fprintf(out, "ok launch on their stream\n");
    }
    /* Their stream waits for gpuport's default queue: an event there, a wait on theirs. */
    gp_event *e = NULL;
    CHECK(gp_event_record(def, &e) == GP_OK);
    CHECK(gp_queue_wait_event(q, e) == GP_OK);
    stream_log(log);
    CHECK(log[3] == their_stream && log[4] == log[1] && log[2] == got);
    CHECK(gp_queue_finish(q) == GP_OK);
    gp_event_release(e);
    /* The legacy and per-thread default streams are handles of the driver's own. */
    gp_queue *legacy = NULL;
    CHECK(gp_queue_wrap(dev, (void *)1, &legacy) == GP_OK);
    CHECK(gp_queue_native(legacy, &got) == GP_OK && got == (void *)1);
    CHECK(gp_queue_release(legacy) == GP_OK);
    /* Released, gpuport's handles leave the other library's stream and memory alone (a second
     * destroy or free below would be a double free). */
    CHECK(gp_queue_release(q) == GP_OK);
    CHECK(gp_buffer_release(w) == GP_OK);
    CHECK(stream_destroy(their_stream) == 0);
    CHECK(mem_free(theirs) == 0);
    dlclose(h);
    gp_device_release(dev);
    fprintf(out, "ALL OK\n");
}

static void test_foreign_memory_and_streams(void **state)
{
    (void)state;
    if (!have_nvrtc() && gp_cuda_embedded_count() == 0) {
        printf("no NVRTC and no PTX here: the CUDA device cannot be opened\n");
        return;
    }
    const char *env[] = {lib_env, NULL};
    char *text = run_child(env, foreign_child);
    printf("%s", text);
    assert_non_null(strstr(text, "ok wrap"));
    if (have_nvrtc()) assert_non_null(strstr(text, "ok launch on their stream"));
    assert_non_null(strstr(text, "ALL OK"));
    free(text);
}

static void no_nvrtc_child(FILE *out)
{
    gp_device *dev = NULL;
    if (gp_device_open("cuda", &dev) != GP_OK) {
        fprintf(out, "open failed: %s\n", gp_last_error());
        return;
    }
    gp_program *prog = NULL;
    gp_status st = gp_program_create_builtin(dev, "basic", &prog);
    fprintf(out, "builtin %d %s\n", st, st == GP_OK ? "" : gp_last_error());
    gp_kernel *k = NULL;
    if (st == GP_OK) {
        st = gp_kernel_create(prog, "gp_copy_f32", &k);
        fprintf(out, "kernel %d\n", st);
        gp_kernel_release(k);
        gp_program_release(prog);
    }
    const char *src = "GP_KERNEL(mine, GP_BUF(float, y)) { y[0] = 1.0f; }\n";
    st = gp_program_create(dev, src, strlen(src), NULL, &prog);
    fprintf(out, "source %d %s\n", st, st == GP_OK ? "" : gp_last_error());
    gp_device_release(dev);
}

static void test_without_nvrtc(void **state)
{
    (void)state;
    const char *env[] = {lib_env, "GPUPORT_NVRTC_LIBRARY=/nonexistent/libnvrtc.so.13",
                         "GPUPORT_CACHE_DIR=/nonexistent-cache/x", NULL};
    char *text = run_child(env, no_nvrtc_child);
    printf("%s", text);
    if (gp_cuda_embedded_count() == 0) {
        /* Nothing to run kernels with: CUDA is not even offered. */
        assert_non_null(strstr(text, "open failed"));
        assert_non_null(strstr(text, "no way to compile kernels"));
    } else {
        /* The built-in programs come from the embedded PTX; source needs NVRTC. */
        assert_non_null(strstr(text, "builtin 0"));
        assert_non_null(strstr(text, "kernel 0"));
        assert_non_null(strstr(text, "source -3"));
        assert_non_null(strstr(text, "need NVRTC"));
    }
    free(text);
}

static void builtin_child(FILE *out)
{
    gp_device *dev = NULL;
    gp_program *prog = NULL;
    gp_status st = gp_device_open("cuda", &dev);
    if (st == GP_OK) st = gp_program_create_builtin(dev, "basic", &prog);
    fflush(stderr);
    fprintf(out, "builtin %d %s\n", st, st == GP_OK ? "" : gp_last_error());
    gp_program_release(prog);
    gp_device_release(dev);
}

/* The cubins in the cache folder. */
static int count_cubins(const char *dir)
{
    char pattern[600];
    snprintf(pattern, sizeof pattern, "%s/*.cubin", dir);
    glob_t g;
    int n = glob(pattern, 0, NULL, &g) == 0 ? (int)g.gl_pathc : 0;
    globfree(&g);
    return n;
}

static void test_kernel_cache(void **state)
{
    (void)state;
    if (!have_nvrtc()) {
        printf("no NVRTC here: the kernel cache of CUDA builds is not exercised\n");
        return;
    }
    static char cache_env[600];
    char dir[400];
    snprintf(dir, sizeof dir, "%s/cache", workdir);
    snprintf(cache_env, sizeof cache_env, "GPUPORT_CACHE_DIR=%s", dir);
    /* A first process compiles and stores the cubin (the stand-in device is sm_90). */
    const char *env1[] = {lib_env, cache_env, "GPUPORT_LOG=info", NULL};
    char *text = run_child(env1, builtin_child);
    assert_non_null(strstr(text, "builtin 0"));
    free(text);
    assert_int_equal(count_cubins(dir), 1);
    /* A second one finds it; the driver refuses it: it is discarded, rebuilt and stored. */
    const char *env2[] = {lib_env, cache_env, "GPUPORT_LOG=info",
                          "GPUPORT_STANDIN_REJECT_FIRST_MODULE=1", NULL};
    text = run_child(env2, builtin_child);
    printf("%s", text);
    assert_non_null(strstr(text, "the cached cubin for basic.gpk was refused; rebuilding"));
    assert_non_null(strstr(text, "builtin 0"));
    free(text);
    assert_int_equal(count_cubins(dir), 1);
    /* Without the refusal, a hit: no rebuild is reported. */
    text = run_child(env1, builtin_child);
    assert_null(strstr(text, "rebuilding"));
    assert_non_null(strstr(text, "builtin 0"));
    free(text);
}

/* ---- setup: compile the stand-in ---------------------------------------------------------- */

static int build_standin(void)
{
    const char *root = getenv("GPUPORT_SOURCE_DIR");
    if (!root) return -1;
    snprintf(workdir, sizeof workdir, "/tmp/gp-cuda-standin-XXXXXX");
    if (!mkdtemp(workdir)) return -1;
    snprintf(standin, sizeof standin, "%s/libcuda.so.1", workdir);
    char src[4096];
    char inc[4096];
    snprintf(src, sizeof src, "%s/tests/standins/libcuda_standin.c", root);
    snprintf(inc, sizeof inc, "-I%s/tests/standins", root);
    const char *cc = getenv("CC");
    char *argv[] = {
        (char *)(cc && *cc ? cc : "cc"), "-shared", "-fPIC", "-O1", inc, "-o", standin, src, NULL};
    gp_spawn_result res;
    char err[256];
    if (gp_spawn_capture(argv, NULL, 60, 1 << 16, &res, err, sizeof err) != 0) {
        printf("SKIP: no C compiler to build the stand-in libcuda.so.1: %s\n", err);
        return 77;
    }
    int ok = res.exit_code == 0;
    if (!ok) printf("building the stand-in failed:\n%s\n", res.err ? res.err : "");
    gp_spawn_result_free(&res);
    return ok ? 0 : -1;
}

int main(void)
{
    int st = build_standin();
    if (st == 77) return 77;
    if (st != 0) return 1;
    snprintf(lib_env, sizeof lib_env, "GPUPORT_CUDA_LIBRARY=%s", standin);
    /* the stand-in's defaults for every case; a case's own variables override them */
    setenv("GPUPORT_STANDIN_GPUS", GPU0, 1);
    setenv("GPUPORT_STANDIN_CUDA_VERSION", "13000", 1);
    unsetenv("GPUPORT_STANDIN_CUINIT");
    unsetenv("GPUPORT_STANDIN_REJECT_FIRST_MODULE");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_library_not_found),
        cmocka_unit_test(test_available),
        cmocka_unit_test(test_driver_too_old),
        cmocka_unit_test(test_driver_older_than_compiler),
        cmocka_unit_test(test_no_device),
        cmocka_unit_test(test_init_failure),
        cmocka_unit_test(test_no_compiler_and_no_ptx),
        cmocka_unit_test(test_backend_calls),
        cmocka_unit_test(test_auto_falls_back_with_reason),
        cmocka_unit_test(test_public_api_reaches_the_driver),
        cmocka_unit_test(test_foreign_memory_and_streams),
        cmocka_unit_test(test_without_nvrtc),
        cmocka_unit_test(test_kernel_cache),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char *rm[] = {"rm", "-rf", workdir, NULL};
    gp_spawn_result res;
    char err[256];
    if (gp_spawn_capture(rm, NULL, 30, 4096, &res, err, sizeof err) == 0)
        gp_spawn_result_free(&res);
    return rc;
}
