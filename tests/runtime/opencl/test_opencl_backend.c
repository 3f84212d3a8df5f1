/*
 * test_opencl_backend.c — the OpenCL backend through the public API, on PoCL: device facts,
 * buffers of every kind, 2-D launches, dynamic shared memory, events, one kernel launched from
 * two threads, every error case (unknown kernel, wrong arguments, a group above the kernel's
 * CL_KERNEL_WORK_GROUP_SIZE, out of memory, a compile error naming the user's line), and the
 * kernel cache across processes: a cold build stores an OpenCL binary, the next process loads
 * it, and a binary the driver rejects is rebuilt from source and replaced; and the reasons the
 * selection record gives when the loader, a platform or a device is missing (each in a fresh
 * process with the environment that causes it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpuport/gpuport.h"
#include "runtime/cache.h"
#include "runtime/opencl/device.h"
#include "runtime/opencl/loader.h"
#include "runtime/opencl/opencl.h"
#include "runtime/opencl/program.h"
#include "skip.h"

static const char *gp_test_self;

static const char gp_test_src[] =
    "GP_KERNEL(saxpy, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), GP_VAL(int, n))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "GP_KERNEL(add2d, GP_BUF(int, m), GP_VAL(int, w), GP_VAL(int, h))\n"
    "{\n"
    "    int x = gp_global_id(0), y = gp_global_id(1);\n"
    "    if (x < w && y < h) m[y * w + x] += y * 1000 + x;\n"
    "}\n"
    "GP_KERNEL(groupsum, GP_BUF(float, out), GP_CBUF(float, in), GP_DYN_SHARED(float, tmp))\n"
    "{\n"
    "    int l = gp_local_id(0);\n"
    "    tmp[l] = in[gp_global_id(0)];\n"
    "    gp_barrier();\n"
    "    if (l == 0) {\n"
    "        float s = 0.0f;\n"
    "        for (int i = 0; i < gp_local_size(0); i++) s += tmp[i];\n"
    "        out[gp_group_id(0)] = s;\n"
    "    }\n"
    "}\n";

typedef struct gp_test_env {
    gp_device *dev;
    gp_program *prog;
} gp_test_env;

static int gp_test_setup(void **state)
{
    static gp_test_env env;
    memset(&env, 0, sizeof env);
    *state = &env;
    if (gp_device_open("opencl", &env.dev) != GP_OK) {
        print_message("no OpenCL device: %s\n", gp_last_error());
        env.dev = NULL;
        return 0;
    }
    gp_build_options o = {sizeof o, GP_BUILD_NO_CACHE, "backend.gpk", NULL, 0, 0};
    if (gp_program_create(env.dev, gp_test_src, strlen(gp_test_src), &o, &env.prog) != GP_OK) {
        print_message("%s\n", gp_last_error());
        return -1;
    }
    return 0;
}

static int gp_test_teardown(void **state)
{
    gp_test_env *env = *state;
    gp_program_release(env->prog);
    gp_device_release(env->dev);
    return 0;
}

#define GP_TEST_NEED_DEV(env)                                                                      \
    gp_test_env *env = *state;                                                                     \
    if (!env->dev) GP_TEST_SKIP("no OpenCL device on this machine");

#define GP_OKAY(call) assert_int_equal((call), GP_OK)

static void test_device_info_matches_opencl(void **state)
{
    GP_TEST_NEED_DEV(env);
    gp_device_info in;
    GP_OKAY(gp_device_get_info(env->dev, &in));
    assert_int_equal(in.backend, GP_BACKEND_OPENCL);
    assert_string_equal(in.spec, "opencl:0");
    /* the same facts as asked of OpenCL directly */
    const gp_cl_api *api = gp_cl_api_get(NULL, 0);
    gp_cl_device_info *devs = NULL;
    size_t n = 0;
    char why[1024];
    assert_int_equal(gp_cl_devices_enumerate(api, &devs, &n, why, sizeof why, NULL), GP_CL_ENUM_OK);
    assert_string_equal(in.name, devs[0].name);
    assert_string_equal(in.driver_version, devs[0].driver_version);
    assert_true(in.total_memory == devs[0].global_mem_bytes);
    assert_true(in.max_shared_memory == devs[0].local_mem_bytes);
    assert_true(in.max_buffer_size == devs[0].max_alloc_bytes);
    assert_int_equal(in.compute_units, devs[0].compute_units);
    assert_int_equal(in.max_group_size, devs[0].max_group_size);
    assert_int_equal(in.max_group_dims[0], devs[0].max_item_sizes[0]);
    assert_int_equal(in.unified_memory, devs[0].unified_memory);
    assert_int_equal(in.fp64, devs[0].fp64);
    assert_int_equal(in.fp16, devs[0].fp16);
    assert_int_equal(in.simd_width, devs[0].simd_width);
    free(devs);
    /* the selection record of a named open says opencl was chosen */
    gp_selection_entry sel[GP_BACKEND_COUNT];
    uint32_t count = 0;
    GP_OKAY(gp_device_selection(env->dev, sel, GP_BACKEND_COUNT, &count));
    assert_int_equal(sel[GP_BACKEND_OPENCL].outcome, GP_SELECT_CHOSEN);
}

