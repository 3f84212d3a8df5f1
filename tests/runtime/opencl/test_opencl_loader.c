/*
 * test_opencl_loader.c — the ICD loader found with dlopen (real libOpenCL + PoCL), device
 * enumeration with its facts, and the three "why not" reasons: loader not found (an empty
 * GPUPORT_OPENCL_LIBRARY_PATH), no platform (the ICD loader's OCL_ICD_VENDORS pointed at an
 * empty folder) and no device (PoCL told to offer none). Those run in child processes, because
 * an ICD loader reads its environment once per process.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/opencl/device.h"
#include "runtime/opencl/errors.h"
#include "runtime/opencl/loader.h"
#include "skip.h"

/* PoCL is part of the test setup (pocl-opencl-icd); without it these tests cannot mean
 * anything, so they skip with the reason rather than pass. */
static int gp_test_have_opencl(void)
{
    char why[2048];
    if (!gp_cl_api_get(why, sizeof why)) {
        print_message("OpenCL not available: %s\n", why);
        return 0;
    }
    return 1;
}

static void test_open_default_loader(void **state)
{
    (void)state;
    if (!gp_test_have_opencl()) GP_TEST_SKIP("no OpenCL loader or platform on this machine");
    gp_cl_api api;
    char why[2048] = "";
    assert_int_equal(gp_cl_api_open(&api, NULL, why, sizeof why), GP_OK);
    assert_non_null(api.library);
    assert_string_equal(api.path, "libOpenCL.so.1");
    assert_non_null(api.clGetPlatformIDs);
    assert_non_null(api.clEnqueueNDRangeKernel);
    gp_cl_api_close(&api);
    assert_null(api.library);
}

static char gp_test_empty_dir[256];

static void gp_test_make_empty_dir(void)
{
    snprintf(gp_test_empty_dir, sizeof gp_test_empty_dir, "%s/gp-cl-empty-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(gp_test_empty_dir));
}

static void test_empty_search_path_reports_where_it_looked(void **state)
{
    (void)state;
    gp_test_make_empty_dir();
    gp_cl_api api;
    char why[2048] = "";
    assert_int_equal(gp_cl_api_open(&api, gp_test_empty_dir, why, sizeof why), GP_ERR_NOT_FOUND);
    assert_null(api.library);
    char want[512];
    snprintf(want, sizeof want, "%s/libOpenCL.so.1", gp_test_empty_dir);
    assert_non_null(strstr(why, want));
    snprintf(want, sizeof want, "%s/libOpenCL.so ", gp_test_empty_dir);
    assert_non_null(strstr(why, want));
    assert_non_null(strstr(why, GP_CL_LIBRARY_PATH_ENV));
    rmdir(gp_test_empty_dir);
}

static void test_search_path_file_entry_is_used(void **state)
{
    (void)state;
    if (!gp_test_have_opencl()) GP_TEST_SKIP("no OpenCL loader or platform on this machine");
    /* A list whose first entry does not exist and whose second is the real loader's folder. */
    const char *dir = NULL;
    static const char *const dirs[] = {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
                                       "/usr/lib64", "/usr/lib"};
    char probe[256];
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0] && !dir; i++) {
        snprintf(probe, sizeof probe, "%s/libOpenCL.so.1", dirs[i]);
        if (access(probe, R_OK) == 0) dir = dirs[i];
    }
    if (!dir) GP_TEST_SKIP("no libOpenCL.so.1 in the usual library folders");
    char list[512];
    snprintf(list, sizeof list, "/nonexistent-gp-dir:%s", dir);
    gp_cl_api api;
    char why[2048] = "";
    assert_int_equal(gp_cl_api_open(&api, list, why, sizeof why), GP_OK);
    assert_string_equal(api.path, probe);
    gp_cl_api_close(&api);
}

static void test_not_a_loader_is_refused(void **state)
{
    (void)state;
    /* libm is a real shared library without any cl* symbol. */
    gp_cl_api api;
    char why[2048] = "";
    gp_status st = gp_cl_api_open(&api, "libm.so.6", why, sizeof why);
    assert_int_equal(st, GP_ERR_UNSUPPORTED);
    assert_non_null(strstr(why, "lacks clGetPlatformIDs"));
    assert_null(api.library);
}

