/* test_cuda_tables.c — the tables the fixes quote (src/doctor/cuda_tables.c, gpu_identity.c,
 * jetson.c): minimum drivers, compute capabilities by PCI id and name, forward compatibility,
 * PyTorch wheel targets and indexes, L4T -> JetPack -> CUDA. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/cuda_tables.h"
#include "doctor/gpu_identity.h"
#include "doctor/jetson.h"
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
    const char *lin = NULL, *win = NULL;
    assert_true(gp_cuda_major_min_driver(12, &lin, &win));
    assert_string_equal(lin, "525.60.13");
    assert_string_equal(win, "528.33");
    assert_true(gp_cuda_major_min_driver(11, &lin, &win));
    assert_string_equal(lin, "450.80.02");
    assert_string_equal(win, "452.39");
    assert_false(gp_cuda_major_min_driver(10, &lin, &win)); /* no minor-version compatibility */
}

/* NVIDIA's rule: data-centre GPUs, select NGC Server Ready RTX SKUs, Jetson boards. */
static void test_forward_compat(void **state)
{
    (void)state;
    assert_int_equal(gp_gpu_forward_compat("NVIDIA H100 80GB HBM3", 0), GP_FC_YES);
    assert_int_equal(gp_gpu_forward_compat("Tesla V100-SXM2-16GB", 0), GP_FC_YES);
    assert_int_equal(gp_gpu_forward_compat("NVIDIA A2", 0), GP_FC_YES);
    assert_int_equal(gp_gpu_forward_compat("NVIDIA L4", 0), GP_FC_YES);
    assert_int_equal(gp_gpu_forward_compat("NVIDIA RTX PRO 6000 Blackwell Server Edition", 0),
                     GP_FC_YES);
    assert_int_equal(gp_gpu_forward_compat("NVIDIA GeForce RTX 4090", 0x030200), GP_FC_NO);
    assert_int_equal(gp_gpu_forward_compat("NVIDIA TITAN RTX", 0), GP_FC_NO);
    assert_int_equal(gp_gpu_forward_compat("NVIDIA RTX A6000", 0), GP_FC_SELECTED);
    assert_int_equal(gp_gpu_forward_compat("Quadro RTX 8000", 0), GP_FC_SELECTED);
    assert_int_equal(gp_gpu_forward_compat("NVIDIA RTX 6000 Ada Generation", 0), GP_FC_SELECTED);
    assert_int_equal(gp_gpu_forward_compat("", 0x030200), GP_FC_YES); /* a 3D controller */
    assert_int_equal(gp_gpu_forward_compat("", 0), GP_FC_UNKNOWN);
}

/* The CC from the PCI device id (the table from the driver's list; the chip block for an id the
 * table lacks) and from the name. */
