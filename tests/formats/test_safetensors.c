/* test_safetensors.c — the safetensors reader: dtypes and shapes, views into the data, and the
 * checks on the header (length limit, UTF-8, duplicate keys) and on the byte ranges (overlaps,
 * gaps, sizes that disagree with the shape, data that does not end at the end of the file). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/safetensors.h"

static uint8_t buf[1 << 16];
static char err[512];

/* header JSON + `ndata` bytes of data */
static size_t make_st(const char *json, size_t ndata)
{
    size_t n = strlen(json);
    for (int i = 0; i < 8; i++)
        buf[i] = (uint8_t)((uint64_t)n >> (8 * i));
    memcpy(buf + 8, json, n);
    for (size_t i = 0; i < ndata; i++)
        buf[8 + n + i] = (uint8_t)i;
    return 8 + n + ndata;
}

static void reads_tensors(void **state)
{
    (void)state;
    size_t n =
        make_st("{\"__metadata__\": {\"format\": \"pt\"}, "
                "\"w\": {\"dtype\": \"BF16\", \"shape\": [2, 3], \"data_offsets\": [0, 12]}, "
                "\"b\": {\"dtype\": \"F32\", \"shape\": [3], \"data_offsets\": [12, 24]}, "
                "\"s\": {\"dtype\": \"I64\", \"shape\": [], \"data_offsets\": [24, 32]}, "
                "\"e\": {\"dtype\": \"C64\", \"shape\": [0], \"data_offsets\": [32, 32]}}  ",
                32);
    gp_tensor_list l = GP_TENSOR_LIST_INIT;
    assert_int_equal(gp_safetensors_parse(buf, n, &l, err, sizeof(err)), 0);
    assert_int_equal(l.count, 4);
    assert_string_equal(l.items[0].name, "w");
    assert_int_equal(l.items[0].view.dtype, GP_DTYPE_BF16);
    assert_int_equal(l.items[0].view.count, 6);
    assert_ptr_equal(l.items[0].view.data, buf + n - 32);
    assert_int_equal(l.items[1].view.dtype, GP_DTYPE_F32);
    assert_ptr_equal(l.items[1].view.data, buf + n - 20);
    assert_int_equal(l.items[2].view.ndim, 0);
    assert_int_equal(l.items[2].view.count, 1);
    assert_int_equal(l.items[3].view.count, 0);
    gp_tensor_list_free(&l);
}

static void expect_error(size_t n, const char *needle)
{
    gp_tensor_list l = GP_TENSOR_LIST_INIT;
    err[0] = '\0';
    assert_int_equal(gp_safetensors_parse(buf, n, &l, err, sizeof(err)), -1);
    gp_tensor_list_free(&l);
    if (!strstr(err, needle)) fail_msg("error '%s' lacks '%s'", err, needle);
}

static void refuses_bad_files(void **state)
{
    (void)state;
    expect_error(make_st("{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]}, "
                         "\"b\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [4, 12]}}",
                         12),
                 "overlap");
    expect_error(make_st("{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]}, "
                         "\"b\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [12, 20]}}",
                         20),
                 "gap of 4 bytes");
    expect_error(make_st("{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]}, "
                         "\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [8, 16]}}",
                         16),
                 "twice");
    expect_error(
        make_st("{\"a\": {\"dtype\": \"F32\", \"shape\": [3], \"data_offsets\": [0, 8]}}", 8),
        "need");
    expect_error(
        make_st("{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [8, 0]}}", 8),
        "before it begins");
    expect_error(
        make_st("{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]}}", 12),
        "data ends at 8");
    expect_error(
        make_st("{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]}}", 4),
        "runs past the end");
    expect_error(make_st("{\"a\": {\"dtype\": \"F32\", \"shape\": [4294967296, 4294967296, 4096], "
                         "\"data_offsets\": [0, 8]}}",
                         8),
                 "overflows");
    expect_error(
        make_st("{\"a\": {\"dtype\": \"F32\", \"shape\": [-1], \"data_offsets\": [0, 8]}}", 8),
        "non-negative");
    expect_error(
        make_st("{\"a\": {\"dtype\": \"F8_E4M3\", \"shape\": [2], \"data_offsets\": [0, 2]}}", 2),
        "unsupported dtype");
    expect_error(make_st("{\"a\": {\"dtype\": \"F32\", \"shape\": [2]}}", 8), "lacks");
    expect_error(make_st("{\"a\": ", 0), "not valid JSON");
    expect_error(make_st("[1, 2]", 0), "not a JSON object");
    expect_error(make_st("{\"\xff\": 1}", 0), "UTF-8");
    expect_error(4, "shorter");
    /* header length that lies, and one over the 100 MB limit */
    size_t n = make_st("{}", 0);
    buf[0] = 200;
    expect_error(n, "runs past the end");
    buf[0] = 0, buf[1] = 0xe2, buf[2] = 0xf5, buf[3] = 0x05; /* 100,000,256 */
    expect_error(n, "over the limit");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_tensors),
        cmocka_unit_test(refuses_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
