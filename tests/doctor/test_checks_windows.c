/* test_checks_windows.c — doctor over the Windows fixture trees (tests/doctor/fixtures/win-*,
 * written by make_windows_fixtures.py): the verdict of each (the status of its key checks, their
 * fixes, the capabilities and the machine's Windows facts in the JSON). The trees are data, so
 * this runs on any host and under Wine; on Windows (Wine) doctor also runs on the machine itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor.h"

static cJSON *run_tree(const char *tree)
{
    const char *src = getenv("GPUPORT_SOURCE_DIR");
    if (!src) fail_msg("GPUPORT_SOURCE_DIR must be set (ctest sets it)");
    static char root[4096];
    snprintf(root, sizeof root, "%s/tests/doctor/fixtures/%s", src, tree);
    gp_doctor_options o = {root, false, NULL};
    cJSON *rep = gp_doctor_report_json(&o, NULL);
    assert_non_null(rep);
    return rep;
}

static const cJSON *obj(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = obj(o, k);
    return cJSON_IsString(v) ? v->valuestring : "(none)";
}

static const cJSON *check(const cJSON *rep, const char *id, int nth)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, obj(rep, "checks"))
    {
        if (strcmp(str(c, "id"), id) == 0 && nth-- == 0) return c;
    }
    return NULL;
}

static const char *field(const cJSON *rep, const char *id, const char *f)
{
    const cJSON *c = check(rep, id, 0);
    return c ? str(c, f) : "(no such check)";
}

#define STATUS(rep, id, want) assert_string_equal(field(rep, id, "status"), want)
#define HAS(hay, needle)                                                                           \
    do {                                                                                           \
        if (!strstr((hay), (needle))) fail_msg("'%s' does not contain '%s'", (hay), (needle));     \
    } while (0)
#define LACKS(hay, needle)                                                                         \
    do {                                                                                           \
        if (strstr((hay), (needle))) fail_msg("'%s' contains '%s'", (hay), (needle));              \
    } while (0)
#define OBSERVED_HAS(rep, id, needle) HAS(field(rep, id, "observed"), needle)
#define FIX_HAS(rep, id, needle)      HAS(field(rep, id, "fix"), needle)

static const cJSON *cuda(const cJSON *rep)
{
    return obj(obj(rep, "capabilities"), "cuda");
}

static const cJSON *gpu(const cJSON *rep, int i)
{
    return cJSON_GetArrayItem(obj(cuda(rep), "gpus"), i);
}

static const cJSON *windows(const cJSON *rep)
{
    return obj(obj(rep, "machine"), "windows");
}

static bool ok(const cJSON *rep)
{
    return cJSON_IsTrue(obj(rep, "ok"));
}

static void test_workstation(void **state)
{
    (void)state;
    cJSON *rep = run_tree("win-rtx4090-workstation");
    assert_string_equal(str(rep, "platform"), "windows");
    assert_true(ok(rep));
    STATUS(rep, "win.driver", "pass");
    OBSERVED_HAS(rep, "win.driver", "NVIDIA driver 560.94 (from nvidia-smi -q)");
    OBSERVED_HAS(rep, "driver.cuda", "runs CUDA 12.6 and older");
    STATUS(rep, "win.driver_model", "pass");
    STATUS(rep, "toolkit", "pass");
    OBSERVED_HAS(rep, "toolkit", "CUDA 12.4.1 at C:\\Program Files\\NVIDIA GPU Computing Toolkit");
    OBSERVED_HAS(rep, "toolkit", "found by CUDA_PATH");
    STATUS(rep, "toolkit.driver", "pass");
    STATUS(rep, "msvc", "pass");
    OBSERVED_HAS(rep, "msvc", "\\bin\\Hostx64\\x64\\cl.exe (on PATH)");
    STATUS(rep, "torch.build", "pass");
    STATUS(rep, "torch.driver", "pass");
    STATUS(rep, "ext.match", "pass");
    OBSERVED_HAS(rep, "torch", "2.5.1+cu124");
    OBSERVED_HAS(rep, "torch",
                 "Python311\\Lib\\site-packages (python.exe on PATH), wheel win_amd64");
    OBSERVED_HAS(rep, "os", "Windows 11 Pro 23H2 (build 22631)"); /* ProductName says 10 */
    assert_null(check(rep, "ldpath", 0));                         /* Linux's checks do not run */
    assert_null(check(rep, "kmod", 0));
    const cJSON *c = cuda(rep);
    assert_true(cJSON_IsTrue(obj(c, "run")) && cJSON_IsTrue(obj(c, "compile")));
    assert_string_equal(str(c, "driver"), "560.94");
    assert_string_equal(str(c, "driver_cuda"), "12.6");
    assert_int_equal((int)cJSON_GetNumberValue(obj(c, "gpu_count")), 1);
    assert_string_equal(str(gpu(rep, 0), "name"), "NVIDIA GeForce RTX 4090");
    assert_string_equal(str(gpu(rep, 0), "cc"), "8.9");
    assert_string_equal(str(gpu(rep, 0), "cc_from"), "PCI id table (10de:2684)");
    const cJSON *w = windows(rep);
    assert_string_equal(str(w, "driver_from"), "nvidia-smi -q");
    assert_string_equal(str(w, "driver_file_version"), "32.0.15.6094");
    assert_string_equal(str(cJSON_GetArrayItem(obj(w, "driver_models"), 0), "current"), "WDDM");
    assert_string_equal(str(w, "visual_studio"), "Visual Studio Community 2022");
    assert_false(cJSON_IsTrue(obj(w, "wsl")));
    assert_string_equal(str(obj(rep, "advice"), "way"), "cuda-local");
    cJSON_Delete(rep);
}