static void test_gpu_identity(void **state)
{
    (void)state;
    const char *name = NULL;
    char from[96];
    assert_int_equal(gp_gpu_cc_for_pci(0x20b5, &name, from, sizeof from), 80);
    assert_string_equal(name, "NVIDIA A100 80GB PCIe");
    assert_string_equal(from, "PCI id table (10de:20b5)");
    assert_int_equal(gp_gpu_cc_for_pci(0x2487, &name, from, sizeof from), 86); /* RTX 3060 */
    assert_int_equal(gp_gpu_cc_for_pci(0x2684, &name, from, sizeof from), 89); /* RTX 4090 */
    assert_int_equal(gp_gpu_cc_for_pci(0x2b85, &name, from, sizeof from), 120);
    assert_int_equal(gp_gpu_cc_for_pci(0x2e12, &name, from, sizeof from), 121); /* GB10 */
    assert_int_equal(gp_gpu_cc_for_pci(0x31c2, &name, from, sizeof from), 103); /* GB300 */
    assert_int_equal(gp_gpu_cc_for_pci(0x1db4, &name, from, sizeof from), 70);  /* V100 */
    assert_int_equal(gp_gpu_cc_for_pci(0x13c2, &name, from, sizeof from), 52);  /* GTX 970 */
    assert_int_equal(gp_gpu_cc_for_pci(0x1380, &name, from, sizeof from), 50);  /* GTX 750 Ti */
    assert_int_equal(gp_gpu_cc_for_pci(0x28e3, &name, from, sizeof from), 89);  /* 3050 A: Ada */
    /* an id newer than the table: its chip block */
    assert_int_equal(gp_gpu_cc_for_pci(0x2bff, &name, from, sizeof from), 120);
    assert_null(name);
    assert_non_null(strstr(from, "PCI id range 10de:2b00-2dff"));
    assert_int_equal(gp_gpu_cc_for_pci(0x1180, &name, from, sizeof from), 0); /* Kepler */
    for (unsigned i = 1; i < gp_gpu_id_count; i++) /* the binary search needs order */
        assert_true(gp_gpu_ids[i - 1].devid < gp_gpu_ids[i].devid);
    assert_true(gp_gpu_id_count > 400);

    assert_int_equal(gp_gpu_cc_for_name("NVIDIA GeForce RTX 3060", from, sizeof from), 86);
    assert_int_equal(gp_gpu_cc_for_name("NVIDIA A100-SXM4-80GB", from, sizeof from), 80);
    assert_int_equal(gp_gpu_cc_for_name("NVIDIA GeForce RTX 2050", from, sizeof from), 86);
    assert_int_equal(gp_gpu_cc_for_name("NVIDIA H100 80GB HBM3", from, sizeof from), 90);
    assert_int_equal(gp_gpu_cc_for_name("Tesla T4", from, sizeof from), 75);
    /* GTX 750 is two chips (GM107 5.0, GM206 5.2): the name is not used, the family is */
    assert_int_equal(gp_gpu_cc_for_name("NVIDIA GeForce GTX 750", from, sizeof from), 50);
    /* names the list does not hold: NVIDIA's product families */
    assert_int_equal(gp_gpu_cc_for_name("NVIDIA GeForce RTX 5090 Founders", from, sizeof from),
                     120);
    assert_int_equal(gp_gpu_cc_for_name("NVIDIA H100 SXM5 96GB", from, sizeof from), 90);
    assert_int_equal(gp_gpu_cc_for_name("NVIDIA RTX A7000", from, sizeof from), 86);
    assert_int_equal(gp_gpu_cc_for_name("Jetson AGX Orin", from, sizeof from), 87);
    assert_int_equal(gp_gpu_cc_for_name("a toaster", from, sizeof from), 0);
}

static void test_jetson_tables(void **state)
{
    (void)state;
    bool exact = false;
    int r3643[3] = {36, 4, 3}, r3547[3] = {35, 4, 7}, r3272[3] = {32, 7, 2}, r382[3] = {38, 2, 0};
    const gp_l4t_release *rel = gp_l4t_lookup(r3643, &exact);
    assert_non_null(rel);
    assert_true(exact);
    assert_string_equal(rel->jetpack, "6.2");
    assert_int_equal(rel->cuda, 126);
    rel = gp_l4t_lookup(r3547, &exact); /* an update the table lacks: the release before it */
    assert_false(exact);
    assert_string_equal(rel->jetpack, "5.1.2");
    assert_int_equal(rel->cuda, 114);
    assert_int_equal(gp_l4t_lookup(r3272, &exact)->cuda, 102);
    assert_string_equal(gp_l4t_lookup(r382, &exact)->jetpack, "7.0");
    int r99[3] = {99, 0, 0};
    assert_null(gp_l4t_lookup(r99, &exact));
    assert_int_equal(gp_tegra_soc_by_compatible("nvidia,p3737-0000+p3701-0005, nvidia,p3701-0005, "
                                                "nvidia,tegra234")
                         ->cc,
                     87);
    assert_int_equal(gp_tegra_soc_by_chip_id(0x19)->cc, 72);
    assert_int_equal(gp_tegra_soc_by_model("NVIDIA Jetson Nano Developer Kit")->cc, 53);
    assert_int_equal(gp_tegra_soc_by_model("quill")->cc, 62);
    assert_int_equal(gp_tegra_soc_by_number(264)->cc, 110);
    char fix[600];
    gp_jetson_torch_fix(r3643, "6.2", fix, sizeof fix);
    assert_non_null(strstr(fix, "https://developer.download.nvidia.com/compute/redist/jp/v61/"));
    gp_jetson_torch_fix(r382, "7.0", fix, sizeof fix);
    assert_non_null(strstr(fix, "https://download.pytorch.org/whl/cu130"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cuda_tables),
        cmocka_unit_test(test_forward_compat),
        cmocka_unit_test(test_gpu_identity),
        cmocka_unit_test(test_jetson_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
