/* checks_torch.c — PyTorch on a CUDA machine, from version.py and the wheel's tag: which builds
 * are installed, a CPU-only wheel on a GPU machine, a wheel newer than the driver, a GPU the
 * wheel has no kernels for ("no kernel image is available"), and nvcc against the wheel's
 * CUDA for extension builds. Every fix names the wheel index that fits this machine. */
#include <stdio.h>
#include <string.h>

#include "doctor/checks.h"
#include "doctor/cuda_tables.h"
#include "util/cuda_driver.h"
#include "doctor/parse.h"

/* "2.7.1+cu126" -> "2.7.1" */
static void base_version(const char *v, char *out, size_t n)
{
    snprintf(out, n, "%.*s", (int)strcspn(v, "+"), v);
}

static int driver_cuda_int(const gp_derived *d)
{
    return d->driver_cuda.n ? d->driver_cuda.part[0] * 10 + d->driver_cuda.part[1] : 0;
}

static int first_cc(const gp_derived *d)
{
    for (int i = 0; i < d->gpu_count; i++)
        if (d->gpus[i].cc_major) return d->gpus[i].cc_major * 10 + d->gpus[i].cc_minor;
    return 0;
}

/* The kind of build a torch install is, from its wheel tag and version. */
typedef enum torch_kind { TORCH_CPU, TORCH_JETSON, TORCH_SBSA, TORCH_X86, TORCH_OTHER } torch_kind;

static torch_kind kind_of(const gp_doctor_torch *t)
{
    const char *p = t->wheel_platform;
    size_t l = strlen(p);
    bool aarch64 = l >= 7 && strcmp(p + l - 7, "aarch64") == 0;
    if (l >= 6 && strcmp(p + l - 6, "x86_64") == 0) return TORCH_X86;
    if (!t->cuda_build) return TORCH_CPU;
    /* NVIDIA's Jetson wheels: "2.5.0a0+872d972e41.nv24.08", tag linux_aarch64 */
    if (strstr(t->version, ".nv") || strstr(t->version, "+nv") || strcmp(p, "linux_aarch64") == 0)
        return TORCH_JETSON;
    if (aarch64 && strncmp(p, "manylinux", 9) == 0) return TORCH_SBSA;
    return TORCH_OTHER;
}

static void jetson_fix(const gp_doctor_facts *f, const gp_derived *d, char *out, size_t n)
{
    gp_jetson_torch_fix(f->nv.tegra.l4t, d->l4t ? d->l4t->jetpack : NULL, out, n);
}

/* The pip command that installs the CUDA wheel fitting this driver and GPU. */
static void pip_fix(const gp_derived *d, char *out, size_t n)
{
    const char *idx = gp_torch_index_for(driver_cuda_int(d), first_cc(d));
    char base[64] = "";
    if (d->torch && d->torch->version[0]) base_version(d->torch->version, base, sizeof base);
    if (!idx) {
        snprintf(out, n,
                 "upgrade the driver first (see toolkit.driver), then pip install "
                 "--force-reinstall torch --index-url https://download.pytorch.org/whl/cu128");
        return;
    }
    bool needs_new = strcmp(idx, "cu128") == 0 || strcmp(idx, "cu130") == 0;
    snprintf(out, n,
             "pip install --force-reinstall torch%s%s --index-url "
             "https://download.pytorch.org/whl/%s",
             base[0] && !needs_new ? "==" : "", base[0] && !needs_new ? base : "", idx);
}

