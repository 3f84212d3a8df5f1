/* test_check.c — the checking API on the CPU backend: turning it on (a device handle, a build
 * option, GPUPORT_CHECK), what a launch with bugs returns and how its reports read (merged per
 * line with exact counts, capped, the first work-item, the other side of a race or a barrier),
 * that an out-of-bounds or wild write is not performed and the process lives, initcheck on
 * buffers, that racecheck's shadow memory is only as large as the words a kernel touches, and
 * gp_device_open_for_source / gp_program_create_from_file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include "runtime/conformance.h"
#include "util/strbuf.h"

static gp_device *open_checked(uint32_t checks)
{
    gp_device *d = NULL;
    GPT_CHECK(gp_device_open("cpu", &d));
    GPT_CHECK(gp_device_set_checks(d, checks));
    return d;
}

static gp_kernel *build(gp_device *dev, const char *src, const char *kernel, uint32_t checks)
{
    gp_build_options o = {sizeof o, GP_BUILD_NO_CACHE, "check.gpk", NULL, 0, checks};
    gp_program *p;
    GPT_CHECK(gp_program_create(dev, src, strlen(src), &o, &p));
    gp_kernel *k;
    GPT_CHECK(gp_kernel_create(p, kernel, &k));
    gp_program_release(p);
    return k;
}

static gp_buffer *buffer(gp_device *dev, size_t bytes, int fill)
{
    gp_buffer *b;
    GPT_CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, bytes, &b));
    if (fill >= 0) {
        unsigned char v = (unsigned char)fill;
        GPT_CHECK(gp_buffer_fill(b, 0, &v, 1, bytes));
    }
    return b;
}

static uint32_t reports(void)
{
    uint32_t n = 0;
    GPT_CHECK(gp_check_report_count(&n, NULL));
    return n;
}

static gp_check_report report(uint32_t i)
{
    gp_check_report r;
    GPT_CHECK(gp_check_report_get(i, &r));
    return r;
}

static void parse_names(void **state)
{
    (void)state;
    uint32_t c = 99;
    GPT_CHECK(gp_check_parse("all", &c));
    assert_int_equal(c, GP_CHECK_ALL);
    GPT_CHECK(gp_check_parse("none", &c));
    assert_int_equal(c, 0);
    GPT_CHECK(gp_check_parse("racecheck,initcheck", &c));
    assert_int_equal(c, GP_CHECK_RACECHECK | GP_CHECK_INITCHECK);
    assert_int_equal(gp_check_parse("memcheck,bogus", &c), GP_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gp_last_error(), "'bogus' is not a check"));
    assert_string_equal(gp_check_name(GP_CHECK_SYNCCHECK), "synccheck");
    assert_string_equal(gp_status_name(GP_ERR_CHECK), "GP_ERR_CHECK");
}

static void turning_it_on(void **state)
{
    (void)state;
    gp_device *d = NULL;
    GPT_CHECK(gp_device_open("cpu", &d));
    uint32_t c = 1;
    GPT_CHECK(gp_device_get_checks(d, &c));
    assert_int_equal(c, 0);
    assert_int_equal(gp_device_set_checks(d, 1u << 7), GP_ERR_INVALID_ARGUMENT);
    gp_device_release(d);
    /* GPUPORT_CHECK: every CPU handle opened after it is set; a malformed value is an error */
    setenv("GPUPORT_CHECK", "memcheck,racecheck", 1);
    GPT_CHECK(gp_device_open("cpu", &d));
    GPT_CHECK(gp_device_get_checks(d, &c));
    assert_int_equal(c, GP_CHECK_MEMCHECK | GP_CHECK_RACECHECK);
    gp_device_release(d);
    setenv("GPUPORT_CHECK", "everything", 1);
    assert_int_equal(gp_device_open("cpu", &d), GP_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gp_last_error(), "GPUPORT_CHECK='everything'"));
    unsetenv("GPUPORT_CHECK");
    /* other backends run unchecked: asking for checks there is refused */
    char specs[16][32];
    int n = gpt_devices(specs, 16);
    for (int i = 0; i < n; i++) {
        if (!strncmp(specs[i], "cpu", 3)) continue;
        GPT_CHECK(gp_device_open(specs[i], &d));
        assert_int_equal(gp_device_set_checks(d, GP_CHECK_ALL), GP_ERR_UNSUPPORTED);
        gp_build_options o = {sizeof o, 0, "x.gpk", NULL, 0, GP_CHECK_ALL};
        gp_program *p;
        const char *src = "GP_KERNEL(k, GP_BUF(int, y)) { y[0] = 1; }\n";
        assert_int_equal(gp_program_create(d, src, strlen(src), &o, &p), GP_ERR_UNSUPPORTED);
        gp_device_release(d);
    }
}

