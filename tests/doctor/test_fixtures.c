/* test_fixtures.c — every fixture machine under tests/doctor/fixtures/ run through doctor with the
 * stand-in driver libraries (tests/standins/), with its verdict asserted: the status of the key
 * checks, the fix they give, and the capabilities summary. Also the malformed-input machine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "doctor/doctor.h"

static const char *const cleared[] = {"PATH",
                                      "HOME",
                                      "CUDA_HOME",
                                      "CUDA_PATH",
                                      "LD_LIBRARY_PATH",
                                      "CUDA_VISIBLE_DEVICES",
                                      "NVIDIA_VISIBLE_DEVICES",
                                      "VIRTUAL_ENV",
                                      "CONDA_PREFIX",
                                      "PYENV_ROOT",
                                      "PYENV_VERSION",
                                      "PIP_INDEX_URL",
                                      "PIP_EXTRA_INDEX_URL",
                                      "PYTORCH_ENABLE_MPS_FALLBACK",
                                      "GPUPORT_SYSROOT",
                                      "GPUPORT_DRIVER_PATH",
                                      "GPUPORT_STANDIN_GPUS",
                                      "GPUPORT_STANDIN_CUDA_VERSION",
                                      "GPUPORT_STANDIN_CUINIT",
                                      "GPUPORT_STANDIN_NVML_DRIVER",
                                      "GPUPORT_STANDIN_NVML_CUDA",
                                      "GPUPORT_STANDIN_NVML_INIT"};

static cJSON *gp_test_doctor_run(const char *fixture, const char *drivers, bool deep,
                                 const char *const *env)
{
    const char *src = getenv("GPUPORT_SOURCE_DIR"), *build = getenv("GPUPORT_BUILD_DIR");
    if (!src || !build) {
        fprintf(stderr, "GPUPORT_SOURCE_DIR and GPUPORT_BUILD_DIR must be set (ctest sets them)\n");
        return NULL;
    }
    for (size_t i = 0; i < sizeof cleared / sizeof cleared[0]; i++)
        unsetenv(cleared[i]);
    setenv("PATH", "/usr/local/cuda/bin:/usr/bin:/bin", 1);
    setenv("HOME", "/root", 1);
    for (size_t i = 0; env && env[i]; i++) {
        char kv[1024];
        snprintf(kv, sizeof kv, "%s", env[i]);
        char *eq = strchr(kv, '=');
        if (!eq) continue;
        *eq = '\0';
        setenv(kv, eq + 1, 1);
    }
    static char root[4096], dp[4096];
    snprintf(root, sizeof root, "%s/tests/doctor/fixtures/%s", src, fixture);
    if (drivers)
        snprintf(dp, sizeof dp, "%s/%s", build, drivers);
    else
        snprintf(dp, sizeof dp, "%s/tests/doctor/fixtures/%s/nonexistent-driver-folder", src,
                 fixture);
    gp_doctor_options o = {root, deep, dp};
    return gp_doctor_report_json(&o, NULL);
}

static const cJSON *check(const cJSON *rep, const char *id)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(rep, "checks"))
    {
        const cJSON *cid = cJSON_GetObjectItemCaseSensitive(c, "id");
        if (cJSON_IsString(cid) && strcmp(cid->valuestring, id) == 0) return c;
    }
    return NULL;
}

static const char *gp_test_field(const cJSON *rep, const char *id, const char *field);

static const char *gp_test_status(const cJSON *rep, const char *id)
{
    return gp_test_field(rep, id, "status");
}

static const char *gp_test_field(const cJSON *rep, const char *id, const char *field)
{
    const cJSON *c = check(rep, id);
    const cJSON *v = c ? cJSON_GetObjectItemCaseSensitive(c, field) : NULL;
    return cJSON_IsString(v) ? v->valuestring : "(none)";
}

static bool gp_test_cap(const cJSON *rep, const char *cap, const char *field)
{
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(rep, "capabilities");
    const cJSON *v =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(caps, cap), field);
    return cJSON_IsTrue(v);
}

static const char *gp_test_cap_str(const cJSON *rep, const char *cap, const char *field)
{
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(rep, "capabilities");
    const cJSON *v =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(caps, cap), field);
    return cJSON_IsString(v) ? v->valuestring : "(none)";
}

/* ---- assertions ------------------------------------------------------------------------ */

#define STATUS(rep, id, want) assert_string_equal(gp_test_status(rep, id), want)
#define HAS(hay, needle)                                                                           \
    do {                                                                                           \
        if (!strstr((hay), (needle))) fail_msg("'%s' does not contain '%s'", (hay), (needle));     \
    } while (0)
#define FIX_HAS(rep, id, needle)      HAS(gp_test_field(rep, id, "fix"), needle)
#define OBSERVED_HAS(rep, id, needle) HAS(gp_test_field(rep, id, "observed"), needle)

static const char *advice(const cJSON *rep)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(rep, "advice");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(a, "way");
    return cJSON_IsString(w) ? w->valuestring : "(none)";
}

static bool ok(const cJSON *rep)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rep, "ok"));
}

static const cJSON *gpu0(const cJSON *rep)
{
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(rep, "capabilities");
    const cJSON *cuda = cJSON_GetObjectItemCaseSensitive(caps, "cuda");
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cuda, "gpus"), 0);
}

#define H100_ENV                                                                                   \
    "GPUPORT_STANDIN_GPUS=NVIDIA H100 80GB "                                                       \
    "HBM3|9.0|81559|132|GPU-8f3b5a4c-0000-1111-2222-333344445555",                                 \
        "GPUPORT_STANDIN_CUDA_VERSION=12020", "GPUPORT_STANDIN_NVML_DRIVER=535.129.03",            \
        "CUDA_HOME=/usr/local/cuda-12.4"