static void test_saxpy_and_2d(void **state)
{
    GP_TEST_NEED_DEV(env);
    enum { N = 5003 };
    float x[N], y[N], out[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.25f;
        y[i] = (float)(N - i);
    }
    gp_buffer *bx, *by;
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, sizeof x, &bx));
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, sizeof y, &by));
    GP_OKAY(gp_buffer_write(bx, 0, x, sizeof x));
    GP_OKAY(gp_buffer_write(by, 0, y, sizeof y));
    gp_kernel *k;
    GP_OKAY(gp_kernel_create(env->prog, "saxpy", &k));
    float a = 3.0f;
    int n = N;
    gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, sizeof a),
                     gp_arg_value(&n, sizeof n)};
    size_t global = N, group = 64; /* N is not a multiple of 64 */
    GP_OKAY(gp_kernel_launch(NULL, k, 1, &global, &group, 4, args));
    GP_OKAY(gp_buffer_read(by, 0, out, sizeof out));
    for (int i = 0; i < N; i++)
        assert_true(out[i] == a * x[i] + y[i]);
    gp_kernel_release(k);

    enum { W = 37, H = 21 };
    int m[W * H];
    for (int i = 0; i < W * H; i++)
        m[i] = -i;
    gp_buffer *bm;
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, sizeof m, &bm));
    GP_OKAY(gp_buffer_write(bm, 0, m, sizeof m));
    GP_OKAY(gp_kernel_create(env->prog, "add2d", &k));
    int w = W, h = H;
    gp_arg a2[] = {gp_arg_buffer(bm), gp_arg_value(&w, sizeof w), gp_arg_value(&h, sizeof h)};
    size_t g2[2] = {W, H}, grp2[2] = {8, 4};
    GP_OKAY(gp_kernel_launch(NULL, k, 2, g2, grp2, 3, a2));
    GP_OKAY(gp_buffer_read(bm, 0, m, sizeof m));
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++)
            assert_int_equal(m[yy * W + xx], -(yy * W + xx) + yy * 1000 + xx);
    gp_kernel_release(k);
    gp_buffer_release(bm);
    gp_buffer_release(bx);
    gp_buffer_release(by);
}

static void test_fast_math_build(void **state)
{
    GP_TEST_NEED_DEV(env);
    /* GP_BUILD_FAST_MATH becomes -cl-fast-relaxed-math; the program still computes saxpy. */
    gp_build_options o = {sizeof o, GP_BUILD_FAST_MATH | GP_BUILD_NO_CACHE, "fast.gpk", NULL, 0, 0};
    gp_program *p;
    GP_OKAY(gp_program_create(env->dev, gp_test_src, strlen(gp_test_src), &o, &p));
    assert_ptr_not_equal(p, env->prog); /* another key: not the in-process cache's program */
    gp_kernel *k;
    GP_OKAY(gp_kernel_create(p, "saxpy", &k));
    enum { N = 257 };
    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i, y[i] = 0.5f;
    gp_buffer *bx, *by;
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, sizeof x, &bx));
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, sizeof y, &by));
    GP_OKAY(gp_buffer_write(bx, 0, x, sizeof x));
    GP_OKAY(gp_buffer_write(by, 0, y, sizeof y));
    float a = 1.5f;
    int n = N;
    gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, sizeof a),
                     gp_arg_value(&n, sizeof n)};
    size_t global = N;
    GP_OKAY(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, args));
    GP_OKAY(gp_buffer_read(by, 0, y, sizeof y));
    for (int i = 0; i < N; i++)
        assert_true(fabsf(y[i] - (1.5f * (float)i + 0.5f)) <= 1e-3f * (1.5f * (float)i + 0.5f));
    gp_buffer_release(bx);
    gp_buffer_release(by);
    gp_kernel_release(k);
    gp_program_release(p);
}

/* A barrier under a condition the whole group takes, other work under another condition: the
 * shape PoCL 3 loses the barrier branch's writes of unless built without optimisation. Every
 * group but the last adds one to its elements and writes the first; the last writes -1. */
