/* test_errors.c — every misuse the runtime promises to catch comes back as a status and a message
 * that names the problem, never an abort: unknown kernel, wrong argument count, kind and size, a
 * group above the limit, out of memory, compile errors at the user's line, bad specs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runtime/conformance.h"

static gp_device *dev;
static gp_program *prog;
static gp_kernel *saxpy;

#define EXPECT(call, status, text)                                                                 \
    do {                                                                                           \
        gp_status st_ = (call);                                                                    \
        if (st_ != (status))                                                                       \
            fail_msg("%s: %s, expected %s (%s)", #call, gp_status_name(st_),                       \
                     gp_status_name(status), gp_last_error());                                     \
        if (!strstr(gp_last_error(), (text)))                                                      \
            fail_msg("%s: message '%s' lacks '%s'", #call, gp_last_error(), (text));               \
    } while (0)

static int setup(void **state)
{
    (void)state;
    if (gp_device_open("cpu", &dev) != GP_OK) return -1;
    if (gpt_build(dev, "saxpy.gpk", NULL, 0, &prog) != GP_OK) return -1;
    return gp_kernel_create(prog, "saxpy", &saxpy) == GP_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    gp_kernel_release(saxpy);
    gp_program_release(prog);
    gp_device_release(dev);
    return 0;
}

static void unknown_kernel(void **state)
{
    (void)state;
    gp_kernel *k = NULL;
    EXPECT(gp_kernel_create(prog, "saxpyy", &k), GP_ERR_NOT_FOUND, "no kernel 'saxpyy'");
    assert_non_null(strstr(gp_last_error(), "saxpy")); /* lists what there is */
    assert_null(k);
}

static void wrong_arguments(void **state)
{
    (void)state;
    gp_buffer *b;
    GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, 4096, &b));
    float a = 1;
    int n = 10;
    double d = 1;
    size_t global = 10;
    gp_arg three[] = {gp_arg_buffer(b), gp_arg_buffer(b), gp_arg_value(&a, 4)};
    EXPECT(gp_kernel_launch(NULL, saxpy, 1, &global, NULL, 3, three), GP_ERR_INVALID_ARGUMENT,
           "takes 4 argument(s) (y, x, a, n), the launch passed 3");
    gp_arg kind[] = {gp_arg_buffer(b), gp_arg_value(&a, 4), gp_arg_value(&a, 4),
                     gp_arg_value(&n, 4)};
    EXPECT(gp_kernel_launch(NULL, saxpy, 1, &global, NULL, 4, kind), GP_ERR_INVALID_ARGUMENT,
           "argument 1 'x' (float) needs a buffer (GP_CBUF), got a value (GP_VAL)");
    gp_arg size[] = {gp_arg_buffer(b), gp_arg_buffer(b), gp_arg_value(&d, 8), gp_arg_value(&n, 4)};
    EXPECT(gp_kernel_launch(NULL, saxpy, 1, &global, NULL, 4, size), GP_ERR_INVALID_ARGUMENT,
           "argument 2 'a' is float (4 bytes), the launch passed 8 bytes");
    gp_arg null_buf[] = {gp_arg_buffer(NULL), gp_arg_buffer(b), gp_arg_value(&a, 4),
                         gp_arg_value(&n, 4)};
    EXPECT(gp_kernel_launch(NULL, saxpy, 1, &global, NULL, 4, null_buf), GP_ERR_INVALID_ARGUMENT,
           "NULL buffer");
    gp_buffer_release(b);
}

static void group_too_large(void **state)
{
    (void)state;
    gp_buffer *b;
    GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, 4096, &b));
    float a = 1;
    int n = 10;
    gp_arg args[] = {gp_arg_buffer(b), gp_arg_buffer(b), gp_arg_value(&a, 4), gp_arg_value(&n, 4)};
    uint32_t max;
    GPT_CHECK(gp_kernel_max_group_size(saxpy, &max));
    size_t global = 100000, group = (size_t)max * 2;
    EXPECT(gp_kernel_launch(NULL, saxpy, 1, &global, &group, 4, args), GP_ERR_LAUNCH,
           "above the limit");
    size_t g2[2] = {64, 64}, grp2[2] = {64, 64}; /* 4096 work-items */
    EXPECT(gp_kernel_launch(NULL, saxpy, 2, g2, grp2, 4, args), GP_ERR_LAUNCH, "a group of 4096");
    size_t zero = 0;
    EXPECT(gp_kernel_launch(NULL, saxpy, 1, &zero, NULL, 4, args), GP_ERR_INVALID_ARGUMENT,
           "global size 0");
    EXPECT(gp_kernel_launch(NULL, saxpy, 4, g2, NULL, 4, args), GP_ERR_INVALID_ARGUMENT,
           "4 dimensions");
    gp_buffer_release(b);
}