static void test_no_gpu(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("no-gpu", NULL, false, NULL);
    assert_non_null(rep);
    assert_true(ok(rep));
    assert_false(gp_test_cap(rep, "cuda", "compile"));
    assert_false(gp_test_cap(rep, "cuda", "run"));
    HAS(gp_test_cap_str(rep, "cuda", "reason"), "no NVIDIA GPU");
    assert_string_equal(advice(rep), "cpu");
    STATUS(rep, "pci.gpu", "info");
    STATUS(rep, "kmod", "skip");
    STATUS(rep, "libcuda", "skip");
    STATUS(rep, "toolkit", "info");
    STATUS(rep, "torch", "info");
    OBSERVED_HAS(rep, "torch", "2.5.1+cpu");
    STATUS(rep, "torch.build", "pass"); /* CPU-only torch is right without a GPU */
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(rep, "capabilities"), "cpu");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(cpu, "logical_cores")->valueint, 8);
    cJSON_Delete(rep);
}

static void test_h100_driver_too_old_for_toolkit(void **state)
{
    (void)state;
    const char *env[] = {H100_ENV, NULL};
    cJSON *rep = gp_test_doctor_run("h100-driver-535-toolkit-12.4", "standins", false, env);
    assert_non_null(rep);
    assert_false(ok(rep));
    STATUS(rep, "toolkit.driver", "fail");
    FIX_HAS(rep, "toolkit.driver", "550.54.14");
    FIX_HAS(rep, "toolkit.driver", "nvidia-driver-550"); /* Ubuntu: the package to install */
    HAS(gp_test_field(rep, "toolkit.driver", "expected"), ">= 550.54.14");
    STATUS(rep, "kmod", "pass");
    STATUS(rep, "mismatch", "pass");
    STATUS(rep, "libcuda", "pass");
    STATUS(rep, "devnodes", "pass");
    OBSERVED_HAS(rep, "driver.cuda", "CUDA 12.2");
    OBSERVED_HAS(rep, "driver.cuda", "not the installed toolkit");
    STATUS(rep, "torch.driver", "pass");
    STATUS(rep, "torch.arch", "pass");
    STATUS(rep, "cuinit", "skip");
    STATUS(rep, "ldpath", "pass");
    OBSERVED_HAS(rep, "ldpath", "/etc/ld.so.conf.d/cuda-12-4.conf");
    assert_true(gp_test_cap(rep, "cuda", "compile"));
    assert_true(gp_test_cap(rep, "cuda", "run"));
    assert_false(gp_test_cap(rep, "cuda", "verified"));
    assert_string_equal(gp_test_cap_str(rep, "cuda", "driver"), "535.129.03");
    assert_string_equal(gp_test_cap_str(rep, "cuda", "toolkit"), "12.4.1");
    const cJSON *g = gpu0(rep);
    assert_non_null(g);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(g, "cc")->valuestring, "9.0");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(g, "name")->valuestring,
                        "NVIDIA H100 80GB HBM3");
    assert_string_equal(advice(rep), "cuda-local");
    cJSON_Delete(rep);
}

static void test_h100_deep(void **state)
{
    (void)state;
    const char *env[] = {H100_ENV, NULL};
    cJSON *rep = gp_test_doctor_run("h100-driver-535-toolkit-12.4", "standins", true, env);
    assert_non_null(rep);
    STATUS(rep, "cuinit", "pass");
    OBSERVED_HAS(rep, "cuinit", "1 CUDA device");
    assert_true(gp_test_cap(rep, "cuda", "verified"));
    assert_true(gp_test_cap(rep, "cuda", "run"));
    cJSON_Delete(rep);

    /* the fabric manager is not running on an NVSwitch machine */
    const char *env802[] = {H100_ENV, "GPUPORT_STANDIN_CUINIT=802", NULL};
    rep = gp_test_doctor_run("h100-driver-535-toolkit-12.4", "standins", true, env802);
    STATUS(rep, "cuinit", "fail");
    OBSERVED_HAS(rep, "cuinit", "CUDA_ERROR_SYSTEM_NOT_READY");
    FIX_HAS(rep, "cuinit", "nvidia-fabricmanager");
    assert_false(gp_test_cap(rep, "cuda", "run"));
    cJSON_Delete(rep);
}

static void test_h100_visible_devices(void **state)
{
    (void)state;
    const char *hide[] = {H100_ENV, "CUDA_VISIBLE_DEVICES=-1", NULL};
    cJSON *rep = gp_test_doctor_run("h100-driver-535-toolkit-12.4", "standins", false, hide);
    STATUS(rep, "visible", "warn");
    OBSERVED_HAS(rep, "visible", "hides every GPU");
    FIX_HAS(rep, "visible", "unset CUDA_VISIBLE_DEVICES");
    cJSON_Delete(rep);
    const char *range[] = {H100_ENV, "CUDA_VISIBLE_DEVICES=0,3", NULL};
    rep = gp_test_doctor_run("h100-driver-535-toolkit-12.4", "standins", false, range);
    STATUS(rep, "visible", "warn");
    OBSERVED_HAS(rep, "visible", "names device 3");
    cJSON_Delete(rep);
    const char *uuid[] = {H100_ENV, "CUDA_VISIBLE_DEVICES=GPU-deadbeef", NULL};
    rep = gp_test_doctor_run("h100-driver-535-toolkit-12.4", "standins", false, uuid);
    STATUS(rep, "visible", "warn");
    OBSERVED_HAS(rep, "visible", "names GPU-deadbeef, which no GPU here has");
    cJSON_Delete(rep);
    const char *prefix[] = {H100_ENV, "CUDA_VISIBLE_DEVICES=GPU-8f3b5a4c", NULL};
    rep = gp_test_doctor_run("h100-driver-535-toolkit-12.4", "standins", false, prefix);
    STATUS(rep, "visible", "pass"); /* a UUID prefix is enough for CUDA */
    cJSON_Delete(rep);
    const char *fine[] = {H100_ENV, "CUDA_VISIBLE_DEVICES=0", NULL};
    rep = gp_test_doctor_run("h100-driver-535-toolkit-12.4", "standins", false, fine);
    STATUS(rep, "visible", "pass");
    cJSON_Delete(rep);
}