static void test_barrier_under_a_group_condition(void **state)
{
    GP_TEST_NEED_DEV(env);
    static const char src[] = "GP_KERNEL(tail_apart, GP_CBUF(float, in), GP_BUF(float, out))\n"
                              "{\n"
                              "    GP_SHARED_DECL float s[64];\n"
                              "    int b = (int)gp_group_id(0), t = (int)gp_local_id(0);\n"
                              "    s[t] = in[b * 64 + t];\n"
                              "    gp_barrier();\n"
                              "    if (b != (int)gp_num_groups(0) - 1) {\n"
                              "        s[t] = s[t] + 1.0f;\n"
                              "        gp_barrier();\n"
                              "        if (t == 63) out[b] = s[0];\n"
                              "    } else {\n"
                              "        if (t == 0) out[b] = -1.0f;\n"
                              "    }\n"
                              "}\n";
    gp_build_options o = {sizeof o, GP_BUILD_NO_CACHE, "tail_apart.gpk", NULL, 0, 0};
    gp_program *p;
    GP_OKAY(gp_program_create(env->dev, src, strlen(src), &o, &p));
    gp_kernel *k;
    GP_OKAY(gp_kernel_create(p, "tail_apart", &k));
    enum { G = 4 };
    float in[G * 64], out[G];
    for (int i = 0; i < G * 64; i++)
        in[i] = (float)(i / 64);
    gp_buffer *bi, *bo;
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, sizeof in, &bi));
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, sizeof out, &bo));
    GP_OKAY(gp_buffer_write(bi, 0, in, sizeof in));
    gp_arg args[] = {gp_arg_buffer(bi), gp_arg_buffer(bo)};
    size_t global = G * 64, group = 64;
    GP_OKAY(gp_kernel_launch(NULL, k, 1, &global, &group, 2, args));
    GP_OKAY(gp_buffer_read(bo, 0, out, sizeof out));
    for (int g = 0; g < G - 1; g++)
        assert_true(out[g] == (float)g + 1.0f);
    assert_true(out[G - 1] == -1.0f);
    gp_buffer_release(bi);
    gp_buffer_release(bo);
    gp_kernel_release(k);
    gp_program_release(p);
}

static void test_dynamic_shared_memory(void **state)
{
    GP_TEST_NEED_DEV(env);
    enum { G = 32, NG = 10 };
    float in[G * NG], out[NG];
    for (int i = 0; i < G * NG; i++)
        in[i] = (float)(i % 13);
    gp_buffer *bin, *bout;
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, sizeof in, &bin));
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, sizeof out, &bout));
    GP_OKAY(gp_buffer_write(bin, 0, in, sizeof in));
    gp_kernel *k;
    GP_OKAY(gp_kernel_create(env->prog, "groupsum", &k));
    gp_arg args[] = {gp_arg_buffer(bout), gp_arg_buffer(bin), gp_arg_shared(G * sizeof(float))};
    size_t global = G * NG, group = G;
    GP_OKAY(gp_kernel_launch(NULL, k, 1, &global, &group, 3, args));
    GP_OKAY(gp_buffer_read(bout, 0, out, sizeof out));
    for (int g = 0; g < NG; g++) {
        float want = 0;
        for (int i = 0; i < G; i++)
            want += in[g * G + i];
        assert_true(out[g] == want);
    }
    gp_kernel_release(k);
    gp_buffer_release(bin);
    gp_buffer_release(bout);
}

static void test_buffer_kinds_map_fill_copy(void **state)
{
    GP_TEST_NEED_DEV(env);
    gp_device_info in;
    GP_OKAY(gp_device_get_info(env->dev, &in));
    enum { N = 1024 };
    gp_buffer_kind kinds[] = {GP_BUFFER_PINNED, GP_BUFFER_SHARED};
    for (size_t kk = 0; kk < 2; kk++) {
        gp_buffer *b, *d;
        gp_status st = gp_buffer_create(env->dev, kinds[kk], N * sizeof(int), &b);
        if (kinds[kk] == GP_BUFFER_SHARED && !in.unified_memory) {
            assert_int_equal(st, GP_ERR_UNSUPPORTED);
            continue;
        }
        GP_OKAY(st);
        GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, N * sizeof(int), &d));
        int *p = NULL;
        GP_OKAY(gp_buffer_map(b, (void **)&p));
        for (int i = 0; i < N; i++)
            p[i] = i * 7;
        GP_OKAY(gp_buffer_unmap(b));
        int pattern = 0x01020304;
        GP_OKAY(gp_buffer_fill(d, 0, &pattern, sizeof pattern, N * sizeof(int)));
        /* copy the second half of b over the first half of d */
        GP_OKAY(gp_buffer_copy(d, 0, b, N / 2 * sizeof(int), N / 2 * sizeof(int)));
        int back[N];
        GP_OKAY(gp_buffer_read(d, 0, back, sizeof back));
        for (int i = 0; i < N / 2; i++)
            assert_int_equal(back[i], (i + N / 2) * 7);
        for (int i = N / 2; i < N; i++)
            assert_int_equal(back[i], pattern);
        GP_OKAY(gp_buffer_map(b, (void **)&p));
        assert_int_equal(p[N - 1], (N - 1) * 7);
        GP_OKAY(gp_buffer_unmap(b));
        gp_buffer_release(b);
        gp_buffer_release(d);
    }
}

