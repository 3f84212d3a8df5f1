/* test_metal_printf.c — gp_printf on Metal below MSL 3.2, checked on any OS: the source the
 * runtime rewrites (each call a record of its id and argument values, the format left on the
 * host), the records the kernel writes (the layout of kernel.h, written here by a C copy of the
 * prelude's gp__pf_emit) and what the host makes of them: the text C's printf gives for the same
 * values, in group order, whole calls, overflows counted. Where clang++ is installed the
 * rewritten source must also pass the syntax check against the stand-in <metal_stdlib>, and the
 * os_log form must for MSL 3.2; and the rewritten kernel with the prelude's own record writer is
 * compiled as C++ and run on the host (printf_run.cpp), its buffer formatted by the host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <unistd.h>
#endif

#include <cmocka.h>

#include "runtime/core.h"
#include "skip.h"

static const char *kSrc =
    "GP_FUNC int twice(int v) { return 2 * v; }\n"
    "GP_KERNEL(show, GP_CBUF(float, x), GP_VAL(int, n))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i >= n) return;\n"
    "    gp_printf(\"item %d of %u: x=%.2f e=%.3e g=%g hex=%#x big=%ld ubig=%lu %s %c "
    "100%%\\n\",\n"
    "              i, (unsigned)n, x[i], x[i], x[i] * 2.0f, (unsigned)i * 16u,\n"
    "              (long)i * 4000000000L, (unsigned long)i, \"o\"\n"
    "              \"k\", 'A' + i % 26);\n"
    "    if (i == 0) gp_printf(\"%5d|%-4s|\\x41\\t\\\"\\n\", twice(i), \"ab\");\n"
    "}\n"
    "GP_KERNEL(quiet, GP_BUF(int, v))\n"
    "{\n"
    "    v[gp_global_id(0)] = 1; /* gp_printf(\"in a comment\") */\n"
    "    gp_printf(\"two\\nlines\");\n"
    "}\n";

static int gpt_count(const char *s, char c)
{
    int n = 0;
    for (; *s; s++)
        n += *s == c;
    return n;
}

static void gpt_rewrite(const char *src, gp_printf_table **t, char **out)
{
    size_t len = 0;
    gp_status st = gp_printf_records_source(src, strlen(src), "p.gpk", false, t, out, &len);
    if (st != GP_OK) fail_msg("rewrite failed: %s", gp_last_error());
    assert_int_equal(len, strlen(*out));
}

static void test_rewrite(void **state)
{
    (void)state;
    gp_printf_table *t;
    char *out;
    gpt_rewrite(kSrc, &t, &out);
    assert_int_equal(gp_printf_table_count(t), 3);
    /* every line keeps its number; no format or %s literal is left in a call */
    assert_int_equal(gpt_count(out, '\n'), gpt_count(kSrc, '\n'));
    assert_ptr_equal(strstr(out, "gp_printf("), strstr(out, "gp_printf(\"in a comment"));
    assert_non_null(strstr(out, "GP__PRINTF_REC(0, 1,\n"));
    assert_non_null(strstr(out, "(unsigned long)i, 0\n"));
    assert_non_null(strstr(out, "GP__PRINTF_REC(1, 1, twice(i), 0);"));
    assert_non_null(strstr(out, "GP__PRINTF_REC(2, 2);"));
    assert_non_null(strstr(out, "/* gp_printf(\"in a comment\") */")); /* comments untouched */
    /* the line of each call is where it was */
    const char *third = strstr(out, "GP__PRINTF_REC(2");
    int line = 1;
    for (const char *p = out; p < third; p++)
        line += *p == '\n';
    assert_int_equal(line, 15);
    free(out);
    gp_printf_table_release(t);
}

