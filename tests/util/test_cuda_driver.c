/* test_cuda_driver.c — the CUDA release -> minimum Linux driver table and its inverse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/cuda_driver.h"

static void minimum_driver_per_release(void **state)
{
    (void)state;
    assert_string_equal(gp_cuda_min_driver_for(11, 0), "450.36.06");
    assert_string_equal(gp_cuda_min_driver_for(12, 4), "550.54.14");
    assert_string_equal(gp_cuda_min_driver_for(12, 7), "570.26"); /* never released: 12.8's */
    assert_string_equal(gp_cuda_min_driver_for(13, 2), "595.45.04");
    assert_null(gp_cuda_min_driver_for(10, 2));
    assert_null(gp_cuda_min_driver_for(13, 9));
    assert_null(gp_cuda_min_driver_for(12, -1));
}

static void highest_release_per_driver(void **state)
{
    (void)state;
    assert_int_equal(gp_cuda_max_for_driver("535.129.03"), 122);
    assert_int_equal(gp_cuda_max_for_driver("550.54.14"), 124);
    assert_int_equal(gp_cuda_max_for_driver("550.54.13"), 123);
    assert_int_equal(gp_cuda_max_for_driver("580.65.06"), 130);
    assert_int_equal(gp_cuda_max_for_driver("999"), 132);
    assert_int_equal(gp_cuda_max_for_driver("440.33"), 0);
    assert_int_equal(gp_cuda_max_for_driver("garbage"), 0);
    assert_int_equal(gp_cuda_max_for_driver(NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(minimum_driver_per_release),
        cmocka_unit_test(highest_release_per_driver),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