static void check_torch_found(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_python *py = &f->py;
    gp_check *c;
    if (!d->torch && py->unreadable[0]) {
        c = gp_report_add(r, "pytorch", "torch", GP_CHECK_WARN);
        gp_check_observed(c, "no PyTorch found, but a site-packages cannot be read: %s",
                          py->unreadable);
        gp_check_expected(c, "every site-packages of python3 readable by this user");
        char dir[GP_DOCTOR_TEXT];
        snprintf(dir, sizeof dir, "%.*s", (int)strcspn(py->unreadable, ":"), py->unreadable);
        gp_check_fix(c,
                     "run gpuport doctor as the user who runs Python, or make the folder "
                     "readable: sudo chmod -R a+rX %s",
                     dir);
        return;
    }
    if (!d->torch) {
        c = gp_report_add(r, "pytorch", "torch", GP_CHECK_INFO);
        if (py->found)
            gp_check_observed(c, "no PyTorch in the site-packages of %s%s%s", py->path,
                              py->arch[0] ? ", " : "", py->arch);
        else
            gp_check_observed(c, "%s",
                              f->platform == GP_DOCTOR_WINDOWS
                                  ? "no python.exe on PATH and no PyTorch in %VIRTUAL_ENV% / "
                                    "%CONDA_PREFIX% or pip's --user folder"
                                  : "no python3 on PATH and no PyTorch in $VIRTUAL_ENV / "
                                    "$CONDA_PREFIX");
        return;
    }
    const gp_doctor_torch *t = d->torch;
    c = gp_report_add(r, "pytorch", "torch", t->parsed ? GP_CHECK_INFO : GP_CHECK_WARN);
    if (t->parsed)
        gp_check_observed(c, "torch %s (%s%s%s) in %s (%s)%s%s", t->version,
                          t->cuda_build  ? "CUDA "
                          : t->hip_build ? "ROCm"
                                         : "CPU-only",
                          t->cuda_build ? t->cuda : "", "", t->site, t->from,
                          t->wheel_platform[0] ? ", wheel " : "", t->wheel_platform);
    else
        gp_check_observed(c, "torch in %s (%s), but its version cannot be read: %s", t->site,
                          t->from, t->reason);
    if (py->unreadable[0]) gp_check_note(c, "could not read %s", py->unreadable);
    for (int i = 1; i < py->torch_count; i++)
        gp_check_note(c, "also torch %s (%s) in %s",
                      py->torch[i].parsed ? py->torch[i].version : "?",
                      py->torch[i].cuda_build ? py->torch[i].cuda : "CPU", py->torch[i].site);
    gp_check_expected(c, "one PyTorch per environment, with a readable torch/version.py");
    if (!t->parsed)
        gp_check_fix(c, "reinstall it: pip install --force-reinstall torch (the installed copy is "
                        "damaged or not an official build)");
}

/* A Jetson: NVIDIA's wheels for the JetPack (PyPI's aarch64 wheels are CPU-only or built for Arm
 * servers, whose CUDA does not drive the integrated GPU before JetPack 7). */
static void check_torch_build_jetson(const gp_doctor_facts *f, const gp_derived *d,
                                     gp_doctor_report *r)
{
    const gp_doctor_torch *t = d->torch;
    torch_kind k = kind_of(t);
    bool sbsa = gp_l4t_is_sbsa(f->nv.tegra.l4t);
    char fix[600];
    jetson_fix(f, d, fix, sizeof fix);
    const char *why = NULL;
    if (k == TORCH_CPU)
        why = "a CPU-only build (version.py: cuda = None; PyPI's aarch64 wheel): "
              "torch.cuda.is_available() is False on this Jetson";
    else if (k == TORCH_X86)
        why = "a wheel for x86_64: it does not even import on this aarch64 Jetson";
    else if (k == TORCH_SBSA && !sbsa)
        why = "a CUDA build for Arm servers (SBSA; a manylinux aarch64 wheel from PyPI or "
              "download.pytorch.org): its CUDA does not drive a Jetson's integrated GPU before "
              "JetPack 7, so torch.cuda.is_available() is False";
    else if (k == TORCH_JETSON && sbsa)
        why = "a build for the JetPack 4-6 CUDA (aarch64-jetson): JetPack 7 has the Arm-server "
              "(SBSA) CUDA 13";
    gp_check *c = gp_report_add(r, "pytorch", "torch.build", why ? GP_CHECK_FAIL : GP_CHECK_PASS);
    gp_check_observed(c, "torch %s%s%s%s is %s", t->version, t->wheel_platform[0] ? " (wheel " : "",
                      t->wheel_platform, t->wheel_platform[0] ? ")" : "",
                      why               ? why
                      : k == TORCH_SBSA ? "PyTorch's aarch64 CUDA build, right for JetPack 7"
                                        : "NVIDIA's Jetson build");
    gp_check_expected(c, "NVIDIA's PyTorch for this JetPack");
    if (why) gp_check_fix(c, "%s", fix);
}