static void test_h100_old_runtime_first_on_ld_library_path(void **state)
{
    (void)state;
    const char *env[] = {H100_ENV, "LD_LIBRARY_PATH=/opt/old-cuda/lib64:/usr/local/cuda/lib64",
                         NULL};
    cJSON *rep = gp_test_doctor_run("h100-driver-535-toolkit-12.4", "standins", false, env);
    STATUS(rep, "ldpath", "warn");
    OBSERVED_HAS(rep, "ldpath", "/opt/old-cuda/lib64 (libcudart.so.11)");
    FIX_HAS(rep, "ldpath", "drop /opt/old-cuda/lib64");
    cJSON_Delete(rep);
    /* the toolkit's own folder first: fine, and it counts as known to the loader */
    const char *env2[] = {H100_ENV, "LD_LIBRARY_PATH=/usr/local/cuda/lib64:/opt/old-cuda/lib64",
                          NULL};
    rep = gp_test_doctor_run("h100-driver-535-toolkit-12.4", "standins", false, env2);
    STATUS(rep, "ldpath", "pass");
    OBSERVED_HAS(rep, "ldpath", "through LD_LIBRARY_PATH");
    cJSON_Delete(rep);
}

static void test_kmod_nvml_mismatch(void **state)
{
    (void)state;
    const char *env[] = {"GPUPORT_STANDIN_GPUS=NVIDIA A100 80GB PCIe|8.0|81920|108|GPU-aaaa",
                         "GPUPORT_STANDIN_NVML_INIT=18", "GPUPORT_STANDIN_CUDA_VERSION=12040",
                         NULL};
    cJSON *rep = gp_test_doctor_run("kmod-nvml-mismatch", "standins", false, env);
    assert_false(ok(rep));
    STATUS(rep, "mismatch", "fail");
    OBSERVED_HAS(rep, "mismatch", "Driver/library version mismatch");
    FIX_HAS(rep, "mismatch", "reboot");
    FIX_HAS(rep, "mismatch", "apt-mark hold");
    assert_false(gp_test_cap(rep, "cuda", "run"));
    HAS(gp_test_cap_str(rep, "cuda", "reason"), "mismatch");
    assert_string_equal(advice(rep), "fix-driver");
    cJSON_Delete(rep);

    /* NVML starts but reports another version than the loaded module */
    const char *env2[] = {"GPUPORT_STANDIN_GPUS=NVIDIA A100 80GB PCIe|8.0|81920|108|GPU-aaaa",
                          "GPUPORT_STANDIN_NVML_DRIVER=550.90.07", NULL};
    rep = gp_test_doctor_run("kmod-nvml-mismatch", "standins", false, env2);
    STATUS(rep, "mismatch", "fail");
    OBSERVED_HAS(rep, "mismatch", "550.54.14");
    OBSERVED_HAS(rep, "mismatch", "550.90.07");
    cJSON_Delete(rep);
}

static void test_wsl2_ok(void **state)
{
    (void)state;
    const char *env[] = {"GPUPORT_STANDIN_GPUS=NVIDIA GeForce RTX 4090|8.9|24564|128|GPU-4090",
                         "GPUPORT_STANDIN_NVML_DRIVER=560.94", "GPUPORT_STANDIN_CUDA_VERSION=12060",
                         NULL};
    cJSON *rep = gp_test_doctor_run("wsl2-ok", "standins", false, env);
    assert_true(ok(rep));
    STATUS(rep, "wsl.driver", "pass");
    STATUS(rep, "wsl.ldpath", "pass");
    STATUS(rep, "devnodes", "pass");
    STATUS(rep, "kmod", "skip");
    STATUS(rep, "pci.gpu", "skip");
    STATUS(rep, "toolkit.driver", "pass");
    STATUS(rep, "torch.arch", "pass");
    OBSERVED_HAS(rep, "os", "WSL2");
    assert_true(gp_test_cap(rep, "cuda", "run"));
    assert_true(gp_test_cap(rep, "cuda", "compile"));
    cJSON_Delete(rep);
}

static void test_wsl2_linux_driver_inside(void **state)
{
    (void)state;
    const char *env[] = {"GPUPORT_STANDIN_GPUS=NVIDIA GeForce RTX 4090|8.9|24564|128|GPU-4090",
                         "GPUPORT_STANDIN_NVML_DRIVER=560.94", "GPUPORT_STANDIN_CUDA_VERSION=12060",
                         NULL};
    cJSON *rep = gp_test_doctor_run("wsl2-linux-driver", "standins", false, env);
    assert_false(ok(rep));
    STATUS(rep, "wsl.driver", "fail");
    OBSERVED_HAS(rep, "wsl.driver", "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
    FIX_HAS(rep, "wsl.driver", "apt-get remove --purge");
    assert_false(gp_test_cap(rep, "cuda", "run"));
    cJSON_Delete(rep);
}

static void test_container_without_devices(void **state)
{
    (void)state;
    const char *env[] = {"NVIDIA_VISIBLE_DEVICES=all", "CUDA_HOME=/usr/local/cuda-12.4", NULL};
    cJSON *rep = gp_test_doctor_run("container-no-devices", NULL, false, env);
    assert_false(ok(rep));
    STATUS(rep, "container", "warn");
    STATUS(rep, "devnodes", "warn");
    FIX_HAS(rep, "devnodes", "--gpus all");
    STATUS(rep, "libcuda", "fail");
    FIX_HAS(rep, "libcuda", "--gpus all");
    FIX_HAS(rep, "container", "nvidia-ctk");
    assert_string_equal(advice(rep), "fix-driver");
    HAS(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(rep, "advice"), "text")
            ->valuestring,
        "--gpus all");
    assert_true(gp_test_cap(rep, "cuda", "compile"));
    assert_false(gp_test_cap(rep, "cuda", "run"));
    HAS(gp_test_cap_str(rep, "cuda", "reason"), "no GPU was passed in");
    /* no ld.so.conf entry for the toolkit: "libcudart.so.12: cannot open shared object file" */
    STATUS(rep, "ldpath", "warn");
    OBSERVED_HAS(rep, "ldpath", "libcudart.so.12: cannot open shared object file");
    FIX_HAS(rep, "ldpath",
            "echo /usr/local/cuda-12.4/lib64 | sudo tee /etc/ld.so.conf.d/cuda.conf");
    cJSON_Delete(rep);
}