static void test_map_waits_for_other_queues(void **state)
{
    GP_TEST_NEED_DEV(env);
    /* a kernel on a queue of its own writes a pinned buffer; mapping it right after the launch
     * (no finish) must show the kernel's result */
    enum { N = 1 << 18 };
    gp_queue *q;
    GP_OKAY(gp_queue_create(env->dev, &q));
    gp_buffer *by, *bx;
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_PINNED, N * sizeof(float), &by));
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, N * sizeof(float), &bx));
    float one = 1.0f, zero = 0.0f;
    GP_OKAY(gp_buffer_fill(bx, 0, &one, sizeof one, N * sizeof(float)));
    GP_OKAY(gp_buffer_fill(by, 0, &zero, sizeof zero, N * sizeof(float)));
    gp_kernel *k;
    GP_OKAY(gp_kernel_create(env->prog, "saxpy", &k));
    float a = 1.0f;
    int n = N;
    gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, sizeof a),
                     gp_arg_value(&n, sizeof n)};
    size_t global = N;
    for (int r = 0; r < 8; r++)
        GP_OKAY(gp_kernel_launch(q, k, 1, &global, NULL, 4, args));
    float *p = NULL;
    GP_OKAY(gp_buffer_map(by, (void **)&p));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += p[i] != 8.0f;
    GP_OKAY(gp_buffer_unmap(by));
    assert_int_equal(wrong, 0);
    gp_kernel_release(k);
    gp_buffer_release(bx);
    gp_buffer_release(by);
    GP_OKAY(gp_queue_release(q));
}

static void test_async_queue_and_events(void **state)
{
    GP_TEST_NEED_DEV(env);
    enum { N = 1 << 16 };
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    assert_non_null(x);
    assert_non_null(y);
    for (int i = 0; i < N; i++)
        x[i] = 1.0f, y[i] = 2.0f;
    gp_queue *q;
    GP_OKAY(gp_queue_create(env->dev, &q));
    gp_buffer *bx, *by;
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, N * sizeof(float), &bx));
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, N * sizeof(float), &by));
    gp_event *e0, *e1;
    GP_OKAY(gp_event_record(q, &e0));
    GP_OKAY(gp_buffer_write_async(q, bx, 0, x, N * sizeof(float)));
    GP_OKAY(gp_buffer_write_async(q, by, 0, y, N * sizeof(float)));
    gp_kernel *k;
    GP_OKAY(gp_kernel_create(env->prog, "saxpy", &k));
    float a = 0.5f;
    int n = N;
    gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, sizeof a),
                     gp_arg_value(&n, sizeof n)};
    size_t global = N;
    for (int r = 0; r < 4; r++)
        GP_OKAY(gp_kernel_launch(q, k, 1, &global, NULL, 4, args));
    GP_OKAY(gp_buffer_read_async(q, by, 0, y, N * sizeof(float)));
    GP_OKAY(gp_event_record(q, &e1));
    GP_OKAY(gp_event_wait(e1));
    for (int i = 0; i < N; i++)
        assert_true(y[i] == 4.0f);
    double ms = -1;
    GP_OKAY(gp_event_elapsed_ms(e0, e1, &ms));
    assert_true(ms >= 0.0);
    /* the default queue waits for an event of q */
    gp_queue *dq;
    GP_OKAY(gp_device_queue(env->dev, &dq));
    GP_OKAY(gp_queue_wait_event(dq, e1));
    GP_OKAY(gp_device_synchronize(env->dev));
    gp_event_release(e0);
    gp_event_release(e1);
    gp_kernel_release(k);
    gp_buffer_release(bx);
    gp_buffer_release(by);
    GP_OKAY(gp_queue_release(q));
    free(x);
    free(y);
}

/* One kernel object, launched from two threads with different arguments: the backend must
 * keep each launch's arguments together. */
typedef struct gp_test_thread {
    gp_device *dev;
    gp_kernel *k;
    float a;
    int ok;
} gp_test_thread;

static void *gp_test_thread_main(void *p)
{
    gp_test_thread *t = p;
    enum { N = 4096, ROUNDS = 100 };
    float *y = calloc(N, sizeof *y), *x = malloc(N * sizeof *x);
    gp_buffer *bx = NULL, *by = NULL;
    gp_queue *q = NULL;
    t->ok = 0;
    if (!x || !y) goto out;
    for (int i = 0; i < N; i++)
        x[i] = 1.0f;
    if (gp_queue_create(t->dev, &q) || gp_buffer_create(t->dev, GP_BUFFER_DEVICE, N * 4, &bx) ||
        gp_buffer_create(t->dev, GP_BUFFER_DEVICE, N * 4, &by) ||
        gp_buffer_write(bx, 0, x, N * 4) || gp_buffer_write(by, 0, y, N * 4))
        goto out;
    int n = N;
    size_t global = N;
    for (int r = 0; r < ROUNDS; r++) {
        gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&t->a, sizeof t->a),
                         gp_arg_value(&n, sizeof n)};
        if (gp_kernel_launch(q, t->k, 1, &global, NULL, 4, args)) goto out;
    }
    if (gp_queue_finish(q) || gp_buffer_read(by, 0, y, N * 4)) goto out;
    t->ok = 1;
    for (int i = 0; i < N; i++)
        if (y[i] != t->a * ROUNDS) t->ok = 0;
out:
    gp_buffer_release(bx);
    gp_buffer_release(by);
    gp_queue_release(q);
    free(x);
    free(y);
    return NULL;
}