static void test_laptop_cpu_torch(void **state)
{
    (void)state;
    cJSON *rep = run_tree("win-laptop-cpu-torch");
    assert_false(ok(rep));
    STATUS(rep, "torch.build", "fail");
    OBSERVED_HAS(rep, "torch.build", "torch 2.4.0+cpu is a CPU-only build");
    FIX_HAS(rep, "torch.build", "--index-url https://download.pytorch.org/whl/cu124");
    OBSERVED_HAS(rep, "torch", "AppData\\Roaming\\Python\\Python312\\site-packages");
    STATUS(rep, "toolkit", "info");
    OBSERVED_HAS(rep, "toolkit", "no CUDA_PATH");
    STATUS(rep, "msvc", "skip");
    assert_string_equal(str(gpu(rep, 0), "name"), "NVIDIA GeForce RTX 3050 Laptop GPU");
    assert_string_equal(str(gpu(rep, 0), "cc"), "8.6");
    assert_int_equal((int)cJSON_GetNumberValue(obj(cuda(rep), "gpu_count")), 1);
    OBSERVED_HAS(rep, "os", "Windows 10 Home 22H2 (build 19045)");
    cJSON_Delete(rep);
}

static void test_server_t4_tcc(void **state)
{
    (void)state;
    cJSON *rep = run_tree("win-server-t4-tcc"); /* REGEDIT4, 8-bit */
    assert_true(ok(rep));
    STATUS(rep, "win.driver_model", "pass");
    OBSERVED_HAS(rep, "win.driver_model", "GPU 0 (Tesla T4): TCC");
    STATUS(rep, "msvc", "warn");
    OBSERVED_HAS(rep, "msvc", "Cannot find compiler 'cl.exe' in PATH");
    FIX_HAS(rep, "msvc", "BuildTools\\VC\\Auxiliary\\Build\\vcvars64.bat");
    OBSERVED_HAS(rep, "os", "Windows Server 2022 Datacenter 21H2 (build 20348)");
    assert_string_equal(str(gpu(rep, 0), "cc"), "7.5");
    cJSON_Delete(rep);
}

