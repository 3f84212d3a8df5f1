/* test_parse.c — the readers of doctor's input files (src/doctor/parse.c): real file shapes,
 * truncated and garbage input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/parse.h"

#define S(x) x, strlen(x)

static void test_version_find(void **state)
{
    (void)state;
    gp_version v;
    assert_true(gp_version_find(S("release 12.1, V12.1.66"), &v));
    assert_int_equal(v.n, 2);
    assert_int_equal(v.part[0], 12);
    assert_int_equal(v.part[1], 1);
    assert_true(gp_version_find(S("x 535.129.03 y"), &v));
    assert_int_equal(v.n, 3);
    assert_int_equal(v.part[2], 3);
    assert_false(gp_version_find(S("12."), &v));
    assert_false(gp_version_find(S("no digits"), &v));
    assert_false(gp_version_find(S("1234567.1"), &v)); /* more than 6 digits */
    char out[32];
    gp_version d = {{535, 129, 3}, 3};
    gp_version_format(&d, true, out, sizeof out);
    assert_string_equal(out, "535.129.03");
    gp_version a = {{12, 4}, 2}, b = {{12, 4, 1}, 3};
    assert_int_equal(gp_version_cmp(&a, &b), -1);
    gp_version c = gp_version_from_cuda_int(12040);
    assert_int_equal(gp_version_cmp(&a, &c), 0);
}

static void test_nvidia_version(void **state)
{
    (void)state;
    char v[32];
    bool open = true;
    const char *prop = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 "
                       "18:56:32 UTC 2023\nGCC version:  gcc version 12.3.0\n";
    assert_true(gp_parse_nvidia_version(S(prop), v, sizeof v, &open));
    assert_string_equal(v, "535.129.03");
    assert_false(open);
    const char *opn = "NVRM version: NVIDIA Open Kernel Module for x86_64  555.42.06  Release "
                      "Build  (dvs-builder@U16-I3-B03-4-3)  Tue Jun  4 01:46:17 UTC 2024\n";
    assert_true(gp_parse_nvidia_version(S(opn), v, sizeof v, &open));
    assert_string_equal(v, "555.42.06");
    assert_true(open);
    /* truncated before the version; only a GCC line */
    assert_false(gp_parse_nvidia_version(S("NVRM version: NVIDIA UNIX x86_64 Kernel Mod"), v,
                                         sizeof v, &open));
    assert_false(
        gp_parse_nvidia_version(S("GCC version:  gcc version 12.3.0\n"), v, sizeof v, &open));
}

static void test_os_release(void **state)
{
    (void)state;
    gp_doctor_os os;
    memset(&os, 0, sizeof os);
    const char *t = "PRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nNAME=\"Ubuntu\"\nID=ubuntu\n"
                    "ID_LIKE=debian\nVERSION_ID='22.04'\r\n";
    assert_true(gp_parse_os_release(S(t), &os));
    assert_string_equal(os.id, "ubuntu");
    assert_string_equal(os.id_like, "debian");
    assert_string_equal(os.version_id, "22.04");
    assert_string_equal(os.pretty, "Ubuntu 22.04.4 LTS");
    memset(&os, 0, sizeof os);
    assert_true(gp_parse_os_release(S("NAME=Arch Linux\n"), &os)); /* no ID: from NAME */
    assert_string_equal(os.id, "arch linux");
    memset(&os, 0, sizeof os);
    assert_false(gp_parse_os_release(S("garbage\n=\n==\nID\n"), &os));
    assert_false(gp_parse_os_release("", 0, &os));
}

