/* test_checks_macos.c — the macOS checks and summary, run on any platform by filling the facts
 * struct the macOS probe fills on a Mac: Rosetta (process and Python), x86_64 wheels, macOS
 * too old for MPS, the MPS fallback variable, CUDA settings on a Mac, the Metal device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "doctor/checks.h"
#include "doctor/report.h"
#include "doctor/sysroot.h"

typedef struct mac_case {
    gp_doctor_facts f;
    gp_doctor_report r;
} mac_case;

/* An M3 Max on macOS 15.1 with an arm64 Python and an arm64 torch wheel: all is well. */
static mac_case *mac_new(void)
{
    mac_case *m = calloc(1, sizeof *m);
    assert_non_null(m);
    gp_doctor_facts *f = &m->f;
    f->platform = GP_DOCTOR_MACOS;
    gp_copy(f->root, sizeof f->root, "/");
    gp_copy(f->os.pretty, sizeof f->os.pretty, "macOS 15.1");
    f->os.release_read = true;
    gp_copy(f->mac.product_version, sizeof f->mac.product_version, "15.1");
    f->mac.apple_silicon = true;
    f->mac.metal = true;
    gp_copy(f->mac.metal_name, sizeof f->mac.metal_name, "Apple M3 Max");
    f->mac.metal_unified = true;
    f->mac.metal_working_set = 48ull << 30;
    f->mac.metal_family = 9;
    f->cpu.logical = 16;
    f->cpu.performance = 12;
    f->cpu.efficiency = 4;
    f->cpu.memory_bytes = 64ull << 30;
    gp_copy(f->cpu.arch, sizeof f->cpu.arch, "arm64");
    gp_copy(f->cpu.model, sizeof f->cpu.model, "Apple M3 Max");
    f->py.found = true;
    gp_copy(f->py.path, sizeof f->py.path, "/opt/homebrew/bin/python3");
    gp_copy(f->py.real, sizeof f->py.real,
            "/opt/homebrew/Cellar/python@3.12/3.12.7/bin/python3.12");
    gp_copy(f->py.arch, sizeof f->py.arch, "arm64");
    f->py.has_arm64 = true;
    f->py.torch_count = 1;
    gp_doctor_torch *t = &f->py.torch[0];
    t->parsed = true;
    gp_copy(t->version, sizeof t->version, "2.5.1");
    gp_copy(t->site, sizeof t->site, "/opt/homebrew/lib/python3.12/site-packages");
    gp_copy(t->wheel_platform, sizeof t->wheel_platform, "macosx_11_0_arm64");
    return m;
}

static const gp_check *run_check(mac_case *m, const char *id)
{
    memset(&m->r, 0, sizeof m->r);
    gp_doctor_check_all(&m->f, &m->r);
    const gp_check *c = gp_report_find(&m->r, id);
    if (!c) fail_msg("no check %s", id);
    return c;
}

#define ASSERT_STATUS(c, st) assert_string_equal(gp_check_status_name((c)->status), st)
#define ASSERT_HAS(s, needle)                                                                      \
    do {                                                                                           \
        if (!strstr((s), (needle))) fail_msg("'%s' does not contain '%s'", (s), (needle));         \
    } while (0)

static void test_apple_silicon_all_well(void **state)
{
    (void)state;
    mac_case *m = mac_new();
    ASSERT_STATUS(run_check(m, "rosetta"), "pass");
    ASSERT_STATUS(run_check(m, "macos"), "pass");
    ASSERT_STATUS(run_check(m, "metal"), "pass");
    ASSERT_HAS(run_check(m, "metal")->observed, "Apple9");
    ASSERT_STATUS(run_check(m, "torch.mps"), "pass");
    ASSERT_STATUS(run_check(m, "cuda.on.mac"), "pass");
    ASSERT_HAS(run_check(m, "cpu")->observed, "torch.set_num_threads(12)");
    ASSERT_HAS(run_check(m, "memory")->observed, "48 GiB of the 64 GiB");
    assert_null(gp_report_find(&m->r, "kmod")); /* no Linux driver checks on a Mac */
    assert_false(gp_report_failed(&m->r));

    cJSON *rep = gp_report_to_json(&m->f, &m->r);
    assert_non_null(rep);
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(rep, "capabilities");
    const cJSON *metal = cJSON_GetObjectItemCaseSensitive(caps, "metal");
    const cJSON *cuda = cJSON_GetObjectItemCaseSensitive(caps, "cuda");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(metal, "available")));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(metal, "family")->valuestring, "apple9");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(cuda, "compile")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(cuda, "run")));
    const cJSON *adv = cJSON_GetObjectItemCaseSensitive(rep, "advice");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(adv, "way")->valuestring, "mps-local");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(rep, "platform")->valuestring, "macos");
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(caps, "cpu");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(cpu, "performance_cores")->valueint, 12);
    cJSON_Delete(rep);
    free(m);
}

static void test_rosetta_process(void **state)
{
    (void)state;
    mac_case *m = mac_new();
    m->f.mac.translated = true;
    const gp_check *c = run_check(m, "rosetta");
    ASSERT_STATUS(c, "fail");
    ASSERT_HAS(c->fix, "/opt/homebrew");
    assert_true(gp_report_failed(&m->r));
    free(m);
}

