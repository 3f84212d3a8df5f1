/* test_csv.c — the CSV/TSV reader: values, shapes, header rows, comments, blank lines, CRLF,
 * non-finite values, and the errors for ragged rows and fields that are not numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/csv.h"

static char err[512];

static double at(const gp_tensor_view *v, size_t i)
{
    double d;
    memcpy(&d, v->data + 8 * i, 8);
    return d;
}

static void parses_tables(void **state)
{
    (void)state;
    const char *text = "# produced by a test\nx,y,z\n1, 2.5 ,-3e2\r\n\n4,nan,inf\n7,8,-inf";
    gp_tensor_view v;
    void *owned;
    assert_int_equal(
        gp_csv_parse((const uint8_t *)text, strlen(text), ',', &v, &owned, err, sizeof(err)), 0);
    assert_int_equal(v.dtype, GP_DTYPE_F64);
    assert_int_equal(v.ndim, 2);
    assert_int_equal(v.shape[0], 3);
    assert_int_equal(v.shape[1], 3);
    assert_true(at(&v, 0) == 1.0 && at(&v, 1) == 2.5 && at(&v, 2) == -300.0);
    assert_true(isnan(at(&v, 4)) && at(&v, 5) == INFINITY && at(&v, 8) == -INFINITY);
    free(owned);
    const char *col = "1\n2\n3\n";
    assert_int_equal(
        gp_csv_parse((const uint8_t *)col, strlen(col), ',', &v, &owned, err, sizeof(err)), 0);
    assert_int_equal(v.ndim, 1);
    assert_int_equal(v.shape[0], 3);
    assert_true(at(&v, 2) == 3.0);
    free(owned);
    const char *tsv = "1\t2\n3\t4\n";
    assert_int_equal(
        gp_csv_parse((const uint8_t *)tsv, strlen(tsv), '\t', &v, &owned, err, sizeof(err)), 0);
    assert_int_equal(v.shape[1], 2);
    assert_true(at(&v, 3) == 4.0);
    free(owned);
}

static void expect_error(const char *text, size_t len, const char *needle)
{
    gp_tensor_view v;
    void *owned = NULL;
    err[0] = '\0';
    assert_int_equal(gp_csv_parse((const uint8_t *)text, len, ',', &v, &owned, err, sizeof(err)),
                     -1);
    assert_null(owned);
    if (!strstr(err, needle)) fail_msg("error '%s' lacks '%s'", err, needle);
}

static void refuses_bad_tables(void **state)
{
    (void)state;
    expect_error("1,2\n3\n", 6, "line 2 has 1 field, earlier lines have 2");
    expect_error("a,b\n1,2\n3,x\n", 12, "line 3, field 2: not a number");
    expect_error("1,2\n\0\n", 6, "NUL");
    expect_error("", 0, "empty");
    expect_error("# nothing\n\n", 11, "no rows");
    expect_error("1,,2\n", 5, "field 2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_tables),
        cmocka_unit_test(refuses_bad_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
