/* test_checks_linux.c — the Linux driver, toolkit and PyTorch checks on facts filled by hand,
 * for the cases no fixture machine covers: a GPU older than the wheel, a GPU the toolkit
 * cannot build for (too old or too new), torch or toolkit newer than the driver by a major or
 * a minor, nvcc and torch of different majors, cuInit codes, vfio-pci, missing /dev nodes, and
 * distribution-specific fixes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "doctor/checks.h"
#include "doctor/report.h"
#include "doctor/sysroot.h"

typedef struct linux_case {
    gp_doctor_facts f;
    gp_doctor_report r;
} linux_case;

/* Ubuntu with one GPU of compute capability cc (x10) on driver 570.124.04 (CUDA 12.8),
 * everything in order; toolkit and torch are added by the tests. */
static linux_case *linux_new(const char *gpu, int cc)
{
    linux_case *m = calloc(1, sizeof *m);
    assert_non_null(m);
    gp_doctor_facts *f = &m->f;
    f->platform = GP_DOCTOR_LINUX;
    f->os.release_read = true;
    gp_copy(f->os.id, sizeof f->os.id, "ubuntu");
    gp_copy(f->os.id_like, sizeof f->os.id_like, "debian");
    gp_copy(f->os.pretty, sizeof f->os.pretty, "Ubuntu 24.04 LTS");
    gp_doctor_nvidia *nv = &f->nv;
    nv->pci_count = 1;
    gp_copy(nv->pci[0].bdf, sizeof nv->pci[0].bdf, "0000:01:00.0");
    gp_copy(nv->pci[0].driver, sizeof nv->pci[0].driver, "nvidia");
    nv->pci[0].class_code = 0x030000;
    nv->kmod_present = nv->kmod_parsed = true;
    gp_copy(nv->kmod_version, sizeof nv->kmod_version, "570.124.04");
    nv->dev_ctl = nv->dev_uvm = true;
    nv->dev_gpu_count = 1;
    nv->nvml.loaded = nv->nvml_probed = true;
    gp_copy(nv->nvml_driver, sizeof nv->nvml_driver, "570.124.04");
    nv->nvml_cuda = 12080;
    nv->nvml_gpu_count = 1;
    gp_copy(nv->nvml_gpus[0].name, sizeof nv->nvml_gpus[0].name, gpu);
    nv->nvml_gpus[0].cc_major = cc / 10;
    nv->nvml_gpus[0].cc_minor = cc % 10;
    nv->cuda.loaded = true;
    nv->cuda_driver_version = 12080;
    return m;
}

static void add_toolkit(linux_case *m, int major, int minor)
{
    gp_doctor_toolkit *t = &m->f.cuda.toolkits[m->f.cuda.toolkit_count++];
    snprintf(t->path, sizeof t->path, "/usr/local/cuda-%d.%d", major, minor);
    gp_copy(t->found_by, sizeof t->found_by, "/usr/local/cuda");
    t->version_read = t->has_nvcc = true;
    t->version.part[0] = major;
    t->version.part[1] = minor;
    t->version.n = 2;
    m->f.cuda.nvcc_toolkit = 0;
    snprintf(m->f.cuda.nvcc_on_path, sizeof m->f.cuda.nvcc_on_path,
             "/usr/local/cuda-%d.%d/bin/nvcc", major, minor);
    gp_copy(m->f.cuda.nvcc_root, sizeof m->f.cuda.nvcc_root, t->path);
}

static void add_torch(linux_case *m, const char *version, const char *cuda)
{
    gp_doctor_torch *t = &m->f.py.torch[m->f.py.torch_count++];
    t->parsed = true;
    gp_copy(t->version, sizeof t->version, version);
    gp_copy(t->site, sizeof t->site, "/usr/local/lib/python3.12/dist-packages");
    gp_copy(t->from, sizeof t->from, "python3 on PATH");
    t->cuda_build = cuda != NULL;
    gp_copy(t->cuda, sizeof t->cuda, cuda);
}