static void auto_group_is_the_launch_choice(void **state)
{
    (void)state;
    size_t global = 1000, g[3] = {0, 0, 0};
    GPT_CHECK(gp_kernel_auto_group(saxpy, 1, &global, g));
    assert_true(g[0] >= 1 && g[0] <= 256 && g[1] == 1 && g[2] == 1);
    size_t small = 10;
    GPT_CHECK(gp_kernel_auto_group(saxpy, 1, &small, g));
    assert_true(g[0] <= 10); /* never more than the grid */
    EXPECT(gp_kernel_auto_group(saxpy, 4, &global, g), GP_ERR_INVALID_ARGUMENT, "4 dimensions");
    EXPECT(gp_kernel_auto_group(NULL, 1, &global, g), GP_ERR_INVALID_ARGUMENT, "NULL argument");
}

static void out_of_memory(void **state)
{
    (void)state;
    gp_buffer *b = NULL;
    EXPECT(gp_buffer_create(dev, GP_BUFFER_DEVICE, SIZE_MAX / 2, &b), GP_ERR_OUT_OF_MEMORY,
           "bytes");
    assert_null(b);
    EXPECT(gp_buffer_create(dev, GP_BUFFER_DEVICE, 0, &b), GP_ERR_INVALID_ARGUMENT, "size 0");
}

static void buffer_ranges(void **state)
{
    (void)state;
    gp_buffer *b;
    char tmp[64] = {0};
    GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, 32, &b));
    EXPECT(gp_buffer_write(b, 16, tmp, 32), GP_ERR_INVALID_ARGUMENT,
           "bytes 16..48 are outside the 32-byte");
    EXPECT(gp_buffer_read(b, 33, tmp, 0), GP_ERR_INVALID_ARGUMENT, "outside");
    EXPECT(gp_buffer_fill(b, 0, tmp, 3, 30), GP_ERR_INVALID_ARGUMENT, "pattern of 3 bytes");
    EXPECT(gp_buffer_copy(b, 0, b, 8, 16), GP_ERR_INVALID_ARGUMENT, "overlap");
    void *p;
    EXPECT(gp_buffer_map(b, &p), GP_ERR_UNSUPPORTED, "not host-visible");
    gp_buffer_release(b);
    GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_SHARED, 32, &b));
    GPT_CHECK(gp_buffer_map(b, &p));
    memset(p, 7, 32);
    EXPECT(gp_buffer_read(b, 0, tmp, 4), GP_ERR_INVALID_ARGUMENT, "mapped");
    GPT_CHECK(gp_buffer_unmap(b));
    GPT_CHECK(gp_buffer_read(b, 0, tmp, 4));
    assert_int_equal(tmp[3], 7);
    gp_buffer_release(b);
}

static void compile_error_at_user_line(void **state)
{
    (void)state;
    const char *src = "// line 1\n"
                      "GP_KERNEL(k, GP_BUF(float, y))\n"
                      "{\n"
                      "    y[0] = undeclared_name;\n"
                      "}\n";
    gp_build_options o = {sizeof o, GP_BUILD_NO_CACHE, "broken.gpk", NULL, 0, 0};
    gp_program *p = NULL;
    EXPECT(gp_program_create(dev, src, strlen(src), &o, &p), GP_ERR_BUILD, "broken.gpk:4:");
    assert_non_null(strstr(gp_last_error(), "undeclared_name"));
    assert_null(p);
    const char *bad_sig = "GP_KERNEL(k, float *y)\n{\n}\n";
    EXPECT(gp_program_create(dev, bad_sig, strlen(bad_sig), &o, &p), GP_ERR_BUILD,
           "broken.gpk:1: kernel parameter 'float *y' is not GP_BUF");
    EXPECT(gp_program_create(dev, "int x;", 6, &o, &p), GP_ERR_BUILD, "no GP_KERNEL");
    /* a shared array must be GP_SHARED_DECL: with GP_SHARED it would be private on CPU and CUDA */
    const char *not_shared = "GP_KERNEL(k, GP_BUF(float, y))\n{\n    GP_SHARED float t[64];\n"
                             "    t[gp_local_id(0)] = y[0];\n}\n";
    EXPECT(gp_program_create(dev, not_shared, strlen(not_shared), &o, &p), GP_ERR_BUILD,
           "broken.gpk:3: an array declared GP_SHARED");
    const char *pointers_ok =
        "GP_FUNC float f(GP_SHARED float *s, GP_SHARED float (*rows)[4])\n"
        "{ return s[0] + rows[0][1]; }\n"
        "GP_KERNEL(k, GP_BUF(float, y))\n{\n    GP_SHARED_DECL float t[8][4];\n"
        "    y[0] = f(t[0], t);\n}\n";
    GPT_CHECK(gp_program_create(dev, pointers_ok, strlen(pointers_ok), &o, &p));
    gp_program_release(p);
    p = NULL;
    const char *bad_def[] = {"1X=2"};
    gp_build_options o2 = {sizeof o2, 0, "x.gpk", bad_def, 1, 0};
    EXPECT(gp_program_create(dev, src, strlen(src), &o2, &p), GP_ERR_INVALID_ARGUMENT,
           "define '1X=2'");
}

