/* test_printf.c — gp_printf in kernels: values of every portable conversion, conditions per
 * work-item, many lines, barriers; on the CPU (plain and checked) and on OpenCL (its print
 * buffer), through the print handler; OpenCL's own printf (a call in a helper), read back from
 * the process's stdout. Every expected line must come
 * once and whole; an overflow must be counted; a format outside the portable set must be refused
 * at build time with its line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "runtime/conformance.h"
#include "runtime/core.h"
#include "skip.h"

static const char *kSrc =
    "GP_KERNEL(show, GP_CBUF(float, x), GP_VAL(int, n))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i >= n) return;\n"
    "    if (i % 3 == 0)\n"
    "        gp_printf(\"item %d of %u: x=%.2f e=%.3e g=%g hex=%#x big=%ld ubig=%lu %s %c "
    "100%%\\n\",\n"
    "                  i, (unsigned)n, x[i], x[i], x[i] * 2.0f, (unsigned)i * 16u,\n"
    "                  (long)i * 4000000000L, (unsigned long)i, \"ok\", 'A' + i % 26);\n"
    "}\n"
    "GP_KERNEL(talk, GP_VAL(int, n))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i < n) gp_printf(\"line %5d|\\n\", i);\n"
    "}\n"
    "GP_KERNEL(phases, GP_BUF(int, v))\n"
    "{\n"
    "    GP_SHARED_DECL int s[64];\n"
    "    int l = gp_local_id(0);\n"
    "    s[l] = l;\n"
    "    gp_printf(\"before %d.%d\\n\", gp_group_id(0), l);\n"
    "    gp_barrier();\n"
    "    v[gp_global_id(0)] = s[63 - l];\n"
    "    gp_printf(\"after %d.%d=%d\\n\", gp_group_id(0), l, s[63 - l]);\n"
    "}\n";

typedef struct gpt_out {
    char *text;
    size_t len;
    int calls;
} gpt_out;

static void gpt_collect(void *user, const char *text, size_t len)
{
    gpt_out *o = user;
    o->text = realloc(o->text, o->len + len + 1);
    memcpy(o->text + o->len, text, len);
    o->len += len;
    o->text[o->len] = '\0';
    o->calls++;
}

/* How many lines of `text` equal `line` exactly. */
static int gpt_count_line(const char *text, const char *line)
{
    int n = 0;
    size_t ll = strlen(line);
    for (const char *p = text; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == ll && memcmp(p, line, ll) == 0) n++;
        p = e ? e + 1 : NULL;
    }
    return n;
}

static int gpt_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; p && *p; p++)
        n += *p == '\n';
    return n;
}

enum { N = 100 };

static void gpt_expect_show(const char *text, const float *x, const char *where)
{
    int want = 0;
    for (int i = 0; i < N; i++) {
        if (i % 3) continue;
        char line[256];
        snprintf(line, sizeof line,
                 "item %d of %u: x=%.2f e=%.3e g=%g hex=%#x big=%ld ubig=%lu %s %c 100%%", i,
                 (unsigned)N, x[i], x[i], x[i] * 2.0f, (unsigned)i * 16u, (long)i * 4000000000L,
                 (unsigned long)i, "ok", 'A' + i % 26);
        if (gpt_count_line(text, line) != 1)
            fail_msg("%s: line \"%s\" came %d times in:\n%s", where, line,
                     gpt_count_line(text, line), text);
        want++;
    }
    assert_int_equal(gpt_lines(text), want);
}

static void gpt_run_show(gp_device *dev, uint32_t checks, gpt_out *out, float *x)
{
    gp_build_options o = {sizeof o, 0, "print.gpk", NULL, 0, checks};
    gp_program *p;
    GPT_CHECK(gp_program_create(dev, kSrc, strlen(kSrc), &o, &p));
    gp_kernel *k = gpt_kernel_of(p, "show");
    for (int i = 0; i < N; i++)
        x[i] = (float)i * 0.37f - 5.0f;
    gp_buffer *b = gpt_upload(dev, x, sizeof(float) * N);
    int n = N;
    gp_arg args[] = {gp_arg_buffer(b), gp_arg_value(&n, sizeof n)};
    size_t global = 128, group = 32;
    memset(out, 0, sizeof *out);
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 2, args));
    GPT_CHECK(gp_device_synchronize(dev));
    gp_buffer_release(b);
    gp_kernel_release(k);
    gp_program_release(p);
}

/* The devices every test runs on: the CPU, checked and not, and OpenCL (through its print
 * buffer) where a device is there. */
typedef struct gpt_target {
    const char *device, *label;
    uint32_t checks;
} gpt_target;

static const gpt_target kTargets[] = {
    {"cpu", "cpu", 0},
    {"cpu", "cpu checked", GP_CHECK_ALL},
    {"opencl", "opencl", 0},
};
enum { NTARGETS = sizeof kTargets / sizeof kTargets[0] };