static void test_a10_wddm(void **state)
{
    (void)state;
    cJSON *rep = run_tree("win-a10-wddm");
    STATUS(rep, "win.driver_model", "warn"); /* advice, not a failure */
    OBSERVED_HAS(rep, "win.driver_model", "datacenter GPU 0 (NVIDIA A10) runs the display model");
    FIX_HAS(rep, "win.driver_model", "nvidia-smi -i 0 -dm 1");
    const cJSON *second = check(rep, "win.driver_model", 1);
    assert_non_null(second);
    assert_string_equal(str(second, "status"), "warn");
    HAS(str(second, "observed"), "GPU 1 (NVIDIA A10) runs WDDM; TCC is pending");
    HAS(str(second, "fix"), "reboot to switch GPU 1 to TCC");
    assert_int_equal((int)cJSON_GetNumberValue(obj(cuda(rep), "gpu_count")), 2);
    assert_false(cJSON_IsTrue(obj(cuda(rep), "gpus_truncated")));
    /* CUDA 12.4 and no Visual Studio: nvcc cannot compile, NVRTC can */
    assert_false(ok(rep));
    STATUS(rep, "msvc", "fail");
    OBSERVED_HAS(rep, "msvc", "no cl.exe on PATH and no Visual Studio");
    FIX_HAS(rep, "msvc", "Desktop development with C++");
    assert_true(cJSON_IsTrue(obj(cuda(rep), "compile")));
    HAS(str(cuda(rep), "compile_reason"), "NVRTC of CUDA 12.4.1");
    HAS(str(cuda(rep), "compile_reason"), "nvcc needs Visual Studio's C++ compiler");
    cJSON_Delete(rep);
}

static void test_toolkit_newer(void **state)
{
    (void)state;
    cJSON *rep = run_tree("win-toolkit-newer");
    assert_false(ok(rep));
    STATUS(rep, "toolkit", "pass");
    OBSERVED_HAS(rep, "toolkit", "version from nvcc --version");
    STATUS(rep, "toolkit.driver", "fail");
    OBSERVED_HAS(rep, "toolkit.driver", "toolkit CUDA 12.6 is newer than driver 531.79");
    FIX_HAS(rep, "toolkit.driver", "NVIDIA driver for Windows that runs CUDA 12.6");
    /* Windows' words: no Linux driver numbers or package commands */
    LACKS(field(rep, "toolkit.driver", "fix"), "apt-get");
    LACKS(field(rep, "toolkit.driver", "expected"), "560.28.03");
    STATUS(rep, "torch.driver", "warn");
    LACKS(field(rep, "torch.driver", "fix"), "apt-get");
    STATUS(rep, "ext.match", "pass");
    cJSON_Delete(rep);
}

static void test_wsl(void **state)
{
    (void)state;
    cJSON *rep = run_tree("win-wsl"); /* wsl.exe's UTF-16LE output */
    STATUS(rep, "wsl", "warn");
    OBSERVED_HAS(rep, "wsl", "Ubuntu-22.04 (WSL 2), docker-desktop (WSL 2), Debian (WSL 1)");
    OBSERVED_HAS(rep, "wsl", "install no Linux NVIDIA driver inside WSL");
    OBSERVED_HAS(rep, "wsl", "/usr/lib/wsl/lib");
    OBSERVED_HAS(rep, "wsl", "WSL-Ubuntu repository");
    FIX_HAS(rep, "wsl", "wsl --set-version");
    /* the TITAN RTX in TCC: WSL 2 does not see it */
    STATUS(rep, "win.driver_model", "pass");
    const cJSON *titan = check(rep, "win.driver_model", 1);
    assert_non_null(titan);
    assert_string_equal(str(titan, "status"), "warn");
    HAS(str(titan, "observed"), "GPU 1 (NVIDIA TITAN RTX) is in TCC");
    HAS(str(titan, "observed"), "WSL 2 is installed here");
    HAS(str(titan, "fix"), "nvidia-smi -i 1 -dm 0");
    assert_string_equal(str(gpu(rep, 1), "cc"), "7.5");
    /* Visual Studio without its C++ workload */
    STATUS(rep, "msvc", "fail");
    OBSERVED_HAS(rep, "msvc",
                 "Visual Studio Community 2022 at C:\\Program Files\\Microsoft "
                 "Visual Studio\\2022\\Community has no C++ compiler");
    FIX_HAS(rep, "msvc", "Visual Studio Installer > Modify");
    const cJSON *w = windows(rep);
    assert_true(cJSON_IsTrue(obj(w, "wsl")));
    assert_int_equal((int)cJSON_GetNumberValue(obj(w, "wsl_distributions")), 3);
    assert_int_equal((int)cJSON_GetNumberValue(obj(w, "wsl2_distributions")), 2);
    cJSON_Delete(rep);
}

