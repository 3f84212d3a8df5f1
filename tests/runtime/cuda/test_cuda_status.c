/*
 * test_cuda_status.c — CUresult codes become the right gp_status and a message with the code's
 * name and its fix; the loader reports a missing driver with where it looked and refuses a
 * library that is not a CUDA driver. No GPU or driver is needed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/cuda/loader.h"
#include "runtime/cuda/status.h"

static char buf[2048];

/* A library every machine has that is not a CUDA driver or NVRTC. */
#if defined(__APPLE__)
#define FOREIGN_LIBRARY "/usr/lib/libSystem.B.dylib"
#else
#define FOREIGN_LIBRARY "libm.so.6"
#endif

static const char *explain(CUresult r, int drv, int need)
{
    gp_cuda_result_explain(r, drv, need, buf, sizeof buf);
    return buf;
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(gp_cuda_result_name(0), "CUDA_SUCCESS");
    assert_string_equal(gp_cuda_result_name(100), "CUDA_ERROR_NO_DEVICE");
    assert_string_equal(gp_cuda_result_name(222), "CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
    assert_string_equal(gp_cuda_result_name(804), "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE");
    assert_string_equal(gp_cuda_result_name(35), "CUDA_ERROR_INSUFFICIENT_DRIVER");
    assert_string_equal(gp_cuda_result_name(12345), "unknown CUresult");
    assert_string_equal(gp_nvrtc_result_name(6), "NVRTC_ERROR_COMPILATION");
}

static void test_status_mapping(void **state)
{
    (void)state;
    assert_int_equal(gp_cuda_result_status(0), GP_OK);
    assert_int_equal(gp_cuda_result_status(2), GP_ERR_OUT_OF_MEMORY);
    assert_int_equal(gp_cuda_result_status(100), GP_ERR_NOT_FOUND);
    assert_int_equal(gp_cuda_result_status(209), GP_ERR_BUILD);
    assert_int_equal(gp_cuda_result_status(222), GP_ERR_BUILD);
    assert_int_equal(gp_cuda_result_status(701), GP_ERR_LAUNCH);
    assert_int_equal(gp_cuda_result_status(35), GP_ERR_BACKEND);
    assert_int_equal(gp_cuda_result_status(804), GP_ERR_BACKEND);
    assert_int_equal(gp_cuda_result_status(4242), GP_ERR_BACKEND);
}

static void test_driver_too_old_names_versions(void **state)
{
    (void)state;
    /* A CUDA 12.4 driver asked to run CUDA 13.0 code. */
    const char *m = explain(35, 12040, 13000);
    assert_non_null(strstr(m, "CUDA_ERROR_INSUFFICIENT_DRIVER (35)"));
    assert_non_null(strstr(m, "CUDA 13.0"));
    assert_non_null(strstr(m, "580.65.06"));
    assert_non_null(strstr(m, "CUDA 12.4"));
    /* 12.7 was never released: code that needs it needs the driver of the next release (12.8);
     * a 12.6 driver (560.28.03) does not support it. */
    assert_string_equal(gp_cuda_min_driver(12070), "570.26");
    assert_string_equal(gp_cuda_min_driver(13000), "580.65.06");
    assert_null(gp_cuda_min_driver(9020));
    m = explain(222, 12080, 13000);
    assert_non_null(strstr(m, "UNSUPPORTED_PTX_VERSION (222)"));
    assert_non_null(strstr(m, "580.65.06"));
    assert_non_null(strstr(m, "nvidia-cuda-nvrtc-cu12"));
}

static void test_no_device_mentions_visible_devices(void **state)
{
    (void)state;
    unsetenv("CUDA_VISIBLE_DEVICES");
    assert_non_null(strstr(explain(100, 0, 0), "check CUDA_VISIBLE_DEVICES"));
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    assert_non_null(strstr(explain(100, 0, 0), "hides them all"));
    setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
    assert_non_null(strstr(explain(100, 0, 0), "hides them all"));
    unsetenv("CUDA_VISIBLE_DEVICES");
}

static void test_fixes(void **state)
{
    (void)state;
    assert_non_null(strstr(explain(804, 0, 0), "cuda-compat"));
    assert_non_null(strstr(explain(803, 0, 0), "reboot"));
    assert_non_null(strstr(explain(802, 0, 0), "fabricmanager"));
    assert_non_null(strstr(explain(34, 0, 0), "stub"));
    assert_non_null(strstr(explain(209, 0, 0), "NO_BINARY_FOR_GPU (209)"));
    assert_non_null(strstr(explain(2, 0, 0), "out of memory"));
    /* An unknown code still names itself. */
    assert_string_equal(explain(4242, 0, 0), "unknown CUresult (4242)");
}

static void test_fail_sets_message(void **state)
{
    (void)state;
    assert_int_equal(gp_cuda_fail(2, "cuMemAlloc of 1 GiB"), GP_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(gp_last_error(), "cuMemAlloc of 1 GiB: CUDA_ERROR_OUT_OF_MEMORY (2)"));
    /* Success passed as a failure is a bug, not GP_OK. */
    assert_int_equal(gp_cuda_fail(0, "x"), GP_ERR_INTERNAL);
}

static void test_loader_refuses_missing_and_foreign_libraries(void **state)
{
    (void)state;
    gp_cuda_driver drv;
    char why[1024];
    assert_int_equal(gp_cuda_driver_open("/nonexistent/libcuda.so.1", &drv, why, sizeof why),
                     GP_ERR_NOT_FOUND);
    assert_non_null(strstr(why, "/nonexistent/libcuda.so.1"));
    assert_null(drv.handle);
    /* A real library that is not the driver: named, with the missing entry point. */
    assert_int_equal(gp_cuda_driver_open(FOREIGN_LIBRARY, &drv, why, sizeof why), GP_ERR_NOT_FOUND);
    assert_non_null(strstr(why, "lacks cuInit"));
    gp_cuda_nvrtc nv;
    assert_int_equal(gp_cuda_nvrtc_open(FOREIGN_LIBRARY, &nv, why, sizeof why), GP_ERR_NOT_FOUND);
    assert_non_null(strstr(why, "not an NVRTC library"));
}

static void test_driver_missing_says_where_it_looked(void **state)
{
    (void)state;
    setenv("GPUPORT_CUDA_LIBRARY", "/nonexistent/dir/libcuda.so.1", 1);
    const gp_cuda_driver *drv = (const gp_cuda_driver *)1;
    assert_int_equal(gp_cuda_driver_get(&drv), GP_ERR_NOT_FOUND);
    assert_null(drv);
    assert_non_null(strstr(gp_last_error(), "GPUPORT_CUDA_LIBRARY"));
    assert_non_null(strstr(gp_last_error(), "/nonexistent/dir/libcuda.so.1"));
    assert_non_null(strstr(gp_last_error(), "install the NVIDIA driver"));
    /* Remembered: the same answer again, without another search. */
    unsetenv("GPUPORT_CUDA_LIBRARY");
    assert_int_equal(gp_cuda_driver_get(&drv), GP_ERR_NOT_FOUND);
    assert_non_null(strstr(gp_last_error(), "/nonexistent/dir/libcuda.so.1"));
}

static void test_nvrtc_override_is_the_only_candidate(void **state)
{
    (void)state;
    setenv("GPUPORT_NVRTC_LIBRARY", "/opt/x/libnvrtc.so.12", 1);
    char **c = gp_cuda_nvrtc_candidates(true);
    assert_non_null(c);
    assert_string_equal(c[0], "/opt/x/libnvrtc.so.12");
    assert_null(c[1]);
    gp_cuda_paths_free(c);
    unsetenv("GPUPORT_NVRTC_LIBRARY");
    c = gp_cuda_nvrtc_candidates(false);
    assert_string_equal(c[0], "libnvrtc.so.13");
    assert_string_equal(c[1], "libnvrtc.so.12");
    assert_string_equal(c[2], "libnvrtc.so.11.2");
    gp_cuda_paths_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_status_mapping),
        cmocka_unit_test(test_driver_too_old_names_versions),
        cmocka_unit_test(test_no_device_mentions_visible_devices),
        cmocka_unit_test(test_fixes),
        cmocka_unit_test(test_fail_sets_message),
        cmocka_unit_test(test_loader_refuses_missing_and_foreign_libraries),
        cmocka_unit_test(test_driver_missing_says_where_it_looked),
        cmocka_unit_test(test_nvrtc_override_is_the_only_candidate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
