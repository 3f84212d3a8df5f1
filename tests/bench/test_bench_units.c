/* test_bench_units.c — the parts of `gpuport bench` that need no device: statistics, the cv flag in
 * the human table, fractions and peak overrides on results, --peak parsing, the peak tables, the
 * gpuport.bench/1 validator and the SVG writer's escaping. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/bench.h"

static void test_stats(void **state)
{
    (void)state;
    double s[] = {4, 1, 3, 2, 5};
    gp_bench_stats st = gp_bench_stats_of(s, 5);
    assert_true(st.median == 3 && st.min == 1 && st.max == 5);
    /* sample stddev of 1..5 = sqrt(2.5); mean 3 */
    assert_true(fabs(st.cv - sqrt(2.5) / 3) < 1e-12);
    double even[] = {10, 20, 30, 40};
    st = gp_bench_stats_of(even, 4);
    assert_true(st.median == 25);
    double one[] = {7};
    st = gp_bench_stats_of(one, 1);
    assert_true(st.median == 7 && st.cv == 0 && st.p99 == 7);
    double many[100];
    for (int i = 0; i < 100; i++)
        many[i] = 99 - i;
    st = gp_bench_stats_of(many, 100);
    assert_true(fabs(st.p99 - 98.01) < 1e-9);
}

static char *render(const gp_bench_run *run)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    gp_bench_print_human(f, run);
    long len = ftell(f);
    rewind(f);
    char *buf = calloc(1, (size_t)len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    return buf;
}

static void test_cv_flag_and_fraction(void **state)
{
    (void)state;
    gp_bench_run run;
    memset(&run, 0, sizeof run);
    snprintf(run.dev.info.spec, sizeof run.dev.info.spec, "cpu:0");
    run.dev.peaks[GP_PEAK_MEMORY].value = 100;
    snprintf(run.dev.peaks[GP_PEAK_MEMORY].source, 64, "test table");
    double steady[] = {50, 50.5, 49.5}, noisy[] = {40, 50, 60};
    gp_bench_result *r = gp_bench_add(&run, "memory.copy", "GB/s", GP_PEAK_MEMORY, steady, 3, 1);
    assert_non_null(r);
    assert_true(fabs(r->fraction - 0.5) < 1e-12);
    assert_string_equal(r->peak_source, "test table");
    r = gp_bench_add(&run, "memory.add", "GB/s", GP_PEAK_MEMORY, noisy, 3, 1);
    assert_true(r->cv > GP_BENCH_CV_FLAG);
    gp_bench_add(&run, "launch.submit", "us", GP_PEAK_NONE, steady, 3, 0);
    gp_bench_add_absent(&run, "gemm.cublas-notf32.4096", "GFLOP/s", "not present: libcublas");
    char *text = render(&run);
    char *copy = strstr(text, "memory.copy"), *add = strstr(text, "memory.add");
    assert_non_null(copy);
    assert_non_null(add);
    char *eol = strchr(copy, '\n');
    assert_null(memchr(copy, '!', (size_t)(eol - copy))); /* 1% cv: not flagged */
    eol = strchr(add, '\n');
    assert_non_null(memchr(add, '!', (size_t)(eol - add))); /* 20% cv: flagged */
    assert_non_null(strstr(text, "gemm.cublas-notf32.4096"));
    assert_non_null(strstr(text, "not present: libcublas"));
    assert_non_null(strstr(text, "50.0%"));
    free(text);

    cJSON *doc = gp_bench_to_json(&run);
    char err[256];
    assert_int_equal(gp_bench_validate(doc, err, sizeof err), 0);
    const cJSON *res = cJSON_GetObjectItem(doc, "results");
    assert_int_equal(cJSON_GetArraySize(res), 4);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(res, 2), "peak")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(res, 3), "median")));
    cJSON_Delete(doc);
    gp_bench_run_free(&run);
}