static void gpt_refused(const char *src, int line, const char *why)
{
    gp_printf_table *t = (gp_printf_table *)1;
    char *out = (char *)1;
    size_t len = 1;
    gp_status st = gp_printf_records_source(src, strlen(src), "bad.gpk", false, &t, &out, &len);
    assert_int_equal(st, GP_ERR_BUILD);
    assert_null(t);
    assert_null(out);
    char where[32];
    snprintf(where, sizeof where, "bad.gpk:%d: gp_printf", line);
    const char *msg = gp_last_error();
    if (!strstr(msg, where) || !strstr(msg, why))
        fail_msg("expected \"%s\" and \"%s\" in: %s", where, why, msg);
}

static void test_refusals(void **state)
{
    (void)state;
    gpt_refused("GP_FUNC void say(int v)\n{\n    gp_printf(\"%d\\n\", v);\n}\n"
                "GP_KERNEL(k, GP_VAL(int, n)) { say(n); }\n",
                3, "outside a GP_KERNEL body");
    gpt_refused(
        "#define SAY(f, v) gp_printf(f, v)\nGP_KERNEL(k, GP_VAL(int, n)) { SAY(\"%d\", n); }\n", 1,
        "in a #define whose format is not a string literal");
    gpt_refused("GP_KERNEL(k, GP_VAL(int, n))\n{\n  gp_printf(\"%s\\n\", \"abc\" + 1);\n}\n", 3,
                "a %s argument must be a string literal and nothing else");
    /* what every backend refuses is refused here too */
    gpt_refused("GP_KERNEL(k, GP_VAL(int, n))\n{\n  gp_printf(\"%p\\n\", n);\n}\n", 3,
                "%p is not portable");
    /* a call in a macro with a literal format is rewritten where the macro is defined */
    gp_printf_table *t;
    char *out;
    gpt_rewrite("#define SAY(v) gp_printf(\"v=%d\\n\", \\\n  v)\nGP_KERNEL(k, GP_VAL(int, n)) "
                "{ SAY(n); }\n",
                &t, &out);
    assert_int_equal(gp_printf_table_count(t), 1);
    assert_non_null(strstr(out, "#define SAY(v) GP__PRINTF_REC(0, 1, \\\n  v)"));
    free(out);
    gp_printf_table_release(t);
}

/* ---- the kernel's side, in C: what the prelude's gp__pf_emit writes ------------------------ */
typedef struct gpt_arg {
    uint32_t tag, lo, hi;
} gpt_arg;

static gpt_arg gpt_i(int64_t v)
{
    gpt_arg a = {GP_PRINT_ARG_INT, (uint32_t)((uint64_t)v & 0xffffffffu),
                 (uint32_t)((uint64_t)v >> 32)};
    return a;
}
static gpt_arg gpt_u(uint64_t v)
{
    gpt_arg a = {GP_PRINT_ARG_UINT, (uint32_t)(v & 0xffffffffu), (uint32_t)(v >> 32)};
    return a;
}
static gpt_arg gpt_f(float v)
{
    gpt_arg a = {GP_PRINT_ARG_FLOAT, 0, 0};
    memcpy(&a.lo, &v, sizeof a.lo);
    return a;
}

static void gpt_emit(uint32_t *b, uint32_t group, uint32_t id, uint32_t lines, uint32_t n,
                     const gpt_arg *v)
{
    uint32_t words = GP_PRINT_REC_FIXED + GP_PRINT_REC_ARG_WORDS * n;
    uint32_t cap = b[GP_PRINT_REC_CAPACITY], at = b[GP_PRINT_REC_CURSOR];
    if (at < cap && cap - at >= words) b[GP_PRINT_REC_CURSOR] += words;
    if (at >= cap || cap - at < words) {
        b[GP_PRINT_REC_DROPPED] += lines;
        return;
    }
    uint32_t *r = b + GP_PRINT_REC_HEADER + at;
    r[1] = group;
    r[2] = n;
    for (uint32_t i = 0; i < n; i++) {
        r[3 + 3 * i] = v[i].tag;
        r[4 + 3 * i] = v[i].lo;
        r[5 + 3 * i] = v[i].hi;
    }
    r[0] = id + 1;
}