static void test_one_kernel_two_threads(void **state)
{
    GP_TEST_NEED_DEV(env);
    gp_kernel *k;
    GP_OKAY(gp_kernel_create(env->prog, "saxpy", &k));
    gp_test_thread t[2] = {{env->dev, k, 1.0f, 0}, {env->dev, k, 2.0f, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, gp_test_thread_main, &t[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    assert_true(t[0].ok);
    assert_true(t[1].ok);
    gp_kernel_release(k);
}

static void test_errors_are_statuses(void **state)
{
    GP_TEST_NEED_DEV(env);
    gp_kernel *k = NULL;
    /* unknown kernel */
    assert_int_equal(gp_kernel_create(env->prog, "no_such_kernel", &k), GP_ERR_NOT_FOUND);
    assert_non_null(strstr(gp_last_error(), "no_such_kernel"));
    GP_OKAY(gp_kernel_create(env->prog, "saxpy", &k));
    gp_buffer *b;
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, 4096, &b));
    float a = 1;
    int n = 16;
    size_t global = 16;
    /* wrong count */
    gp_arg three[] = {gp_arg_buffer(b), gp_arg_buffer(b), gp_arg_value(&a, sizeof a)};
    assert_int_equal(gp_kernel_launch(NULL, k, 1, &global, NULL, 3, three),
                     GP_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gp_last_error(), "saxpy"));
    /* wrong kind: a value where a buffer is declared */
    gp_arg kind[] = {gp_arg_value(&a, sizeof a), gp_arg_buffer(b), gp_arg_value(&a, sizeof a),
                     gp_arg_value(&n, sizeof n)};
    assert_int_equal(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, kind), GP_ERR_INVALID_ARGUMENT);
    /* wrong size: a double for a float */
    double d = 1;
    gp_arg size[] = {gp_arg_buffer(b), gp_arg_buffer(b), gp_arg_value(&d, sizeof d),
                     gp_arg_value(&n, sizeof n)};
    assert_int_equal(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, size), GP_ERR_INVALID_ARGUMENT);

    /* a group above the kernel's own limit, which is CL_KERNEL_WORK_GROUP_SIZE */
    uint32_t limit = 0;
    GP_OKAY(gp_kernel_max_group_size(k, &limit));
    assert_true(limit >= 1);
    gp_arg ok[] = {gp_arg_buffer(b), gp_arg_buffer(b), gp_arg_value(&a, sizeof a),
                   gp_arg_value(&n, sizeof n)};
    /* two dimensions, each within the device's per-dimension limit, together above the limit */
    size_t g2[2] = {limit, 2}, grp2[2] = {limit, 2};
    gp_status st = gp_kernel_launch(NULL, k, 2, g2, grp2, 4, ok);
    assert_int_equal(st, GP_ERR_LAUNCH);
    char num[32];
    snprintf(num, sizeof num, "%u", limit);
    assert_non_null(strstr(gp_last_error(), num));
    /* exactly the limit is accepted */
    size_t g1 = limit, grp1 = limit;
    GP_OKAY(gp_kernel_launch(NULL, k, 1, &g1, &grp1, 4, ok));
    GP_OKAY(gp_device_synchronize(env->dev));
    gp_kernel_release(k);
    gp_buffer_release(b);

    /* out of memory: above the device's largest allocation */
    gp_device_info in;
    GP_OKAY(gp_device_get_info(env->dev, &in));
    gp_buffer *huge = NULL;
    st = gp_buffer_create(env->dev, GP_BUFFER_DEVICE, (size_t)in.max_buffer_size + 4096, &huge);
    assert_int_equal(st, GP_ERR_OUT_OF_MEMORY);
    assert_null(huge);
    /* the message names the limit, which is CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    snprintf(num, sizeof num, "%llu", (unsigned long long)in.max_buffer_size);
    assert_non_null(strstr(gp_last_error(), num));

    /* a compile error names the user's file and line (the error is on line 3) */
    static const char bad[] = "GP_KERNEL(bad, GP_BUF(int, a))\n"
                              "{\n"
                              "    a[0] = undeclared_name_here;\n"
                              "}\n";
    gp_build_options o = {sizeof o, GP_BUILD_NO_CACHE, "dir/bad.gpk", NULL, 0, 0};
    gp_program *p = NULL;
    assert_int_equal(gp_program_create(env->dev, bad, strlen(bad), &o, &p), GP_ERR_BUILD);
    assert_null(p);
    assert_non_null(strstr(gp_last_error(), "dir/bad.gpk:3:"));
    assert_non_null(strstr(gp_last_error(), "undeclared_name_here"));
}