static void test_peak_parse(void **state)
{
    (void)state;
    gp_bench_peak_override o;
    char err[256];
    assert_int_equal(gp_bench_peak_parse("memory=4800", &o, err, sizeof err), 0);
    assert_int_equal(o.kind, GP_PEAK_MEMORY);
    assert_true(o.value == 4800);
    assert_int_equal(gp_bench_peak_parse("fp32=66.9e3", &o, err, sizeof err), 0);
    assert_int_equal(o.kind, GP_PEAK_FP32);
    assert_int_equal(gp_bench_peak_parse("link=55", &o, err, sizeof err), 0);
    assert_int_equal(o.kind, GP_PEAK_COUNT);
    assert_int_equal(gp_bench_peak_parse("memory", &o, err, sizeof err), -1);
    assert_int_equal(gp_bench_peak_parse("memory=0", &o, err, sizeof err), -1);
    assert_int_equal(gp_bench_peak_parse("memory=12x", &o, err, sizeof err), -1);
    assert_int_equal(gp_bench_peak_parse("mem=12", &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown name"));
}

static void test_tables(void **state)
{
    (void)state;
    /* H200: 132 SMs x 1980 MHz x 128 lanes x 2 = 66.9 TFLOP/s (the published FP32 peak) */
    int lanes = gp_bench_cuda_lanes_per_sm(9, 0);
    assert_int_equal(lanes, 128);
    assert_true(fabs(1980e6 * 132 * lanes * 2 / 1e12 - 66.9) < 0.1);
    assert_int_equal(gp_bench_cuda_lanes_per_sm(8, 0), 64);
    assert_int_equal(gp_bench_cuda_lanes_per_sm(8, 6), 128);
    assert_int_equal(gp_bench_cuda_lanes_per_sm(3, 5), 0);
    double mem, fp32;
    char src[256];
    assert_int_equal(gp_bench_apple_peak("Apple M2 Max", 0, &mem, &fp32, src, sizeof src), 0);
    assert_true(mem == 400 && fp32 == 0);
    assert_int_equal(gp_bench_apple_peak("Apple M1", 8, &mem, &fp32, src, sizeof src), 0);
    assert_true(mem == 68 && fabs(fp32 - 2617) < 1);
    assert_int_equal(gp_bench_apple_peak("Apple M4 Pro", 0, &mem, &fp32, src, sizeof src), 0);
    assert_true(mem == 273);
    assert_int_equal(gp_bench_apple_peak("AMD Radeon Pro", 0, &mem, &fp32, src, sizeof src), -1);
    assert_int_equal(gp_bench_nvidia_peak("NVIDIA H200", &mem, &fp32), 0);
    assert_true(mem == 4800 && fp32 == 66900);
    assert_int_equal(gp_bench_nvidia_peak("NVIDIA H100 PCIe", &mem, &fp32), 0);
    assert_true(mem == 2000);
    assert_int_equal(gp_bench_nvidia_peak("NVIDIA H100 80GB HBM3", &mem, &fp32), 0);
    assert_true(mem == 3350);
    assert_int_equal(gp_bench_nvidia_peak("Tesla T4", &mem, &fp32), -1);
    assert_true(mem == 0);
    assert_int_equal(gp_bench_apple_peak("Apple M9", 0, &mem, &fp32, src, sizeof src), -1);
}

static void test_validate(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "[]",
        "3",
        "{\"schema\": \"gpuport.bench/2\", \"device\": {\"spec\": \"a\", \"name\": \"b\"}, "
        "\"results\": []}",
        "{\"schema\": \"gpuport.bench/1\", \"results\": []}",
        "{\"schema\": \"gpuport.bench/1\", \"device\": {\"spec\": \"a\", \"name\": \"b\"}, "
        "\"results\": [{\"name\": \"x\"}]}",
        "{\"schema\": \"gpuport.bench/1\", \"device\": {\"spec\": \"a\", \"name\": \"b\"}, "
        "\"results\": [{\"name\": \"x\", \"unit\": \"u\", \"median\": 1, \"min\": 1, \"max\": 1, "
        "\"cv\": 0, \"peak\": true, \"peak_source\": \"\", \"fraction\": null}]}",
    };
    char err[400];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cJSON *d = cJSON_Parse(bad[i]);
        assert_non_null(d);
        assert_int_equal(gp_bench_validate(d, err, sizeof err), -1);
        assert_true(err[0] != '\0');
        cJSON_Delete(d);
    }
}

static void test_plot_escapes(void **state)
{
    (void)state;
    gp_bench_run run;
    memset(&run, 0, sizeof run);
    snprintf(run.dev.info.spec, sizeof run.dev.info.spec, "x<&>\"");
    double v[] = {1, 2};
    gp_bench_add(&run, "transfer.h2d.pinned.4KiB", "GB/s", GP_PEAK_NONE, v, 2, 4096);
    gp_bench_add(&run, "transfer.h2d.pinned.1MiB", "GB/s", GP_PEAK_NONE, v, 2, 1 << 20);
    char *svg = gp_bench_plot_svg(&run, 1);
    assert_non_null(svg);
    assert_null(strstr(svg, "x<&>"));
    assert_non_null(strstr(svg, "x&lt;&amp;&gt;&quot; h2d.pinned"));
    assert_non_null(strstr(svg, "<polyline"));
    assert_non_null(strstr(svg, "no data")); /* the empty SGEMM panel says so */
    free(svg);
    gp_bench_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats),      cmocka_unit_test(test_cv_flag_and_fraction),
        cmocka_unit_test(test_peak_parse), cmocka_unit_test(test_tables),
        cmocka_unit_test(test_validate),   cmocka_unit_test(test_plot_escapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
