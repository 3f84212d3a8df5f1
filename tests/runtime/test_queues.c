/* test_queues.c — queues, events and threads on every device: async transfers and launches on a
 * queue of their own, events that order two queues and time the work between them, the default
 * queue, and one kernel launched from several threads at once (kernels hold no argument state). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runtime/conformance.h"
#include "util/thread.h"

static char g_specs[16][32];
static int g_nspecs;

static const char *kSrc = "GP_KERNEL(add_one, GP_BUF(int32_t, v), GP_VAL(int, n))\n"
                          "{\n"
                          "    int i = gp_global_id(0);\n"
                          "    if (i < n) v[i] += 1;\n"
                          "}\n";

static void queues_and_events(void **state)
{
    (void)state;
    enum { N = 4096 };
    for (int d = 0; d < g_nspecs; d++) {
        gp_device *dev;
        GPT_CHECK(gp_device_open(g_specs[d], &dev));
        gp_program *p;
        gp_kernel *k;
        GPT_CHECK(gp_program_create(dev, kSrc, strlen(kSrc), NULL, &p));
        GPT_CHECK(gp_kernel_create(p, "add_one", &k));
        gp_queue *q1, *q2, *def;
        GPT_CHECK(gp_queue_create(dev, &q1));
        GPT_CHECK(gp_queue_create(dev, &q2));
        GPT_CHECK(gp_device_queue(dev, &def));
        static int32_t host[N], back[N];
        for (int i = 0; i < N; i++)
            host[i] = i;
        gp_buffer *b;
        GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_PINNED, sizeof host, &b));
        int n = N;
        gp_arg args[] = {gp_arg_buffer(b), gp_arg_value(&n, 4)};
        size_t global = N;
        gp_event *e0, *e1, *e2;
        GPT_CHECK(gp_event_record(q1, &e0));
        GPT_CHECK(gp_buffer_write_async(q1, b, 0, host, sizeof host));
        GPT_CHECK(gp_kernel_launch(q1, k, 1, &global, NULL, 2, args));
        GPT_CHECK(gp_kernel_launch(q1, k, 1, &global, NULL, 2, args));
        GPT_CHECK(gp_event_record(q1, &e1));
        /* q2 runs after q1's work without the host waiting in between */
        GPT_CHECK(gp_queue_wait_event(q2, e1));
        GPT_CHECK(gp_kernel_launch(q2, k, 1, &global, NULL, 2, args));
        GPT_CHECK(gp_buffer_read_async(q2, b, 0, back, sizeof back));
        GPT_CHECK(gp_event_record(q2, &e2));
        int done = 0; /* in slices, as Python waits (a Ctrl-C can stop it) */
        while (!done)
            GPT_CHECK(gp_event_wait_for(e2, 20, &done));
        GPT_CHECK(gp_event_wait(e2));
        for (int i = 0; i < N; i++)
            if (back[i] != i + 3)
                fail_msg("%s: element %d is %d, expected %d", g_specs[d], i, back[i], i + 3);
        double ms = -1;
        GPT_CHECK(gp_event_elapsed_ms(e0, e1, &ms));
        assert_true(ms >= 0.0);
        GPT_CHECK(gp_event_elapsed_ms(e0, e2, &ms));
        assert_true(ms >= 0.0);
        /* map a pinned buffer after the queues are done */
        GPT_CHECK(gp_queue_finish(q1));
        GPT_CHECK(gp_queue_finish(q2));
        void *ptr;
        GPT_CHECK(gp_buffer_map(b, &ptr));
        assert_int_equal(((int32_t *)ptr)[7], 10);
        GPT_CHECK(gp_buffer_unmap(b));
        GPT_CHECK(gp_queue_release(def)); /* the default queue: a no-op */
        GPT_CHECK(gp_device_synchronize(dev));
        gp_event_release(e0), gp_event_release(e1), gp_event_release(e2);
        gp_queue_release(q1), gp_queue_release(q2);
        gp_buffer_release(b), gp_kernel_release(k), gp_program_release(p);
        gp_device_release(dev);
        fprintf(stderr, "  %s ok\n", g_specs[d]);
    }
}

typedef struct job {
    gp_device *dev;
    gp_kernel *k;
    int ok;
} job;