static void test_kernel_limit_is_cl_kernel_work_group_size(void **state)
{
    GP_TEST_NEED_DEV(env);
    /* The same source built directly: the limit gpuport reports is the driver's. */
    static const char cl[] = "__kernel void saxpy(__global float *y, __global const float *x, "
                             "float a, int n) { int i = get_global_id(0); if (i < n) y[i] = a * "
                             "x[i] + y[i]; }\n";
    const gp_cl_api *api = gp_cl_api_get(NULL, 0);
    gp_cl_device_info *devs = NULL;
    size_t n = 0;
    char why[1024];
    assert_int_equal(gp_cl_devices_enumerate(api, &devs, &n, why, sizeof why, NULL), GP_CL_ENUM_OK);
    cl_int err;
    cl_context ctx = api->clCreateContext(NULL, 1, &devs[0].device, NULL, NULL, &err);
    cl_program prog;
    GP_OKAY(gp_cl_program_build_source(api, ctx, devs[0].device, NULL, cl, strlen(cl), "d.cl", NULL,
                                       &prog));
    cl_kernel ck = api->clCreateKernel(prog, "saxpy", &err);
    gp_cl_kernel_limits lim;
    GP_OKAY(gp_cl_kernel_limits_query(api, ck, devs[0].device, &lim));
    gp_kernel *k;
    GP_OKAY(gp_kernel_create(env->prog, "saxpy", &k));
    uint32_t limit = 0;
    GP_OKAY(gp_kernel_max_group_size(k, &limit));
    assert_int_equal(limit, lim.max_group_size);
    gp_kernel_release(k);
    api->clReleaseKernel(ck);
    api->clReleaseProgram(prog);
    api->clReleaseContext(ctx);
    free(devs);
}

/* ---- the kernel cache across processes ------------------------------------------------------ */

/* Child side: builds gp_test_src through the cache in `dir` and runs saxpy; exit 0 when right,
 * 1 for a wrong result, 2 for a failed build, 3 for anything else. */
static int gp_test_child_build(const char *dir)
{
    enum { N = 300 };
    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i, y[i] = 1.0f;
    gp_device *dev = NULL;
    gp_program *p = NULL;
    gp_kernel *k = NULL;
    gp_buffer *bx = NULL, *by = NULL;
    int n = N, rc = 3;
    float a = 2.0f;
    size_t global = N;
    if (gp_cache_set_dir(dir) || gp_device_open("opencl", &dev)) goto out;
    gp_build_options o = {sizeof o, 0, "cached.gpk", NULL, 0, 0};
    if (gp_program_create(dev, gp_test_src, strlen(gp_test_src), &o, &p) ||
        gp_kernel_create(p, "saxpy", &k)) {
        fprintf(stderr, "child: %s\n", gp_last_error());
        rc = 2;
        goto out;
    }
    if (gp_buffer_create(dev, GP_BUFFER_DEVICE, sizeof x, &bx) ||
        gp_buffer_create(dev, GP_BUFFER_DEVICE, sizeof y, &by) ||
        gp_buffer_write(bx, 0, x, sizeof x) || gp_buffer_write(by, 0, y, sizeof y))
        goto out;
    gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, sizeof a),
                     gp_arg_value(&n, sizeof n)};
    if (gp_kernel_launch(NULL, k, 1, &global, NULL, 4, args) || gp_buffer_read(by, 0, y, sizeof y))
        goto out;
    rc = 0;
    for (int i = 0; i < N; i++)
        if (y[i] != 2.0f * (float)i + 1.0f) rc = 1;
out:
    gp_buffer_release(bx);
    gp_buffer_release(by);
    gp_kernel_release(k);
    gp_program_release(p);
    gp_device_release(dev);
    gp_cache_set_dir(NULL);
    return rc;
}

/* Runs the child with GPUPORT_LOG=debug; returns its exit code, its stderr in `err`. */
static int gp_test_run_child(const char *dir, char *err, size_t cap)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        setenv("GPUPORT_LOG", "debug", 1);
        char *const argv[] = {(char *)gp_test_self, "--child-build", (char *)dir, NULL};
        execv(gp_test_self, argv);
        _exit(127);
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t r;
    char sink[4096];
    while ((r = read(fds[0], got + 1 < cap ? err + got : sink,
                     got + 1 < cap ? cap - 1 - got : sizeof sink)) > 0)
        if (got + 1 < cap) got += (size_t)r;
    err[got] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* The key of the one .clbin entry in dir (without the extension), or "" when none. */
static void gp_test_find_entry(const char *dir, char key[65])
{
    key[0] = '\0';
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int found = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len == 64 + 6 && strcmp(e->d_name + 64, ".clbin") == 0) {
            memcpy(key, e->d_name, 64);
            key[64] = '\0';
            found++;
        }
    }
    closedir(d);
    assert_true(found <= 1);
}

