/* cache_kernel.h — the kernel the cache tests build: one small program, salted so that each test
 * has its own cache key, built and run on the CPU device (which keeps its programs in the cache as
 * shared objects). Include after <cmocka.h> and runtime/conformance.h. */
#ifndef GP_TESTS_RUNTIME_CACHE_KERNEL_H
#define GP_TESTS_RUNTIME_CACHE_KERNEL_H

#include <stdio.h>
#include <string.h>

static const char *const kSrc = "GP_KERNEL(twice, GP_BUF(int32_t, v), GP_VAL(int, n))\n"
                                "{\n"
                                "    int i = gp_global_id(0);\n"
                                "    if (i < n) v[i] *= 2;\n"
                                "}\n";

/* Builds kSrc (with a salt so each test has its own key) and checks it runs. */
static void build_and_run(const char *salt)
{
    gp_device *d;
    GPT_CHECK(gp_device_open("cpu", &d));
    char src[512];
    snprintf(src, sizeof src, "// %s\n%s", salt, kSrc);
    gp_program *p;
    GPT_CHECK(gp_program_create(d, src, strlen(src), NULL, &p));
    gp_kernel *k;
    GPT_CHECK(gp_kernel_create(p, "twice", &k));
    int32_t v[5] = {1, 2, 3, 4, 5};
    gp_buffer *b;
    GPT_CHECK(gp_buffer_create(d, GP_BUFFER_SHARED, sizeof v, &b));
    GPT_CHECK(gp_buffer_write(b, 0, v, sizeof v));
    int n = 5;
    size_t g = 5;
    gp_arg a[] = {gp_arg_buffer(b), gp_arg_value(&n, 4)};
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &g, NULL, 2, a));
    GPT_CHECK(gp_buffer_read(b, 0, v, sizeof v));
    assert_int_equal(v[4], 10);
    gp_buffer_release(b);
    gp_kernel_release(k);
    gp_program_release(p);
    gp_device_release(d); /* the last handle: the in-process cache goes with the device */
}

#endif