#define RTX4090_ENV                                                                                \
    "GPUPORT_STANDIN_GPUS=NVIDIA GeForce RTX 4090|8.9|24564|128|GPU-4090",                         \
        "GPUPORT_STANDIN_NVML_DRIVER=550.54.14", "GPUPORT_STANDIN_CUDA_VERSION=12040"

static void test_gpu_with_cpu_only_torch(void **state)
{
    (void)state;
    const char *env[] = {RTX4090_ENV, NULL};
    cJSON *rep = gp_test_doctor_run("gpu-cpu-torch", "standins", false, env);
    assert_false(ok(rep));
    STATUS(rep, "torch.build", "fail");
    OBSERVED_HAS(rep, "torch.build", "CPU-only");
    /* driver 550 runs CUDA 12.4 and the GPU is sm_89: the cu124 wheel, same torch version */
    FIX_HAS(rep, "torch.build", "torch==2.7.1 --index-url https://download.pytorch.org/whl/cu124");
    STATUS(rep, "compat.geforce", "pass");
    assert_true(gp_test_cap(rep, "cuda", "run"));
    cJSON_Delete(rep);
}

static void test_compat_on_geforce(void **state)
{
    (void)state;
    const char *env[] = {RTX4090_ENV, "LD_LIBRARY_PATH=/usr/local/cuda-12.4/compat",
                         "GPUPORT_STANDIN_CUINIT=804", NULL};
    cJSON *rep = gp_test_doctor_run("gpu-cpu-torch", "standins", true, env);
    STATUS(rep, "compat.geforce", "fail");
    OBSERVED_HAS(rep, "compat.geforce", "/usr/local/cuda-12.4/compat");
    FIX_HAS(rep, "compat.geforce", "remove /usr/local/cuda-12.4/compat from LD_LIBRARY_PATH");
    STATUS(rep, "cuinit", "fail");
    OBSERVED_HAS(rep, "cuinit", "804");
    FIX_HAS(rep, "cuinit", "compat");
    assert_false(gp_test_cap(rep, "cuda", "run"));
    cJSON_Delete(rep);
}

static void test_rtx5090_with_cu126_wheel(void **state)
{
    (void)state;
    const char *env[] = {"GPUPORT_STANDIN_GPUS=NVIDIA GeForce RTX 5090|12.0|32607|170|GPU-5090",
                         "GPUPORT_STANDIN_NVML_DRIVER=570.124.04",
                         "GPUPORT_STANDIN_CUDA_VERSION=12080", NULL};
    cJSON *rep = gp_test_doctor_run("rtx5090-cu126", "standins", false, env);
    assert_false(ok(rep));
    STATUS(rep, "torch.arch", "fail");
    OBSERVED_HAS(rep, "torch.arch", "no kernel image is available");
    OBSERVED_HAS(rep, "torch.arch", "sm_120");
    FIX_HAS(rep, "torch.arch", "https://download.pytorch.org/whl/cu128");
    STATUS(rep, "torch.build", "pass");
    STATUS(rep, "torch.driver", "pass");
    STATUS(rep, "toolkit.driver", "pass");
    STATUS(rep, "cc.toolkit", "pass");
    OBSERVED_HAS(rep, "kmod", "open kernel module 570.124.04");
    const cJSON *g = gpu0(rep);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(g, "cc")->valuestring, "12.0");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(g, "arch")->valuestring, "Blackwell");
    cJSON_Delete(rep);
}

static void test_nouveau(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("nouveau", NULL, false, NULL);
    assert_false(ok(rep));
    STATUS(rep, "nouveau", "fail");
    FIX_HAS(rep, "nouveau", "blacklist nouveau");
    FIX_HAS(rep, "nouveau", "update-initramfs -u"); /* Debian */
    STATUS(rep, "kmod", "fail");
    STATUS(rep, "pci.gpu", "warn");
    STATUS(rep, "libcuda", "fail");
    assert_false(gp_test_cap(rep, "cuda", "run"));
    assert_false(gp_test_cap(rep, "cuda", "compile"));
    assert_string_equal(advice(rep), "fix-driver");
    cJSON_Delete(rep);
}

static void test_toolkit_without_driver(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("toolkit-no-driver", NULL, false, NULL);
    assert_true(ok(rep));
    assert_true(gp_test_cap(rep, "cuda", "compile"));
    assert_false(gp_test_cap(rep, "cuda", "run"));
    assert_string_equal(gp_test_cap_str(rep, "cuda", "toolkit"), "13.0");
    STATUS(rep, "toolkit", "pass");
    OBSERVED_HAS(rep, "toolkit", "include/cuda.h");
    STATUS(rep, "toolkit.driver", "skip");
    STATUS(rep, "container", "info");
    assert_string_equal(advice(rep), "remote-cuda");
    cJSON_Delete(rep);
}

static void test_stale_nvcc(void **state)
{
    (void)state;
    const char *env[] = {"CUDA_HOME=/usr/local/cuda-12.4", "PATH=/usr/bin:/usr/local/cuda/bin:/bin",
                         NULL};
    cJSON *rep = gp_test_doctor_run("stale-nvcc", NULL, false, env);
    STATUS(rep, "nvcc.path", "warn");
    OBSERVED_HAS(rep, "nvcc.path", "/usr/bin/nvcc (CUDA 11.5)");
    FIX_HAS(rep, "nvcc.path", "nvidia-cuda-toolkit");
    OBSERVED_HAS(rep, "toolkit", "also installed: /usr (11.5)");
    cJSON_Delete(rep);
}

/* CUDA_HOME at a folder with no toolkit: a failure that names the toolkit found instead */
static void test_cuda_home_without_a_toolkit(void **state)
{
    (void)state;
    const char *env[] = {"CUDA_HOME=/usr/local/cuda-9.9", "PATH=/usr/bin:/usr/local/cuda/bin:/bin",
                         NULL};
    cJSON *rep = gp_test_doctor_run("stale-nvcc", NULL, false, env);
    STATUS(rep, "toolkit.cuda_home", "fail");
    OBSERVED_HAS(rep, "toolkit.cuda_home",
                 "CUDA_HOME=/usr/local/cuda-9.9 points at no CUDA toolkit");
    FIX_HAS(rep, "toolkit.cuda_home",
            "export CUDA_HOME=/usr (the toolkit found)"); /* nvcc on PATH */
    assert_false(ok(rep));
    cJSON_Delete(rep);
    /* at a toolkit: no such check */
    const char *good[] = {"CUDA_HOME=/usr/local/cuda-12.4",
                          "PATH=/usr/bin:/usr/local/cuda/bin:/bin", NULL};
    rep = gp_test_doctor_run("stale-nvcc", NULL, false, good);
    STATUS(rep, "toolkit.cuda_home", "(none)");
    cJSON_Delete(rep);
}