static void test_cache_across_processes(void **state)
{
    GP_TEST_NEED_DEV(env);
    char dir[256];
    snprintf(dir, sizeof dir, "%s/gp-cl-cache-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    char err[16384];
    char key[65];

    /* cold: built from source, binary stored */
    assert_int_equal(gp_test_run_child(dir, err, sizeof err), 0);
    assert_null(strstr(err, "OpenCL binary from the kernel cache"));
    gp_test_find_entry(dir, key);
    assert_int_equal(strlen(key), 64);

    /* warm: a new process loads the binary */
    assert_int_equal(gp_test_run_child(dir, err, sizeof err), 0);
    assert_non_null(strstr(err, "OpenCL binary from the kernel cache"));

    /* an entry whose checksum is right but which the driver refuses (as after a driver
     * update): rebuilt from source, and the entry replaced by a good one */
    GP_OKAY(gp_cache_set_dir(dir));
    static const char junk[] = "this is not an OpenCL program binary";
    GP_OKAY(gp_cache_store(key, "clbin", junk, sizeof junk));
    assert_int_equal(gp_test_run_child(dir, err, sizeof err), 0);
    assert_non_null(strstr(err, "rejected"));
    assert_non_null(strstr(err, "rebuilding from source"));
    void *data = NULL;
    size_t len = 0;
    GP_OKAY(gp_cache_load(key, "clbin", &data, &len));
    assert_true(len != sizeof junk || memcmp(data, junk, len) != 0);
    free(data);
    assert_int_equal(gp_test_run_child(dir, err, sizeof err), 0);
    assert_non_null(strstr(err, "OpenCL binary from the kernel cache"));
    GP_OKAY(gp_cache_set_dir(NULL));

    /* clean up the folder */
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d) closedir(d);
    rmdir(dir);
}

/* ---- skip reasons through the public API ------------------------------------------------- */

/* Child side: probes OpenCL and opens `auto`; prints "OUTCOME|DETAIL|AUTO_BACKEND|OPEN_STATUS". */
static int gp_test_child_probe(void)
{
    gp_selection_entry e;
    if (gp_backend_probe(GP_BACKEND_OPENCL, &e) != GP_OK) return 3;
    gp_device *dev = NULL;
    gp_device_info in = {0};
    int backend = -1;
    if (gp_device_open("auto", &dev) == GP_OK && gp_device_get_info(dev, &in) == GP_OK)
        backend = in.backend;
    gp_device_release(dev);
    gp_device *named = NULL;
    gp_status st = gp_device_open("opencl", &named);
    gp_device_release(named);
    printf("%d|%s|%d|%d", e.outcome, e.detail, backend, (int)st);
    return 0;
}

typedef struct gp_test_probe {
    int outcome;
    char detail[600];
    int auto_backend;
    int open_status;
} gp_test_probe;

static void gp_test_probe_with(const char *var, const char *value, gp_test_probe *out)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        setenv(var, value, 1);
        unsetenv("GPUPORT_DEVICE");
        unsetenv("OCL_ICD_FILENAMES"); /* ICDs named outside the vendor folder */
        char *const argv[] = {(char *)gp_test_self, "--child-probe", NULL};
        execv(gp_test_self, argv);
        _exit(127);
    }
    close(fds[1]);
    char buf[2048] = "";
    size_t got = 0;
    ssize_t r;
    while (got + 1 < sizeof buf && (r = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)r;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char *f[4] = {buf, NULL, NULL, NULL};
    for (int i = 1; i < 4; i++) {
        f[i] = strchr(f[i - 1], '|');
        assert_non_null(f[i]);
        *f[i]++ = '\0';
    }
    out->outcome = atoi(f[0]);
    snprintf(out->detail, sizeof out->detail, "%s", f[1]);
    out->auto_backend = atoi(f[2]);
    out->open_status = atoi(f[3]);
}