/* Three accesses out of bounds on one line, one on another: a report per access (line and
 * column), counted exactly. */
static gp_check_report report_at(uint32_t line, uint32_t column)
{
    for (uint32_t i = 0; i < reports(); i++) {
        gp_check_report r = report(i);
        if (r.line == line && r.column == column) return r;
    }
    fail_msg("no report at %u:%u", line, column);
    gp_check_report none = {0};
    return none;
}

static void reports_per_line(void **state)
{
    (void)state;
    gp_device *dev = open_checked(GP_CHECK_ALL);
    const char *src = "GP_KERNEL(k, GP_BUF(float, y), GP_CBUF(float, x))\n"
                      "{\n"
                      "    int i = gp_global_id(0);\n"
                      "    y[i] = x[i] + x[i + 1];\n"
                      "    if (i == 99) y[i + 1000] = 1.0f;\n"
                      "}\n";
    gp_kernel *k = build(dev, src, "k", 0);
    gp_buffer *y = buffer(dev, 100 * 4, 0), *x = buffer(dev, 100 * 4, 0);
    gp_arg args[] = {gp_arg_buffer(y), gp_arg_buffer(x)};
    size_t global = 100, group = 64; /* 128 work-items: 28 past the end */
    assert_int_equal(gp_kernel_launch(NULL, k, 1, &global, &group, 2, args), GP_ERR_CHECK);
    assert_non_null(strstr(gp_last_error(), "check.gpk:4:19: memcheck: read of 4 bytes at x[100]"));
    assert_int_equal(reports(), 4);
    /* items 99..127 read x[i + 1] out of bounds (29), items 100..127 x[i] and write y[i] (28 each)
     */
    gp_check_report r = report_at(4, 19);
    assert_int_equal(r.check, GP_CHECK_MEMCHECK);
    assert_string_equal(r.file, "check.gpk");
    assert_string_equal(r.kernel, "k");
    assert_int_equal(r.count, 29);
    assert_int_equal(r.group[0], 1);
    assert_int_equal(r.local[0], 35); /* the first: global 99 reading x[100] */
    assert_non_null(strstr(r.message, "x[100]"));
    assert_non_null(strstr(r.message, "not performed"));
    r = report_at(4, 12);
    assert_int_equal(r.count, 28);
    assert_non_null(strstr(r.message, "read of 4 bytes at x[100]"));
    r = report_at(4, 5);
    assert_int_equal(r.count, 28);
    assert_non_null(strstr(r.message, "write of 4 bytes at y[100]"));
    r = report_at(5, 18);
    assert_int_equal(r.line, 5);
    assert_int_equal(r.count, 1);
    assert_non_null(strstr(r.message, "write of 4 bytes at y[1099]"));
    char line[2048];
    size_t need = 0;
    GPT_CHECK(gp_check_report_format(&r, line, sizeof line, &need));
    assert_int_equal(need, strlen(line) + 1);
    assert_int_equal(strncmp(line, "check.gpk:5:", 12), 0);
    assert_non_null(strstr(line, ": memcheck: write of 4 bytes"));
    /* a clean launch on this thread replaces the list */
    global = 64;
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 2, args));
    assert_int_equal(reports(), 0);
    assert_int_equal(gp_check_report_get(0, &r), GP_ERR_NOT_FOUND);
    gp_buffer_release(x), gp_buffer_release(y), gp_kernel_release(k), gp_device_release(dev);
}