static void test_no_nvidia(void **state)
{
    (void)state;
    cJSON *rep = run_tree("win-no-nvidia");
    assert_true(ok(rep));
    STATUS(rep, "win.driver", "info");
    OBSERVED_HAS(rep, "win.driver", "no NVIDIA driver and no NVIDIA display adapter");
    /* the export cut short is named with its line, and the good one is still read */
    OBSERVED_HAS(rep, "win.driver", "captured/broken.reg: line 4: dword: needs 8 hex digits");
    OBSERVED_HAS(rep, "os", "Windows 11 Pro");
    assert_false(cJSON_IsTrue(obj(cuda(rep), "run")));
    assert_string_equal(str(cuda(rep), "reason"), "no NVIDIA GPU");
    assert_string_equal(str(obj(rep, "advice"), "way"), "cpu");
    STATUS(rep, "wsl", "skip");
    cJSON_Delete(rep);
}

static void test_registry_only(void **state)
{
    (void)state;
    cJSON *rep = run_tree("win-registry-only");
    STATUS(rep, "win.driver", "warn");
    OBSERVED_HAS(rep, "win.driver",
                 "NVIDIA driver 560.94 (from registry (display adapter), "
                 "DriverVersion 32.0.15.6094)");
    OBSERVED_HAS(rep, "win.driver", "NVIDIA-SMI has failed");
    FIX_HAS(rep, "win.driver", "reinstall the NVIDIA driver for Windows");
    assert_string_equal(str(cuda(rep), "driver_cuda"), "12.6");
    assert_string_equal(str(gpu(rep, 0), "cc"), "8.9");
    assert_string_equal(str(gpu(rep, 0), "cc_from"), "PCI id table (10de:2684)");
    STATUS(rep, "win.driver_model", "skip");
    cJSON_Delete(rep);
}

/* A Linux tree is still read as Linux: a tree is Windows only by its Windows/System32. */
static void test_linux_tree_stays_linux(void **state)
{
    (void)state;
    cJSON *rep = run_tree("no-gpu");
    assert_string_equal(str(rep, "platform"), "linux");
    assert_null(check(rep, "win.driver", 0));
    assert_true(cJSON_IsNull(windows(rep)));
    cJSON_Delete(rep);
}

#if defined(_WIN32)
/* The machine itself (Wine here): nvidia-smi and nvml.dll are absent, `reg export` and the
 * registry reader run for real. */
static void test_this_windows_machine(void **state)
{
    (void)state;
    gp_doctor_options o = {NULL, false, NULL};
    cJSON *rep = gp_doctor_report_json(&o, NULL);
    assert_non_null(rep);
    assert_string_equal(str(rep, "platform"), "windows");
    STATUS(rep, "win.driver", "info");
    OBSERVED_HAS(rep, "win.driver", "nvidia-smi -q:");
    /* the OS from `reg export` of CurrentVersion, read through the UTF-16LE export reader */
    HAS(field(rep, "os", "observed"), "Windows");
    HAS(field(rep, "os", "observed"), "(build ");
    LACKS(field(rep, "win.driver", "observed"), "registry not read");
    assert_true(cJSON_GetNumberValue(obj(obj(rep, "machine"), "subprocesses")) >= 1);
    cJSON_Delete(rep);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workstation),
        cmocka_unit_test(test_laptop_cpu_torch),
        cmocka_unit_test(test_server_t4_tcc),
        cmocka_unit_test(test_a10_wddm),
        cmocka_unit_test(test_toolkit_newer),
        cmocka_unit_test(test_wsl),
        cmocka_unit_test(test_no_nvidia),
        cmocka_unit_test(test_registry_only),
        cmocka_unit_test(test_linux_tree_stays_linux),
#if defined(_WIN32)
        cmocka_unit_test(test_this_windows_machine),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