static const gp_check *run_check(linux_case *m, const char *id)
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

static void test_gpu_older_than_the_wheel(void **state)
{
    (void)state;
    linux_case *m = linux_new("NVIDIA GeForce GTX 1080", 61);
    add_torch(m, "2.8.0+cu128", "12.8");
    const gp_check *c = run_check(m, "torch.arch");
    ASSERT_STATUS(c, "fail");
    ASSERT_HAS(c->observed, "CC 6.1");
    ASSERT_HAS(c->fix, "whl/cu126");
    ASSERT_HAS(c->fix, "older GPU");
    free(m);
}

static void test_toolkit_and_gpu_generations(void **state)
{
    (void)state;
    linux_case *m = linux_new("NVIDIA GeForce GTX 1080", 61);
    add_toolkit(m, 13, 0);
    const gp_check *c = run_check(m, "cc.toolkit");
    ASSERT_STATUS(c, "fail"); /* CUDA 13 dropped Pascal */
    ASSERT_HAS(c->observed, "CC >= 7.5");
    ASSERT_HAS(c->fix, "CUDA 12.x");
    free(m);

    m = linux_new("NVIDIA GeForce RTX 5090", 120);
    add_toolkit(m, 12, 4);
    c = run_check(m, "cc.toolkit");
    ASSERT_STATUS(c, "warn");
    ASSERT_HAS(c->expected, "CUDA >= 12.8 for sm_120");
    ASSERT_HAS(c->fix, "cuda-toolkit-12-8");
    free(m);
}

static void test_newer_than_the_driver(void **state)
{
    (void)state;
    linux_case *m = linux_new("NVIDIA H100 80GB HBM3", 90);
    add_toolkit(m, 13, 0);
    add_torch(m, "2.9.0+cu130", "13.0");
    const gp_check *c = run_check(m, "toolkit.driver");
    ASSERT_STATUS(c, "fail");
    ASSERT_HAS(c->observed, "CUDA_ERROR_INSUFFICIENT_DRIVER");
    ASSERT_HAS(c->fix, "580.65.06");
    ASSERT_HAS(c->fix, "nvidia-driver-580");
    c = run_check(m, "torch.driver");
    ASSERT_STATUS(c, "fail");
    ASSERT_HAS(c->fix, "580.65.06");
    ASSERT_HAS(c->fix, "whl/cu128"); /* or the wheel this driver runs */
    c = run_check(m, "ext.match");
    ASSERT_STATUS(c, "pass");
    free(m);

    /* same major, newer minor: torch warns (minor-version compatibility) */
    m = linux_new("NVIDIA H100 80GB HBM3", 90);
    m->f.nv.nvml_cuda = m->f.nv.cuda_driver_version = 12040;
    gp_copy(m->f.nv.nvml_driver, sizeof m->f.nv.nvml_driver, "550.54.14");
    gp_copy(m->f.nv.kmod_version, sizeof m->f.nv.kmod_version, "550.54.14");
    add_torch(m, "2.7.1+cu128", "12.8");
    ASSERT_STATUS(run_check(m, "torch.driver"), "warn");
    free(m);
}

static void test_nvcc_and_torch_majors(void **state)
{
    (void)state;
    linux_case *m = linux_new("NVIDIA H100 80GB HBM3", 90);
    add_toolkit(m, 12, 8);
    add_torch(m, "2.4.1+cu118", "11.8");
    const gp_check *c = run_check(m, "ext.match");
    ASSERT_STATUS(c, "warn");
    ASSERT_HAS(c->observed, "mismatches the version that was used to compile PyTorch");
    ASSERT_HAS(c->fix, "cuda-toolkit-11-8");
    free(m);
}