static void test_torch_version(void **state)
{
    (void)state;
    gp_doctor_torch t;
    memset(&t, 0, sizeof t);
    const char *modern = "from typing import Optional\n__version__ = '2.7.1+cu126'\n"
                         "debug = False\ncuda: Optional[str] = '12.6'\nhip: Optional[str] = None\n";
    assert_true(gp_parse_torch_version(S(modern), &t));
    assert_string_equal(t.version, "2.7.1+cu126");
    assert_true(t.cuda_build);
    assert_string_equal(t.cuda, "12.6");
    assert_false(t.hip_build);
    memset(&t, 0, sizeof t);
    const char *old = "__version__ = \"1.13.1+cpu\"\ncuda = None\n";
    assert_true(gp_parse_torch_version(S(old), &t));
    assert_false(t.cuda_build);
    memset(&t, 0, sizeof t);
    assert_false(gp_parse_torch_version(S("__version__ = 2.7\n"), &t));
    assert_string_equal(t.reason, "__version__ is not a string literal");
    memset(&t, 0, sizeof t);
    assert_false(gp_parse_torch_version(S("__version__ = '2.7"), &t)); /* unterminated */
    memset(&t, 0, sizeof t);
    assert_false(gp_parse_torch_version(S("__version__ = '2.7.1'\ncuda = '12.'\n"), &t));
    assert_string_equal(t.reason, "cuda = '12.' is not a version");
    memset(&t, 0, sizeof t);
    assert_false(gp_parse_torch_version(S("\x00\xff\xfe"), &t));
    assert_string_equal(t.reason, "no __version__ assignment");
    memset(&t, 0, sizeof t);
    /* a name that only starts like the key is not the key */
    assert_false(gp_parse_torch_version(S("__version__x = '1.0'\n"), &t));
}

static void test_wheel_and_toolkit_files(void **state)
{
    (void)state;
    char plat[96];
    assert_true(gp_parse_wheel_platform(
        S("Wheel-Version: 1.0\nTag: cp311-none-macosx_11_0_arm64\n"), plat, sizeof plat));
    assert_string_equal(plat, "macosx_11_0_arm64");
    assert_false(gp_parse_wheel_platform(S("Tag: broken\n"), plat, sizeof plat));
    assert_false(gp_parse_wheel_platform(S("Tag: a-b-\n"), plat, sizeof plat));
    gp_version v;
    char reason[160];
    assert_true(gp_parse_cuda_version_json(
        S("{\"cuda\":{\"name\":\"CUDA SDK\",\"version\":\"12.4.1\"}}"), &v, reason, sizeof reason));
    assert_int_equal(v.part[1], 4);
    assert_false(
        gp_parse_cuda_version_json(S("{\"cuda\": {\"version\": 12"), &v, reason, sizeof reason));
    assert_true(strstr(reason, "version.json") != NULL);
    assert_false(gp_parse_cuda_version_json(S("{\"cuda\": {\"version\": 12.4}}"), &v, reason,
                                            sizeof reason));
    assert_true(gp_parse_cuda_version_txt(S("CUDA Version 10.2.89\n"), &v));
    assert_int_equal(v.part[0], 10);
    assert_false(gp_parse_cuda_version_txt(S("CUDA Version\n"), &v));
    assert_true(gp_parse_cuda_h(S("/* x */\n#define CUDA_VERSION 13000\n"), &v));
    assert_int_equal(v.part[0], 13);
    assert_int_equal(v.part[1], 0);
    assert_false(gp_parse_cuda_h(S("#define CUDA_VERSION_MAJOR 13\n"), &v));
    assert_false(gp_parse_cuda_h(S("#define CUDA_VERSION 13"), &v));
    assert_true(gp_parse_nvcc_version(S("Cuda compilation tools, release 12.1, V12.1.66\n"), &v));
    assert_int_equal(v.part[1], 1);
    gp_doctor_gpu g;
    memset(&g, 0, sizeof g);
    assert_true(
        gp_parse_gpu_information(S("Model: \t\t NVIDIA H100 80GB HBM3\nGPU UUID: \t GPU-1\n"), &g));
    assert_string_equal(g.name, "NVIDIA H100 80GB HBM3");
    assert_string_equal(g.uuid, "GPU-1");
    assert_int_equal(gp_parse_cpu_list(S("0-3,8-11\n")), 8);
    assert_int_equal(gp_parse_cpu_list(S("0\n")), 1);
    assert_int_equal(gp_parse_cpu_list(S("-\n")), 0);
    assert_int_equal(gp_parse_cpu_list(S("3-1")), 0);
    assert_int_equal(gp_parse_cpu_list(S("0-3x")), 0);
    char home[64];
    bool sys = true;
    assert_true(gp_parse_pyvenv_cfg(S("home = /usr/bin\ninclude-system-site-packages = false\n"),
                                    home, sizeof home, &sys));
    assert_string_equal(home, "/usr/bin");
    assert_false(sys);
}

