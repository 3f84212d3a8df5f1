/* test_compat.c — the compatibility rules, the GPU table and the fix text, case by case from
 * the rules: SASS families and the Tegra exceptions, "a" and "f" variants, PTX JIT across
 * majors, PTX ISA to driver, name lookup and suggestions, CC parsing, CMake/nvcc/PyTorch fixes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "archcheck/archcheck.h"

static void test_sass(void **state)
{
    (void)state;
    assert_true(gp_ac_sass_runs(80, 0, 86));
    assert_true(gp_ac_sass_runs(86, 0, 89));
    assert_false(gp_ac_sass_runs(86, 0, 80));
    assert_false(gp_ac_sass_runs(86, 0, 90)); /* no SASS across majors */
    assert_false(gp_ac_sass_runs(80, 0, 87)); /* Tegra 8.7 stands alone */
    assert_true(gp_ac_sass_runs(87, 0, 87));
    assert_false(gp_ac_sass_runs(87, 0, 89));
    assert_false(gp_ac_sass_runs(50, 0, 53));
    assert_false(gp_ac_sass_runs(60, 0, 62));
    assert_false(gp_ac_sass_runs(70, 0, 72));
    assert_true(gp_ac_sass_runs(101, 0, 110)); /* 10.1 is the old name of 11.0 */
    assert_true(gp_ac_sass_runs(100, 0, 103));
    assert_true(gp_ac_sass_runs(120, 0, 121));
}

static void test_variants(void **state)
{
    (void)state;
    assert_true(gp_ac_sass_runs(90, 'a', 90));
    assert_false(gp_ac_sass_runs(90, 'a', 100));
    assert_false(gp_ac_sass_runs(100, 'a', 103));
    assert_true(gp_ac_sass_runs(100, 'f', 103));
    assert_false(gp_ac_sass_runs(100, 'f', 110));
    assert_false(gp_ac_sass_runs(103, 'f', 100));
    assert_true(gp_ac_sass_runs(120, 'f', 121));
    assert_false(gp_ac_sass_runs(121, 'f', 120));
    assert_true(gp_ac_sass_runs(110, 'f', 110));
}

static void test_ptx(void **state)
{
    (void)state;
    assert_true(gp_ac_ptx_jits(80, 0, 120));
    assert_true(gp_ac_ptx_jits(86, 0, 87));
    assert_false(gp_ac_ptx_jits(90, 0, 89));
    assert_false(gp_ac_ptx_jits(90, 'a', 100)); /* a/f PTX does not cross */
    assert_true(gp_ac_ptx_jits(100, 'f', 103));
    assert_false(gp_ac_ptx_jits(100, 'f', 120));
    assert_int_equal(gp_ac_ptx_isa_cuda(90), 130);
    assert_int_equal(gp_ac_ptx_isa_cuda(86), 127);
    assert_int_equal(gp_ac_ptx_isa_cuda(88), 129);
    assert_int_equal(gp_ac_ptx_isa_cuda(99), 0);
    assert_string_equal(gp_ac_cuda_driver(130), "580.65.06");
    assert_string_equal(gp_ac_cuda_driver(127), "570.26"); /* 12.7 rounds up to 12.8's */
    assert_null(gp_ac_cuda_driver(0));
}

static void test_gpu_names(void **state)
{
    (void)state;
    const gp_ac_gpu *s[5];
    size_t ns;
    assert_int_equal(gp_ac_gpu_find("RTX 4090", s, 5, &ns)->cc, 89);
    assert_int_equal(gp_ac_gpu_find("nvidia geforce rtx 5090", s, 5, &ns)->cc, 120);
    assert_int_equal(gp_ac_gpu_find("NVIDIA GeForce RTX 4090 Laptop GPU", s, 5, &ns)->cc, 89);
    assert_int_equal(gp_ac_gpu_find("NVIDIA A100-SXM4-80GB", s, 5, &ns)->cc, 80);
    assert_int_equal(gp_ac_gpu_find("NVIDIA H100 80GB HBM3", s, 5, &ns)->cc, 90);
    assert_int_equal(gp_ac_gpu_find("Tesla T4", s, 5, &ns)->cc, 75);
    assert_int_equal(gp_ac_gpu_find("RTX 4060 Ti", s, 5, &ns)->cc, 89);
    assert_int_equal(gp_ac_gpu_find("jetson agx orin", s, 5, &ns)->cc, 87);
    assert_int_equal(gp_ac_gpu_find("GB10", s, 5, &ns)->cc, 121);
    assert_int_equal(gp_ac_gpu_find("Orin (nvgpu)", s, 5, &ns)->cc, 87);
    assert_int_equal(gp_ac_gpu_find("NVIDIA Tegra X1", s, 5, &ns)->cc, 53);
    assert_int_equal(gp_ac_gpu_find("Tesla V100-SXM2-16GB", s, 5, &ns)->cc, 70);
    assert_null(gp_ac_gpu_find("RTX 4900", s, 5, &ns));
    assert_true(ns > 0);
    assert_string_equal(s[0]->name, "RTX 4090");
    assert_null(gp_ac_gpu_find("", s, 5, &ns));
}

static void test_cc_parse(void **state)
{
    (void)state;
    assert_int_equal(gp_ac_cc_parse("8.6"), 86);
    assert_int_equal(gp_ac_cc_parse("12.0"), 120);
    assert_int_equal(gp_ac_cc_parse("86"), 86);
    assert_int_equal(gp_ac_cc_parse("120"), 120);
    assert_int_equal(gp_ac_cc_parse("sm_90"), 90);
    assert_int_equal(gp_ac_cc_parse("8"), -1);
    assert_int_equal(gp_ac_cc_parse("8.x"), -1);
    assert_int_equal(gp_ac_cc_parse("sm_90a"), -1);
    assert_int_equal(gp_ac_cc_parse("99.0"), -1);
}

static void test_fix(void **state)
{
    (void)state;
    char out[512];
    gp_cc ccs[] = {120, 86, 86};
    gp_ac_fix_cmake(ccs, 3, out, sizeof out);
    assert_string_equal(out, "86-real;120");
    gp_ac_fix_nvcc(ccs, 3, out, sizeof out);
    assert_string_equal(out,
                        "-gencode arch=compute_86,code=sm_86 -gencode arch=compute_120,code=sm_120 "
                        "-gencode arch=compute_120,code=compute_120");
    gp_ac_fix_torch(120, out, sizeof out);
    assert_string_equal(out, "cu128, cu129, cu130");
    gp_ac_fix_torch(61, out, sizeof out);
    assert_string_equal(out, "cu126");
    gp_ac_fix_torch(89, out, sizeof out);
    assert_string_equal(out, "cu126, cu128, cu129, cu130");
    gp_ac_fix_torch(87, out, sizeof out);
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sass),     cmocka_unit_test(test_variants),
        cmocka_unit_test(test_ptx),      cmocka_unit_test(test_gpu_names),
        cmocka_unit_test(test_cc_parse), cmocka_unit_test(test_fix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