static void test_bad_input(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("bad-input", "standins-empty", true, NULL);
    assert_non_null(rep);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(rep, "schema")->valuestring,
                        "gpuport.doctor/1");
    STATUS(rep, "os", "info");
    OBSERVED_HAS(rep, "os", "could not be identified");
    OBSERVED_HAS(rep, "os", "kernel ??"); /* the kernel release was two invalid UTF-8 bytes */
    OBSERVED_HAS(rep, "cpu", "core count unknown");
    STATUS(rep, "kmod", "warn");
    OBSERVED_HAS(rep, "kmod", "cannot be read");
    STATUS(rep, "toolkit", "warn");
    OBSERVED_HAS(rep, "toolkit", "cannot be read");
    STATUS(rep, "torch", "warn");
    OBSERVED_HAS(rep, "torch", "__version__ is not a string literal");
    STATUS(rep, "libcuda", "warn");
    OBSERVED_HAS(rep, "libcuda", "lacks cuDriverGetVersion, cuInit");
    STATUS(rep, "mismatch", "warn");
    OBSERVED_HAS(rep, "mismatch", "lacks nvmlInit_v2");
    assert_false(gp_test_cap(rep, "cuda", "run"));
    cJSON_Delete(rep);
}

/* The "from" and "version" of the torch installs found, in order, as "from=version;...". */
static void torch_list(const cJSON *rep, char *out, size_t n)
{
    out[0] = '\0';
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(
                              cJSON_GetObjectItemCaseSensitive(rep, "machine"), "torch"))
    {
        size_t l = strlen(out);
        snprintf(out + l, n - l, "%s=%s;", cJSON_GetObjectItemCaseSensitive(t, "from")->valuestring,
                 cJSON_GetObjectItemCaseSensitive(t, "version")->valuestring);
    }
}

static const char *python_field(const cJSON *rep, const char *k)
{
    const cJSON *py = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(rep, "machine"), "python");
    return cJSON_GetObjectItemCaseSensitive(py, k)->valuestring;
}

static void test_python_envs_pyenv_conda_user_site(void **state)
{
    (void)state;
    char list[1024];
    /* a pyenv shim first on PATH (root derived from the shim), an active conda env, HOME's user
     * site */
    const char *env[] = {"PATH=/home/u/.pyenv/shims:/usr/bin:/bin", "HOME=/home/u",
                         "CONDA_PREFIX=/opt/conda/envs/ml", NULL};
    cJSON *rep = gp_test_doctor_run("python-envs", NULL, false, env);
    assert_string_equal(python_field(rep, "path"), "/home/u/.pyenv/versions/3.12.4/bin/python3");
    assert_string_equal(python_field(rep, "real"), "/home/u/.pyenv/versions/3.12.4/bin/python3.12");
    assert_string_equal(python_field(rep, "arch"), "arm64");
    torch_list(rep, list, sizeof list);
    assert_string_equal(list, "CONDA_PREFIX=2.5.1;python3 on PATH=2.6.0+cu126;"
                              "python3 on PATH (user site)=2.3.0;");
    OBSERVED_HAS(rep, "torch",
                 "torch 2.5.1 (CUDA 12.4) in /opt/conda/envs/ml/lib/python3.11/site-packages");
    OBSERVED_HAS(rep, "torch", "also torch 2.6.0+cu126");
    cJSON_Delete(rep);

    /* PYENV_VERSION=system: the shim hands over to the next python3 on PATH (Debian's) */
    const char *sys_env[] = {"PATH=/home/u/.pyenv/shims:/usr/bin:/bin", "HOME=/home/u",
                             "PYENV_VERSION=system", NULL};
    rep = gp_test_doctor_run("python-envs", NULL, false, sys_env);
    assert_string_equal(python_field(rep, "real"), "/usr/bin/python3.11");
    torch_list(rep, list, sizeof list);
    assert_string_equal(list, "python3 on PATH=2.1.2;");
    STATUS(rep, "torch.build", "pass"); /* CPU-only, and no GPU here */
    cJSON_Delete(rep);
}

static void test_python_envs_virtualenv(void **state)
{
    (void)state;
    char list[1024];
    /* an activated virtualenv without system site-packages: only its own torch */
    const char *env[] = {"PATH=/home/u/proj/.venv/bin:/usr/bin:/bin", "HOME=/home/u",
                         "VIRTUAL_ENV=/home/u/proj/.venv", NULL};
    cJSON *rep = gp_test_doctor_run("python-envs", NULL, false, env);
    assert_string_equal(python_field(rep, "path"), "/home/u/proj/.venv/bin/python3");
    assert_string_equal(python_field(rep, "real"), "/usr/bin/python3.11");
    torch_list(rep, list, sizeof list);
    assert_string_equal(list, "VIRTUAL_ENV=2.4.1+cu124;");
    cJSON_Delete(rep);
    /* the same python3 without VIRTUAL_ENV set is still recognised as a virtualenv */
    const char *env2[] = {"PATH=/home/u/proj/.venv/bin:/usr/bin:/bin", "HOME=/home/u", NULL};
    rep = gp_test_doctor_run("python-envs", NULL, false, env2);
    torch_list(rep, list, sizeof list);
    assert_string_equal(list, "python3 on PATH (virtualenv)=2.4.1+cu124;");
    cJSON_Delete(rep);
}

/* mkdir -p */
static int gp_test_mkdirs(const char *path)
{
    char p[4200];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) return -1;
        *s = '/';
    }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static const char *gp_test_cpu_str(const cJSON *rep, const char *field)
{
    return gp_test_cap_str(rep, "cpu", field);
}