static void test_exec_arch(void **state)
{
    (void)state;
    char arch[48];
    bool arm, x86;
    unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    elf[18] = 62;
    assert_true(gp_parse_exec_arch(elf, sizeof elf, arch, sizeof arch, &arm, &x86));
    assert_string_equal(arch, "x86_64");
    elf[18] = 183;
    assert_true(gp_parse_exec_arch(elf, sizeof elf, arch, sizeof arch, &arm, &x86));
    assert_string_equal(arch, "arm64");
    unsigned char macho[32] = {0xcf, 0xfa, 0xed, 0xfe, 0x07, 0x00, 0x00, 0x01};
    assert_true(gp_parse_exec_arch(macho, sizeof macho, arch, sizeof arch, &arm, &x86));
    assert_true(x86 && !arm);
    /* universal2: big-endian header, two 20-byte entries */
    unsigned char fat[48] = {0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2, 0x01, 0, 0, 0x07};
    fat[28] = 0x01;
    fat[31] = 0x0c;
    assert_true(gp_parse_exec_arch(fat, sizeof fat, arch, sizeof arch, &arm, &x86));
    assert_string_equal(arch, "universal (arm64, x86_64)");
    /* a fat header that claims more entries than the bytes hold */
    unsigned char lying[12] = {0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 9, 0x01, 0, 0, 0x0c};
    assert_false(gp_parse_exec_arch(lying, sizeof lying, arch, sizeof arch, &arm, &x86));
    assert_false(
        gp_parse_exec_arch((const unsigned char *)"#!/bin/sh", 9, arch, sizeof arch, &arm, &x86));
}

static void test_jetson_files(void **state)
{
    (void)state;
    int l4t[3] = {0};
    char board[32];
    const char *r36 = "# R36 (release), REVISION: 4.3, GCID: 38968081, BOARD: generic, EABI: "
                      "aarch64, DATE: Wed Jan  8 01:49:37 UTC 2025\n# KERNEL_VARIANT: oot\n";
    assert_true(gp_parse_nv_tegra_release(r36, strlen(r36), l4t, board, sizeof board));
    assert_int_equal(l4t[0], 36);
    assert_int_equal(l4t[1], 4);
    assert_int_equal(l4t[2], 3);
    assert_string_equal(board, "generic");
    const char *r32 =
        "# R32 (release), REVISION: 7.1, GCID: 29818004, BOARD: t210ref, EABI: aarch64";
    assert_true(gp_parse_nv_tegra_release(r32, strlen(r32), l4t, board, sizeof board));
    assert_int_equal(l4t[0] * 100 + l4t[1] * 10 + l4t[2], 3271);
    assert_string_equal(board, "t210ref");
    const char *r28 = "# R28 (release), REVISION: 5"; /* a one-number revision */
    assert_true(gp_parse_nv_tegra_release(r28, strlen(r28), l4t, board, sizeof board));
    assert_int_equal(l4t[1], 5);
    assert_false(gp_parse_nv_tegra_release("# R36 (release)", 15, l4t, board, sizeof board));
    assert_false(gp_parse_nv_tegra_release("garbage", 7, l4t, board, sizeof board));
    assert_true(gp_parse_l4t_version("35.4.1-20230801124926", 21, l4t));
    assert_int_equal(l4t[0] * 100 + l4t[1] * 10 + l4t[2], 3541);
    assert_false(gp_parse_l4t_version("1.2.3", 5, l4t));

    const char *status = "Package: dpkg\nStatus: install ok installed\nArchitecture: arm64\n"
                         "Version: 1.21\n\nPackage: nvidia-l4t-core\nStatus: deinstall ok "
                         "config-files\nVersion: 35.1.0-1\n\nPackage: nvidia-jetpack\nStatus: "
                         "install ok installed\nVersion: 6.2+b77\n";
    char v[64];
    assert_true(
        gp_parse_dpkg_field(status, strlen(status), "nvidia-jetpack", "Version", v, sizeof v));
    assert_string_equal(v, "6.2+b77");
    assert_true(gp_parse_dpkg_field(status, strlen(status), "dpkg", "Architecture", v, sizeof v));
    assert_string_equal(v, "arm64");
    /* removed, only its configuration left: not installed */
    assert_false(
        gp_parse_dpkg_field(status, strlen(status), "nvidia-l4t-core", "Version", v, sizeof v));
    assert_false(gp_parse_dpkg_field(status, strlen(status), "nvidia", "Version", v, sizeof v));

    char out[128];
    const char dt[] = "nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234\0";
    assert_true(gp_parse_dt_strings(dt, sizeof dt - 1, out, sizeof out));
    assert_string_equal(out, "nvidia,p3737-0000+p3701-0005, nvidia,p3701-0005, nvidia,tegra234");
    assert_false(gp_parse_dt_strings("\0\0", 2, out, sizeof out));
}

