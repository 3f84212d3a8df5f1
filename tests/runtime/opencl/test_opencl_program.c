/*
 * test_opencl_program.c — program builds on PoCL: a prelude before the user's source does not
 * shift the user's lines in the build log; binaries round-trip and a corrupt one is refused
 * (so the caller rebuilds); CL_KERNEL_WORK_GROUP_SIZE is read per kernel; profiling queues
 * time a real kernel; the build-log mapper handles the shapes drivers print and hostile text;
 * what the driver's compiler prints on stderr during a failed build (PoCL: "1 error
 * generated.") stays out of the process's stderr, the log being in the message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/opencl/device.h"
#include "runtime/opencl/loader.h"
#include "runtime/opencl/program.h"
#include "runtime/opencl/queue.h"
#include "skip.h"

typedef struct gp_test_cl {
    const gp_cl_api *api;
    gp_cl_device_info *devs;
    size_t ndev;
    cl_context ctx;
    cl_device_id dev;
} gp_test_cl;

static int gp_test_setup(void **state)
{
    static gp_test_cl t;
    char why[2048];
    memset(&t, 0, sizeof t);
    *state = &t;
    t.api = gp_cl_api_get(why, sizeof why);
    if (!t.api) {
        print_message("OpenCL not available: %s\n", why);
        return 0;
    }
    if (gp_cl_devices_enumerate(t.api, &t.devs, &t.ndev, why, sizeof why, NULL) != GP_CL_ENUM_OK) {
        print_message("no OpenCL device: %s\n", why);
        t.api = NULL;
        return 0;
    }
    t.dev = t.devs[0].device;
    cl_int err;
    t.ctx = t.api->clCreateContext(NULL, 1, &t.dev, NULL, NULL, &err);
    return t.ctx ? 0 : -1;
}

static int gp_test_teardown(void **state)
{
    gp_test_cl *t = *state;
    if (t->ctx) t->api->clReleaseContext(t->ctx);
    free(t->devs);
    return 0;
}

#define GP_TEST_NEED_CL(t)                                                                         \
    gp_test_cl *t = *state;                                                                        \
    if (!t->api) GP_TEST_SKIP("no OpenCL loader or device on this machine");

/* A prelude of several lines, as the dialect's is. */
static const char gp_test_prelude[] = "#define GP_TEST_ONE 1\n"
                                      "#define GP_TEST_TWO 2\n"
                                      "/* a comment line */\n"
                                      "#define GP_TEST_ADD(a, b) ((a) + (b))\n";

static const char gp_test_good[] = "__kernel void add_one(__global int *a, int n)\n"
                                   "{\n"
                                   "    int i = get_global_id(0);\n"
                                   "    if (i < n) a[i] = GP_TEST_ADD(a[i], GP_TEST_ONE);\n"
                                   "}\n"
                                   "__kernel void fill(__global int *a, int v)\n"
                                   "{\n"
                                   "    a[get_global_id(0)] = v;\n"
                                   "}\n";

static void test_compile_error_points_at_user_line(void **state)
{
    GP_TEST_NEED_CL(t);
    /* The undeclared name is on line 4 of the user's file. */
    static const char bad[] = "__kernel void broken(__global int *a)\n"
                              "{\n"
                              "    int i = get_global_id(0);\n"
                              "    a[i] = not_declared_anywhere;\n"
                              "}\n";
    cl_program p = (cl_program)1;
    gp_status st = gp_cl_program_build_source(t->api, t->ctx, t->dev, gp_test_prelude, bad,
                                              strlen(bad), "kernels/broken.gpk", NULL, &p);
    assert_int_equal(st, GP_ERR_BUILD);
    assert_null(p);
    const char *msg = gp_last_error();
    print_message("%s\n", msg);
    assert_non_null(strstr(msg, "kernels/broken.gpk: OpenCL build failed on"));
    assert_non_null(strstr(msg, "kernels/broken.gpk:4:"));
    assert_non_null(strstr(msg, "not_declared_anywhere"));
    assert_null(strstr(msg, "kcache")); /* no driver temp file names */
}