static gp_device *gpt_open_target(const gpt_target *t)
{
    if (!strcmp(t->device, "opencl")) {
        gp_selection_entry e;
        gp_backend_probe(GP_BACKEND_OPENCL, &e);
        if (e.outcome != GP_SELECT_AVAILABLE) {
            printf("(no OpenCL device: %s; its part is left out)\n", e.detail);
            return NULL;
        }
    }
    return gpt_open(t->device);
}

static void values_and_conditions(void **state)
{
    (void)state;
    for (int c = 0; c < NTARGETS; c++) {
        gp_device *dev = gpt_open_target(&kTargets[c]);
        if (!dev) continue;
        gpt_out out;
        float x[N];
        GPT_CHECK(gp_print_set_handler(gpt_collect, &out));
        gpt_run_show(dev, kTargets[c].checks, &out, x);
        GPT_CHECK(gp_print_set_handler(NULL, NULL));
        assert_int_equal(out.calls, 1); /* one block per launch, when it ends */
        gpt_expect_show(out.text, x, kTargets[c].label);
        /* in group order, and in call order within a group */
        assert_true(strstr(out.text, "item 0 ") == out.text);
        free(out.text);
        gp_device_release(dev);
    }
}

static void many_lines_and_overflow(void **state)
{
    (void)state;
    for (int c = 0; c < NTARGETS; c++) {
        const gpt_target *t = &kTargets[c];
        gp_device *dev = gpt_open_target(t);
        if (!dev) continue;
        bool cpu = !strcmp(t->device, "cpu");
        gp_build_options o = {sizeof o, 0, "print.gpk", NULL, 0, t->checks};
        gp_program *p;
        GPT_CHECK(gp_program_create(dev, kSrc, strlen(kSrc), &o, &p));
        gp_kernel *k = gpt_kernel_of(p, "talk");
        gpt_out out = {0};
        GPT_CHECK(gp_print_set_handler(gpt_collect, &out));
        int n = 3000;
        gp_arg args[] = {gp_arg_value(&n, sizeof n)};
        size_t global = 3008, group = 32;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 1, args));
        GPT_CHECK(gp_device_synchronize(dev));
        if (gpt_lines(out.text) != 3000) fail_msg("%s: %d lines", t->label, gpt_lines(out.text));
        for (int i = 0; i < 3000; i += 97) {
            char line[64];
            snprintf(line, sizeof line, "line %5d|", i);
            assert_int_equal(gpt_count_line(out.text, line), 1);
        }
        free(out.text);
        /* over the limit: whole lines kept, the rest counted */
        memset(&out, 0, sizeof out);
        GPT_CHECK(gp_print_set_limit(100));
        uint32_t lim = 0;
        GPT_CHECK(gp_print_get_limit(&lim));
        assert_int_equal(lim, 100);
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 1, args));
        GPT_CHECK(gp_device_synchronize(dev));
        GPT_CHECK(gp_print_set_limit(0));
        GPT_CHECK(gp_print_set_handler(NULL, NULL));
        assert_int_equal(gpt_lines(out.text), 101);
        if (!strstr(out.text, "kernel 'talk': 2900 lines of gp_printf output dropped"))
            fail_msg("%s: no count of the dropped lines in:\n%s", t->label, out.text);
        /* the CPU keeps the first 100 in group order; a GPU the ones that reached its buffer
         * first, each once and whole */
        int kept = 0;
        for (int i = 0; i < 3000; i++) {
            char line[64];
            snprintf(line, sizeof line, "line %5d|", i);
            int seen = gpt_count_line(out.text, line);
            assert_true(seen <= 1);
            if (cpu) assert_int_equal(seen, i < 100);
            kept += seen;
        }
        assert_int_equal(kept, 100);
        free(out.text);
        gp_kernel_release(k);
        gp_program_release(p);
        gp_device_release(dev);
    }
}