static int cpu_cores(const cJSON *rep)
{
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(rep, "capabilities"), "cpu");
    return cJSON_GetObjectItemCaseSensitive(cpu, "logical_cores")->valueint;
}

static const char *gpu0_str(const cJSON *rep, const char *field)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(gpu0(rep), field);
    return cJSON_IsString(v) ? v->valuestring : "(none)";
}

static const char *jetson_str(const cJSON *rep, const char *field)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(rep, "machine"), "jetson");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, field);
    return cJSON_IsString(v) ? v->valuestring : "(none)";
}

/* No fix anywhere in the report offers a desktop NVIDIA driver. */
static void no_desktop_driver_fix(const cJSON *rep)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(rep, "checks"))
    {
        const cJSON *fix = cJSON_GetObjectItemCaseSensitive(c, "fix");
        if (!cJSON_IsString(fix)) continue;
        if (strstr(fix->valuestring, "nvidia-driver-") ||
            strstr(fix->valuestring, "cuda-drivers") ||
            strstr(fix->valuestring, "libnvidia-compute") ||
            strstr(fix->valuestring, "ubuntu-drivers"))
            fail_msg("a desktop driver fix on a Jetson: %s", fix->valuestring);
    }
}

static void test_jetson_orin_jp62_cpu_torch(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("jetson-orin-jp62", NULL, false, NULL);
    assert_non_null(rep);
    assert_false(ok(rep));
    STATUS(rep, "jetson", "info");
    OBSERVED_HAS(rep, "jetson", "NVIDIA Jetson AGX Orin Developer Kit (tegra234");
    OBSERVED_HAS(rep, "jetson", "L4T R36.4.3 (JetPack 6.2, CUDA 12.6) from /etc/nv_tegra_release");
    STATUS(rep, "pci.gpu", "skip");
    STATUS(rep, "kmod", "pass");
    OBSERVED_HAS(rep, "kmod", "nvgpu");
    STATUS(rep, "devnodes", "pass");
    STATUS(rep, "libcuda", "pass");
    OBSERVED_HAS(rep, "libcuda", "/usr/lib/aarch64-linux-gnu/nvidia/libcuda.so.1");
    OBSERVED_HAS(rep, "driver.cuda", "CUDA 12.6");
    STATUS(rep, "toolkit.driver", "pass");
    /* PyPI's CPU-only aarch64 wheel, found without a runnable python3 */
    STATUS(rep, "torch", "info");
    OBSERVED_HAS(rep, "torch", "site-packages (no python3)");
    STATUS(rep, "torch.build", "fail");
    OBSERVED_HAS(rep, "torch.build", "CPU-only");
    FIX_HAS(rep, "torch.build",
            "https://developer.download.nvidia.com/compute/redist/jp/v61/pytorch/");
    FIX_HAS(rep, "torch.build", "cp310-cp310-linux_aarch64.whl");
    no_desktop_driver_fix(rep);
    assert_true(gp_test_cap(rep, "cuda", "run"));
    assert_string_equal(advice(rep), "cuda-local");
    assert_string_equal(gpu0_str(rep, "cc"), "8.7");
    HAS(gpu0_str(rep, "cc_from"), "Tegra SoC (tegra234");
    assert_string_equal(jetson_str(rep, "jetpack"), "6.2");
    assert_string_equal(jetson_str(rep, "cuda"), "12.6");
    assert_string_equal(jetson_str(rep, "l4t"), "36.4.3");
    /* the tree's CPUs and architecture, never this machine's */
    assert_int_equal(cpu_cores(rep), 12);
    assert_string_equal(gp_test_cpu_str(rep, "arch"), "aarch64");
    HAS(gp_test_cpu_str(rep, "arch_from"), "ELF header of /bin/sh");
    cJSON_Delete(rep);
}

static void test_jetson_orin_without_driver(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("jetson-orin-no-driver", NULL, false, NULL);
    assert_false(ok(rep));
    OBSERVED_HAS(rep, "jetson", "L4T R36.4.4 (JetPack 6.2.1, CUDA 12.6)");
    STATUS(rep, "kmod", "fail");
    FIX_HAS(rep, "kmod", "sudo modprobe nvgpu");
    FIX_HAS(rep, "kmod", "nvidia-l4t-kernel");
    STATUS(rep, "libcuda", "fail");
    FIX_HAS(rep, "libcuda", "sudo apt-get install nvidia-l4t-cuda");
    OBSERVED_HAS(rep, "toolkit", "sudo apt-get install nvidia-jetpack");
    no_desktop_driver_fix(rep);
    assert_false(gp_test_cap(rep, "cuda", "run"));
    assert_string_equal(advice(rep), "fix-driver");
    assert_int_equal(cpu_cores(rep), 6);
    cJSON_Delete(rep);
}

static void test_jetson_xavier_jp5_sbsa_torch(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("jetson-xavier-jp5", NULL, false, NULL);
    assert_false(ok(rep));
    /* no nv_tegra_release: the release from the nvidia-l4t-core package */
    OBSERVED_HAS(rep, "jetson", "L4T R35.4.1 (JetPack 5.1.2, CUDA 11.4) from nvidia-l4t-core");
    OBSERVED_HAS(rep, "jetson", "tegra194");
    assert_string_equal(gpu0_str(rep, "cc"), "7.2");
    STATUS(rep, "kmod", "pass");
    OBSERVED_HAS(rep, "kmod", "17000000.gv11b");
    STATUS(rep, "libcuda", "pass");
    STATUS(rep, "torch.build", "fail");
    OBSERVED_HAS(rep, "torch.build", "Arm servers (SBSA");
    FIX_HAS(rep, "torch.build", "/compute/redist/jp/v512/pytorch/");
    STATUS(rep, "torch.driver", "fail");
    no_desktop_driver_fix(rep);
    assert_string_equal(gp_test_cpu_str(rep, "arch"), "aarch64");
    HAS(gp_test_cpu_str(rep, "arch_from"), "/var/lib/dpkg/arch");
    cJSON_Delete(rep);

    /* a CUDA 12.6 toolkit on JetPack 5's CUDA 11.4: Jetson's CUDA upgrade package */
    const char *env[] = {"CUDA_HOME=/usr/local/cuda-12.6", NULL};
    rep = gp_test_doctor_run("jetson-xavier-jp5", NULL, false, env);
    STATUS(rep, "toolkit.driver", "fail");
    FIX_HAS(rep, "toolkit.driver", "cuda-compat-12-6");
    no_desktop_driver_fix(rep);
    cJSON_Delete(rep);
}