static void test_build_error_only_in_the_message(void **state)
{
#if defined(_WIN32)
    (void)state;
    GP_TEST_SKIP(
        "gpuport does not capture stderr on Windows (the OpenCL library writes through its "
        "own C runtime, out of reach): checked on POSIX");
#else
    GP_TEST_NEED_CL(t);
    static const char bad[] = "__kernel void broken(__global int *a)\n"
                              "{\n"
                              "    a[0] = also_not_declared;\n"
                              "}\n";
    /* the process's stderr into a file for the build, as a user's terminal would see it */
    char path[] = "/tmp/gp-cl-stderr-XXXXXX";
    int f = mkstemp(path);
    assert_true(f >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(f, 2);
    cl_program p = (cl_program)1;
    gp_status st = gp_cl_program_build_source(t->api, t->ctx, t->dev, NULL, bad, strlen(bad),
                                              "quiet.gpk", NULL, &p);
    fprintf(stderr, "after the build\n"); /* stderr works again, and still goes to the file */
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char said[4096];
    ssize_t n = pread(f, said, sizeof said - 1, 0);
    close(f);
    unlink(path);
    said[n > 0 ? n : 0] = '\0';
    assert_int_equal(st, GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "also_not_declared"));
    if (strcmp(said, "after the build\n") != 0) fail_msg("stderr during the build: [%s]", said);
#endif
}

static void test_error_in_macro_from_options(void **state)
{
    GP_TEST_NEED_CL(t);
    /* A macro passed as a build option reaches the source; a bad one fails with the user line. */
    static const char src[] = "__kernel void k(__global int *a)\n"
                              "{\n"
                              "    a[0] = GP_TEST_VALUE;\n"
                              "}\n";
    cl_program p = NULL;
    assert_int_equal(gp_cl_program_build_source(t->api, t->ctx, t->dev, NULL, src, strlen(src),
                                                "m.gpk", "-DGP_TEST_VALUE=7", &p),
                     GP_OK);
    t->api->clReleaseProgram(p);
    assert_int_equal(gp_cl_program_build_source(t->api, t->ctx, t->dev, NULL, src, strlen(src),
                                                "m.gpk", NULL, &p),
                     GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "m.gpk:3:"));
}