static uint32_t *gpt_buffer(uint32_t cap_words)
{
    uint32_t *b = calloc(GP_PRINT_REC_HEADER + cap_words, sizeof *b);
    b[GP_PRINT_REC_CAPACITY] = cap_words;
    b[GP_PRINT_REC_LAYOUT] = GP_PRINT_REC_VERSION;
    return b;
}

/* Launch "show" of kSrc over items [0, n) in groups of 4, groups written in reverse order. */
static void gpt_launch_show(uint32_t *b, const float *x, int n)
{
    for (int g = (n + 3) / 4 - 1; g >= 0; g--) {
        for (int i = 4 * g; i < 4 * g + 4 && i < n; i++) {
            gpt_arg a[] = {gpt_i(i),
                           gpt_u((uint32_t)n),
                           gpt_f(x[i]),
                           gpt_f(x[i]),
                           gpt_f(x[i] * 2.0f),
                           gpt_u((uint32_t)i * 16u),
                           gpt_i((int64_t)i * 4000000000LL),
                           gpt_u((uint64_t)i),
                           gpt_i(0),
                           gpt_i('A' + i % 26)};
            gpt_emit(b, (uint32_t)g, 0, 1, 10, a);
            if (i == 0) {
                gpt_arg c[] = {gpt_i(2 * i), gpt_i(0)};
                gpt_emit(b, (uint32_t)g, 1, 1, 2, c);
            }
        }
    }
}

static char *gpt_expected_show(const float *x, int n)
{
    size_t cap = 256 * (size_t)n + 64, o = 0;
    char *s = malloc(cap);
    for (int i = 0; i < n; i++) {
        o += (size_t)snprintf(s + o, cap - o,
                              "item %d of %u: x=%.2f e=%.3e g=%g hex=%#x big=%lld ubig=%llu %s "
                              "%c 100%%\n",
                              i, (unsigned)n, x[i], x[i], x[i] * 2.0f, (unsigned)i * 16u,
                              (long long)i * 4000000000LL, (unsigned long long)i, "ok",
                              'A' + i % 26);
        if (i == 0) o += (size_t)snprintf(s + o, cap - o, "%5d|%-4s|A\t\"\n", 0, "ab");
    }
    return s;
}