/* Over a hundred distinct reports: a hundred kept, the rest counted as omitted. */
static void reports_capped(void **state)
{
    (void)state;
    gp_device *dev = open_checked(GP_CHECK_MEMCHECK);
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_puts(&sb, "GP_KERNEL(k, GP_BUF(int, y))\n{\n");
    for (int i = 0; i < 120; i++)
        gp_strbuf_printf(&sb, "    y[%d] = %d;\n", 1000 + i, i);
    gp_strbuf_puts(&sb, "}\n");
    gp_kernel *k = build(dev, gp_strbuf_cstr(&sb), "k", 0);
    gp_strbuf_free(&sb);
    gp_buffer *y = buffer(dev, 16 * 4, 0);
    gp_arg args[] = {gp_arg_buffer(y)};
    size_t global = 1;
    assert_int_equal(gp_kernel_launch(NULL, k, 1, &global, NULL, 1, args), GP_ERR_CHECK);
    uint32_t n = 0;
    uint64_t omitted = 0;
    GPT_CHECK(gp_check_report_count(&n, &omitted));
    assert_int_equal(n, 100);
    assert_int_equal(omitted, 20);
    assert_int_equal(report(99).line, 102);
    gp_buffer_release(y), gp_kernel_release(k), gp_device_release(dev);
}

/* Writes outside every buffer are not performed: the neighbour keeps its bytes and the process
 * goes on, whether the write is just past the end, through a pointer far away, or through NULL. */
static void writes_not_performed(void **state)
{
    (void)state;
    gp_device *dev = open_checked(GP_CHECK_MEMCHECK);
    const char *src = "GP_KERNEL(smash, GP_BUF(float, a), GP_VAL(int, far))\n"
                      "{\n"
                      "    int i = gp_global_id(0);\n"
                      "    a[64 + i] = -1.0f;\n"
                      "    GP_GLOBAL float *p = a + far;\n"
                      "    p[i] = -2.0f;\n"
                      "    GP_GLOBAL float *q = a;\n"
                      "    for (int k = 0; k < far; k++) q += 1;\n"
                      "    q[i] = -3.0f;\n"
                      "    GP_GLOBAL float *z = (GP_GLOBAL float *)0;\n"
                      "    if (i == 0) z[7] = -4.0f;\n"
                      "}\n";
    gp_kernel *k = build(dev, src, "smash", 0);
    gp_buffer *a = buffer(dev, 64 * 4, 0), *b = buffer(dev, 64 * 4, 0x11);
    int far = 1 << 26; /* 256 MiB away */
    gp_arg args[] = {gp_arg_buffer(a), gp_arg_value(&far, 4)};
    size_t global = 64;
    assert_int_equal(gp_kernel_launch(NULL, k, 1, &global, NULL, 2, args), GP_ERR_CHECK);
    assert_int_equal(reports(), 4);
    const uint32_t lines[] = {4, 6, 9, 11};
    for (uint32_t i = 0; i < 4; i++) {
        gp_check_report r = report(i);
        assert_int_equal(r.line, lines[i]);
        assert_non_null(strstr(r.message, "not performed"));
    }
    assert_non_null(strstr(report(3).message, "in no buffer"));
    unsigned char got[256];
    GPT_CHECK(gp_buffer_read(b, 0, got, sizeof got));
    for (int i = 0; i < 256; i++)
        assert_int_equal(got[i], 0x11);
    GPT_CHECK(gp_buffer_read(a, 0, got, sizeof got));
    for (int i = 0; i < 256; i++)
        assert_int_equal(got[i], 0);
    gp_buffer_release(a), gp_buffer_release(b), gp_kernel_release(k), gp_device_release(dev);
}