/* Runs add_one over n ints on `program` and checks the result. */
static void gp_test_run_add_one(gp_test_cl *t, cl_program program)
{
    const gp_cl_api *api = t->api;
    enum { N = 1000 };
    int host[N];
    for (int i = 0; i < N; i++)
        host[i] = i * 3;
    cl_int err;
    cl_kernel k = api->clCreateKernel(program, "add_one", &err);
    assert_non_null(k);
    cl_mem buf = api->clCreateBuffer(t->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host,
                                     host, &err);
    assert_non_null(buf);
    cl_command_queue q;
    bool profiling;
    assert_int_equal(gp_cl_queue_create(api, t->ctx, t->dev, &q, &profiling), GP_OK);
    int n = N;
    assert_int_equal(api->clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    assert_int_equal(api->clSetKernelArg(k, 1, sizeof n, &n), CL_SUCCESS);
    size_t global = 1024, local = 64;
    cl_event before, after;
    assert_int_equal(api->clEnqueueMarkerWithWaitList(q, 0, NULL, &before), CL_SUCCESS);
    assert_int_equal(api->clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(api->clEnqueueMarkerWithWaitList(q, 0, NULL, &after), CL_SUCCESS);
    int back[N];
    assert_int_equal(api->clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < N; i++)
        assert_int_equal(back[i], i * 3 + 1);
    if (profiling) {
        double ms = -1;
        assert_int_equal(gp_cl_event_elapsed_ms(api, before, after, &ms), GP_OK);
        assert_true(ms >= 0.0);
        double rev = 1;
        assert_int_equal(gp_cl_event_elapsed_ms(api, after, before, &rev), GP_OK);
        assert_true(rev <= 0.0);
    }
    api->clReleaseEvent(before);
    api->clReleaseEvent(after);
    api->clReleaseCommandQueue(q);
    api->clReleaseMemObject(buf);
    api->clReleaseKernel(k);
}

static void test_build_run_and_binary_round_trip(void **state)
{
    GP_TEST_NEED_CL(t);
    cl_program p = NULL;
    assert_int_equal(gp_cl_program_build_source(t->api, t->ctx, t->dev, gp_test_prelude,
                                                gp_test_good, strlen(gp_test_good), "good.gpk",
                                                NULL, &p),
                     GP_OK);
    gp_test_run_add_one(t, p);
    unsigned char *bin = NULL;
    size_t len = 0;
    assert_int_equal(gp_cl_program_binary(t->api, p, &bin, &len), GP_OK);
    assert_true(len > 16);
    t->api->clReleaseProgram(p);

    cl_program q = NULL;
    assert_int_equal(gp_cl_program_build_binary(t->api, t->ctx, t->dev, bin, len, NULL, &q), GP_OK);
    gp_test_run_add_one(t, q);
    t->api->clReleaseProgram(q);

    /* A damaged binary (as a corrupt cache file would be) is refused, never run. */
    memset(bin, 0x5a, len);
    q = (cl_program)1;
    assert_int_equal(gp_cl_program_build_binary(t->api, t->ctx, t->dev, bin, len, NULL, &q),
                     GP_ERR_BUILD);
    assert_null(q);
    /* and a truncated one as well */
    unsigned char tiny[3] = {1, 2, 3};
    assert_int_equal(
        gp_cl_program_build_binary(t->api, t->ctx, t->dev, tiny, sizeof tiny, NULL, &q),
        GP_ERR_BUILD);
    free(bin);
}

static void test_kernel_work_group_limit(void **state)
{
    GP_TEST_NEED_CL(t);
    cl_program p = NULL;
    assert_int_equal(gp_cl_program_build_source(t->api, t->ctx, t->dev, gp_test_prelude,
                                                gp_test_good, strlen(gp_test_good), "good.gpk",
                                                NULL, &p),
                     GP_OK);
    cl_int err;
    cl_kernel k = t->api->clCreateKernel(p, "fill", &err);
    assert_non_null(k);
    gp_cl_kernel_limits lim;
    assert_int_equal(gp_cl_kernel_limits_query(t->api, k, t->dev, &lim), GP_OK);
    assert_true(lim.max_group_size >= 1);
    assert_true(lim.max_group_size <= t->devs[0].max_group_size);
    assert_true(lim.preferred_multiple >= 1);
    /* The driver itself refuses a group above the kernel's limit: what the backend checks
     * first, with a clearer message. */
    cl_command_queue q;
    bool profiling;
    assert_int_equal(gp_cl_queue_create(t->api, t->ctx, t->dev, &q, &profiling), GP_OK);
    cl_mem buf =
        t->api->clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, 4 * lim.max_group_size * 2, NULL, &err);
    int v = 1;
    t->api->clSetKernelArg(k, 0, sizeof buf, &buf);
    t->api->clSetKernelArg(k, 1, sizeof v, &v);
    size_t local = lim.max_group_size * 2, global = local;
    err = t->api->clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    assert_int_not_equal(err, CL_SUCCESS);
    t->api->clFinish(q);
    t->api->clReleaseMemObject(buf);
    t->api->clReleaseCommandQueue(q);
    t->api->clReleaseKernel(k);
    t->api->clReleaseProgram(p);
}

static void test_log_map_shapes(void **state)
{
    (void)state;
    struct {
        const char *in, *out;
    } cases[] = {
        /* PoCL: severity first */
        {"error: f.gpk:2:10: use of undeclared identifier 'x'\n",
         "f.gpk:2:10: error: use of undeclared identifier 'x'\n"},
        /* clang shape (Apple, Intel), already in order */
        {"f.gpk:7:3: warning: unused variable 'y'", "f.gpk:7:3: warning: unused variable 'y'"},
        /* a driver's temp file name can only come from the prelude once #line is in */
        {"error: /root/.cache/pocl/kcache/tempfile_x.cl:3:1: bad",
         "<gpuport OpenCL prelude>:3:1: error: bad"},
        {"<kernel>:12:5: error: z", "<gpuport OpenCL prelude>:12:5: error: z"},
        /* line only, no column */
        {"f.gpk:9: error: q", "f.gpk:9: error: q"},
        /* lines without a location pass through */
        {"Device pthread failed to build the program\n1 error generated.",
         "Device pthread failed to build the program\n1 error generated."},
        {"error: no location here", "error: no location here"},
        {"f.gpk:x:1: not a location", "f.gpk:x:1: not a location"},
        {"", ""},
        /* the dialect header keeps its name; the defines block gets the caller's label */
        {"error: gpuport/kernel.h:40:2: boom", "gpuport/kernel.h:40:2: error: boom"},
    };
    /* a user file name holding ':' is still the user's file */
    char *c = gp_cl_build_log_map("error: C:/k/f.gpk:3:4: bad", 26, "C:/k/f.gpk", NULL);
    assert_string_equal(c, "C:/k/f.gpk:3:4: error: bad");
    free(c);
    /* a compiler that ignores #line (NVIDIA's OpenCL: one name, the whole text numbered) is
     * placed by line: the user's source from line 100, the dialect header from line 3 */
    gp_cl_lines lines = {3, 100};
    const char nv[] = "<kernel>:105:7: error: use of undeclared identifier 'x'\n"
                      "<kernel>:50:1: warning: something in the prelude\n"
                      "<kernel>:2:9: error: a define\n";
    c = gp_cl_build_log_map_lines(nv, sizeof nv - 1, "f.gpk", NULL, &lines);
    assert_string_equal(c, "f.gpk:6:7: error: use of undeclared identifier 'x'\n"
                           "gpuport/kernel.h:48:1: warning: something in the prelude\n"
                           "<gpuport OpenCL prelude>:2:9: error: a define\n");
    free(c);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *m = gp_cl_build_log_map(cases[i].in, strlen(cases[i].in), "f.gpk", NULL);
        assert_non_null(m);
        assert_string_equal(m, cases[i].out);
        free(m);
    }
}

