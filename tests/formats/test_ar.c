/* test_ar.c — the ar archive reader: GNU short and long names, BSD "#1/len" names, symbol tables
 * skipped, odd sizes padded; truncated headers, sizes past the end, sizes that are not numbers
 * and long names outside their table are errors with the offset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "formats/ar.h"

static uint8_t buf[4096];
static size_t len;
static char err[256];

/* Appends a member header and its data (padded to even). */
static void add(const char *name, const char *data, size_t n)
{
    char h[61];
    snprintf(h, sizeof h, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0", "644", n);
    memcpy(buf + len, h, 60);
    len += 60;
    memcpy(buf + len, data, n);
    len += n;
    if (len % 2) buf[len++] = '\n';
}

static void start(void)
{
    memcpy(buf, "!<arch>\n", 8);
    len = 8;
}

static void test_members(void **state)
{
    (void)state;
    start();
    add("/", "\0\0\0\0", 4);                       /* symbol table */
    add("//", "a_very_long_member_name.o/\n", 27); /* long names */
    add("short.o/", "abc", 3);                     /* odd size: padded */
    add("/0", "0123456789", 10);                   /* long name */
    add("#1/8", "bsd.o\0\0\0DATA", 12);            /* BSD name */
    gp_ar_iter it;
    gp_ar_member m;
    assert_true(gp_ar_is_archive(buf, len));
    gp_ar_iter_init(&it, buf, len);
    assert_int_equal(gp_ar_next(&it, &m, err, sizeof err), 1);
    assert_string_equal(m.name, "short.o");
    assert_int_equal(m.size, 3);
    assert_memory_equal(buf + m.offset, "abc", 3);
    assert_int_equal(gp_ar_next(&it, &m, err, sizeof err), 1);
    assert_string_equal(m.name, "a_very_long_member_name.o");
    assert_int_equal(m.size, 10);
    assert_int_equal(gp_ar_next(&it, &m, err, sizeof err), 1);
    assert_string_equal(m.name, "bsd.o");
    assert_int_equal(m.size, 4);
    assert_memory_equal(buf + m.offset, "DATA", 4);
    assert_int_equal(gp_ar_next(&it, &m, err, sizeof err), 0);
}

static void test_malformed(void **state)
{
    (void)state;
    gp_ar_iter it;
    gp_ar_member m;
    start();
    add("x.o/", "abcd", 4);
    /* truncated header */
    gp_ar_iter_init(&it, buf, 8 + 30);
    assert_int_equal(gp_ar_next(&it, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 0x8: member header is truncated"));
    /* size past the end */
    gp_ar_iter_init(&it, buf, len - 2);
    assert_int_equal(gp_ar_next(&it, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "runs past the end"));
    /* size not a number */
    memcpy(buf + 8 + 48, "12x4      ", 10);
    gp_ar_iter_init(&it, buf, len);
    assert_int_equal(gp_ar_next(&it, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a number"));
    /* no end marker */
    start();
    add("x.o/", "abcd", 4);
    buf[8 + 58] = 'X';
    gp_ar_iter_init(&it, buf, len);
    assert_int_equal(gp_ar_next(&it, &m, err, sizeof err), -1);
    /* a long name without a table */
    start();
    add("/5", "abcd", 4);
    gp_ar_iter_init(&it, buf, len);
    assert_int_equal(gp_ar_next(&it, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "long-name table"));
    assert_false(gp_ar_is_archive((const uint8_t *)"!<arch", 6));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_members),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