static void bad_specs(void **state)
{
    (void)state;
    gp_device *d = NULL;
    EXPECT(gp_device_open("gpu", &d), GP_ERR_INVALID_ARGUMENT, "bad device spec 'gpu'");
    EXPECT(gp_device_open("cpu:x", &d), GP_ERR_INVALID_ARGUMENT, "bad device spec");
    EXPECT(gp_device_open("cpu:7", &d), GP_ERR_NOT_FOUND, "cpu:7");
    assert_null(d);
    /* a named backend that is not here never falls back to another */
    gp_selection_entry e;
    GPT_CHECK(gp_backend_probe(GP_BACKEND_METAL, &e));
#if !defined(__APPLE__)
    assert_int_equal(e.outcome, GP_SELECT_NOT_BUILT);
    EXPECT(gp_device_open("metal", &d), GP_ERR_NOT_FOUND, "never falls back");
    assert_null(d);
#endif
}

static void fp64_flag_parsed(void **state)
{
    (void)state;
    const char *src = "GP_REQUIRES_FP64\nGP_KERNEL(k, GP_BUF(double, y))\n{\n    y[0] = 1.0;\n}\n";
    gp_program *p = NULL;
    gp_device_info info;
    GPT_CHECK(gp_device_get_info(dev, &info));
    gp_status st = gp_program_create(dev, src, strlen(src), NULL, &p);
    if (info.fp64) {
        assert_int_equal(st, GP_OK);
        gp_program_release(p);
    } else {
        assert_int_equal(st, GP_ERR_UNSUPPORTED);
    }
}

/* A barrier the runtime can see (also through a build define) runs as fibers; one it cannot see
 * (spelled through token pasting) is a synccheck report instead of silently wrong results. */
static void hidden_barrier(void **state)
{
    (void)state;
    const char *src = "GP_KERNEL(k, GP_BUF(int32_t, out))\n"
                      "{\n"
                      "    GP_SHARED_DECL int32_t s[64];\n"
                      "    int l = gp_local_id(0);\n"
                      "    s[l] = l;\n"
                      "    SYNC;\n"
                      "    out[gp_global_id(0)] = s[63 - l];\n"
                      "}\n";
    const char *seen[] = {"SYNC=gp_barrier()"};
    const char *hidden[] = {"SYNC=GLUE(gp_bar, rier)()"};
    gp_buffer *b;
    GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, 64 * 4, &b));
    gp_arg args[] = {gp_arg_buffer(b)};
    size_t global = 64, group = 64;
    gp_build_options o = {sizeof o, 0, "sync.gpk", seen, 1, 0};
    gp_program *p;
    gp_kernel *k;
    GPT_CHECK(gp_program_create(dev, src, strlen(src), &o, &p));
    GPT_CHECK(gp_kernel_create(p, "k", &k));
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 1, args));
    int32_t out[64];
    GPT_CHECK(gp_buffer_read(b, 0, out, sizeof out));
    for (int i = 0; i < 64; i++)
        assert_int_equal(out[i], 63 - i);
    gp_kernel_release(k), gp_program_release(p);

    gp_build_options o2 = {sizeof o2, 0, "sync.gpk", hidden, 1, 0};
    char src2[1024];
    snprintf(src2, sizeof src2, "#define GLUE(a, b) a##b\n%s", src);
    GPT_CHECK(gp_program_create(dev, src2, strlen(src2), &o2, &p));
    GPT_CHECK(gp_kernel_create(p, "k", &k));
    EXPECT(gp_kernel_launch(NULL, k, 1, &global, &group, 1, args), GP_ERR_CHECK,
           "reached a gp_barrier() the runtime did not see");
    gp_kernel_release(k), gp_program_release(p), gp_buffer_release(b);
}

/* GP_REQUIRES_GROUP_SIZE: the group a kernel relies on is the one it runs in: chosen for it when
 * none is given (launch and gp_kernel_auto_group), any other refused with the reason */