static void test_jetson_nano_jp4(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("jetson-nano-jp4", NULL, false, NULL);
    assert_true(ok(rep));
    OBSERVED_HAS(rep, "jetson", "L4T R32.7.1 (JetPack 4.6.1, CUDA 10.2)");
    assert_string_equal(gpu0_str(rep, "cc"), "5.3");
    STATUS(rep, "torch.build", "pass");
    OBSERVED_HAS(rep, "torch.build", "NVIDIA's Jetson build");
    STATUS(rep, "torch.driver", "pass");
    STATUS(rep, "torch.arch", "pass");
    STATUS(rep, "toolkit.driver", "pass");
    cJSON_Delete(rep);
    /* CUDA 11.4 on JetPack 4: no upgrade path on this JetPack */
    const char *env[] = {"CUDA_HOME=/usr/local/cuda-11.4", NULL};
    rep = gp_test_doctor_run("jetson-nano-jp4", NULL, false, env);
    STATUS(rep, "toolkit.driver", "fail");
    FIX_HAS(rep, "toolkit.driver", "JetPack 4 runs CUDA 10.2 only");
    no_desktop_driver_fix(rep);
    cJSON_Delete(rep);
}

static void test_jetson_orin_jp511_minimal(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("jetson-orin-jp511-minimal", NULL, false, NULL);
    assert_false(ok(rep));
    /* no device tree, BOARD t186ref: the SoC from the GPU's platform device (ga10b) */
    OBSERVED_HAS(rep, "jetson", "tegra234");
    OBSERVED_HAS(rep, "jetson", "L4T R35.3.1 (JetPack 5.1.1, CUDA 11.4)");
    assert_string_equal(gpu0_str(rep, "cc"), "8.7");
    STATUS(rep, "torch.build", "pass");  /* NVIDIA's Jetson build ... */
    STATUS(rep, "torch.driver", "fail"); /* ... for JetPack 6's CUDA 12.2 */
    OBSERVED_HAS(rep, "torch.driver", "CUDA 12.2");
    FIX_HAS(rep, "torch.driver", "/compute/redist/jp/v511/pytorch/");
    FIX_HAS(rep, "torch.driver", "cp38-cp38-linux_aarch64.whl");
    no_desktop_driver_fix(rep);
    assert_int_equal(cpu_cores(rep), 8);
    cJSON_Delete(rep);
}

static void test_jetson_thor_jp7(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("jetson-thor-jp7", NULL, false, NULL);
    assert_true(ok(rep));
    OBSERVED_HAS(rep, "jetson", "L4T R38.2.0 (JetPack 7.0, CUDA 13.0)");
    OBSERVED_HAS(rep, "jetson", "tegra264");
    assert_string_equal(gpu0_str(rep, "cc"), "11.0");
    STATUS(rep, "kmod", "pass");
    OBSERVED_HAS(rep, "kmod", "open kernel module 580.00");
    STATUS(rep, "devnodes", "pass");
    /* JetPack 7 is SBSA: PyTorch's own aarch64 CUDA 13 wheel is the right one */
    STATUS(rep, "torch.build", "pass");
    STATUS(rep, "torch.driver", "pass");
    STATUS(rep, "torch.arch", "pass");
    STATUS(rep, "cc.toolkit", "pass");
    assert_true(gp_test_cap(rep, "cuda", "run"));
    cJSON_Delete(rep);
}

static void test_a100_by_pci_id_driver_too_old(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("a100-pci-id-driver-470", NULL, false, NULL);
    assert_false(ok(rep));
    /* no NVML, no /proc/driver/nvidia/gpus: the CC from the PCI id */
    assert_string_equal(gpu0_str(rep, "cc"), "8.0");
    assert_string_equal(gpu0_str(rep, "cc_from"), "PCI id table (10de:20b5)");
    HAS(gpu0_str(rep, "name"), "NVIDIA A100 80GB PCIe");
    STATUS(rep, "cc.toolkit", "pass");
    STATUS(rep, "torch.arch", "pass");
    /* driver 470 (CUDA 11.4) under toolkit 12.4: the exact driver and the 12.x floor */
    STATUS(rep, "toolkit.driver", "fail");
    FIX_HAS(rep, "toolkit.driver", "550.54.14 for CUDA 12.4.1");
    FIX_HAS(rep, "toolkit.driver", "525.60.13 is the minimum for any CUDA 12.x");
    FIX_HAS(rep, "toolkit.driver", "Windows 528.33");
    STATUS(rep, "torch.driver", "fail");
    FIX_HAS(rep, "torch.driver", "530.30.02 for CUDA 12.1");
    FIX_HAS(rep, "torch.driver", "525.60.13");
    assert_string_equal(gp_test_cpu_str(rep, "arch"), "x86_64");
    cJSON_Delete(rep);
}