static void barriers(void **state)
{
    (void)state;
    for (int c = 0; c < NTARGETS; c++) {
        gp_device *dev = gpt_open_target(&kTargets[c]);
        if (!dev) continue;
        gp_build_options o = {sizeof o, 0, "print.gpk", NULL, 0, kTargets[c].checks};
        gp_program *p;
        GPT_CHECK(gp_program_create(dev, kSrc, strlen(kSrc), &o, &p));
        gp_kernel *k = gpt_kernel_of(p, "phases");
        gp_buffer *b = gpt_upload(dev, NULL, 4 * 128);
        gpt_out out = {0};
        GPT_CHECK(gp_print_set_handler(gpt_collect, &out));
        gp_arg args[] = {gp_arg_buffer(b)};
        size_t global = 128, group = 64;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 1, args));
        GPT_CHECK(gp_device_synchronize(dev));
        GPT_CHECK(gp_print_set_handler(NULL, NULL));
        assert_int_equal(gpt_lines(out.text), 256);
        for (int g = 0; g < 2; g++)
            for (int l = 0; l < 64; l++) {
                char line[64];
                snprintf(line, sizeof line, "before %d.%d", g, l);
                assert_int_equal(gpt_count_line(out.text, line), 1);
                snprintf(line, sizeof line, "after %d.%d=%d", g, l, 63 - l);
                assert_int_equal(gpt_count_line(out.text, line), 1);
            }
        /* group 0's lines all come before group 1's */
        assert_true(strstr(out.text, "after 0.63=0") < strstr(out.text, "before 1.0\n"));
        free(out.text);
        gp_buffer_release(b);
        gp_kernel_release(k);
        gp_program_release(p);
        gp_device_release(dev);
    }
}

/* A call in a helper function, which the print buffer cannot take: that program prints through
 * OpenCL's own printf (stdout goes to a file for the launch). So does one whose call is in a macro
 * that a helper uses, whose rewrite does not compile and is built again. */
static const char *const kHelperSrc[] = {
    "GP_FUNC void say(int i)\n"
    "{\n"
    "    gp_printf(\"helper %d\\n\", i);\n"
    "}\n"
    "GP_KERNEL(call_say, GP_VAL(int, n))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i < n) say(i);\n"
    "}\n",
    "#define SAY(i) gp_printf(\"helper %d\\n\", (i))\n"
    "GP_FUNC void say(int i)\n"
    "{\n"
    "    SAY(i);\n"
    "}\n"
    "GP_KERNEL(call_say, GP_VAL(int, n))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i < n) say(i);\n"
    "}\n",
};

static void opencl_driver_printf(void **state)
{
    (void)state;
    gp_device *dev = gpt_open_target(&kTargets[2]);
    if (!dev) GP_TEST_SKIP("no OpenCL device (PoCL is installed by scripts/install-deps.sh)");
    for (size_t s = 0; s < sizeof kHelperSrc / sizeof *kHelperSrc; s++) {
        gp_build_options o = {sizeof o, 0, "helper.gpk", NULL, 0, 0};
        gp_program *p;
        GPT_CHECK(gp_program_create(dev, kHelperSrc[s], strlen(kHelperSrc[s]), &o, &p));
        gp_kernel *k = gpt_kernel_of(p, "call_say");
        char path[] = "/tmp/gpuport-printf-XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        fflush(stdout);
        int saved = dup(1);
        dup2(fd, 1);
        int n = 40;
        gp_arg args[] = {gp_arg_value(&n, sizeof n)};
        size_t global = 64, group = 32;
        GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 1, args));
        GPT_CHECK(gp_device_synchronize(dev));
        fflush(stdout);
        dup2(saved, 1);
        close(saved);
        close(fd);
        size_t len = 0;
        char err[256];
        char *text = gp_read_file(path, 1 << 20, false, &len, err, sizeof err);
        unlink(path);
        assert_non_null(text);
        assert_int_equal(gpt_lines(text), 40);
        for (int i = 0; i < 40; i++) {
            char line[32];
            snprintf(line, sizeof line, "helper %d", i);
            assert_int_equal(gpt_count_line(text, line), 1);
        }
        free(text);
        gp_kernel_release(k);
        gp_program_release(p);
    }
    gp_device_release(dev);
}

/* A double printed as a double on OpenCL where the program requires fp64. */
static void opencl_doubles(void **state)
{
    (void)state;
    gp_device *dev = gpt_open_target(&kTargets[2]);
    if (!dev) GP_TEST_SKIP("no OpenCL device (PoCL is installed by scripts/install-deps.sh)");
    gp_device_info info;
    GPT_CHECK(gp_device_get_info(dev, &info));
    if (!info.fp64) {
        gp_device_release(dev);
        GP_TEST_SKIP("this OpenCL device has no double precision");
    }
    static const char *src = "GP_REQUIRES_FP64\n"
                             "GP_KERNEL(wide, GP_CBUF(double, v))\n"
                             "{\n"
                             "    int i = gp_global_id(0);\n"
                             "    gp_printf(\"%d %.6f %.10e %d %u\\n\", i, v[i], v[i], v[i], i);\n"
                             "}\n";
    gp_build_options o = {sizeof o, 0, "wide.gpk", NULL, 0, 0};
    gp_program *p;
    GPT_CHECK(gp_program_create(dev, src, strlen(src), &o, &p));
    gp_kernel *k = gpt_kernel_of(p, "wide");
    double v[2] = {123456789.75, -2.25}; /* a float would print 123456792.000000 */
    gp_buffer *b = gpt_upload(dev, v, sizeof v);
    gpt_out out = {0};
    GPT_CHECK(gp_print_set_handler(gpt_collect, &out));
    gp_arg args[] = {gp_arg_buffer(b)};
    size_t global = 2, group = 1;
    GPT_CHECK(gp_kernel_launch(NULL, k, 1, &global, &group, 1, args));
    GPT_CHECK(gp_device_synchronize(dev));
    GPT_CHECK(gp_print_set_handler(NULL, NULL));
    /* %d of a double is its value cast, as on the CPU */
    assert_string_equal(out.text, "0 123456789.750000 1.2345678975e+08 123456789 0\n"
                                  "1 -2.250000 -2.2500000000e+00 -2 1\n");
    free(out.text);
    gp_buffer_release(b);
    gp_kernel_release(k);
    gp_program_release(p);
    gp_device_release(dev);
}