static void test_enumerate_pocl(void **state)
{
    (void)state;
    if (!gp_test_have_opencl()) GP_TEST_SKIP("no OpenCL loader or platform on this machine");
    const gp_cl_api *api = gp_cl_api_get(NULL, 0);
    gp_cl_device_info *devs = NULL;
    size_t n = 0;
    char why[2048] = "";
    assert_int_equal(gp_cl_devices_enumerate(api, &devs, &n, why, sizeof why, NULL), GP_CL_ENUM_OK);
    assert_true(n >= 1);
    int saw_pocl = 0;
    for (size_t i = 0; i < n; i++) {
        const gp_cl_device_info *d = &devs[i];
        assert_true(strlen(d->name) > 0);
        assert_true(strlen(d->driver_version) > 0);
        assert_true(d->compute_units >= 1);
        assert_true(d->max_group_size >= 1);
        assert_true(d->max_dims >= 1 && d->max_dims <= 3);
        assert_true(d->max_item_sizes[0] >= 1);
        assert_true(d->global_mem_bytes > 0);
        assert_true(d->local_mem_bytes > 0);
        if (strstr(d->platform_name, "Portable Computing Language")) {
            saw_pocl = 1;
            /* PoCL's CPU device shares host memory and has cl_khr_fp64. */
            assert_true(d->type & CL_DEVICE_TYPE_CPU);
            assert_true(d->unified_memory);
            assert_true(d->fp64);
            /* the float vector width PoCL vectorises work-items to (4 with SSE, 8 with AVX) */
            assert_true(d->simd_width >= 4 && d->simd_width <= 16);
            assert_true(d->compute_units == (uint32_t)sysconf(_SC_NPROCESSORS_ONLN) ||
                        d->compute_units >= 1);
        }
    }
    assert_true(saw_pocl);
    free(devs);
}

static void test_extension_match_is_whole_word(void **state)
{
    (void)state;
    assert_true(gp_cl_has_extension("cl_khr_icd cl_khr_fp64 cl_khr_fp16", "cl_khr_fp64"));
    assert_true(gp_cl_has_extension("cl_khr_fp16", "cl_khr_fp16"));
    assert_false(gp_cl_has_extension("cl_khr_fp64x cl_khr_icd", "cl_khr_fp64"));
    assert_false(gp_cl_has_extension("xcl_khr_fp64", "cl_khr_fp64"));
    assert_false(gp_cl_has_extension("", "cl_khr_fp64"));
    assert_false(gp_cl_has_extension(NULL, "cl_khr_fp64"));
}

static const char *gp_test_self; /* argv[0], to start the child side */

/* The child side: a fresh process (exec'd, so that no loader is initialised yet) enumerates
 * and writes "RESULT REASON" to stdout. */
static int gp_test_child_enumerate(void)
{
    char reason[2048] = "";
    gp_cl_enum_result r = GP_CL_ENUM_ERROR;
    gp_cl_api api;
    if (gp_cl_api_open(&api, NULL, reason, sizeof reason) == GP_OK) {
        gp_cl_device_info *devs = NULL;
        size_t n = 0;
        r = gp_cl_devices_enumerate(&api, &devs, &n, reason, sizeof reason, NULL);
        free(devs);
    }
    printf("%d %s", (int)r, reason);
    return 0;
}

/* Runs the enumeration in a new process with one environment variable set; returns the result
 * and the reason. */