static void required_group(void **state)
{
    (void)state;
    const char *src = "GP_REQUIRES_GROUP_SIZE(rows, 32, 2, 1)\n"
                      "GP_KERNEL(rows, GP_BUF(int32_t, out))\n"
                      "{\n"
                      "    out[gp_global_id(1) * 64 + gp_global_id(0)] =\n"
                      "        (int32_t)(gp_local_size(0) * 10 + gp_local_size(1));\n"
                      "}\n"
                      "GP_KERNEL(free_shape, GP_BUF(int32_t, out)) { out[0] = 1; }\n";
    gp_build_options o = {sizeof o, 0, "rows.gpk", NULL, 0, 0};
    gp_program *p;
    gp_kernel *k, *f;
    GPT_CHECK(gp_program_create(dev, src, strlen(src), &o, &p));
    GPT_CHECK(gp_kernel_create(p, "rows", &k));
    GPT_CHECK(gp_kernel_create(p, "free_shape", &f));
    gp_buffer *b;
    GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, 64 * 4 * 4, &b));
    gp_arg args[] = {gp_arg_buffer(b)};
    size_t global[2] = {64, 4}, g[3];
    GPT_CHECK(gp_kernel_auto_group(k, 2, global, g));
    assert_true(g[0] == 32 && g[1] == 2 && g[2] == 1);
    GPT_CHECK(gp_kernel_launch(NULL, k, 2, global, NULL, 1, args));
    int32_t out[256];
    GPT_CHECK(gp_buffer_read(b, 0, out, sizeof out));
    for (int i = 0; i < 256; i++)
        assert_int_equal(out[i], 322);
    size_t same[2] = {32, 2}, other[2] = {64, 1};
    GPT_CHECK(gp_kernel_launch(NULL, k, 2, global, same, 1, args));
    EXPECT(gp_kernel_launch(NULL, k, 2, global, other, 1, args), GP_ERR_LAUNCH,
           "kernel 'rows' requires a group of 32 x 2 x 1 work-items");
    size_t one = 64;
    EXPECT(gp_kernel_launch(NULL, k, 1, &one, NULL, 1, args), GP_ERR_LAUNCH,
           "launch it in 2 dimensions");
    GPT_CHECK(gp_kernel_launch(NULL, f, 2, global, other, 1, args)); /* the other is free */
    gp_kernel_release(k), gp_kernel_release(f), gp_program_release(p), gp_buffer_release(b);
    /* a requirement that names no kernel, or is malformed, is the source's error */
    const char *bad[][2] = {
        {"GP_REQUIRES_GROUP_SIZE(row, 32, 1, 1)\nGP_KERNEL(rows, GP_BUF(int32_t, o)) {}\n",
         "bad.gpk:1: GP_REQUIRES_GROUP_SIZE names row, which is no kernel"},
        {"\nGP_REQUIRES_GROUP_SIZE(rows, 32, 0, 1)\nGP_KERNEL(rows, GP_BUF(int32_t, o)) {}\n",
         "bad.gpk:2: GP_REQUIRES_GROUP_SIZE takes a kernel's name and three positive"},
        {"GP_REQUIRES_GROUP_SIZE(rows, 32)\nGP_KERNEL(rows, GP_BUF(int32_t, o)) {}\n",
         "GP_REQUIRES_GROUP_SIZE takes"},
        {"GP_REQUIRES_GROUP_SIZE(rows, 32, 1, 1)\nGP_REQUIRES_GROUP_SIZE(rows, 64, 1, 1)\n"
         "GP_KERNEL(rows, GP_BUF(int32_t, o)) {}\n",
         "bad.gpk:2: GP_REQUIRES_GROUP_SIZE(rows, 64, 1, 1) contradicts the earlier (32, 1, 1)"},
    };
    gp_build_options ob = {sizeof ob, 0, "bad.gpk", NULL, 0, 0};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        p = NULL;
        EXPECT(gp_program_create(dev, bad[i][0], strlen(bad[i][0]), &ob, &p), GP_ERR_BUILD,
               bad[i][1]);
        assert_null(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unknown_kernel),
        cmocka_unit_test(wrong_arguments),
        cmocka_unit_test(group_too_large),
        cmocka_unit_test(auto_group_is_the_launch_choice),
        cmocka_unit_test(out_of_memory),
        cmocka_unit_test(buffer_ranges),
        cmocka_unit_test(compile_error_at_user_line),
        cmocka_unit_test(bad_specs),
        cmocka_unit_test(fp64_flag_parsed),
        cmocka_unit_test(hidden_barrier),
        cmocka_unit_test(required_group),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