static void test_log_map_hostile_text(void **state)
{
    (void)state;
    /* not NUL-terminated: only `len` bytes may be read */
    char raw[5] = {'a', ':', '1', ':', '2'};
    char *m = gp_cl_build_log_map(raw, sizeof raw, "f", NULL);
    assert_non_null(m);
    free(m);
    /* an embedded NUL ends the log */
    m = gp_cl_build_log_map("one\0two", 7, "f", NULL);
    assert_string_equal(m, "one");
    free(m);
    /* a huge log is capped */
    size_t big = GP_CL_LOG_CAP * 3;
    char *huge = malloc(big);
    assert_non_null(huge);
    for (size_t i = 0; i < big; i++)
        huge[i] = (i % 80 == 79) ? '\n' : ':';
    m = gp_cl_build_log_map(huge, big, "f", NULL);
    assert_non_null(m);
    assert_true(strlen(m) < GP_CL_LOG_CAP + 200);
    assert_non_null(strstr(m, "[build log cut at"));
    free(m);
    free(huge);
    m = gp_cl_build_log_map(NULL, 0, "f", NULL);
    assert_string_equal(m, "");
    free(m);
}

/* Which sources get PoCL 3's workaround: barriers a condition may keep part of a kernel from. */
static void test_conditional_barrier_scan(void **state)
{
    (void)state;
    static const char *const yes[] = {
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  if (gp_group_id(0) != 0) {\n    gp_barrier();\n  "
        "}\n}\n",
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  if (x[0] > 0) gp_barrier();\n}\n",
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  if (x[0] > 0) {\n  } else {\n"
        "    for (int i = 0; i < 4; i++) { gp_barrier(); }\n  }\n}\n",
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  if (gp_group_id(0) == 3) return;\n  "
        "gp_barrier();\n}\n",
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  if (gp_group_id(0) == 3) {\n    x[0] = 1.0f;\n"
        "    return;\n  }\n  gp_barrier();\n}\n",
        /* a device function: its callers' conditions are not looked at */
        "static void sync_all(void) { gp_barrier(); }\n"
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  sync_all();\n}\n",
        /* a macro that stands for the barrier */
        "#define SYNC() gp_barrier()\n"
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  if (x[0] > 0) {\n    SYNC();\n  }\n}\n",
    };
    static const char *const no[] = {
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  x[gp_local_id(0)] = 1.0f;\n  gp_barrier();\n}\n",
        /* in loops, after ifs that have closed, in a ternary: never under a condition */
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  if (gp_local_id(0) == 0) x[0] = 2.0f;\n"
        "  for (int s = 32; s > 0; s >>= 1) {\n    if (gp_local_id(0) < s) x[0] += 1.0f;\n"
        "    gp_barrier();\n  }\n  x[1] = x[0] > 0 ? 1.0f : 0.0f;\n  gp_barrier();\n}\n",
        /* a return in the kernel's last if, no barrier after it */
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  gp_barrier();\n  if (x[0] > 0) return;\n  x[1] = "
        "0;\n}\n",
        /* the word in a comment, a string and a directive */
        "// if (c) gp_barrier();\n#if 0\n  if (c) gp_barrier();\n#endif\n"
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  if (x[0] > 0) { gp_printf(\"gp_barrier()\\n\"); }\n"
        "  /* if (x) gp_barrier(); */\n  gp_barrier();\n}\n",
        "", "if (", /* cut short */
    };
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (!gp_cl_has_conditional_barrier(yes[i], strlen(yes[i])))
            fail_msg("not seen as a conditional barrier:\n%s", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (gp_cl_has_conditional_barrier(no[i], strlen(no[i])))
            fail_msg("taken for a conditional barrier:\n%s", no[i]);
    /* only what `len` covers is read: the barrier past it is not seen */
    const char *cut =
        "GP_KERNEL(k, GP_BUF(float, x)) {\n  if (x[0] > 0) {\n    gp_barrier();\n  }\n}\n";
    assert_false(
        gp_cl_has_conditional_barrier(cut, strlen("GP_KERNEL(k, GP_BUF(float, x)) {\n  if (x")));
    assert_true(gp_cl_pocl_conditional_barrier_bug("Portable Computing Language", "3.1+debian"));
    assert_true(gp_cl_pocl_conditional_barrier_bug("Portable Computing Language", "1.8"));
    assert_false(gp_cl_pocl_conditional_barrier_bug("Portable Computing Language", "6.0"));
    assert_false(gp_cl_pocl_conditional_barrier_bug("Portable Computing Language", ""));
    assert_false(gp_cl_pocl_conditional_barrier_bug("NVIDIA CUDA", "3.1"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compile_error_points_at_user_line),
        cmocka_unit_test(test_error_in_macro_from_options),
        cmocka_unit_test(test_build_error_only_in_the_message),
        cmocka_unit_test(test_build_run_and_binary_round_trip),
        cmocka_unit_test(test_kernel_work_group_limit),
        cmocka_unit_test(test_log_map_shapes),
        cmocka_unit_test(test_log_map_hostile_text),
        cmocka_unit_test(test_conditional_barrier_scan),
    };
    return cmocka_run_group_tests(tests, gp_test_setup, gp_test_teardown);
}
