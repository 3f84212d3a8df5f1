/* test_trace.c — the timeline through the C API on every device: builds, copies and launches on
 * two queues recorded once each as complete events in microseconds, on their queue's track, never
 * overlapping there, with the args the format promises; the summary; start and stop refused out
 * of turn. (The Python and CLI tests parse the file with Python's json as well.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "runtime/conformance.h"
#include "util/json.h"

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

int main(void)
{
    g_nspecs = gpt_devices(g_specs, 16);
    const struct CMUnitTest tests[] = {cmocka_unit_test(timeline_on_every_device)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