static gp_cl_enum_result gp_test_enumerate_with(const char *var, const char *value, char *why,
                                                size_t whylen)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        setenv(var, value, 1);
        unsetenv("OCL_ICD_FILENAMES"); /* ICDs named outside the vendor folder */
        char *const argv[] = {(char *)gp_test_self, "--child-enumerate", NULL};
        execv(gp_test_self, argv);
        _exit(127);
    }
    close(fds[1]);
    char buf[2100] = "";
    ssize_t got = 0, r;
    while ((r = read(fds[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0)
        got += r;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    int code = atoi(buf);
    const char *space = strchr(buf, ' ');
    snprintf(why, whylen, "%s", space ? space + 1 : "");
    return (gp_cl_enum_result)code;
}

static void test_no_platform_reason(void **state)
{
    (void)state;
    if (!gp_test_have_opencl()) GP_TEST_SKIP("no OpenCL loader or platform on this machine");
    gp_test_make_empty_dir();
    char why[2048];
    gp_cl_enum_result r =
        gp_test_enumerate_with("OCL_ICD_VENDORS", gp_test_empty_dir, why, sizeof why);
    if (r == GP_CL_ENUM_OK) { /* a loader that finds ICDs elsewhere too (a GPU machine's image) */
        GP_TEST_SKIP("this ICD loader does not honour OCL_ICD_VENDORS alone: %s", why);
    }
    assert_int_equal(r, GP_CL_ENUM_NO_PLATFORM);
    assert_non_null(strstr(why, "no OpenCL platform"));
    assert_non_null(strstr(why, gp_test_empty_dir));
    rmdir(gp_test_empty_dir);
}

static void test_no_device_reason(void **state)
{
    (void)state;
    if (!gp_test_have_opencl()) GP_TEST_SKIP("no OpenCL loader or platform on this machine");
    char why[2048];
    /* PoCL offers only the device drivers named in POCL_DEVICES; a name it lacks leaves the
     * platform with none. */
    gp_cl_enum_result r =
        gp_test_enumerate_with("POCL_DEVICES", "gp-no-such-driver", why, sizeof why);
    assert_int_equal(r, GP_CL_ENUM_NO_DEVICE);
    assert_non_null(strstr(why, "no OpenCL device"));
}

static void test_error_names_and_status(void **state)
{
    (void)state;
    assert_string_equal(gp_cl_error_name(CL_INVALID_WORK_GROUP_SIZE), "CL_INVALID_WORK_GROUP_SIZE");
    assert_string_equal(gp_cl_error_name(CL_PLATFORM_NOT_FOUND_KHR), "CL_PLATFORM_NOT_FOUND_KHR");
    assert_string_equal(gp_cl_error_name(-12345), "CL_UNKNOWN_ERROR");
    assert_int_equal(gp_cl_status_of(CL_MEM_OBJECT_ALLOCATION_FAILURE), GP_ERR_OUT_OF_MEMORY);
    assert_int_equal(gp_cl_status_of(CL_BUILD_PROGRAM_FAILURE), GP_ERR_BUILD);
    assert_int_equal(gp_cl_status_of(CL_INVALID_WORK_GROUP_SIZE), GP_ERR_LAUNCH);
    assert_int_equal(gp_cl_status_of(CL_INVALID_KERNEL_NAME), GP_ERR_NOT_FOUND);
    assert_int_equal(gp_cl_status_of(-12345), GP_ERR_BACKEND);
    /* every code from -1 to -68 has a name and a fix */
    for (cl_int e = -1; e >= -68; e--) {
        if (e < -19 && e > -30) continue; /* unassigned in OpenCL 1.2 */
        assert_string_not_equal(gp_cl_error_name(e), "CL_UNKNOWN_ERROR");
        assert_true(strlen(gp_cl_error_fix(e)) > 10);
    }
    gp_status st = gp_cl_fail(CL_INVALID_ARG_SIZE, "setting argument %d of %s", 2, "saxpy");
    assert_int_equal(st, GP_ERR_INVALID_ARGUMENT);
    assert_non_null(
        strstr(gp_last_error(), "setting argument 2 of saxpy: CL_INVALID_ARG_SIZE (-51)"));
}

int main(int argc, char **argv)
{
    gp_test_self = argv[0];
    if (argc > 1 && strcmp(argv[1], "--child-enumerate") == 0) return gp_test_child_enumerate();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_default_loader),
        cmocka_unit_test(test_empty_search_path_reports_where_it_looked),
        cmocka_unit_test(test_search_path_file_entry_is_used),
        cmocka_unit_test(test_not_a_loader_is_refused),
        cmocka_unit_test(test_enumerate_pocl),
        cmocka_unit_test(test_extension_match_is_whole_word),
        cmocka_unit_test(test_no_platform_reason),
        cmocka_unit_test(test_no_device_reason),
        cmocka_unit_test(test_error_names_and_status),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