static void test_skip_reason_library_not_found(void **state)
{
    GP_TEST_NEED_DEV(env);
    (void)env;
    char dir[256];
    snprintf(dir, sizeof dir, "%s/gp-cl-nolib-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    gp_test_probe p;
    gp_test_probe_with("GPUPORT_OPENCL_LIBRARY_PATH", dir, &p);
    rmdir(dir);
    assert_int_equal(p.outcome, GP_SELECT_LIBRARY_NOT_FOUND);
    char want[300];
    snprintf(want, sizeof want, "%s/libOpenCL.so.1", dir);
    assert_non_null(strstr(p.detail, want)); /* where it looked */
    /* `auto` falls back to another backend; asking for opencl by name is an error */
    assert_int_not_equal(p.auto_backend, GP_BACKEND_OPENCL);
    assert_int_not_equal(p.open_status, GP_OK);
}

static void test_skip_reason_not_a_loader(void **state)
{
    GP_TEST_NEED_DEV(env);
    (void)env;
    gp_test_probe p;
    gp_test_probe_with("GPUPORT_OPENCL_LIBRARY_PATH", "libm.so.6", &p);
    assert_int_equal(p.outcome, GP_SELECT_INIT_ERROR);
    assert_non_null(strstr(p.detail, "lacks clGetPlatformIDs"));
    assert_int_not_equal(p.open_status, GP_OK);
}

static void test_skip_reason_no_platform(void **state)
{
    GP_TEST_NEED_DEV(env);
    (void)env;
    char dir[256];
    snprintf(dir, sizeof dir, "%s/gp-cl-novendor-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    gp_test_probe p;
    gp_test_probe_with("OCL_ICD_VENDORS", dir, &p);
    rmdir(dir);
    if (p.outcome == GP_SELECT_AVAILABLE) { /* the loader finds ICDs elsewhere too */
        GP_TEST_SKIP("this ICD loader does not honour OCL_ICD_VENDORS alone: %s", p.detail);
    }
    assert_int_equal(p.outcome, GP_SELECT_NO_DEVICE);
    assert_non_null(strstr(p.detail, "no OpenCL platform"));
    assert_non_null(strstr(p.detail, dir));
    assert_int_not_equal(p.auto_backend, GP_BACKEND_OPENCL);
}

static void test_skip_reason_no_device(void **state)
{
    GP_TEST_NEED_DEV(env);
    (void)env;
    gp_test_probe p;
    gp_test_probe_with("POCL_DEVICES", "gp-no-such-driver", &p);
    assert_int_equal(p.outcome, GP_SELECT_NO_DEVICE);
    assert_non_null(strstr(p.detail, "no OpenCL device"));
    assert_int_not_equal(p.auto_backend, GP_BACKEND_OPENCL);
}

/* GP_CBUF is read-only on OpenCL: the kernel sees `__global const T *` (a write to it is refused
 * when the program is built, naming the line) and the buffer is passed as a CL_MEM_READ_ONLY view
 * of itself — but not when the same launch also binds it as a GP_BUF (in place). */
static void test_const_buffer_is_read_only(void **state)
{
    GP_TEST_NEED_DEV(env);
    const char *bad = "GP_KERNEL(k, GP_BUF(float, y), GP_CBUF(float, x))\n"
                      "{\n"
                      "    x[gp_global_id(0)] = 1.0f;\n"
                      "}\n";
    gp_build_options o = {sizeof o, GP_BUILD_NO_CACHE, "ro.gpk", NULL, 0, 0};
    gp_program *p = NULL;
    assert_int_equal(gp_program_create(env->dev, bad, strlen(bad), &o, &p), GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "ro.gpk:3:"));
    enum { N = 64 };
    float x[N], y[N], out[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i, y[i] = 1.0f;
    gp_buffer *bx, *by;
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, sizeof x, &bx));
    GP_OKAY(gp_buffer_create(env->dev, GP_BUFFER_DEVICE, sizeof y, &by));
    GP_OKAY(gp_buffer_write(bx, 0, x, sizeof x));
    GP_OKAY(gp_buffer_write(by, 0, y, sizeof y));
    const gp_cl_buffer *cb = bx->impl;
    assert_non_null(cb->ro); /* PoCL and Oclgrind make the view */
    gp_kernel *k;
    GP_OKAY(gp_kernel_create(env->prog, "saxpy", &k));
    float a = 2.0f;
    int n = N;
    gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, sizeof a),
                     gp_arg_value(&n, sizeof n)};
    size_t global = N;
    GP_OKAY(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, args));
    GP_OKAY(gp_buffer_read(by, 0, out, sizeof out));
    for (int i = 0; i < N; i++)
        assert_true(out[i] == 2.0f * (float)i + 1.0f);
    /* in place: y = 2 * y + y through one buffer bound both ways */
    gp_arg same[] = {gp_arg_buffer(by), gp_arg_buffer(by), gp_arg_value(&a, sizeof a),
                     gp_arg_value(&n, sizeof n)};
    GP_OKAY(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, same));
    GP_OKAY(gp_buffer_read(by, 0, y, sizeof y));
    for (int i = 0; i < N; i++)
        assert_true(y[i] == 3.0f * out[i]);
    gp_kernel_release(k);
    gp_buffer_release(bx);
    gp_buffer_release(by);
}

int main(int argc, char **argv)
{
    gp_test_self = argv[0];
    if (argc > 1 && strcmp(argv[1], "--child-probe") == 0) return gp_test_child_probe();
    if (argc > 2 && strcmp(argv[1], "--child-build") == 0) return gp_test_child_build(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_info_matches_opencl),
        cmocka_unit_test(test_saxpy_and_2d),
        cmocka_unit_test(test_fast_math_build),
        cmocka_unit_test(test_barrier_under_a_group_condition),
        cmocka_unit_test(test_dynamic_shared_memory),
        cmocka_unit_test(test_const_buffer_is_read_only),
        cmocka_unit_test(test_buffer_kinds_map_fill_copy),
        cmocka_unit_test(test_map_waits_for_other_queues),
        cmocka_unit_test(test_async_queue_and_events),
        cmocka_unit_test(test_one_kernel_two_threads),
        cmocka_unit_test(test_errors_are_statuses),
        cmocka_unit_test(test_kernel_limit_is_cl_kernel_work_group_size),
        cmocka_unit_test(test_cache_across_processes),
        cmocka_unit_test(test_skip_reason_library_not_found),
        cmocka_unit_test(test_skip_reason_not_a_loader),
        cmocka_unit_test(test_skip_reason_no_platform),
        cmocka_unit_test(test_skip_reason_no_device),
    };
    return cmocka_run_group_tests(tests, gp_test_setup, gp_test_teardown);
}
