/* test_cuda_tables.c — the CUDA compatibility tables (src/doctor/cuda_tables.c) that the
 * fixes quote: minimum drivers, compute capabilities, PyTorch wheel targets and indexes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/cuda_tables.h"
#include "doctor/parse.h"
#include "util/cuda_driver.h"

static void test_cuda_tables(void **state)
{
    (void)state;
    assert_string_equal(gp_cuda_min_driver_for(12, 4), "550.54.14");
    assert_string_equal(gp_cuda_min_driver_for(12, 7), "570.26"); /* no 12.7: the next row */
    assert_string_equal(gp_cuda_min_driver_for(13, 0), "580.65.06");
    assert_null(gp_cuda_min_driver_for(14, 0));
    gp_version d = {{535, 129, 3}, 3};
    gp_version c = gp_cuda_for_driver(&d);
    assert_int_equal(c.part[0], 12);
    assert_int_equal(c.part[1], 2);
    gp_version old = {{440, 33}, 2};
    assert_int_equal(gp_cuda_for_driver(&old).n, 0);
    assert_int_equal(gp_cuda_min_cc(13), 75);
    assert_int_equal(gp_cuda_min_cc(12), 50);
    int t[16];
    size_t n = gp_torch_wheel_targets(12, 6, t, 16);
    assert_false(gp_torch_runs_on(t, n, 120)); /* RTX 50xx on cu126 */
    assert_true(gp_torch_runs_on(t, n, 89));   /* sm_86 cubins run on 8.9 */
    n = gp_torch_wheel_targets(12, 8, t, 16);
    assert_true(gp_torch_runs_on(t, n, 120));
    assert_false(gp_torch_runs_on(t, n, 61)); /* Pascal dropped */
    assert_string_equal(gp_torch_index_for(124, 89), "cu124");
    assert_string_equal(gp_torch_index_for(128, 120), "cu128");
    assert_string_equal(gp_torch_index_for(124, 120), "cu128"); /* same major, minor compat */
    assert_string_equal(gp_torch_index_for(130, 61), "cu126");
    assert_true(gp_gpu_is_datacenter("NVIDIA H100 80GB HBM3", 0));
    assert_false(gp_gpu_is_datacenter("NVIDIA GeForce RTX 4090", 0x030200));
    assert_true(gp_gpu_is_datacenter("", 0x030200));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cuda_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