static void *launcher(void *arg)
{
    job *j = arg;
    enum { N = 10000 };
    static _Thread_local int32_t v[N];
    for (int i = 0; i < N; i++)
        v[i] = i;
    gp_buffer *b;
    if (gp_buffer_create(j->dev, GP_BUFFER_DEVICE, sizeof v, &b) != GP_OK) return NULL;
    gp_buffer_write(b, 0, v, sizeof v);
    int n = N;
    gp_arg args[] = {gp_arg_buffer(b), gp_arg_value(&n, 4)};
    size_t global = N;
    gp_queue *q;
    gp_queue_create(j->dev, &q);
    for (int r = 0; r < 20; r++)
        gp_kernel_launch(q, j->k, 1, &global, NULL, 2, args);
    gp_queue_finish(q);
    gp_buffer_read(b, 0, v, sizeof v);
    j->ok = 1;
    for (int i = 0; i < N; i++)
        if (v[i] != i + 20) j->ok = 0;
    gp_queue_release(q);
    gp_buffer_release(b);
    return NULL;
}

static void one_kernel_many_threads(void **state)
{
    (void)state;
    for (int d = 0; d < g_nspecs; d++) {
        gp_device *dev;
        GPT_CHECK(gp_device_open(g_specs[d], &dev));
        gp_program *p;
        gp_kernel *k;
        GPT_CHECK(gp_program_create(dev, kSrc, strlen(kSrc), NULL, &p));
        GPT_CHECK(gp_kernel_create(p, "add_one", &k));
        enum { T = 4 };
        gp_thread t[T];
        job jobs[T];
        for (int i = 0; i < T; i++) {
            jobs[i] = (job){dev, k, 0};
            assert_int_equal(gp_thread_create(&t[i], launcher, &jobs[i]), 0);
        }
        for (int i = 0; i < T; i++) {
            gp_thread_join(t[i]);
            assert_true(jobs[i].ok);
        }
        gp_kernel_release(k), gp_program_release(p), gp_device_release(dev);
        fprintf(stderr, "  %s ok\n", g_specs[d]);
    }
}

/* The largest group each device allows for a kernel with barriers (1024 fibers on the CPU). */
static void largest_group_with_barriers(void **state)
{
    (void)state;
    enum { N = 5000 };
    static float in[N];
    double total = 0;
    for (int i = 0; i < N; i++) {
        in[i] = (float)(i % 17);
        total += in[i];
    }
    for (int d = 0; d < g_nspecs; d++) {
        gp_device *dev;
        GPT_CHECK(gp_device_open(g_specs[d], &dev));
        gp_program *p;
        gp_kernel *k;
        GPT_CHECK(gpt_build(dev, "reduce.gpk", NULL, 0, &p));
        GPT_CHECK(gp_kernel_create(p, "reduce_sum", &k));
        uint32_t max;
        GPT_CHECK(gp_kernel_max_group_size(k, &max));
        uint32_t g = 1;
        while (g * 2 <= max && g * 2 <= 1024)
            g *= 2; /* the kernel needs a power of two */
        size_t group = g, global = N, ng = (N + g - 1) / g;
        gp_buffer *bi, *bo;
        GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, sizeof in, &bi));
        GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, ng * sizeof(float), &bo));
        GPT_CHECK(gp_buffer_write(bi, 0, in, sizeof in));
        int n = N;
        gp_arg args[] = {gp_arg_buffer(bo), gp_arg_buffer(bi), gp_arg_shared(g * sizeof(float)),
                         gp_arg_value(&n, 4)};
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 4, args));
        float part[64];
        assert_true(ng <= 64);
        GPT_CHECK(gp_buffer_read(bo, 0, part, ng * sizeof(float)));
        double sum = 0;
        for (size_t i = 0; i < ng; i++)
            sum += part[i];
        assert_true(sum == total); /* small integers: exact in float */
        gp_buffer_release(bi), gp_buffer_release(bo), gp_kernel_release(k), gp_program_release(p);
        gp_device_release(dev);
        fprintf(stderr, "  %s ok (group %u)\n", g_specs[d], g);
    }
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
        cmocka_unit_test(queues_and_events),
        cmocka_unit_test(one_kernel_many_threads),
        cmocka_unit_test(largest_group_with_barriers),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