static void test_rtx3060_by_name_with_compat(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("rtx3060-name-compat", NULL, false, NULL);
    assert_false(ok(rep));
    assert_string_equal(gpu0_str(rep, "cc"), "8.6");
    HAS(gpu0_str(rep, "cc_from"), "name table");
    STATUS(rep, "cc.toolkit", "pass");
    STATUS(rep, "torch.arch", "pass");
    /* cuda-compat through the image's ld.so.conf on a GeForce: 804 at the first CUDA call */
    STATUS(rep, "compat.geforce", "fail");
    OBSERVED_HAS(rep, "compat.geforce", "804");
    FIX_HAS(
        rep, "compat.geforce",
        "remove the line /usr/local/cuda-12.2/compat from /etc/ld.so.conf.d/00-cuda-compat.conf");
    FIX_HAS(rep, "compat.geforce", "ldconfig");
    assert_false(gp_test_cap(rep, "cuda", "run"));
    cJSON_Delete(rep);

    /* the same tree with an A100's name: a data-centre GPU may use forward compatibility */
    const char *env[] = {"GPUPORT_STANDIN_GPUS=NVIDIA A100-SXM4-80GB|8.0|81920|108|GPU-a100",
                         "GPUPORT_STANDIN_NVML_DRIVER=535.183.01", NULL};
    rep = gp_test_doctor_run("rtx3060-name-compat", "standins", false, env);
    STATUS(rep, "compat.geforce", "pass");
    cJSON_Delete(rep);
    /* a professional RTX card: only select SKUs */
    const char *env2[] = {"GPUPORT_STANDIN_GPUS=NVIDIA RTX A6000|8.6|49140|84|GPU-a6000",
                          "GPUPORT_STANDIN_NVML_DRIVER=535.183.01", NULL};
    rep = gp_test_doctor_run("rtx3060-name-compat", "standins", false, env2);
    STATUS(rep, "compat.geforce", "warn");
    OBSERVED_HAS(rep, "compat.geforce", "NGC Server Ready");
    FIX_HAS(rep, "compat.geforce", "00-cuda-compat.conf");
    cJSON_Delete(rep);
}

static void test_gh200_aarch64_not_a_jetson(void **state)
{
    (void)state;
    cJSON *rep = gp_test_doctor_run("gh200-aarch64", NULL, false, NULL);
    assert_null(check(rep, "jetson"));
    STATUS(rep, "pci.gpu", "pass");
    assert_string_equal(gpu0_str(rep, "cc"), "9.0");
    assert_int_equal(cpu_cores(rep), 72);
    assert_string_equal(gp_test_cpu_str(rep, "arch"), "aarch64");
    /* PyTorch without version.py: the wheel's METADATA and RECORD */
    OBSERVED_HAS(rep, "torch", "torch 2.6.0+cu126 (CUDA 12.6)");
    STATUS(rep, "torch.build", "pass");
    STATUS(rep, "torch.arch", "pass");
    cJSON_Delete(rep);
}

/* A machine tree with 3,000 NVIDIA GPUs (made here: 9,000 files do not belong in the
 * repository): every one is counted, the listing says it is cut. */
static void test_three_thousand_gpus(void **state)
{
    (void)state;
    const char *build = getenv("GPUPORT_BUILD_DIR");
    char root[2048], p[4400];
    snprintf(root, sizeof root, "%s/test-fixture-3000-gpus", build ? build : ".");
    snprintf(p, sizeof p, "%s/sys/bus/pci/devices/0000:0b:b7.7/class", root);
    FILE *probe = fopen(p, "r"); /* made by an earlier run */
    if (probe) fclose(probe);
    for (int i = 0; i < 3000 && !probe; i++) {
        char dev[4200];
        snprintf(dev, sizeof dev, "%s/sys/bus/pci/devices/0000:%02x:%02x.%x", root, i / 256,
                 (i / 8) % 32, i % 8);
        assert_int_equal(gp_test_mkdirs(dev), 0);
        static const char *const files[][2] = {
            {"vendor", "0x10de\n"}, {"device", "0x2330\n"}, {"class", "0x030200\n"}};
        for (int k = 0; k < 3; k++) {
            snprintf(p, sizeof p, "%s/%s", dev, files[k][0]);
            FILE *fp = fopen(p, "w");
            assert_non_null(fp);
            fputs(files[k][1], fp);
            fclose(fp);
        }
    }
    gp_doctor_options o = {root, false, NULL};
    for (size_t i = 0; i < sizeof cleared / sizeof cleared[0]; i++)
        unsetenv(cleared[i]);
    setenv("PATH", "/usr/bin:/bin", 1);
    cJSON *rep = gp_doctor_report_json(&o, NULL);
    assert_non_null(rep);
    OBSERVED_HAS(rep, "pci.gpu", "3000 NVIDIA GPU(s) on the PCI bus");
    OBSERVED_HAS(rep, "pci.gpu", "the listing is cut");
    OBSERVED_HAS(rep, "inventory", "3000 NVIDIA GPUs, the listing cut at the first 16");
    const cJSON *cuda = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(rep, "capabilities"), "cuda");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(cuda, "gpu_count")->valueint, 3000);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cuda, "gpus_truncated")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cuda, "gpus")), 16);
    assert_string_equal(gpu0_str(rep, "cc"), "9.0"); /* H100 SXM5 by its PCI id */
    cJSON_Delete(rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_gpu),
        cmocka_unit_test(test_h100_driver_too_old_for_toolkit),
        cmocka_unit_test(test_h100_deep),
        cmocka_unit_test(test_h100_visible_devices),
        cmocka_unit_test(test_h100_old_runtime_first_on_ld_library_path),
        cmocka_unit_test(test_kmod_nvml_mismatch),
        cmocka_unit_test(test_wsl2_ok),
        cmocka_unit_test(test_wsl2_linux_driver_inside),
        cmocka_unit_test(test_container_without_devices),
        cmocka_unit_test(test_gpu_with_cpu_only_torch),
        cmocka_unit_test(test_compat_on_geforce),
        cmocka_unit_test(test_rtx5090_with_cu126_wheel),
        cmocka_unit_test(test_nouveau),
        cmocka_unit_test(test_toolkit_without_driver),
        cmocka_unit_test(test_stale_nvcc),
        cmocka_unit_test(test_cuda_home_without_a_toolkit),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_python_envs_pyenv_conda_user_site),
        cmocka_unit_test(test_python_envs_virtualenv),
        cmocka_unit_test(test_jetson_orin_jp62_cpu_torch),
        cmocka_unit_test(test_jetson_orin_without_driver),
        cmocka_unit_test(test_jetson_xavier_jp5_sbsa_torch),
        cmocka_unit_test(test_jetson_nano_jp4),
        cmocka_unit_test(test_jetson_orin_jp511_minimal),
        cmocka_unit_test(test_jetson_thor_jp7),
        cmocka_unit_test(test_a100_by_pci_id_driver_too_old),
        cmocka_unit_test(test_rtx3060_by_name_with_compat),
        cmocka_unit_test(test_gh200_aarch64_not_a_jetson),
        cmocka_unit_test(test_three_thousand_gpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
