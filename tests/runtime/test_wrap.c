/* test_wrap.c — memory of other libraries on every device: host memory wrapped as a buffer is used
 * in place (a kernel's writes are seen in it, and the host's later writes are seen by the next
 * kernel, with no transfer in between), a wrapped buffer's release frees nothing, offsets land
 * where they say, gp_buffer_native reports the memory, and what a backend cannot wrap is refused
 * with a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runtime/conformance.h"
#include "util/sys.h"

static char g_specs[16][32];
static int g_nspecs;

static const char *kSrc =
    "GP_KERNEL(add, GP_BUF(int32_t, v), GP_VAL(int32_t, by), GP_VAL(int, n))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i < n) v[i] += by;\n"
    "}\n";

static void launch_add(gp_device *dev, gp_kernel *k, gp_buffer *b, int32_t by, int n)
{
    gp_arg args[] = {gp_arg_buffer(b), gp_arg_value(&by, 4), gp_arg_value(&n, 4)};
    size_t global = (size_t)n;
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 3, args));
    GPT_CHECK(gp_device_synchronize(dev));
}

/* Brings the host's view up to date the way a user of the memory must: map, unmap. */
static void sync_host(gp_buffer *b)
{
    void *p = NULL;
    GPT_CHECK(gp_buffer_map(b, &p));
    GPT_CHECK(gp_buffer_unmap(b));
}

static void host_memory_in_place(void **state)
{
    (void)state;
    enum { N = 1000, OFF = 24 };
    for (int d = 0; d < g_nspecs; d++) {
        gp_device *dev;
        GPT_CHECK(gp_device_open(g_specs[d], &dev));
        gp_device_info info;
        GPT_CHECK(gp_device_get_info(dev, &info));
        gp_buffer *b = NULL;
        /* 64-byte aligned like the arrays of numpy and PyTorch; the buffer starts OFF elements in
         */
        int32_t *mem = gp_aligned_alloc(sizeof(int32_t) * (N + OFF), 64);
        assert_non_null(mem);
        for (int i = 0; i < N + OFF; i++)
            mem[i] = i;
        gp_status st = gp_buffer_wrap(dev, GP_MEMORY_HOST, mem, OFF * sizeof(int32_t),
                                      N * sizeof(int32_t), &b);
        if (info.backend == GP_BACKEND_CUDA) { /* host memory is not used in place there */
            assert_int_equal(st, GP_ERR_UNSUPPORTED);
            assert_non_null(strstr(gp_last_error(), "copy"));
            gp_aligned_free(mem);
            gp_device_release(dev);
            continue;
        }
        GPT_CHECK(st);
        gp_buffer_kind kind;
        GPT_CHECK(gp_buffer_kind_of(b, &kind));
        size_t size = 0;
        GPT_CHECK(gp_buffer_size(b, &size));
        assert_int_equal(size, N * sizeof(int32_t));
        void *native = NULL, *host = NULL;
        size_t off = 99;
        GPT_CHECK(gp_buffer_native(b, &native, &off, &host));
        if (info.unified_memory) {
            assert_int_equal(kind, GP_BUFFER_SHARED);
            assert_ptr_equal(host, mem + OFF); /* used in place: the host's own address */
        }
        if (info.backend == GP_BACKEND_CPU) assert_ptr_equal(native, mem + OFF);

        gp_program *p;
        gp_kernel *k;
        GPT_CHECK(gp_program_create(dev, kSrc, strlen(kSrc), NULL, &p));
        GPT_CHECK(gp_kernel_create(p, "add", &k));
        launch_add(dev, k, b, 1000, N);
        sync_host(b);
        for (int i = 0; i < N + OFF; i++)
            if (mem[i] != (i < OFF ? i : i + 1000))
                fail_msg("%s: element %d is %d after the kernel", g_specs[d], i, mem[i]);
        if (info.unified_memory) {
            /* The host writes the memory directly, with no transfer and no map: the next kernel
             * reads what it wrote, because the device uses the same memory. */
            for (int i = OFF; i < N + OFF; i++)
                mem[i] = -i;
            launch_add(dev, k, b, 3, N);
            for (int i = OFF; i < N + OFF; i++)
                if (mem[i] != 3 - i) fail_msg("%s: element %d is %d", g_specs[d], i, mem[i]);
        }
        /* Transfers work on it like on any buffer. */
        int32_t two[2] = {7, 8}, back[2];
        GPT_CHECK(gp_buffer_write(b, 4, two, sizeof two));
        GPT_CHECK(gp_buffer_read(b, 4, back, sizeof back));
        assert_int_equal(back[0], 7);
        assert_int_equal(back[1], 8);
        assert_int_equal(gp_buffer_read(b, N * 4 - 4, back, 8), GP_ERR_INVALID_ARGUMENT);

        /* Released, the buffer gives nothing of the memory back: it is still the caller's
         * (a double free would show under AddressSanitizer). */
        GPT_CHECK(gp_buffer_release(b));
        mem[OFF] = 42;
        gp_aligned_free(mem);
        gp_kernel_release(k);
        gp_program_release(p);
        gp_device_release(dev);
        fprintf(stderr, "  %s ok (%s)\n", g_specs[d],
                kind == GP_BUFFER_SHARED ? "shared" : "pinned");
    }
}

static void refusals(void **state)
{
    (void)state;
    gp_device *dev;
    GPT_CHECK(gp_device_open("cpu", &dev));
    int x[4] = {0};
    gp_buffer *b = (gp_buffer *)&x; /* overwritten with NULL by every refusal */
    assert_int_equal(gp_buffer_wrap(dev, GP_MEMORY_HOST, NULL, 0, 4, &b), GP_ERR_INVALID_ARGUMENT);
    assert_null(b);
    assert_int_equal(gp_buffer_wrap(dev, GP_MEMORY_HOST, x, 0, 0, &b), GP_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gp_last_error(), "size 0"));
    assert_int_equal(gp_buffer_wrap(dev, (gp_memory_kind)7, x, 0, 4, &b), GP_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gp_last_error(), "unknown memory kind 7"));
    assert_int_equal(gp_buffer_wrap(dev, GP_MEMORY_HOST, x, SIZE_MAX - 2, 4, &b),
                     GP_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gp_last_error(), "past the end"));
    assert_int_equal(gp_buffer_wrap(NULL, GP_MEMORY_HOST, x, 0, 4, &b), GP_ERR_INVALID_ARGUMENT);
    assert_int_equal(gp_buffer_native(NULL, NULL, NULL, NULL), GP_ERR_INVALID_ARGUMENT);

    /* The CPU has no streams of other libraries. */
    gp_queue *q = (gp_queue *)&x;
    assert_int_equal(gp_queue_wrap(dev, (void *)1, &q), GP_ERR_UNSUPPORTED);
    assert_null(q);
    assert_non_null(strstr(gp_last_error(), "cpu"));
    GPT_CHECK(gp_device_queue(dev, &q));
    void *native = NULL;
    assert_int_equal(gp_queue_native(q, &native), GP_ERR_UNSUPPORTED);
    assert_int_equal(gp_queue_native(NULL, &native), GP_ERR_INVALID_ARGUMENT);
    gp_device_release(dev);
}

static int setup(void **state)
{
    (void)state;
    g_nspecs = gpt_devices(g_specs, 16);
    return g_nspecs > 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(host_memory_in_place),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