static void check_torch_build(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_torch *t = d->torch;
    if (!t || !t->parsed) {
        gp_check *c = gp_report_add(r, "pytorch", "torch.build", GP_CHECK_SKIP);
        gp_check_observed(c, "no readable PyTorch");
        return;
    }
    if (d->jetson) {
        check_torch_build_jetson(f, d, r);
        return;
    }
    if (!d->gpu || t->cuda_build || t->hip_build) {
        gp_check *c = gp_report_add(r, "pytorch", "torch.build", GP_CHECK_PASS);
        gp_check_observed(c, "%s build%s",
                          t->cuda_build  ? "CUDA"
                          : t->hip_build ? "ROCm"
                                         : "CPU-only",
                          d->gpu ? " on an NVIDIA machine" : " on a machine without an NVIDIA GPU");
        gp_check_expected(c, "a CUDA build where there is an NVIDIA GPU");
        return;
    }
    gp_check *c = gp_report_add(r, "pytorch", "torch.build", GP_CHECK_FAIL);
    gp_check_observed(c,
                      "torch %s is a CPU-only build (version.py: cuda = None) but this machine "
                      "has an NVIDIA GPU: torch.cuda.is_available() is False",
                      t->version);
    gp_check_expected(c, "a CUDA build of PyTorch");
    char fix[400];
    pip_fix(d, fix, sizeof fix);
    gp_check_fix(c, "%s", fix);
}

