/* test_trace.c — the timeline through the C API on every device: builds, copies and launches on
 * two queues recorded once each as complete events in microseconds, on their queue's track, never
 * overlapping there, with the args the format promises; the summary; start and stop refused out
 * of turn; launches from several threads at once, each recorded once on its queue's track, also
 * after those threads have ended and others took their place. (The Python and CLI tests parse the
 * file with Python's json as well.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "runtime/conformance.h"
#include "util/json.h"
#include "util/thread.h"

static char g_specs[16][32];
static int g_nspecs;

static const char *kSrc = "GP_KERNEL(add_one, GP_BUF(int32_t, v), GP_VAL(int, n))\n"
                          "{\n"
                          "    int i = gp_global_id(0);\n"
                          "    if (i < n) v[i] += 1;\n"
                          "}\n";

static int count_cat(const cJSON *events, const char *cat, const cJSON **first)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
    {
        const cJSON *c = cJSON_GetObjectItem(e, "cat");
        if (cJSON_IsString(c) && !strcmp(c->valuestring, cat)) {
            if (!n && first) *first = e;
            n++;
        }
    }
    return n;
}

static double num(const cJSON *e, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(e, k);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static void check_file(const char *path, const char *spec)
{
    size_t len = 0;
    char err[256];
    char *text = gp_read_file(path, 64 << 20, false, &len, err, sizeof err);
    assert_non_null(text);
    cJSON *doc = cJSON_Parse(text);
    if (!doc) fail_msg("%s: the trace is not JSON:\n%s", spec, text);
    const cJSON *events = cJSON_GetObjectItem(doc, "traceEvents");
    assert_true(cJSON_IsArray(events));
    const cJSON *launch = NULL;
    assert_int_equal(count_cat(events, "launch", &launch), 5);
    assert_int_equal(count_cat(events, "write", NULL), 1);
    assert_int_equal(count_cat(events, "read", NULL), 1);
    assert_true(count_cat(events, "build", NULL) >= 1);
    assert_true(count_cat(events, "wait", NULL) >= 2);
    const cJSON *args = cJSON_GetObjectItem(launch, "args");
    assert_string_equal(cJSON_GetObjectItem(args, "kernel")->valuestring, "add_one");
    assert_string_equal(cJSON_GetObjectItem(args, "device")->valuestring, spec);
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(args, "grid"), 0)->valueint, 4096);
    /* every complete event: positive duration, microseconds (nothing here takes a minute), and
     * the commands of one track in order without overlap */
    double last_end[8][8];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            last_end[i][j] = -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
    {
        if (strcmp(cJSON_GetObjectItem(e, "ph")->valuestring, "X") != 0) continue;
        double ts = num(e, "ts"), dur = num(e, "dur");
        int pid = (int)num(e, "pid"), tid = (int)num(e, "tid");
        assert_true(ts >= 0 && dur > 0 && dur < 60e6);
        assert_true(pid >= 1 && pid < 8 && tid >= 0 && tid < 8);
        if (tid == 0) continue; /* the host's builds and waits */
        if (ts + 1e-3 < last_end[pid][tid])
            fail_msg("%s: overlap on track %d/%d at %.3f (last ended %.3f)", spec, pid, tid, ts,
                     last_end[pid][tid]);
        last_end[pid][tid] = ts + dur;
    }
    assert_true(last_end[1][1] > 0); /* the default queue */
    assert_true(last_end[1][2] > 0); /* the queue made by the test */
    cJSON_Delete(doc);
    free(text);
}

static void timeline_on_every_device(void **state)
{
    (void)state;
    enum { N = 4096 };
    static int32_t host[N];
    for (int d = 0; d < g_nspecs; d++) {
        char path[64];
        snprintf(path, sizeof path, "trace-test-%d.json", d);
        GPT_CHECK(gp_trace_start(path));
        assert_int_equal(gp_trace_start(path), GP_ERR_INVALID_ARGUMENT);
        gp_device *dev = gpt_open(g_specs[d]);
        gp_program *p;
        GPT_CHECK(gp_program_create(dev, kSrc, strlen(kSrc), NULL, &p));
        gp_kernel *k = gpt_kernel_of(p, "add_one");
        gp_buffer *b = gpt_upload(dev, host, sizeof host);
        gp_queue *q;
        GPT_CHECK(gp_queue_create(dev, &q));
        int n = N;
        gp_arg args[] = {gp_arg_buffer(b), gp_arg_value(&n, 4)};
        size_t global = N, group = 64;
        for (int i = 0; i < 3; i++)
            GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 2, args));
        GPT_CHECK(gp_device_synchronize(dev));
        for (int i = 0; i < 2; i++)
            GPT_CHECK(gp_kernel_launch(q, k, 1, &global, &group, 2, args));
        GPT_CHECK(gp_queue_finish(q));
        GPT_CHECK(gp_buffer_read(b, 0, host, sizeof host));
        char sum[4096];
        GPT_CHECK(gp_trace_summary(sum, sizeof sum, NULL));
        assert_non_null(strstr(sum, "add_one"));
        assert_non_null(strstr(sum, "5 launches"));
        gp_queue_release(q);
        gp_buffer_release(b);
        gp_kernel_release(k);
        gp_program_release(p);
        gp_device_release(dev); /* the trace keeps what it needs of the device */
        GPT_CHECK(gp_trace_stop());
        assert_int_equal(gp_trace_stop(), GP_ERR_INVALID_ARGUMENT);
        check_file(path, g_specs[d]);
        remove(path);
        fprintf(stderr, "  %s ok\n", g_specs[d]);
    }
    assert_int_equal(gp_trace_start("/nonexistent-dir/x/t.json"), GP_ERR_IO);
    assert_non_null(strstr(gp_last_error(), "/nonexistent-dir/x/t.json"));
}

