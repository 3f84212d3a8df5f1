/* test_parse_windows.c — the readers of Windows tools' outputs (src/doctor/parse_windows.c):
 * nvidia-smi -q, wsl.exe -l -v, vswhere, `set`, and the display driver's file version. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "doctor/parse_windows.h"

#define S(x) x, strlen(x)

static void test_driver_version(void **state)
{
    (void)state;
    char v[32];
    assert_true(gp_win_driver_version("32.0.15.6094", v, sizeof v));
    assert_string_equal(v, "560.94");
    assert_true(gp_win_driver_version("31.0.15.5222", v, sizeof v));
    assert_string_equal(v, "552.22");
    assert_true(gp_win_driver_version("27.21.14.5671", v, sizeof v));
    assert_string_equal(v, "456.71");
    assert_true(gp_win_driver_version("30.0.14.0694", v, sizeof v)); /* zero-padded last field */
    assert_string_equal(v, "406.94");
    assert_false(gp_win_driver_version("32.0.15", v, sizeof v));
    assert_false(gp_win_driver_version("32.0.15.6094.1", v, sizeof v));
    assert_false(gp_win_driver_version("a.b.c.d", v, sizeof v));
    assert_false(gp_win_driver_version("", v, sizeof v));
}

static const char *const smi =
    "\r\n==============NVSMI LOG==============\r\n\r\n"
    "Driver Version                            : 538.78\r\n"
    "CUDA Version                              : 12.2\r\n\r\n"
    "Attached GPUs                             : 2\r\n"
    "GPU 00000000:3B:00.0\r\n"
    "    Product Name                          : Tesla T4\r\n"
    "    Product Brand                         : NVIDIA\r\n"
    "    MIG Mode\r\n"
    "        Current                           : N/A\r\n"
    "        Pending                           : N/A\r\n"
    "    Driver Model\r\n"
    "        Current                           : TCC\r\n"
    "        Pending                           : WDDM\r\n"
    "    GPU UUID                              : GPU-1234\r\n"
    "    PCI\r\n"
    "        Device Id                         : 0x1EB810DE\r\n"
    "        Bus Id                            : 00000000:3B:00.0\r\n"
    "    FB Memory Usage\r\n"
    "        Total                             : 15360 MiB\r\n"
    "    BAR1 Memory Usage\r\n"
    "        Total                             : 256 MiB\r\n"
    "GPU 00000000:5E:00.0\r\n"
    "    Product Name                          : NVIDIA GeForce RTX 3090\r\n"
    "    Driver Model\r\n"
    "        Current                           : WDDM\r\n"
    "        Pending                           : WDDM\r\n";

static void test_smi_query(void **state)
{
    (void)state;
    gp_doctor_win w;
    memset(&w, 0, sizeof w);
    assert_true(gp_parse_smi_query(S(smi), &w));
    assert_string_equal(w.driver, "538.78");
    assert_int_equal(w.cuda, 12020);
    assert_int_equal(w.gpu_count, 2);
    assert_int_equal(w.gpu_total, 2);
    assert_string_equal(w.gpus[0].name, "Tesla T4");
    assert_string_equal(w.brand[0], "NVIDIA");
    assert_string_equal(w.model_current[0], "TCC"); /* not MIG Mode's Current */
    assert_string_equal(w.model_pending[0], "WDDM");
    assert_string_equal(w.gpus[0].uuid, "GPU-1234");
    assert_string_equal(w.gpus[0].bdf, "00000000:3B:00.0");
    assert_true(w.gpus[0].memory_bytes == 15360ull * 1024 * 1024);      /* not BAR1's Total */
    assert_int_equal(w.gpus[0].cc_major * 10 + w.gpus[0].cc_minor, 75); /* from 10de:1eb8 */
    /* no Device Id: the compute capability from the name */
    assert_int_equal(w.gpus[1].cc_major * 10 + w.gpus[1].cc_minor, 86);
    assert_non_null(strstr(w.gpus[1].cc_from, "name"));
    memset(&w, 0, sizeof w);
    assert_false(gp_parse_smi_query(S("NVIDIA-SMI has failed because it couldn't communicate "
                                      "with the NVIDIA driver.\r\n"),
                                    &w));
    assert_false(gp_parse_smi_query(S(""), &w));
}

static void test_wsl_list(void **state)
{
    (void)state;
    gp_doctor_win w;
    memset(&w, 0, sizeof w);
    assert_true(gp_parse_wsl_list(S("  NAME            STATE           VERSION\r\n"
                                    "* Ubuntu-22.04    Running         2\r\n"
                                    "  Legacy          Stopped         1\r\n"),
                                  &w));
    assert_true(w.wsl);
    assert_int_equal(w.wsl_distros, 2);
    assert_int_equal(w.wsl2_distros, 1);
    assert_string_equal(w.wsl_names, "Ubuntu-22.04 (WSL 2), Legacy (WSL 1)");
    memset(&w, 0, sizeof w);
    assert_true(gp_parse_wsl_list(
        S("Windows Subsystem for Linux has no installed distributions.\r\n"), &w));
    assert_true(w.wsl);
    assert_int_equal(w.wsl_distros, 0);
    memset(&w, 0, sizeof w);
    assert_false(gp_parse_wsl_list(S("Usage: wsl.exe [Argument]\r\n"), &w));
    assert_false(w.wsl);
}

static void test_vswhere_and_env(void **state)
{
    (void)state;
    gp_doctor_win w;
    memset(&w, 0, sizeof w);
    assert_true(gp_parse_vswhere(S("instanceId: a\r\ninstallationPath: C:\\VS\\2022\r\n"
                                   "installationVersion: 17.9.1\r\ndisplayName: Visual Studio "
                                   "Community 2022\r\ninstanceId: b\r\ninstallationPath: C:\\VS\\"
                                   "2019\r\n"),
                                 &w));
    assert_string_equal(w.vs_path, "C:\\VS\\2022"); /* the first instance */
    assert_string_equal(w.vs_version, "17.9.1");
    assert_string_equal(w.vs_name, "Visual Studio Community 2022");
    assert_false(gp_parse_vswhere(S("No instances found\r\n"), &w));
    char v[64];
    const char *env = "CUDA_PATH=C:\\CUDA\\v12.4\r\nPath=C:\\a;C:\\b\r\nPATHEXT=.EXE\r\n";
    assert_true(gp_parse_env_get(S(env), "PATH", v, sizeof v)); /* names without case */
    assert_string_equal(v, "C:\\a;C:\\b");
    assert_true(gp_parse_env_get(S(env), "cuda_path", v, sizeof v));
    assert_string_equal(v, "C:\\CUDA\\v12.4");
    assert_false(gp_parse_env_get(S(env), "CUDA", v, sizeof v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_driver_version),
        cmocka_unit_test(test_smi_query),
        cmocka_unit_test(test_wsl_list),
        cmocka_unit_test(test_vswhere_and_env),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
