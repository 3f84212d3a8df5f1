/* test_selection.c — the selection record: `auto` records every backend in the order cuda ->
 * metal -> opencl -> cpu, GPUPORT_DEVICE excludes what it leaves out and never falls back beyond
 * its list, GPUPORT_LOG=info prints the record. (setenv before each open: the variables are read
 * at open time.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include "runtime/conformance.h"

static void auto_records_every_backend(void **state)
{
    (void)state;
    unsetenv("GPUPORT_DEVICE");
    gp_device *d;
    GPT_CHECK(gp_device_open("auto", &d));
    gp_selection_entry rec[8];
    uint32_t n = 0;
    GPT_CHECK(gp_device_selection(d, rec, 8, &n));
    assert_int_equal(n, GP_BACKEND_COUNT);
    int chosen = -1;
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(rec[i].backend, (int)i); /* the order of `auto` */
        if (rec[i].outcome == GP_SELECT_CHOSEN) {
            assert_int_equal(chosen, -1);
            chosen = (int)i;
        } else if (chosen < 0) {
            /* every backend before the chosen one says why it was skipped */
            assert_true(rec[i].outcome != GP_SELECT_NOT_TRIED &&
                        rec[i].outcome != GP_SELECT_AVAILABLE);
            assert_true(rec[i].detail[0] != '\0');
        } else {
            assert_int_equal(rec[i].outcome, GP_SELECT_NOT_TRIED);
        }
    }
    assert_true(chosen >= 0);
    gp_device_info info;
    GPT_CHECK(gp_device_get_info(d, &info));
    assert_int_equal(info.backend, chosen);
    char text[4096];
    size_t need;
    GPT_CHECK(gp_device_selection_text(d, text, sizeof text, &need));
    assert_int_equal(strlen(text) + 1, need);
    assert_non_null(strstr(text, "cpu"));
    assert_non_null(strstr(text, "chosen"));
    gp_device_release(d);
}

static void env_excludes_and_orders(void **state)
{
    (void)state;
    setenv("GPUPORT_DEVICE", "metal,cpu", 1);
    gp_device *d;
    GPT_CHECK(gp_device_open(NULL, &d));
    gp_selection_entry rec[GP_BACKEND_COUNT];
    GPT_CHECK(gp_device_selection(d, rec, GP_BACKEND_COUNT, NULL));
    assert_int_equal(rec[GP_BACKEND_CUDA].outcome, GP_SELECT_EXCLUDED);
    assert_non_null(strstr(rec[GP_BACKEND_CUDA].detail, "GPUPORT_DEVICE=metal,cpu"));
    assert_int_equal(rec[GP_BACKEND_OPENCL].outcome, GP_SELECT_EXCLUDED);
#if !defined(__APPLE__)
    assert_int_equal(rec[GP_BACKEND_METAL].outcome, GP_SELECT_NOT_BUILT);
    assert_int_equal(rec[GP_BACKEND_CPU].outcome, GP_SELECT_CHOSEN);
#endif
    gp_device_release(d);

    /* an explicit spec is not affected by GPUPORT_DEVICE */
    setenv("GPUPORT_DEVICE", "opencl", 1);
    GPT_CHECK(gp_device_open("cpu", &d));
    gp_device_release(d);

    /* nothing in the list opens: an error naming the variable, no silent fallback to the CPU */
    setenv("GPUPORT_DEVICE", "cuda:5", 1);
    d = NULL;
    assert_int_equal(gp_device_open("auto", &d), GP_ERR_NOT_FOUND);
    assert_non_null(strstr(gp_last_error(), "GPUPORT_DEVICE='cuda:5'"));
    assert_null(d);

    setenv("GPUPORT_DEVICE", "cpu,banana", 1);
    assert_int_equal(gp_device_open("auto", &d), GP_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gp_last_error(), "'banana' is not a device spec"));
    unsetenv("GPUPORT_DEVICE");
}

static void spec_parse(void **state)
{
    (void)state;
    int32_t b, i;
    GPT_CHECK(gp_device_spec_parse("opencl:1", &b, &i));
    assert_int_equal(b, GP_BACKEND_OPENCL);
    assert_int_equal(i, 1);
    GPT_CHECK(gp_device_spec_parse("auto", &b, &i));
    assert_int_equal(b, -1);
    GPT_CHECK(gp_device_spec_parse("cuda", &b, &i));
    assert_int_equal(b, GP_BACKEND_CUDA);
    assert_int_equal(i, -1);
    assert_int_equal(gp_device_spec_parse("opencl:", &b, &i), GP_ERR_INVALID_ARGUMENT);
    assert_int_equal(gp_device_spec_parse("opencl:99999999999", &b, &i), GP_ERR_INVALID_ARGUMENT);
    assert_int_equal(gp_device_spec_parse("cpu0", &b, &i), GP_ERR_INVALID_ARGUMENT);
}

static void enumerate_matches_count(void **state)
{
    (void)state;
    uint32_t n;
    GPT_CHECK(gp_device_count(&n));
    assert_true(n >= 1); /* the CPU is always there */
    bool cpu = false;
    for (uint32_t i = 0; i < n; i++) {
        gp_device_info info;
        GPT_CHECK(gp_device_enumerate(i, &info));
        assert_true(info.name[0] && info.spec[0] && info.max_group_size > 0);
        if (info.backend == GP_BACKEND_CPU) cpu = true;
    }
    assert_true(cpu);
    gp_device_info info;
    assert_int_equal(gp_device_enumerate(n, &info), GP_ERR_NOT_FOUND);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(auto_records_every_backend),
        cmocka_unit_test(env_excludes_and_orders),
        cmocka_unit_test(spec_parse),
        cmocka_unit_test(enumerate_matches_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