/* A race's report names both sides; a barrier's the work-items that ended and where. */
static void other_sides(void **state)
{
    (void)state;
    gp_device *dev = open_checked(GP_CHECK_ALL);
    const char *src = "GP_KERNEL(race, GP_BUF(int, out))\n"
                      "{\n"
                      "    GP_SHARED_DECL int t[64];\n"
                      "    int l = gp_local_id(0);\n"
                      "    t[l] = l;\n"
                      "    out[gp_global_id(0)] = t[l ^ 1];\n"
                      "}\n"
                      "GP_KERNEL(leave, GP_BUF(int, out))\n"
                      "{\n"
                      "    int l = gp_local_id(0);\n"
                      "    if (l >= 48) return;\n"
                      "    gp_barrier();\n"
                      "    out[gp_global_id(0)] = l;\n"
                      "}\n";
    gp_kernel *race = build(dev, src, "race", 0), *leave = build(dev, src, "leave", 0);
    gp_buffer *out = buffer(dev, 64 * 4, 0);
    gp_arg args[] = {gp_arg_buffer(out)};
    size_t global = 64, group = 64;
    assert_int_equal(gp_kernel_launch(NULL, race, 1, &global, &group, 1, args), GP_ERR_CHECK);
    bool raw = false;
    for (uint32_t i = 0; i < reports(); i++) {
        gp_check_report r = report(i);
        if (r.check != GP_CHECK_RACECHECK || r.line != 6) continue;
        /* item 1 reads t[0], which item 0 wrote at line 5 */
        assert_int_equal(r.local[0], 1);
        assert_int_equal(r.other_line, 5);
        assert_int_equal(r.other_column, 5);
        assert_int_equal(r.other_local[0], 0);
        assert_int_equal(r.other_group[0], 0);
        raw = true;
    }
    assert_true(raw);
    assert_int_equal(gp_kernel_launch(NULL, leave, 1, &global, &group, 1, args), GP_ERR_CHECK);
    assert_int_equal(reports(), 1);
    gp_check_report r = report(0);
    assert_int_equal(r.check, GP_CHECK_SYNCCHECK);
    assert_int_equal(r.line, 12);
    assert_int_equal(r.other_line, 11);
    assert_int_equal(r.other_local[0], 48);
    assert_non_null(strstr(r.message, "48 of the 64"));
    gp_buffer_release(out), gp_kernel_release(race), gp_kernel_release(leave);
    gp_device_release(dev);
}

/* initcheck follows what the host wrote into a buffer of a checked device. */
static void initcheck_buffers(void **state)
{
    (void)state;
    gp_device *dev = open_checked(GP_CHECK_ALL);
    const char *src = "GP_KERNEL(copy, GP_BUF(int, y), GP_CBUF(int, x))\n"
                      "{\n"
                      "    int i = gp_global_id(0);\n"
                      "    y[i] = x[i];\n"
                      "}\n";
    gp_kernel *k = build(dev, src, "copy", 0);
    gp_buffer *y = buffer(dev, 64 * 4, -1), *x = buffer(dev, 64 * 4, -1);
    gp_arg args[] = {gp_arg_buffer(y), gp_arg_buffer(x)};
    size_t global = 64;
    assert_int_equal(gp_kernel_launch(NULL, k, 1, &global, NULL, 2, args), GP_ERR_CHECK);
    assert_int_equal(reports(), 1);
    assert_int_equal(report(0).check, GP_CHECK_INITCHECK);
    assert_int_equal(report(0).count, 64);
    int32_t half[32] = {0};
    GPT_CHECK(gp_buffer_write(x, 0, half, sizeof half));
    assert_int_equal(gp_kernel_launch(NULL, k, 1, &global, NULL, 2, args), GP_ERR_CHECK);
    assert_int_equal(report(0).count, 32);
    GPT_CHECK(gp_buffer_write(x, 128, half, sizeof half));
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 2, args));
    /* the kernel's writes count too: y can now be read */
    gp_arg back[] = {gp_arg_buffer(x), gp_arg_buffer(y)};
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 2, back));
    gp_buffer_release(x), gp_buffer_release(y), gp_kernel_release(k), gp_device_release(dev);
}