static void check_torch_driver(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_torch *t = d->torch;
    gp_version tv;
    if (!t || !t->cuda_build || !d->driver_cuda.n ||
        !gp_version_find(t->cuda, strlen(t->cuda), &tv)) {
        gp_check *c = gp_report_add(r, "pytorch", "torch.driver", GP_CHECK_SKIP);
        gp_check_observed(c, "%s",
                          !t || !t->cuda_build ? "no CUDA build of PyTorch" : "no NVIDIA driver");
        return;
    }
    char dv[16];
    gp_fmt_version(&d->driver_cuda, dv, sizeof dv);
    int cmp = gp_version_cmp(&tv, &d->driver_cuda);
    if (d->jetson) {
        /* NVIDIA's Jetson wheels link the JetPack's own CUDA libraries: another major is missing
         * (libcudart.so.N), a newer minor needs the CUDA upgrade package */
        bool other_major = tv.part[0] != d->driver_cuda.part[0];
        gp_check_status st = other_major ? GP_CHECK_FAIL : cmp > 0 ? GP_CHECK_WARN : GP_CHECK_PASS;
        char rel[160], fix[600];
        gp_fmt_jetson(f, d, rel, sizeof rel);
        gp_check *c = gp_report_add(r, "pytorch", "torch.driver", st);
        gp_check_observed(c, "torch is built with CUDA %s; this Jetson has %s%s", t->cuda, rel,
                          other_major ? ": the wheel was built for another CUDA than this "
                                        "JetPack's, whose libraries it needs"
                          : st == GP_CHECK_WARN ? ": it needs the CUDA upgrade package for Jetson"
                                                : "");
        gp_check_expected(c, "NVIDIA's PyTorch for this JetPack (CUDA %s)", dv);
        jetson_fix(f, d, fix, sizeof fix);
        if (st != GP_CHECK_PASS) gp_check_fix(c, "%s", fix);
        return;
    }
    const char *need = gp_cuda_min_driver_for(tv.part[0], tv.part[1]);
    gp_check_status st = cmp <= 0                              ? GP_CHECK_PASS
                         : tv.part[0] > d->driver_cuda.part[0] ? GP_CHECK_FAIL
                                                               : GP_CHECK_WARN;
    gp_check *c = gp_report_add(r, "pytorch", "torch.driver", st);
    gp_check_observed(c, "torch is built with CUDA %s; driver %s runs CUDA <= %s%s", t->cuda,
                      d->driver, dv,
                      st == GP_CHECK_FAIL ? ": torch.cuda.is_available() is False (driver too old)"
                      : st == GP_CHECK_WARN ? ": it runs under minor-version compatibility, but "
                                              "JIT-compiled kernels may fail"
                                            : "");
    if (f->platform == GP_DOCTOR_WINDOWS)
        gp_check_expected(c, "a driver whose nvidia-smi shows CUDA Version >= %s", t->cuda);
    else
        gp_check_expected(c, "driver >= %s for CUDA %s", need ? need : "?", t->cuda);
    if (st != GP_CHECK_PASS && d->jetson) {
        char fix[600];
        jetson_fix(f, d, fix, sizeof fix);
        gp_check_fix(c, "%s", fix);
    } else if (st != GP_CHECK_PASS && f->platform == GP_DOCTOR_WINDOWS) {
        char fix[400];
        gp_fix_driver_for_cuda(f, tv.part[0], tv.part[1], fix, sizeof fix);
        const char *idx = gp_torch_index_for(driver_cuda_int(d), first_cc(d));
        gp_check_fix(c, "%s%s%s", fix,
                     idx ? "; or install the wheel for this driver: pip install --force-reinstall "
                           "torch --index-url https://download.pytorch.org/whl/"
                         : "",
                     idx ? idx : "");
    } else if (st != GP_CHECK_PASS) {
        char fix[400];
        gp_fix_driver(&f->os, need, fix, sizeof fix);
        const char *idx = gp_torch_index_for(driver_cuda_int(d), first_cc(d));
        const char *lin = NULL, *win = NULL;
        char family[200] = "";
        if (st == GP_CHECK_FAIL && gp_cuda_major_min_driver(tv.part[0], &lin, &win))
            snprintf(family, sizeof family, " (any CUDA %d.x wheel runs from %s%s%s on)",
                     tv.part[0], lin, win ? ", Windows " : "", win ? win : "");
        gp_check_fix(c, "install NVIDIA driver >= %s for CUDA %s (%s)%s%s%s", need ? need : "?",
                     t->cuda, fix, family,
                     idx ? ", or install the wheel for this driver: pip install --force-reinstall "
                           "torch --index-url https://download.pytorch.org/whl/"
                         : "",
                     idx ? idx : "");
    }
}