static void test_cuinit_codes(void **state)
{
    (void)state;
    struct {
        int rc;
        const char *fix;
    } cases[] = {{35, "upgrade the driver"},
                 {100, "CUDA_VISIBLE_DEVICES"},
                 {803, "reboot"},
                 {804, "compat"},
                 {999, "dmesg"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        linux_case *m = linux_new("NVIDIA A100-SXM4-80GB", 80);
        m->f.nv.deep = true;
        m->f.nv.cuinit_rc = cases[i].rc;
        const gp_check *c = run_check(m, "cuinit");
        ASSERT_STATUS(c, "fail");
        ASSERT_HAS(c->fix, cases[i].fix);
        free(m);
    }
}

static void test_pci_and_devnodes(void **state)
{
    (void)state;
    linux_case *m = linux_new("NVIDIA A100-SXM4-80GB", 80);
    gp_copy(m->f.nv.pci[0].driver, sizeof m->f.nv.pci[0].driver, "vfio-pci");
    const gp_check *c = run_check(m, "pci.gpu");
    ASSERT_STATUS(c, "warn");
    ASSERT_HAS(c->fix, "driverctl unset-override 0000:01:00.0");
    free(m);

    m = linux_new("NVIDIA A100-SXM4-80GB", 80);
    m->f.nv.dev_ctl = false;
    m->f.nv.dev_gpu_count = 0;
    c = run_check(m, "devnodes");
    ASSERT_STATUS(c, "fail");
    ASSERT_HAS(c->fix, "nvidia-modprobe");
    free(m);

    m = linux_new("NVIDIA A100-SXM4-80GB", 80);
    m->f.nv.dev_uvm = false;
    c = run_check(m, "devnodes");
    ASSERT_STATUS(c, "warn");
    ASSERT_HAS(c->fix, "modprobe nvidia-uvm");
    free(m);
}

static void test_distribution_fixes(void **state)
{
    (void)state;
    linux_case *m = linux_new("NVIDIA GeForce RTX 4090", 89);
    gp_copy(m->f.os.id, sizeof m->f.os.id, "fedora");
    m->f.os.id_like[0] = '\0';
    m->f.nv.nouveau_loaded = true;
    const gp_check *c = run_check(m, "nouveau");
    ASSERT_STATUS(c, "fail");
    ASSERT_HAS(c->fix, "dracut --force");
    add_toolkit(m, 12, 9);
    c = run_check(m, "toolkit.driver");
    ASSERT_STATUS(c, "fail");
    ASSERT_HAS(c->fix, "sudo dnf module install nvidia-driver:575");
    free(m);
}

static void test_all_well(void **state)
{
    (void)state;
    linux_case *m = linux_new("NVIDIA H100 80GB HBM3", 90);
    add_toolkit(m, 12, 8);
    add_torch(m, "2.7.1+cu128", "12.8");
    memset(&m->r, 0, sizeof m->r);
    gp_doctor_check_all(&m->f, &m->r);
    for (int i = 0; i < m->r.count; i++)
        if (m->r.checks[i].status == GP_CHECK_FAIL || m->r.checks[i].status == GP_CHECK_WARN)
            if (strcmp(m->r.checks[i].id, "ldpath") != 0 &&
                strcmp(m->r.checks[i].id, "opencl") != 0)
                fail_msg("%s: %s", m->r.checks[i].id, m->r.checks[i].observed);
    cJSON *rep = gp_report_to_json(&m->f, &m->r);
    const cJSON *cuda = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(rep, "capabilities"), "cuda");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cuda, "run")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cuda, "compile")));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(cuda, "driver_cuda")->valuestring, "12.8");
    cJSON_Delete(rep);
    free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_older_than_the_wheel),
        cmocka_unit_test(test_toolkit_and_gpu_generations),
        cmocka_unit_test(test_newer_than_the_driver),
        cmocka_unit_test(test_nvcc_and_torch_majors),
        cmocka_unit_test(test_cuinit_codes),
        cmocka_unit_test(test_pci_and_devnodes),
        cmocka_unit_test(test_distribution_fixes),
        cmocka_unit_test(test_all_well),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
