/* test_nocompiler.c — a machine without a C compiler: building a kernel for the CPU fails with a
 * message that says so and how to get one, and the built-in programs (compiled into libgpuport)
 * still run. CC is pointed at nothing before the first gpuport call of this process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runtime/conformance.h"

static void no_compiler(void **state)
{
    (void)state;
    gp_device *d;
    GPT_CHECK(gp_device_open("cpu", &d));
    gp_program *p = NULL;
    gp_build_options o = {sizeof o, GP_BUILD_NO_CACHE, "k.gpk", NULL, 0, 0};
    const char *src = "GP_KERNEL(k, GP_BUF(float, y))\n{\n    y[0] = 1.0f;\n}\n";
    assert_int_equal(gp_program_create(d, src, strlen(src), &o, &p), GP_ERR_UNSUPPORTED);
    assert_non_null(strstr(gp_last_error(), "CC=/nonexistent/cc is not runnable"));
    assert_non_null(strstr(gp_last_error(), "install one"));
    assert_null(p);

    /* the built-in programs need no compiler */
    assert_true(gp_builtin_program_count() >= 1);
    GPT_CHECK(gp_program_create_builtin(d, "basic", &p));
    gp_kernel *k;
    GPT_CHECK(gp_kernel_create(p, "gp_saxpy", &k));
    float x[3] = {1, 2, 3}, y[3] = {10, 20, 30}, a = 2;
    int n = 3;
    gp_buffer *bx, *by;
    GPT_CHECK(gp_buffer_create(d, GP_BUFFER_DEVICE, sizeof x, &bx));
    GPT_CHECK(gp_buffer_create(d, GP_BUFFER_DEVICE, sizeof y, &by));
    GPT_CHECK(gp_buffer_write(bx, 0, x, sizeof x));
    GPT_CHECK(gp_buffer_write(by, 0, y, sizeof y));
    gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, 4),
                     gp_arg_value(&n, 4)};
    size_t g = 3;
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &g, NULL, 4, args));
    GPT_CHECK(gp_buffer_read(by, 0, y, sizeof y));
    assert_true(y[0] == 12 && y[1] == 24 && y[2] == 36);
    gp_buffer_release(bx), gp_buffer_release(by), gp_kernel_release(k);
    /* the copy with four loads per work-item, on a length that is not a multiple of 4 */
    enum { N = 1003 };
    float from[N], to[N];
    for (int i = 0; i < N; i++) {
        from[i] = (float)i * 0.5f;
        to[i] = -1.0f;
    }
    GPT_CHECK(gp_kernel_create(p, "gp_copy_f32_x4", &k));
    gp_buffer *bs, *bd;
    GPT_CHECK(gp_buffer_create(d, GP_BUFFER_DEVICE, sizeof from, &bs));
    GPT_CHECK(gp_buffer_create(d, GP_BUFFER_DEVICE, sizeof to, &bd));
    GPT_CHECK(gp_buffer_write(bs, 0, from, sizeof from));
    GPT_CHECK(gp_buffer_write(bd, 0, to, sizeof to));
    int nn = N;
    gp_arg cargs[] = {gp_arg_buffer(bd), gp_arg_buffer(bs), gp_arg_value(&nn, 4)};
    size_t q = (N + 3) / 4;
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &q, NULL, 3, cargs));
    GPT_CHECK(gp_buffer_read(bd, 0, to, sizeof to));
    assert_memory_equal(to, from, sizeof from);
    gp_kernel_release(k), gp_program_release(p);
    /* the bench's four-per-work-item triad (what GPUs run), here on the CPU: a = b + s * c */
    GPT_CHECK(gp_program_create_builtin(d, "bench_stream", &p));
    GPT_CHECK(gp_kernel_create(p, "bench_triad_x4", &k));
    gp_buffer *ba;
    GPT_CHECK(gp_buffer_create(d, GP_BUFFER_DEVICE, sizeof to, &ba));
    float s3 = 3.0f, want[N];
    for (int i = 0; i < N; i++)
        want[i] = from[i] + 3.0f * from[i];
    gp_arg targs[] = {gp_arg_buffer(ba), gp_arg_buffer(bs), gp_arg_buffer(bs), gp_arg_value(&s3, 4),
                      gp_arg_value(&nn, 4)};
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &q, NULL, 5, targs));
    GPT_CHECK(gp_buffer_read(ba, 0, to, sizeof to));
    assert_memory_equal(to, want, sizeof want);
    gp_buffer_release(ba), gp_buffer_release(bs), gp_buffer_release(bd);
    gp_kernel_release(k), gp_program_release(p);
    assert_int_equal(gp_program_create_builtin(d, "nope", &p), GP_ERR_NOT_FOUND);
    gp_device_release(d);
}

int main(void)
{
    setenv("CC", "/nonexistent/cc", 1);
    const struct CMUnitTest tests[] = {cmocka_unit_test(no_compiler)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