/* A program built with checks on a handle without them; the built-in programs checked. */
static void build_option_and_builtins(void **state)
{
    (void)state;
    gp_device *dev = NULL;
    GPT_CHECK(gp_device_open("cpu", &dev));
    const char *src = "GP_KERNEL(k, GP_BUF(int, y)) { y[gp_global_id(0) + 1] = 1; }\n";
    gp_kernel *plain = build(dev, src, "k", 0), *checked = build(dev, src, "k", GP_CHECK_MEMCHECK);
    gp_buffer *y = buffer(dev, 64 * 4, 0);
    gp_arg args[] = {gp_arg_buffer(y)};
    size_t global = 63;
    GPT_CHECK(gp_kernel_launch(NULL, plain, 1, &global, NULL, 1, args));
    global = 64;
    assert_int_equal(gp_kernel_launch(NULL, checked, 1, &global, NULL, 1, args), GP_ERR_CHECK);
    gp_kernel_release(plain), gp_kernel_release(checked), gp_buffer_release(y);
    GPT_CHECK(gp_device_set_checks(dev, GP_CHECK_ALL));
    gp_program *p;
    GPT_CHECK(gp_program_create_builtin(dev, "basic", &p));
    gp_kernel *k;
    GPT_CHECK(gp_kernel_create(p, "gp_saxpy", &k));
    gp_buffer *a = buffer(dev, 1000 * 4, 0), *b = buffer(dev, 1000 * 4, 0);
    float two = 2.0f;
    int n = 1000;
    gp_arg sargs[] = {gp_arg_buffer(a), gp_arg_buffer(b), gp_arg_value(&two, 4),
                      gp_arg_value(&n, 4)};
    size_t g = 1000;
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &g, NULL, 4, sargs));
    assert_int_equal(reports(), 0);
    gp_buffer_release(a), gp_buffer_release(b), gp_kernel_release(k), gp_program_release(p);
    gp_device_release(dev);
}

static long peak_rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) v = strtol(line + 6, NULL, 10);
    fclose(f);
    return v;
}

/* racecheck's shadow of a 256 MiB buffer costs only the words touched: 1 MiB of them here, so
 * the launch's peak memory grows by a few MiB, not by gigabytes. */
static void shadow_bounded(void **state)
{
    (void)state;
    if (peak_rss_kib() < 0) skip(); /* not Linux: no /proc */
    gp_device *dev = open_checked(GP_CHECK_ALL);
    const char *src = "GP_KERNEL(touch, GP_BUF(int, big), GP_VAL(int, stride))\n"
                      "{\n"
                      "    int i = gp_global_id(0);\n"
                      "    big[i * stride] = i;\n"
                      "}\n";
    gp_kernel *k = build(dev, src, "touch", 0);
    size_t bytes = (size_t)256 << 20;
    gp_buffer *big = buffer(dev, bytes, 0); /* written once: its pages are real now */
    long before = peak_rss_kib();
    int stride = 1; /* 256 Ki words, 1 MiB */
    gp_arg args[] = {gp_arg_buffer(big), gp_arg_value(&stride, 4)};
    size_t global = 256 << 10;
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 2, args));
    long grown = peak_rss_kib() - before;
    fprintf(stderr, "  peak memory grew by %ld KiB for 1 MiB touched of a 256 MiB buffer\n", grown);
    assert_true(grown < 64 << 10);
    gp_buffer_release(big), gp_kernel_release(k), gp_device_release(dev);
}