static void check_torch_arch(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_torch *t = d->torch;
    gp_version tv;
    (void)f;
    if (!t || !t->cuda_build || !first_cc(d) || !gp_version_find(t->cuda, strlen(t->cuda), &tv)) {
        gp_check *c = gp_report_add(r, "pytorch", "torch.arch", GP_CHECK_SKIP);
        gp_check_observed(c, "%s",
                          !t || !t->cuda_build ? "no CUDA build of PyTorch"
                                               : "no GPU compute capability known");
        return;
    }
    if (d->jetson && kind_of(t) == TORCH_JETSON) {
        gp_check *c = gp_report_add(r, "pytorch", "torch.arch", GP_CHECK_PASS);
        gp_check_observed(c, "NVIDIA's Jetson wheel carries kernels for the Jetson GPUs of its "
                             "JetPack");
        gp_check_expected(c, "a wheel with kernels for every GPU's compute capability");
        return;
    }
    int targets[16];
    size_t nt = gp_torch_wheel_targets(tv.part[0], tv.part[1], targets, 16);
    char list[128] = "";
    size_t used = 0;
    for (size_t i = 0; i < nt; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%d.%d", i ? " " : "", targets[i] / 10,
                         targets[i] % 10);
        if (w < 0 || (size_t)w >= sizeof list - used) break;
        used += (size_t)w;
    }
    for (int i = 0; i < d->gpu_count; i++) {
        const gp_doctor_gpu *g = &d->gpus[i];
        int cc = g->cc_major * 10 + g->cc_minor;
        if (!g->cc_major || gp_torch_runs_on(targets, nt, cc)) continue;
        bool newer = cc > targets[nt - 1];
        gp_check *c = gp_report_add(r, "pytorch", "torch.arch", GP_CHECK_FAIL);
        gp_check_observed(c,
                          "%s is CC %d.%d (sm_%d); the CUDA %s wheel has kernels for %s: "
                          "\"no kernel image is available for execution on the device\"",
                          g->name, g->cc_major, g->cc_minor, cc, t->cuda, list);
        gp_check_expected(c, "a wheel with sm_%d kernels", cc);
        const char *idx = gp_torch_index_for(driver_cuda_int(d), cc);
        if (!idx && newer) idx = "cu128";
        if (!idx) idx = "cu126";
        gp_check_fix(c,
                     "pip install --force-reinstall torch --index-url "
                     "https://download.pytorch.org/whl/%s%s",
                     idx,
                     newer ? " (sm_120 needs torch >= 2.7 and driver >= 570.26)"
                           : " (a wheel that still targets this older GPU)");
        return;
    }
    gp_check *c = gp_report_add(r, "pytorch", "torch.arch", GP_CHECK_PASS);
    gp_check_observed(c, "the CUDA %s wheel (%s) has kernels for every GPU here", t->cuda, list);
    gp_check_expected(c, "a wheel with kernels for every GPU's compute capability");
}

static void check_ext_match(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_torch *t = d->torch;
    const gp_doctor_toolkit *k = d->toolkit;
    gp_version tv;
    (void)f;
    if (!t || !t->cuda_build || !k || !k->version_read ||
        !gp_version_find(t->cuda, strlen(t->cuda), &tv)) {
        gp_check *c = gp_report_add(r, "pytorch", "ext.match", GP_CHECK_SKIP);
        gp_check_observed(c, "needs both a CUDA build of PyTorch and a toolkit");
        return;
    }
    char kv[16];
    gp_fmt_version(&k->version, kv, sizeof kv);
    bool major = tv.part[0] != k->version.part[0];
    bool minor = !major && tv.part[1] != k->version.part[1];
    gp_check *c = gp_report_add(r, "pytorch", "ext.match",
                                major   ? GP_CHECK_WARN
                                : minor ? GP_CHECK_INFO
                                        : GP_CHECK_PASS);
    gp_check_observed(
        c, "nvcc is CUDA %s, torch is built with CUDA %s%s", kv, t->cuda,
        major   ? ": building a C++/CUDA extension (torch.utils.cpp_extension) stops with "
                  "\"The detected CUDA version mismatches the version that was used to "
                  "compile PyTorch\""
        : minor ? ": extensions build (with a warning)"
                : "");
    gp_check_expected(c, "the same CUDA major in nvcc and torch");
    if (major && f->platform == GP_DOCTOR_WINDOWS)
        gp_check_fix(c,
                     "for extension builds set CUDA_PATH (and CUDA_HOME) to a CUDA %d.x toolkit "
                     "(NVIDIA's CUDA %d.%d installer for Windows), or install the torch wheel for "
                     "CUDA %d",
                     tv.part[0], tv.part[0], tv.part[1], k->version.part[0]);
    else if (major)
        gp_check_fix(c,
                     "for extension builds point CUDA_HOME at a CUDA %d.x toolkit (%s "
                     "cuda-toolkit-%d-%d), or install the torch wheel for CUDA %d",
                     tv.part[0], gp_fix_pkg_install(&f->os), tv.part[0], tv.part[1],
                     k->version.part[0]);
}

void gp_check_torch(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    check_torch_found(f, d, r);
    check_torch_build(f, d, r);
    check_torch_driver(f, d, r);
    check_torch_arch(f, d, r);
    check_ext_match(f, d, r);
}
