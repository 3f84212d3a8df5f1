/* test_regfile.c — the registry export reader (src/doctor/regfile.c) on the shapes regedit and
 * `reg export` write: UTF-16LE with a byte-order mark and REGEDIT4's 8-bit text, CRLF lines, hex
 * values continued with a backslash, every value type turned into text; and malformed exports
 * refused with the line named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/regfile.h"

typedef struct seen {
    int n;
    char key[8][128], name[8][64], text[8][256];
    gp_reg_type type[8];
} seen;

static bool collect(void *ud, const char *key, const char *name, gp_reg_type type, const char *text)
{
    seen *s = ud;
    if (s->n >= 8) return false;
    snprintf(s->key[s->n], sizeof s->key[0], "%s", key);
    snprintf(s->name[s->n], sizeof s->name[0], "%s", name);
    snprintf(s->text[s->n], sizeof s->text[0], "%s", text);
    s->type[s->n++] = type;
    return true;
}

/* `text` (ASCII) as regedit writes it: UTF-16LE after FF FE */
static char *utf16(const char *text, size_t *len)
{
    size_t n = strlen(text);
    char *b = malloc(2 + 2 * n);
    b[0] = (char)0xFF;
    b[1] = (char)0xFE;
    for (size_t i = 0; i < n; i++) {
        b[2 + 2 * i] = text[i];
        b[3 + 2 * i] = 0;
    }
    *len = 2 + 2 * n;
    return b;
}

static const char *const v5 =
    "Windows Registry Editor Version 5.00\r\n"
    "\r\n"
    "[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-"
    "08002be10318}\\0000]\r\n"
    "\"DriverDesc\"=\"NVIDIA GeForce RTX 4090\"\r\n"
    "\"DriverVersion\"=\"32.0.15.6094\"\r\n"
    "@=\"quoted \\\"x\\\" and C:\\\\Windows\"\r\n"
    "\"Mem\"=hex(b):00,00,00,00,06,00,00,00\r\n"
    "\"Path\"=hex(2):25,00,53,00,79,00,73,00,74,00,65,00,6d,00,52,00,6f,00,6f,00,74,\\\r\n"
    "  00,25,00,00,00\r\n"
    "\"Dlls\"=hex(7):61,00,2e,00,64,00,6c,00,6c,00,00,00,62,00,00,00,00,00\r\n"
    "\"Count\"=dword:0000000a\r\n"
    "\"Gone\"=-\r\n";

static void test_utf16_export(void **state)
{
    (void)state;
    size_t len;
    char *b = utf16(v5, &len), err[160] = "";
    seen s = {0};
    assert_true(gp_reg_parse(b, len, collect, &s, err, sizeof err));
    free(b);
    assert_int_equal(s.n, 7);
    assert_non_null(strstr(s.key[0], "{4d36e968-e325-11ce-bfc1-08002be10318}\\0000"));
    assert_string_equal(s.name[0], "DriverDesc");
    assert_string_equal(s.text[0], "NVIDIA GeForce RTX 4090");
    assert_string_equal(s.text[1], "32.0.15.6094");
    assert_string_equal(s.name[2], "");
    assert_string_equal(s.text[2], "quoted \"x\" and C:\\Windows");
    assert_int_equal(s.type[3], GP_REG_QWORD);
    assert_string_equal(s.text[3], "25769803776");
    assert_int_equal(s.type[4], GP_REG_EXPAND_SZ);
    assert_string_equal(s.text[4], "%SystemRoot%"); /* joined over the continuation */
    assert_int_equal(s.type[5], GP_REG_MULTI_SZ);
    assert_string_equal(s.text[5], "a.dll;b");
    assert_int_equal(s.type[6], GP_REG_DWORD);
    assert_string_equal(s.text[6], "10");
}

static void test_regedit4(void **state)
{
    (void)state;
    const char *t =
        "REGEDIT4\n\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\X]\n\"S\"=hex(2):61,62,00\n"
        "\"B\"=hex:de,ad,\\\n  be,ef\n[-HKEY_LOCAL_MACHINE\\SOFTWARE\\Y]\n\"Z\"=\"no\"\n";
    seen s = {0};
    char err[160] = "";
    assert_true(gp_reg_parse(t, strlen(t), collect, &s, err, sizeof err));
    assert_int_equal(s.n, 2); /* the values of a deleted key are not delivered */
    assert_string_equal(s.text[0], "ab");
    assert_int_equal(s.type[1], GP_REG_BINARY);
    assert_string_equal(s.text[1], "deadbeef");
}

static void expect_error(const char *t, const char *line_and_what)
{
    seen s = {0};
    char err[200] = "";
    assert_false(gp_reg_parse(t, strlen(t), collect, &s, err, sizeof err));
    if (!strstr(err, line_and_what)) fail_msg("'%s' does not contain '%s'", err, line_and_what);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_error("", "empty: not a registry export");
    expect_error("hello\r\n", "line 1: not a registry export");
    expect_error("REGEDIT4\n\"a\"=\"b\"\n", "line 2: a value before any [key]");
    expect_error("REGEDIT4\n[K]\n\"a\"=dword:12\n", "line 3: dword: needs 8 hex digits");
    expect_error("REGEDIT4\n[K]\n\"a\"=\"open\n", "line 3: a string value without its closing");
    expect_error("REGEDIT4\n[K]\n\"a\"=hex:zz\n", "line 3: hex bytes");
    expect_error("REGEDIT4\n[K]\n\"a\"=hex(q):00\n", "line 3: hex(N): with a bad type number");
    expect_error("REGEDIT4\n[K\n", "line 2: a [key line without its ']'");
    expect_error("REGEDIT4\n[K]\nplain words\n", "line 3: neither a [key]");
    /* a continued value counts from the line it starts on */
    expect_error("REGEDIT4\n[K]\n\"a\"=hex:00,\\\n  01\n\"b\"=bad\n", "line 5:");
}

static void test_utf16_text(void **state)
{
    (void)state;
    /* wsl.exe writes UTF-16LE without a byte-order mark; a surrogate pair becomes 4 bytes */
    const unsigned char b[] = {'U', 0, 'b', 0, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0xD8, '!', 0};
    assert_true(gp_looks_utf16le(b, 4));
    size_t n;
    char *s = gp_utf16le_to_utf8(b, sizeof b, &n);
    assert_string_equal(s, "Ub\xF0\x9F\x98\x80?!");
    assert_int_equal(n, 8);
    free(s);
    assert_false(gp_looks_utf16le((const unsigned char *)"REGEDIT4", 8));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf16_export),
        cmocka_unit_test(test_regedit4),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_utf16_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
