/* test_npy.c — the .npy reader: every dtype and byte order numpy writes, Fortran order, the
 * three format versions, and each kind of bad header (lying lengths, overflowing shapes, object
 * arrays, truncation). Files are built in memory by the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/npy.h"

/* Builds a .npy of `version` with header dict `dict` followed by `ndata` bytes of data. */
static size_t make_npy(uint8_t *buf, int version, const char *dict, size_t ndata)
{
    size_t pre = version == 1 ? 10 : 12, dl = strlen(dict);
    size_t hlen = dl + 1;
    while ((pre + hlen) % 64)
        hlen++;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (uint8_t)version;
    buf[7] = 0;
    buf[8] = (uint8_t)hlen;
    buf[9] = (uint8_t)(hlen >> 8);
    if (version > 1) buf[10] = (uint8_t)(hlen >> 16), buf[11] = (uint8_t)(hlen >> 24);
    memcpy(buf + pre, dict, dl);
    memset(buf + pre + dl, ' ', hlen - dl - 1);
    buf[pre + hlen - 1] = '\n';
    for (size_t i = 0; i < ndata; i++)
        buf[pre + hlen + i] = (uint8_t)i;
    return pre + hlen + ndata;
}

static uint8_t buf[1 << 16];
static char err[512];

static void parses_every_dtype(void **state)
{
    (void)state;
    static const struct {
        const char *descr;
        gp_dtype t;
        bool be;
    } cases[] = {
        {"|b1", GP_DTYPE_BOOL, false}, {"|i1", GP_DTYPE_I8, false},   {"|u1", GP_DTYPE_U8, false},
        {"<i2", GP_DTYPE_I16, false},  {">u2", GP_DTYPE_U16, true},   {"<i4", GP_DTYPE_I32, false},
        {"<u4", GP_DTYPE_U32, false},  {">i8", GP_DTYPE_I64, true},   {"<u8", GP_DTYPE_U64, false},
        {"<f2", GP_DTYPE_F16, false},  {"<f4", GP_DTYPE_F32, false},  {">f8", GP_DTYPE_F64, true},
        {"<c8", GP_DTYPE_C64, false},  {"<c16", GP_DTYPE_C128, false}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char dict[128];
        snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (2, 3), }",
                 cases[i].descr);
        size_t es = gp_dtype_size(cases[i].t);
        size_t n = make_npy(buf, 1, dict, 6 * es);
        gp_tensor_view v;
        assert_int_equal(gp_npy_parse(buf, n, GP_DTYPE_INVALID, &v, err, sizeof(err)), 0);
        assert_int_equal(v.dtype, cases[i].t);
        assert_int_equal(v.big_endian, cases[i].be);
        assert_int_equal(v.ndim, 2);
        assert_int_equal(v.shape[0], 2);
        assert_int_equal(v.shape[1], 3);
        assert_int_equal(v.count, 6);
        assert_int_equal(v.nbytes, 6 * es);
        assert_ptr_equal(v.data, buf + n - 6 * es);
    }
}

static void versions_scalars_and_fortran(void **state)
{
    (void)state;
    gp_tensor_view v;
    for (int ver = 1; ver <= 3; ver++) {
        size_t n =
            make_npy(buf, ver, "{'descr': '<f8', 'fortran_order': True, 'shape': (4, 5)}", 160);
        assert_int_equal(gp_npy_parse(buf, n, GP_DTYPE_INVALID, &v, err, sizeof(err)), 0);
        assert_true(v.fortran);
        assert_int_equal(v.count, 20);
    }
    size_t n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': ()}", 4);
    assert_int_equal(gp_npy_parse(buf, n, GP_DTYPE_INVALID, &v, err, sizeof(err)), 0);
    assert_int_equal(v.ndim, 0);
    assert_int_equal(v.count, 1);
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (7,)}", 28);
    assert_int_equal(gp_npy_parse(buf, n, GP_DTYPE_INVALID, &v, err, sizeof(err)), 0);
    assert_int_equal(v.ndim, 1);
    assert_int_equal(v.shape[0], 7);
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3)}", 0);
    assert_int_equal(gp_npy_parse(buf, n, GP_DTYPE_INVALID, &v, err, sizeof(err)), 0);
    assert_int_equal(v.count, 0);
}

static void void_descr_needs_dtype(void **state)
{
    (void)state;
    gp_tensor_view v;
    size_t n = make_npy(buf, 1, "{'descr': '<V2', 'fortran_order': False, 'shape': (3,)}", 6);
    assert_int_equal(gp_npy_parse(buf, n, GP_DTYPE_INVALID, &v, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "--dtype"));
    assert_int_equal(gp_npy_parse(buf, n, GP_DTYPE_BF16, &v, err, sizeof(err)), 0);
    assert_int_equal(v.dtype, GP_DTYPE_BF16);
    assert_int_equal(gp_npy_parse(buf, n, GP_DTYPE_F32, &v, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "2-byte"));
}

static void expect_error(size_t n, const char *needle)
{
    gp_tensor_view v;
    err[0] = '\0';
    assert_int_equal(gp_npy_parse(buf, n, GP_DTYPE_INVALID, &v, err, sizeof(err)), -1);
    if (!strstr(err, needle)) fail_msg("error '%s' lacks '%s'", err, needle);
}

static void refuses_bad_headers(void **state)
{
    (void)state;
    size_t n;
    n = make_npy(buf, 1, "{'descr': '|O', 'fortran_order': False, 'shape': (3,)}", 24);
    expect_error(n, "object arrays are refused");
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4)}", 40);
    expect_error(n, "truncated");
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4)}", 52);
    expect_error(n, "trailing");
    n = make_npy(buf, 1,
                 "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16)}",
                 0);
    expect_error(n, "overflows");
    n = make_npy(buf, 1,
                 "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", 0);
    expect_error(n, "shape");
    n = make_npy(buf, 1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,)}", 12);
    expect_error(n, "structured");
    n = make_npy(buf, 1, "{'descr': '<M8', 'fortran_order': False, 'shape': (3,)}", 24);
    expect_error(n, "not a supported");
    n = make_npy(buf, 1, "{'descr': '<f4', 'shape': (3,)}", 12);
    expect_error(n, "lacks 'fortran_order'");
    n = make_npy(buf, 1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,)}",
                 12);
    expect_error(n, "repeated");
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (3,)}", 12);
    expect_error(n, "fortran_order");
    /* header length that lies: claims more than the file holds */
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", 12);
    buf[8] = 0xff, buf[9] = 0x0f;
    expect_error(n, "runs past the end");
    /* version 2 header length over numpy's limit */
    n = make_npy(buf, 2, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", 12);
    buf[10] = 1;
    expect_error(n, "over the limit");
    n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", 12);
    buf[6] = 4;
    expect_error(n, "version");
    expect_error(5, "magic");
    memcpy(buf, "PK\x03\x04", 4);
    expect_error(64, "magic");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_every_dtype),
        cmocka_unit_test(versions_scalars_and_fortran),
        cmocka_unit_test(void_descr_needs_dtype),
        cmocka_unit_test(refuses_bad_headers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