static void test_records(void **state)
{
    (void)state;
    gp_printf_table *t;
    char *src;
    gpt_rewrite(kSrc, &t, &src);
    free(src);
    enum { N = 23 };
    float x[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i * 0.37f - 5.0f;
    uint32_t *b = gpt_buffer(1 << 16);
    gpt_launch_show(b, x, N);
    size_t len;
    char *text =
        gp_printf_records_format(t, "show", b, GP_PRINT_REC_HEADER + (1 << 16), 4096, &len);
    char *want = gpt_expected_show(x, N);
    assert_string_equal(text, want);
    assert_int_equal(len, strlen(want));
    free(text);
    free(want);
    free(b);

    /* a call of two lines without a final newline; values of another type convert as a cast */
    b = gpt_buffer(64);
    gpt_emit(b, 0, 2, 2, 0, NULL);
    text = gp_printf_records_format(t, "quiet", b, GP_PRINT_REC_HEADER + 64, 10, &len);
    assert_string_equal(text, "two\nlines");
    free(text);
    free(b);
    gp_printf_table_release(t);

    gpt_rewrite("GP_KERNEL(k, GP_VAL(int, n))\n{\n gp_printf(\"%d %u %x %ld %f %c\\n\", 1.75f, "
                "-1, -2, -3, 7, 66);\n}\n",
                &t, &src);
    free(src);
    b = gpt_buffer(64);
    gpt_arg a[] = {gpt_f(-1.75f), gpt_i(-1), gpt_i(-2), gpt_i(-3), gpt_i(7), gpt_u(66)};
    gpt_emit(b, 0, 0, 1, 6, a);
    text = gp_printf_records_format(t, "k", b, GP_PRINT_REC_HEADER + 64, 10, &len);
    assert_string_equal(text, "-1 4294967295 fffffffe -3 7.000000 B\n");
    free(text);
    free(b);
    gp_printf_table_release(t);
}

static void test_overflow(void **state)
{
    (void)state;
    gp_printf_table *t;
    char *src;
    gpt_rewrite(kSrc, &t, &src);
    free(src);
    enum { N = 40 };
    float x[N] = {0};
    /* a buffer for 10 records of "show" (33 words each): the rest counted by the kernel */
    uint32_t cap = 10 * 33 + 5;
    uint32_t *b = gpt_buffer(cap);
    gpt_launch_show(b, x, N);
    assert_int_equal(b[GP_PRINT_REC_DROPPED], N + 1 - 10);
    size_t len;
    char *text = gp_printf_records_format(t, "show", b, GP_PRINT_REC_HEADER + cap, 4096, &len);
    assert_int_equal(gpt_count(text, '\n'), 10 + 1);
    char note[200];
    snprintf(note, sizeof note,
             "gpuport: kernel 'show': %d lines of gp_printf output dropped (%d did not fit the "
             "launch's print buffer of %u bytes)\n",
             N + 1 - 10, N + 1 - 10, cap * 4);
    assert_non_null(strstr(text, note));
    free(text);

    /* the line limit keeps the first lines in group order, whole calls */
    free(b);
    b = gpt_buffer(1 << 16);
    gpt_launch_show(b, x, N);
    text = gp_printf_records_format(t, "show", b, GP_PRINT_REC_HEADER + (1 << 16), 5, &len);
    assert_int_equal(gpt_count(text, '\n'), 5 + 1);
    assert_int_equal(strncmp(text, "item 0 of 40", 12), 0);
    assert_non_null(strstr(text, "item 3 of 40")); /* 0, its second call, 1, 2, 3 */
    assert_null(strstr(text, "item 4 of 40"));
    assert_non_null(strstr(text, "36 lines of gp_printf output dropped (36 past the limit of 5 "
                                 "lines per launch"));
    free(text);

    /* a record the table does not know stops the reading, and says so */
    b[GP_PRINT_REC_HEADER] = 99;
    text = gp_printf_records_format(t, "show", b, GP_PRINT_REC_HEADER + (1 << 16), 5, &len);
    assert_non_null(strstr(text, "gpuport: kernel 'show': the print buffer holds a format id the "
                                 "program does not have at word 0"));
    free(text);
    /* a header that gives no capacity (a launch that never ran) reads nothing */
    memset(b, 0, sizeof *b * GP_PRINT_REC_HEADER);
    b[GP_PRINT_REC_CURSOR] = 0xffffffffu;
    text = gp_printf_records_format(t, "show", b, GP_PRINT_REC_HEADER + 8, 5, &len);
    assert_int_equal(len, 0);
    free(text);
    free(b);
    gp_printf_table_release(t);
}

/* ---- the MSL side: the rewritten source and the os_log form against the stand-in ---------- */
#ifndef _WIN32
static int gpt_msl_check(const char *text, const char *version, int records, char *log, size_t cap)
{
    const char *srcdir = getenv("GPUPORT_SOURCE_DIR");
    char dir[] = "/tmp/gpt_msl_XXXXXX";
    if (!mkdtemp(dir)) return -1;
    char file[64], logf[64], cmd[2048];
    snprintf(file, sizeof file, "%s/p.gpk", dir);
    snprintf(logf, sizeof logf, "%s/log", dir);
    FILE *f = fopen(file, "w");
    fputs(text, f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "clang++ -fsyntax-only -std=c++14 -x c++ -nostdinc -nostdinc++ -isystem "
             "'%s/tests/runtime/metal/standin' -D__METAL_VERSION__=%s %s "
             "-Wno-unknown-attributes -include '%s/include/gpuport/kernel.h' '%s' >'%s' 2>&1",
             srcdir, version, records ? "-DGP__PRINT_RECORDS=1" : "", srcdir, file, logf);
    int rc = system(cmd);
    log[0] = '\0';
    f = fopen(logf, "r");
    if (f) {
        size_t n = fread(log, 1, cap - 1, f);
        log[n] = '\0';
        fclose(f);
    }
    remove(logf);
    remove(file);
    rmdir(dir);
    return rc;
}

#endif

static void test_msl_syntax(void **state)
{
    (void)state;
#ifdef _WIN32
    GP_TEST_SKIP("the Metal syntax check runs clang++ through a POSIX shell; it runs in the "
                 "native build");
#else
    if (!getenv("GPUPORT_SOURCE_DIR"))
        GP_TEST_SKIP("GPUPORT_SOURCE_DIR is not set (ctest sets it)");
    if (system("clang++ --version >/dev/null 2>&1") != 0)
        GP_TEST_SKIP("clang++ is not installed (scripts/install-deps.sh)");
    static char log[16384];
    gp_printf_table *t;
    char *src;
    gpt_rewrite(kSrc, &t, &src);
    for (int v = 0; v < 2; v++) {
        const char *version = v ? "300" : "240";
        if (gpt_msl_check(src, version, 1, log, sizeof log) != 0)
            fail_msg("the rewritten source (MSL %s) does not compile:\n%s", version, log);
    }
    if (gpt_msl_check(kSrc, "320", 0, log, sizeof log) != 0)
        fail_msg("the os_log form (MSL 3.2) does not compile:\n%s", log);
    /* not rewritten below 3.2: refused by the compiler, not passed silently */
    assert_int_not_equal(gpt_msl_check(kSrc, "300", 0, log, sizeof log), 0);
    assert_non_null(strstr(log, "gp_printf_is_not_available_below_msl_3_2"));
    free(src);
    gp_printf_table_release(t);
#endif
}

#ifndef _WIN32
/* Runs "show" of kSrc, rewritten, over n items with a print buffer of cap words: the prelude and
 * the rewritten source compiled as C++ for this machine (printf_run.cpp calls the kernel for
 * every work-item). Returns the buffer's words (GP_PRINT_REC_HEADER + cap). */
static uint32_t *gpt_host_run(const char *srcdir, int n, unsigned cap)
{
    gp_printf_table *t;
    char *src;
    gpt_rewrite(kSrc, &t, &src);
    gp_printf_table_release(t);
    char dir[] = "/tmp/gpt_run_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128], cmd[4096];
    snprintf(path, sizeof path, "%s/p.gpk", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(src, f);
    fclose(f);
    free(src);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && clang++ -std=c++14 -x c++ -nostdinc -nostdinc++ -isystem "
             "'%s/tests/runtime/metal/standin' -D__METAL_VERSION__=240 -DGP__PRINT_RECORDS=1 "
             "-DGPT_N=%d -DGPT_CAP=%u -Wno-unknown-attributes -I . -include "
             "'%s/include/gpuport/kernel.h' '%s/tests/runtime/metal/printf_run.cpp' -o run "
             ">log 2>&1 && ./run >words 2>>log",
             dir, srcdir, n, cap, srcdir, srcdir);
    int rc = system(cmd);
    snprintf(path, sizeof path, "%s/log", dir);
    f = fopen(path, "r");
    static char log[16384];
    size_t ln = f ? fread(log, 1, sizeof log - 1, f) : 0;
    log[ln] = '\0';
    if (f) fclose(f);
    if (rc != 0) fail_msg("the kernel did not build or run on the host:\n%s", log);
    uint32_t *b = calloc(GP_PRINT_REC_HEADER + cap, sizeof *b);
    snprintf(path, sizeof path, "%s/words", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    size_t nw = 0;
    unsigned w;
    while (nw < GP_PRINT_REC_HEADER + cap && fscanf(f, "%u", &w) == 1)
        b[nw++] = w;
    fclose(f);
    assert_int_equal(nw, GP_PRINT_REC_HEADER + cap);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    return b;
}
#endif

/* The real record writer: its words come from the prelude's own gp__pf_emit and its overloads,
 * not from a copy; the host formats them to C's printf text, and counts what did not fit. */
static void test_prelude_writer_runs(void **state)
{
    (void)state;
#ifdef _WIN32
    GP_TEST_SKIP("the prelude's record writer is compiled by clang++ through a POSIX shell; it "
                 "runs in the native build");
#else
    const char *srcdir = getenv("GPUPORT_SOURCE_DIR");
    if (!srcdir) GP_TEST_SKIP("GPUPORT_SOURCE_DIR is not set (ctest sets it)");
    if (system("clang++ --version >/dev/null 2>&1") != 0)
        GP_TEST_SKIP("clang++ is not installed (scripts/install-deps.sh)");
    gp_printf_table *t;
    char *src;
    gpt_rewrite(kSrc, &t, &src);
    free(src);
    enum { N = 23, CAP = 1 << 12 };
    uint32_t *b = gpt_host_run(srcdir, N, CAP);
    float x[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i * 0.37f - 5.0f;
    size_t len;
    char *text = gp_printf_records_format(t, "show", b, GP_PRINT_REC_HEADER + CAP, 4096, &len);
    char *want = gpt_expected_show(x, N);
    assert_string_equal(text, want);
    free(text);
    free(want);
    free(b);

    /* room for 10 calls of 10 arguments (33 words each): the kernel counts the other 31 lines */
    unsigned cap = 10 * 33 + 5;
    b = gpt_host_run(srcdir, 40, cap);
    assert_int_equal(b[GP_PRINT_REC_DROPPED], 31);
    assert_true(b[GP_PRINT_REC_CURSOR] <= cap);
    text = gp_printf_records_format(t, "show", b, GP_PRINT_REC_HEADER + cap, 4096, &len);
    assert_int_equal(gpt_count(text, '\n'), 10 + 1);
    assert_non_null(strstr(text, "31 lines of gp_printf output dropped (31 did not fit"));
    free(text);
    free(b);
    gp_printf_table_release(t);
#endif
}

/* ---- the core's part: a device that says it prints through records gets the rewritten text --
 * No Metal here: the CPU device is told it has no printf, so the core takes the record path
 * before its compiler runs, which has no GP__PRINTF_REC. */
static void test_core_takes_the_record_path(void **state)
{
    (void)state;
#ifdef _WIN32
    GP_TEST_SKIP("Wine cannot run the CPU backend's compiler (tests/wine.cmake); it runs in the "
                 "native build");
#endif
    gp_device *dev;
    if (gp_device_open("cpu", &dev) != GP_OK)
        GP_TEST_SKIP("the cpu device does not open: %s", gp_last_error());
    dev->state->print_records = true;
    gp_program *p = NULL;
    const char *helper = "GP_FUNC void say(int v)\n{\n    gp_printf(\"%d\\n\", v);\n}\n"
                         "GP_KERNEL(k, GP_VAL(int, n)) { say(n); }\n";
    gp_build_options o = {sizeof o, 0, "h.gpk", NULL, 0, 0};
    assert_int_equal(gp_program_create(dev, helper, strlen(helper), &o, &p), GP_ERR_BUILD);
    assert_non_null(strstr(gp_last_error(), "h.gpk:3: gp_printf: outside a GP_KERNEL body"));
    const char *body = "GP_KERNEL(k, GP_VAL(int, n))\n{\n\n    gp_printf(\"%d\\n\", n);\n}\n";
    o.source_name = "b.gpk";
    gp_status st = gp_program_create(dev, body, strlen(body), &o, &p);
    dev->state->print_records = false;
    assert_int_equal(st, GP_ERR_BUILD);
    /* what the CPU's compiler (or its loader) got was the rewritten call */
    if (!strstr(gp_last_error(), "b.gpk") || !strstr(gp_last_error(), "GP__PRINTF_REC"))
        fail_msg("expected b.gpk to fail on GP__PRINTF_REC: %s", gp_last_error());
    /* the device prints again as before */
    assert_int_equal(gp_program_create(dev, body, strlen(body), &o, &p), GP_OK);
    gp_program_release(p);
    gp_device_release(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rewrite),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_msl_syntax),
        cmocka_unit_test(test_prelude_writer_runs),
        cmocka_unit_test(test_core_takes_the_record_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