/* open_for_source skips devices that cannot run the program and says why; builds from a file. */
static void choosing_and_files(void **state)
{
    (void)state;
    const char *src = "GP_KERNEL(plain, GP_BUF(int, y)) { y[gp_global_id(0)] = 1; }\n"
                      "GP_KERNEL(lanes, GP_BUF(int, y))\n"
                      "{\n"
                      "    y[gp_global_id(0)] = gp_simd_shuffle_xor(gp_simd_lane(), 1);\n"
                      "}\n";
    gp_build_options o = {sizeof o, 0, "choose.gpk", NULL, 0, 0};
    gp_device *d = NULL;
    GPT_CHECK(gp_device_open_for_source("auto", src, strlen(src), &o, "lanes", &d));
    gp_device_info info;
    GPT_CHECK(gp_device_get_info(d, &info));
    assert_int_not_equal(info.backend, GP_BACKEND_OPENCL);
    gp_selection_entry sel[GP_BACKEND_COUNT];
    uint32_t n = 0;
    GPT_CHECK(gp_device_selection(d, sel, GP_BACKEND_COUNT, &n));
    gp_selection_entry ocl = sel[GP_BACKEND_OPENCL];
    gp_device_release(d);
    if (ocl.outcome != GP_SELECT_LIBRARY_NOT_FOUND && ocl.outcome != GP_SELECT_NO_DEVICE &&
        ocl.outcome != GP_SELECT_NOT_TRIED) {
        assert_int_equal(ocl.outcome, GP_SELECT_UNSUITABLE);
        assert_non_null(strstr(ocl.detail, "kernel 'lanes' uses SIMD-group operations"));
        assert_string_equal(gp_select_outcome_name(GP_SELECT_UNSUITABLE),
                            "cannot run this program");
        assert_int_equal(gp_device_open_for_source("opencl", src, strlen(src), &o, "lanes", &d),
                         GP_ERR_UNSUPPORTED);
        assert_non_null(strstr(gp_last_error(), "opencl has none"));
    }
    assert_int_equal(gp_device_open_for_source("auto", src, strlen(src), &o, "nope", &d),
                     GP_ERR_NOT_FOUND);
    assert_non_null(strstr(gp_last_error(), "it has: plain, lanes"));
    /* checking: the CPU, the others not tried */
    o.checks = GP_CHECK_ALL;
    GPT_CHECK(gp_device_open_for_source("auto", src, strlen(src), &o, NULL, &d));
    GPT_CHECK(gp_device_get_info(d, &info));
    assert_int_equal(info.backend, GP_BACKEND_CPU);
    uint32_t c = 0;
    GPT_CHECK(gp_device_get_checks(d, &c));
    assert_int_equal(c, GP_CHECK_ALL);
    /* a program from a file: messages name the file */
    char path[] = "/tmp/gpuport-check-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, src, strlen(src)), (ssize_t)strlen(src));
    close(fd);
    gp_program *p;
    GPT_CHECK(gp_program_create_from_file(d, path, NULL, &p));
    gp_kernel *k;
    GPT_CHECK(gp_kernel_create(p, "plain", &k));
    gp_buffer *y = buffer(d, 4, 0);
    gp_arg args[] = {gp_arg_buffer(y)};
    size_t global = 2;
    assert_int_equal(gp_kernel_launch(NULL, k, 1, &global, NULL, 1, args), GP_ERR_CHECK);
    assert_string_equal(report(0).file, path);
    unlink(path);
    assert_int_equal(gp_program_create_from_file(d, path, NULL, &p), GP_ERR_IO);
    assert_non_null(strstr(gp_last_error(), path));
    gp_buffer_release(y), gp_kernel_release(k), gp_program_release(p), gp_device_release(d);
}

int main(void)
{
    unsetenv("GPUPORT_CHECK");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_names),          cmocka_unit_test(turning_it_on),
        cmocka_unit_test(reports_per_line),     cmocka_unit_test(reports_capped),
        cmocka_unit_test(writes_not_performed), cmocka_unit_test(other_sides),
        cmocka_unit_test(initcheck_buffers),    cmocka_unit_test(build_option_and_builtins),
        cmocka_unit_test(shadow_bounded),       cmocka_unit_test(choosing_and_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