typedef struct bad_case {
    const char *call;
    const char *reason;
} bad_case;

static void formats_refused(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"gp_printf(\"%p\\n\", v);", "%p is not portable"},
        {"gp_printf(\"%lld\\n\", i);", "%ll is not portable"},
        {"gp_printf(\"%i\\n\", i);", "use %d"},
        {"gp_printf(\"%hd\\n\", i);", "length modifiers"},
        {"gp_printf(\"%*d\\n\", 3, i);", "width taken from an argument"},
        {"gp_printf(\"%5000d\\n\", i);", "a width over 4096 characters"},
        {"gp_printf(\"%00000000001551798344s\\n\", \"c\");", "a width over 4096"},
        {"gp_printf(\"%.9999f\\n\", 1.0f);", "a precision over 4096"},
        {"gp_printf(\"%X\\n\", i);", "upper-case"},
        {"gp_printf(\"%lf\\n\", 1.0f);", "l goes only with d, u and x"},
        {"gp_printf(\"%d %d\\n\", i);", "2 conversions but 1 argument follows"},
        {"gp_printf(\"%d\\n\");", "1 conversion but 0 arguments follow"},
        {"gp_printf(\"%s\\n\", name);", "%s prints only string literals"},
        {"gp_printf(fmt, i);", "the format must be a string literal"},
        {"gp_printf(\"%q\\n\", i);", "unknown conversion"},
        {"gp_printf(\"%d\\n\", i;", "no closing parenthesis"},
    };
    gp_device *dev = gpt_open("cpu");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char src[512];
        snprintf(src, sizeof src,
                 "GP_KERNEL(k, GP_BUF(int, v))\n{\n    int i = gp_global_id(0);\n"
                 "    const char *name = \"x\", *fmt = \"%%d\";\n    (void)name; (void)fmt;\n"
                 "    %s\n}\n",
                 cases[c].call);
        gp_build_options o = {sizeof o, GP_BUILD_NO_CACHE, "bad.gpk", NULL, 0, 0};
        gp_program *p = NULL;
        gp_status st = gp_program_create(dev, src, strlen(src), &o, &p);
        if (st != GP_ERR_BUILD) fail_msg("%s: %s, not refused", cases[c].call, gp_status_name(st));
        const char *msg = gp_last_error();
        if (!strstr(msg, "bad.gpk:6: gp_printf:") || !strstr(msg, cases[c].reason))
            fail_msg("%s: message \"%s\" lacks \"%s\"", cases[c].call, msg, cases[c].reason);
    }
    gp_device_release(dev);
}

static void scanner_edges(void **state)
{
    (void)state;
    uint32_t n = 0;
    /* comments, strings, names that only contain the word, a macro whose format is a parameter,
     * adjacent literals, nested parentheses, a %% and flags */
    const char *ok =
        "// gp_printf(\"%p\")\n/* gp_printf(\"%p\") */\nconst char *s = \"gp_printf(%p)\";\n"
        "#define LOG(f, ...) gp_printf(f, __VA_ARGS__)\n"
        "int my_gp_printf_count;\n"
        "gp_printf(\"a=%-08.3f \" \"b=%+d%%\\n\", f(g(1, 2), 3), (int)h[4]);\n";
    assert_int_equal(gp_printf_scan(ok, strlen(ok), "ok.gpk", &n), GP_OK);
    assert_int_equal(n, 2);
    const char *none = "int x;\n";
    assert_int_equal(gp_printf_scan(none, strlen(none), "none.gpk", &n), GP_OK);
    assert_int_equal(n, 0);
    const char *cut = "gp_printf(\"%";
    assert_int_equal(gp_printf_scan(cut, strlen(cut), "cut.gpk", &n), GP_ERR_BUILD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_and_conditions),
        cmocka_unit_test(many_lines_and_overflow),
        cmocka_unit_test(barriers),
        cmocka_unit_test(opencl_driver_printf),
        cmocka_unit_test(opencl_doubles),
        cmocka_unit_test(formats_refused),
        cmocka_unit_test(scanner_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