static void test_cpuinfo_and_arch(void **state)
{
    (void)state;
    const char *arm = "processor\t: 0\nBogoMIPS\t: 62.50\nCPU architecture: 8\n\n"
                      "processor\t: 1\nmodel name\t: ARMv8 Processor rev 1 (v8l)\n";
    assert_int_equal(gp_parse_cpuinfo_count(arm, strlen(arm)), 2);
    char a[32];
    assert_true(gp_parse_cpuinfo_arch(arm, strlen(arm), a, sizeof a));
    assert_string_equal(a, "aarch64");
    const char *x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu vme lm sse\n";
    assert_true(gp_parse_cpuinfo_arch(x86, strlen(x86), a, sizeof a));
    assert_string_equal(a, "x86_64");
    /* "Processor" in a model name is not an entry */
    const char *model = "model name\t: AMD EPYC 7763 64-Core Processor\n";
    assert_int_equal(gp_parse_cpuinfo_count(model, strlen(model)), 0);
    assert_false(gp_parse_cpuinfo_arch(model, strlen(model), a, sizeof a));

    unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    elf[18] = 183;
    assert_true(gp_parse_elf_machine(elf, sizeof elf, a, sizeof a));
    assert_string_equal(a, "aarch64");
    elf[18] = 21; /* ppc64, little-endian */
    assert_true(gp_parse_elf_machine(elf, sizeof elf, a, sizeof a));
    assert_string_equal(a, "ppc64le");
    assert_false(gp_parse_elf_machine((const unsigned char *)"#!/bin/sh", 9, a, sizeof a));
    assert_string_equal(gp_dpkg_arch_to_uname("arm64"), "aarch64");
    assert_null(gp_dpkg_arch_to_uname("m68k"));

    char ver[64], cuda[16];
    const char *meta = "Name: torch\nVersion: 2.6.0+cu126\nRequires-Dist: "
                       "nvidia-cuda-runtime-cu12==12.6.77; platform_system == \"Linux\"\n";
    assert_true(gp_parse_wheel_metadata(meta, strlen(meta), ver, sizeof ver, cuda, sizeof cuda));
    assert_string_equal(ver, "2.6.0+cu126");
    assert_string_equal(cuda, "12.6");
    const char *cpu = "Name: torch\nVersion: 2.5.1\n";
    assert_true(gp_parse_wheel_metadata(cpu, strlen(cpu), ver, sizeof ver, cuda, sizeof cuda));
    assert_string_equal(cuda, "");
    const char *rec = "torch/__init__.py,sha256=x,1\ntorch/lib/libtorch_cuda.so,sha256=y,2\n";
    assert_true(gp_parse_record_has_cuda(rec, strlen(rec)));
    assert_false(gp_parse_record_has_cuda(cpu, strlen(cpu)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_find),
        cmocka_unit_test(test_nvidia_version),
        cmocka_unit_test(test_os_release),
        cmocka_unit_test(test_torch_version),
        cmocka_unit_test(test_wheel_and_toolkit_files),
        cmocka_unit_test(test_exec_arch),
        cmocka_unit_test(test_jetson_files),
        cmocka_unit_test(test_cpuinfo_and_arch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
