/* test_elf.c — the ELF header reader: a good file's sections and names, and every way a header
 * can point outside the file (truncation, section table or section data past the end, a
 * too-small entry size, names outside the string table), each ending in an error with offset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "formats/elf.h"
#include "formats/fatbin_fixture.h"

static uint8_t buf[4096];
static char err[256];

static size_t good(void)
{
    static const uint8_t body[16] = {1, 2, 3, 4};
    return fx_elf(buf, sizeof buf, 62, 0, 0, ".nv_fatbin", body, sizeof body);
}

static void test_good_file(void **state)
{
    (void)state;
    size_t n = good();
    gp_elf e;
    assert_int_equal(gp_elf_open(&e, buf, n, err, sizeof err), 0);
    assert_true(e.is64);
    assert_int_equal(e.machine, 62);
    assert_int_equal(e.section_count, 3);
    const gp_elf_section *s = gp_elf_section_by_name(&e, ".nv_fatbin");
    assert_non_null(s);
    size_t len;
    const uint8_t *d = gp_elf_section_data(&e, s, &len);
    assert_int_equal(len, 16);
    assert_int_equal(d[3], 4);
    assert_null(gp_elf_section_by_name(&e, ".text"));
    gp_elf_close(&e);
}

static void test_truncated(void **state)
{
    (void)state;
    size_t n = good();
    gp_elf e;
    /* Every prefix is refused or read without touching bytes past it (ASan watches). */
    for (size_t cut = 0; cut < n; cut++) {
        int r = gp_elf_open(&e, buf, cut, err, sizeof err);
        if (r == 0)
            gp_elf_close(&e);
        else
            assert_non_null(strstr(err, "offset 0x"));
    }
    assert_int_equal(gp_elf_open(&e, buf, 40, err, sizeof err), -1);
    assert_non_null(strstr(err, "ELF header is truncated"));
    assert_int_equal(gp_elf_open(&e, buf, n - 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "section header table"));
}

static void test_section_past_end(void **state)
{
    (void)state;
    size_t n = good();
    uint64_t shoff = buf[40] | (uint64_t)buf[41] << 8;
    fx_put64(buf + shoff + 2 * 64 + 32, 1 << 20); /* .nv_fatbin size */
    gp_elf e;
    assert_int_equal(gp_elf_open(&e, buf, n, err, sizeof err), -1);
    assert_non_null(strstr(err, "runs past the end"));
    good();
    fx_put64(buf + 40, (uint64_t)1 << 40); /* e_shoff */
    assert_int_equal(gp_elf_open(&e, buf, n, err, sizeof err), -1);
    assert_non_null(strstr(err, "past the end"));
}

static void test_small_entry_size(void **state)
{
    (void)state;
    size_t n = good();
    fx_put16(buf + 58, 8);
    gp_elf e;
    assert_int_equal(gp_elf_open(&e, buf, n, err, sizeof err), -1);
    assert_non_null(strstr(err, "section header size 8"));
}

static void test_name_out_of_bounds(void **state)
{
    (void)state;
    size_t n = good();
    uint64_t shoff = buf[40] | (uint64_t)buf[41] << 8;
    fx_put32(buf + shoff + 2 * 64, 0xfffffff0u); /* sh_name far outside .shstrtab */
    gp_elf e;
    assert_int_equal(gp_elf_open(&e, buf, n, err, sizeof err), 0);
    assert_string_equal(e.sections[2].name, "");
    gp_elf_close(&e);
}

/* A string table of type NULL is not bounds-checked as a section; names must still be. */
static void test_null_string_table(void **state)
{
    (void)state;
    size_t n = good();
    uint64_t shoff = buf[40] | (uint64_t)buf[41] << 8;
    fx_put32(buf + shoff + 64 + 4, 0);                  /* .shstrtab type NULL */
    fx_put64(buf + shoff + 64 + 24, (uint64_t)1 << 50); /* and its offset far away */
    gp_elf e;
    assert_int_equal(gp_elf_open(&e, buf, n, err, sizeof err), 0);
    assert_string_equal(e.sections[2].name, "");
    gp_elf_close(&e);
}

static void test_shstrndx_out_of_range(void **state)
{
    (void)state;
    size_t n = good();
    buf[62] = 3; /* e_shstrndx: past the 3 sections */
    buf[63] = 0;
    gp_elf e;
    assert_int_equal(gp_elf_open(&e, buf, n, err, sizeof err), -1);
    assert_non_null(
        strstr(err, "offset 0x3e: section-name table index 3 is out of range (3 sections)"));
}

static void test_not_elf(void **state)
{
    (void)state;
    gp_elf e;
    assert_false(gp_elf_is_elf((const uint8_t *)"MZ\0\0", 4));
    assert_int_equal(gp_elf_open(&e, (const uint8_t *)"hello", 5, err, sizeof err), -1);
    assert_non_null(strstr(err, "not an ELF file"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_file),          cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_section_past_end),   cmocka_unit_test(test_small_entry_size),
        cmocka_unit_test(test_name_out_of_bounds), cmocka_unit_test(test_not_elf),
        cmocka_unit_test(test_null_string_table),  cmocka_unit_test(test_shstrndx_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