/* Threads launching at once, each on a queue of its own, then ending. */
enum { THREADS = 3, PER_THREAD = 40 };

typedef struct worker {
    gp_device *dev;
    gp_kernel *k;
    gp_status st;
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    enum { N = 256 };
    int32_t host[N] = {0};
    gp_queue *q = NULL;
    gp_buffer *b = NULL;
    w->st = gp_queue_create(w->dev, &q);
    if (w->st == GP_OK) w->st = gp_buffer_create(w->dev, GP_BUFFER_DEVICE, sizeof host, &b);
    if (w->st == GP_OK) w->st = gp_buffer_write(b, 0, host, sizeof host);
    int n = N;
    gp_arg args[] = {gp_arg_buffer(b), gp_arg_value(&n, 4)};
    size_t global = N, group = 64;
    for (int i = 0; i < PER_THREAD && w->st == GP_OK; i++)
        w->st = gp_kernel_launch(q, w->k, 1, &global, &group, 2, args);
    if (w->st == GP_OK) w->st = gp_queue_finish(q);
    if (w->st == GP_OK) w->st = gp_buffer_read(b, 0, host, sizeof host);
    if (w->st == GP_OK && host[N - 1] != PER_THREAD) w->st = GP_ERR_LAUNCH;
    gp_buffer_release(b);
    gp_queue_release(q);
    return NULL;
}

static void check_threads_file(const char *path, const char *spec)
{
    size_t len = 0;
    char err[256];
    char *text = gp_read_file(path, 64 << 20, false, &len, err, sizeof err);
    assert_non_null(text);
    cJSON *doc = cJSON_Parse(text);
    if (!doc) fail_msg("%s: the trace is not JSON:\n%s", spec, text);
    const cJSON *events = cJSON_GetObjectItem(doc, "traceEvents");
    assert_int_equal(count_cat(events, "launch", NULL), THREADS * PER_THREAD);
    assert_int_equal(count_cat(events, "write", NULL), THREADS);
    assert_int_equal(count_cat(events, "read", NULL), THREADS);
    assert_true(count_cat(events, "wait", NULL) >= THREADS);
    int per_track[8] = {0};
    double last_end[8];
    for (int i = 0; i < 8; i++)
        last_end[i] = -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
    {
        const cJSON *cat = cJSON_GetObjectItem(e, "cat");
        if (!cJSON_IsString(cat) || strcmp(cat->valuestring, "launch") != 0) continue;
        double ts = num(e, "ts"), dur = num(e, "dur");
        int pid = (int)num(e, "pid"), tid = (int)num(e, "tid");
        assert_true(ts >= 0 && dur > 0 && dur < 60e6);
        assert_int_equal(pid, 1);
        assert_true(tid >= 2 && tid < 8); /* the threads' own queues, not the default one */
        per_track[tid]++;
        if (ts + 1e-3 < last_end[tid])
            fail_msg("%s: overlap on track %d at %.3f (last ended %.3f)", spec, tid, ts,
                     last_end[tid]);
        last_end[tid] = ts + dur;
    }
    for (int t = 2; t < 2 + THREADS; t++)
        assert_int_equal(per_track[t], PER_THREAD);
    cJSON_Delete(doc);
    free(text);
}

static void timeline_of_threads(void **state)
{
    (void)state;
    for (int d = 0; d < g_nspecs; d++) {
        gp_device *dev = gpt_open(g_specs[d]);
        gp_program *p;
        GPT_CHECK(gp_program_create(dev, kSrc, strlen(kSrc), NULL, &p));
        gp_kernel *k = gpt_kernel_of(p, "add_one");
        /* twice: the second trace's threads take over the ended threads' buffers */
        for (int round = 0; round < 2; round++) {
            char path[64];
            snprintf(path, sizeof path, "trace-threads-%d-%d.json", d, round);
            GPT_CHECK(gp_trace_start(path));
            worker w[THREADS];
            gp_thread t[THREADS];
            for (int i = 0; i < THREADS; i++) {
                w[i] = (worker){.dev = dev, .k = k, .st = GP_OK};
                assert_int_equal(gp_thread_create(&t[i], worker_main, &w[i]), 0);
            }
            for (int i = 0; i < THREADS; i++) {
                gp_thread_join(t[i]);
                if (w[i].st != GP_OK) fail_msg("%s: thread %d: %s", g_specs[d], i, gp_last_error());
            }
            GPT_CHECK(gp_trace_stop());
            check_threads_file(path, g_specs[d]);
            remove(path);
        }
        gp_kernel_release(k);
        gp_program_release(p);
        gp_device_release(dev);
        fprintf(stderr, "  %s: threads ok\n", g_specs[d]);
    }
}

int main(void)
{
    g_nspecs = gpt_devices(g_specs, 16);
    const struct CMUnitTest tests[] = {cmocka_unit_test(timeline_on_every_device),
                                       cmocka_unit_test(timeline_of_threads)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