static void test_x86_64_python_under_rosetta(void **state)
{
    (void)state;
    mac_case *m = mac_new();
    m->f.py.has_arm64 = false;
    m->f.py.has_x86_64 = true;
    gp_copy(m->f.py.real, sizeof m->f.py.real, "/usr/local/bin/python3.12");
    const gp_check *c = run_check(m, "rosetta");
    ASSERT_STATUS(c, "fail");
    ASSERT_HAS(c->observed, "macOS 10.16");
    ASSERT_HAS(c->observed, "/usr/local/bin/python3.12");
    ASSERT_HAS(c->fix, "arm64 Python");
    /* universal2 runs natively */
    m->f.py.has_arm64 = true;
    ASSERT_STATUS(run_check(m, "rosetta"), "pass");
    free(m);
}

static void test_x86_64_wheel(void **state)
{
    (void)state;
    mac_case *m = mac_new();
    gp_copy(m->f.py.torch[0].wheel_platform, sizeof m->f.py.torch[0].wheel_platform,
            "macosx_10_9_x86_64");
    const gp_check *c = run_check(m, "torch.mps");
    ASSERT_STATUS(c, "fail");
    ASSERT_HAS(c->observed, "x86_64 wheel");
    gp_copy(m->f.py.torch[0].wheel_platform, sizeof m->f.py.torch[0].wheel_platform,
            "macosx_11_0_arm64");
    gp_copy(m->f.py.torch[0].version, sizeof m->f.py.torch[0].version, "1.11.0");
    ASSERT_STATUS(run_check(m, "torch.mps"), "fail"); /* before MPS existed */
    free(m);
}

static void test_macos_versions(void **state)
{
    (void)state;
    mac_case *m = mac_new();
    struct {
        const char *v, *st;
    } cases[] = {{"12.0", "fail"}, {"12.3", "warn"}, {"13.6.1", "warn"}, {"14.0", "pass"},
                 {"15", "pass"},   {"26.1", "pass"}, {"", "warn"},       {"x.y", "warn"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_copy(m->f.mac.product_version, sizeof m->f.mac.product_version, cases[i].v);
        const gp_check *c = run_check(m, "macos");
        if (strcmp(gp_check_status_name(c->status), cases[i].st) != 0)
            fail_msg("macOS '%s': %s, expected %s", cases[i].v, gp_check_status_name(c->status),
                     cases[i].st);
        if (c->status != GP_CHECK_PASS) ASSERT_HAS(c->fix, "Software Update");
    }
    free(m);
}

static void test_mps_fallback_variable(void **state)
{
    (void)state;
    mac_case *m = mac_new();
    const gp_check *c = run_check(m, "mps.fallback");
    ASSERT_STATUS(c, "info");
    ASSERT_HAS(c->observed, "not set");
    m->f.py.mps_fallback_set = true;
    gp_copy(m->f.py.mps_fallback, sizeof m->f.py.mps_fallback, "1");
    c = run_check(m, "mps.fallback");
    ASSERT_STATUS(c, "info");
    ASSERT_HAS(c->observed, "after `import torch` has no effect");
    gp_copy(m->f.py.mps_fallback, sizeof m->f.py.mps_fallback, "true");
    c = run_check(m, "mps.fallback");
    ASSERT_STATUS(c, "warn");
    ASSERT_HAS(c->fix, "PYTORCH_ENABLE_MPS_FALLBACK=1");
    free(m);
}

static void test_cuda_settings_on_a_mac(void **state)
{
    (void)state;
    mac_case *m = mac_new();
    gp_copy(m->f.cuda.cuda_home, sizeof m->f.cuda.cuda_home, "/usr/local/cuda");
    m->f.cuda.pip_cuda_index = true;
    gp_copy(m->f.cuda.pip_index, sizeof m->f.cuda.pip_index,
            "PIP_INDEX_URL=https://download.pytorch.org/whl/cu128");
    const gp_check *c = run_check(m, "cuda.on.mac");
    ASSERT_STATUS(c, "warn");
    ASSERT_HAS(c->observed, "CUDA_HOME/CUDA_PATH=/usr/local/cuda");
    ASSERT_HAS(c->observed, "whl/cu128");
    ASSERT_HAS(c->fix, "unset CUDA_HOME");
    ASSERT_HAS(c->fix, "torch.device('mps')");
    free(m);
}

static void test_intel_mac_and_no_metal(void **state)
{
    (void)state;
    mac_case *m = mac_new();
    m->f.mac.apple_silicon = false;
    m->f.mac.metal = false;
    m->f.cpu.performance = m->f.cpu.efficiency = 0;
    ASSERT_STATUS(run_check(m, "rosetta"), "skip");
    ASSERT_STATUS(run_check(m, "metal"), "warn");
    ASSERT_STATUS(run_check(m, "memory"), "skip");
    ASSERT_STATUS(run_check(m, "torch.mps"), "info");
    cJSON *rep = gp_report_to_json(&m->f, &m->r);
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(rep, "capabilities");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(caps, "metal"), "available")));
    const cJSON *adv = cJSON_GetObjectItemCaseSensitive(rep, "advice");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(adv, "way")->valuestring, "cpu");
    cJSON_Delete(rep);
    free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_apple_silicon_all_well),
        cmocka_unit_test(test_rosetta_process),
        cmocka_unit_test(test_x86_64_python_under_rosetta),
        cmocka_unit_test(test_x86_64_wheel),
        cmocka_unit_test(test_macos_versions),
        cmocka_unit_test(test_mps_fallback_variable),
        cmocka_unit_test(test_cuda_settings_on_a_mac),
        cmocka_unit_test(test_intel_mac_and_no_metal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
