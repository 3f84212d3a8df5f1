/* test_fatbin.c — the fatbin walker and the bare-cubin reader: a good container's entries and
 * their fields; zero-size payloads (the walk still ends); sizes past the end, header sizes of
 * zero and names outside their header (errors with the offset); the magic scan; cubin SM
 * numbers in both ELF ABIs and the a/f variant from the tool-info note. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "formats/fatbin.h"
#include "formats/fatbin_fixture.h"

static uint8_t buf[8192];
static char err[256];

static size_t two_entries(void)
{
    size_t n = 16;
    n += fx_entry(buf + n, GP_FATBIN_KIND_ELF, 86, 16, 0x11 | GP_FATBIN_FLAG_ARCH_SPECIFIC, 1, 8);
    n += fx_entry(buf + n, GP_FATBIN_KIND_PTX, 90, 8, 0x11 | GP_FATBIN_FLAG_ZSTD, 9, 0);
    fx_container(buf, n - 16);
    return n;
}

static void test_walk(void **state)
{
    (void)state;
    size_t n = two_entries();
    gp_fatbin_container c;
    assert_int_equal(gp_fatbin_container_read(buf, n, 0, &c, err, sizeof err), 0);
    assert_int_equal(c.end, n);
    size_t cur = 0;
    gp_fatbin_entry e;
    assert_int_equal(gp_fatbin_entry_next(buf, &c, &cur, &e, err, sizeof err), 1);
    assert_int_equal(e.kind, GP_FATBIN_KIND_ELF);
    assert_int_equal(e.arch, 86);
    assert_int_equal(gp_fatbin_entry_variant(&e), 'a');
    assert_string_equal(gp_fatbin_entry_compression(&e), "none");
    assert_int_equal(gp_fatbin_entry_next(buf, &c, &cur, &e, err, sizeof err), 1);
    assert_int_equal(e.kind, GP_FATBIN_KIND_PTX);
    assert_int_equal(e.version_major, 9);
    assert_string_equal(gp_fatbin_entry_compression(&e), "zstd");
    assert_int_equal(gp_fatbin_entry_next(buf, &c, &cur, &e, err, sizeof err), 0);
}

static void test_zero_payloads_end(void **state)
{
    (void)state;
    size_t n = 16;
    for (int i = 0; i < 5; i++)
        n += fx_entry(buf + n, GP_FATBIN_KIND_ELF, 80, 0, 0x11, 1, 8);
    fx_container(buf, n - 16);
    gp_fatbin_container c;
    assert_int_equal(gp_fatbin_container_read(buf, n, 0, &c, err, sizeof err), 0);
    size_t cur = 0, count = 0;
    gp_fatbin_entry e;
    while (gp_fatbin_entry_next(buf, &c, &cur, &e, err, sizeof err) == 1)
        count++;
    assert_int_equal(count, 5);
}

static void test_bad_sizes(void **state)
{
    (void)state;
    size_t n = two_entries();
    gp_fatbin_container c;
    gp_fatbin_entry e;
    size_t cur = 0;
    /* payload past the container */
    fx_put64(buf + 16 + 8, (uint64_t)1 << 40);
    assert_int_equal(gp_fatbin_container_read(buf, n, 0, &c, err, sizeof err), 0);
    assert_int_equal(gp_fatbin_entry_next(buf, &c, &cur, &e, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 0x18: fatbin entry payload"));
    /* header size zero */
    two_entries();
    fx_put32(buf + 16 + 4, 0);
    cur = 0;
    assert_int_equal(gp_fatbin_entry_next(buf, &c, &cur, &e, err, sizeof err), -1);
    assert_non_null(strstr(err, "header size 0x0"));
    /* name outside the header */
    two_entries();
    fx_put32(buf + 16 + 0x20, 0x30);
    fx_put32(buf + 16 + 0x24, 0x100);
    cur = 0;
    assert_int_equal(gp_fatbin_entry_next(buf, &c, &cur, &e, err, sizeof err), -1);
    assert_non_null(strstr(err, "name"));
    /* container past its region; container truncated */
    two_entries();
    assert_int_equal(gp_fatbin_container_read(buf, n - 1, 0, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 0x0: fatbin container claims"));
    assert_int_equal(gp_fatbin_container_read(buf, 8, 0, &c, err, sizeof err), -1);
    /* entry header cut short by the container's own size */
    fx_container(buf, 20);
    assert_int_equal(gp_fatbin_container_read(buf, n, 0, &c, err, sizeof err), 0);
    cur = 0;
    assert_int_equal(gp_fatbin_entry_next(buf, &c, &cur, &e, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated"));
}

static void test_find_magic(void **state)
{
    (void)state;
    memset(buf, 0x50, 64);
    assert_int_equal(gp_fatbin_find_magic(buf, 64, 0), 64);
    fx_container(buf + 37, 0);
    assert_int_equal(gp_fatbin_find_magic(buf, 64, 0), 37);
    assert_int_equal(gp_fatbin_find_magic(buf, 64, 38), 64);
    assert_int_equal(gp_fatbin_find_magic(buf, 39, 0), 39); /* magic cut by the end */
}

static void test_cubin(void **state)
{
    (void)state;
    static const uint8_t note[] = "\x0c\0\0\0....NVIDIA Corp\0 -arch sm_90a -m 64 ";
    uint8_t elf[2048];
    size_t n = fx_elf(elf, sizeof elf, 190, 0x5a04, 8, ".note.nv.tkinfo", note, sizeof note);
    gp_elf e;
    assert_int_equal(gp_elf_open(&e, elf, n, err, sizeof err), 0);
    gp_cubin_info ci;
    assert_true(gp_cubin_is_cubin(&e));
    assert_int_equal(gp_cubin_read(&e, &ci, err, sizeof err), 0);
    assert_int_equal(ci.arch, 90);
    assert_int_equal(ci.variant, 'a');
    gp_elf_close(&e);
    /* The old ABI keeps the SM in the low byte. */
    n = fx_elf(elf, sizeof elf, 190, 0x560056, 7, ".text", note, 4);
    assert_int_equal(gp_elf_open(&e, elf, n, err, sizeof err), 0);
    assert_int_equal(gp_cubin_read(&e, &ci, err, sizeof err), 0);
    assert_int_equal(ci.arch, 0x56);
    assert_int_equal(ci.variant, 0);
    gp_elf_close(&e);
    /* No SM at all */
    n = fx_elf(elf, sizeof elf, 190, 0, 8, ".text", note, 4);
    assert_int_equal(gp_elf_open(&e, elf, n, err, sizeof err), 0);
    assert_int_equal(gp_cubin_read(&e, &ci, err, sizeof err), -1);
    gp_elf_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk),      cmocka_unit_test(test_zero_payloads_end),
        cmocka_unit_test(test_bad_sizes), cmocka_unit_test(test_find_magic),
        cmocka_unit_test(test_cubin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
