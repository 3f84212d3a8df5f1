/* checks_toolkit.c — the CUDA toolkit against the driver and the GPUs: which toolkit builds
 * use and its version, a $CUDA_HOME (or %CUDA_PATH%) that points at no toolkit, a toolkit newer
 * than the driver, a stale nvcc on PATH shadowing $CUDA_HOME, a GPU the toolkit cannot build for,
 * and another CUDA runtime earlier on LD_LIBRARY_PATH. */
#include <stdio.h>
#include <string.h>

#include "doctor/checks.h"
#include "doctor/cuda_tables.h"
#include "util/cuda_driver.h"
#include "doctor/parse.h"

static void check_toolkit_found(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_cuda_env *ce = &f->cuda;
    const gp_doctor_toolkit *t = d->toolkit;
    gp_check *c;
    if (!t) {
        c = gp_report_add(r, "toolkit", "toolkit", GP_CHECK_INFO);
        gp_check_observed(c,
                          "no CUDA toolkit (%s); PyTorch wheels bring their own CUDA runtime, "
                          "but compiling CUDA C needs a toolkit",
                          f->platform == GP_DOCTOR_WINDOWS
                              ? "no CUDA_PATH, nothing in Program Files\\NVIDIA GPU Computing "
                                "Toolkit"
                              : "no $CUDA_HOME, no nvcc on PATH, no /usr/local/cuda");
        if (d->jetson)
            gp_check_note(c, "on a Jetson the toolkit comes with JetPack: sudo apt-get install "
                             "nvidia-jetpack (CUDA, cuDNN, TensorRT)");
        gp_check_expected(c, "a toolkit no newer than the driver, to compile CUDA here");
        return;
    }
    c = gp_report_add(r, "toolkit", "toolkit", t->version_read ? GP_CHECK_PASS : GP_CHECK_WARN);
    char v[16];
    gp_fmt_version(&t->version, v, sizeof v);
    if (t->version_read)
        gp_check_observed(c, "CUDA %s at %s (found by %s; version from %s)%s", v, t->path,
                          t->found_by, t->version_from, t->has_nvcc ? "" : "; no bin/nvcc");
    else
        gp_check_observed(c, "a toolkit at %s (found by %s) whose version cannot be read: %s",
                          t->path, t->found_by, t->version_reason);
    if (ce->toolkit_count > 1) {
        char others[600] = "";
        size_t used = 0;
        for (int i = 1; i < ce->toolkit_count && used < sizeof others; i++) {
            char ov[16];
            gp_fmt_version(&ce->toolkits[i].version, ov, sizeof ov);
            int w = snprintf(others + used, sizeof others - used, "%s%s (%s)", i > 1 ? ", " : "",
                             ce->toolkits[i].path, ov);
            if (w < 0) break;
            used += (size_t)w;
        }
        gp_check_note(c, "also installed: %s", others);
    }
    gp_check_expected(c, "a toolkit with a readable version (version.json, version.txt or "
                         "include/cuda.h)");
    if (!t->version_read && f->platform == GP_DOCTOR_WINDOWS)
        gp_check_fix(c, "reinstall the toolkit with NVIDIA's CUDA installer for Windows, or point "
                        "CUDA_PATH at a complete one");
    else if (!t->version_read)
        gp_check_fix(c,
                     "reinstall the toolkit (%s cuda-toolkit from NVIDIA's repository) or point "
                     "CUDA_HOME at a complete one",
                     gp_fix_pkg_install(&f->os));
}

/* $CUDA_HOME (else $CUDA_PATH) set to a folder that holds no toolkit: builds that read it
 * (PyTorch's C++/CUDA extensions, CMake, Makefiles) fail, or doctor's toolkit is not theirs. */
static void check_cuda_home(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_cuda_env *ce = &f->cuda;
    if (!ce->cuda_home[0] || !ce->cuda_home_by[0]) return;
    for (int i = 0; i < ce->toolkit_count; i++)
        if (strcmp(ce->toolkits[i].found_by, ce->cuda_home_by) == 0) return; /* it holds one */
    const char *var = ce->cuda_home_by;
    gp_check *c = gp_report_add(r, "toolkit", "toolkit.cuda_home", GP_CHECK_FAIL);
    gp_check_observed(c,
                      "%s=%s points at no CUDA toolkit (no bin/nvcc, version.json or "
                      "version.txt there)%s",
                      var, ce->cuda_home, d->toolkit ? "" : "; no other toolkit was found either");
    gp_check_note(c,
                  "builds that read %s (PyTorch's C++/CUDA extensions, CMake, Makefiles) fail "
                  "with it or pick another toolkit than the one shown here",
                  var);
    gp_check_expected(c, "%s unset, or the folder of a CUDA toolkit (the one holding bin/nvcc)",
                      var);
    if (d->toolkit && f->platform == GP_DOCTOR_WINDOWS)
        gp_check_fix(c, "setx CUDA_PATH \"%s\" (the toolkit found), or remove the variable",
                     d->toolkit->path);
    else if (d->toolkit)
        gp_check_fix(c, "export %s=%s (the toolkit found), or unset %s", var, d->toolkit->path,
                     var);
    else
        gp_check_fix(c,
                     "unset %s, or install the CUDA toolkit (%s cuda-toolkit from NVIDIA's "
                     "repository) and point %s at it",
                     var, gp_fix_pkg_install(&f->os), var);
}

static void check_toolkit_driver(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_toolkit *t = d->toolkit;
    gp_check *c;
    if (!t || !t->version_read || !d->driver_cuda.n) {
        c = gp_report_add(r, "toolkit", "toolkit.driver", GP_CHECK_SKIP);
        gp_check_observed(c, !t || !t->version_read ? "no toolkit version to compare"
                                                    : "no NVIDIA driver to compare with");
        return;
    }
    char tv[16], dv[16];
    gp_fmt_version(&t->version, tv, sizeof tv);
    gp_fmt_version(&d->driver_cuda, dv, sizeof dv);
    gp_version tm = {{t->version.part[0], t->version.part[1]}, 2};
    int cmp = gp_version_cmp(&tm, &d->driver_cuda);
    const char *need = gp_cuda_min_driver_for(t->version.part[0], t->version.part[1]);
    if (cmp <= 0) {
        c = gp_report_add(r, "toolkit", "toolkit.driver", GP_CHECK_PASS);
        if (d->jetson && !d->driver[0]) {
            char rel[160];
            gp_fmt_jetson(f, d, rel, sizeof rel);
            gp_check_observed(c, "toolkit CUDA %s, %s runs CUDA <= %s", tv, rel, dv);
            gp_check_expected(c, "a toolkit no newer than the JetPack's CUDA");
            return;
        }
        gp_check_observed(c, "toolkit CUDA %s, driver %s runs CUDA <= %s", tv, d->driver, dv);
        if (f->platform == GP_DOCTOR_WINDOWS)
            gp_check_expected(c, "a driver whose nvidia-smi shows CUDA Version >= %d.%d",
                              t->version.part[0], t->version.part[1]);
        else
            gp_check_expected(c, "driver >= %s for CUDA %s", need ? need : "?", tv);
        return;
    }
    bool major = t->version.part[0] > d->driver_cuda.part[0];
    /* A newer minor still runs cubins (minor-version compatibility), but PTX it emits, and
     * NVRTC output, which is what gpuport's runtime loads, is refused by the older driver
     * (CUDA_ERROR_UNSUPPORTED_PTX_VERSION): for this tool that is a failure too. */
    c = gp_report_add(r, "toolkit", "toolkit.driver", GP_CHECK_FAIL);
    if (d->jetson) {
        char rel[160];
        gp_fmt_jetson(f, d, rel, sizeof rel);
        gp_check_observed(c, "toolkit CUDA %s is newer than the CUDA of %s", tv, rel);
        gp_check_expected(c, "CUDA <= %s, or NVIDIA's CUDA upgrade package for Jetson", dv);
        if (f->nv.tegra.l4t[0] < 35)
            gp_check_fix(c,
                         "JetPack 4 runs CUDA 10.2 only: use it (sudo apt-get install "
                         "nvidia-jetpack, CUDA_HOME=/usr/local/cuda-10.2); Nano, TX1 and TX2 stop "
                         "at JetPack 4.6.x, a Xavier or Orin can be reflashed with a newer "
                         "JetPack (SDK Manager)");
        else if (major && t->version.part[0] >= 13 && f->nv.tegra.l4t[0] < 38)
            gp_check_fix(c,
                         "CUDA 13 on a Jetson needs JetPack 7 (reflash with SDK Manager); on this "
                         "JetPack use CUDA %s (sudo apt-get install nvidia-jetpack) or a CUDA %d.x "
                         "with its upgrade package for Jetson",
                         dv, d->driver_cuda.part[0]);
        else
            gp_check_fix(c,
                         "install NVIDIA's CUDA upgrade package for Jetson with the toolkit: sudo "
                         "apt-get install cuda-compat-%d-%d (CUDA repository for Jetson) and put "
                         "/usr/local/cuda-%d.%d/compat first on LD_LIBRARY_PATH; or use the "
                         "JetPack's CUDA %s (sudo apt-get install nvidia-jetpack)",
                         t->version.part[0], t->version.part[1], t->version.part[0],
                         t->version.part[1], dv);
        return;
    }
    gp_check_observed(c, "toolkit CUDA %s is newer than driver %s (runs CUDA <= %s)%s", tv,
                      d->driver[0] ? d->driver : "", dv,
                      major
                          ? ": programs built with it fail with CUDA_ERROR_INSUFFICIENT_DRIVER (35)"
                          : ": cubins run under minor-version compatibility, but PTX and NVRTC "
                            "output from it fail with CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
    if (f->platform == GP_DOCTOR_WINDOWS)
        gp_check_expected(c, "a driver whose nvidia-smi shows CUDA Version >= %d.%d",
                          t->version.part[0], t->version.part[1]);
    else
        gp_check_expected(c, "driver >= %s for CUDA %s", need ? need : "(newer than this table)",
                          tv);
    char fix[400], family[300] = "";
    gp_fix_driver_for_cuda(f, t->version.part[0], t->version.part[1], fix, sizeof fix);
    if (f->platform == GP_DOCTOR_WINDOWS) {
        const char *win = NULL;
        if (major && gp_cuda_major_min_driver(t->version.part[0], NULL, &win) && win)
            snprintf(family, sizeof family,
                     " (any CUDA %d.x runs its cubins from driver %s on, under minor-version "
                     "compatibility; its PTX and NVRTC output need the full driver)",
                     t->version.part[0], win);
        gp_check_fix(c, "%s%s; or use a toolkit <= CUDA %s", fix, family, dv);
        return;
    }
    const char *lin = NULL, *win = NULL;
    if (major && gp_cuda_major_min_driver(t->version.part[0], &lin, &win))
        snprintf(family, sizeof family,
                 " (%s is the minimum for any CUDA %d.x under minor-version compatibility%s%s%s: "
                 "its cubins run there, its PTX and NVRTC output need %s)",
                 lin, t->version.part[0], win ? "; Windows " : "", win ? win : "",
                 win ? "" : "; Windows: an R580 driver", need ? need : "the full driver");
    gp_check_fix(c, "install NVIDIA driver >= %s for CUDA %s: %s%s; or use a toolkit <= CUDA %s",
                 need ? need : "?", tv, fix, family, dv);
}

static void check_nvcc_path(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_cuda_env *ce = &f->cuda;
    const gp_doctor_toolkit *t = d->toolkit;
    gp_check *c;
    if (!t) {
        c = gp_report_add(r, "toolkit", "nvcc.path", GP_CHECK_SKIP);
        gp_check_observed(c, "no toolkit");
        return;
    }
    if (!ce->nvcc_on_path[0]) {
        c = gp_report_add(r, "toolkit", "nvcc.path", t->has_nvcc ? GP_CHECK_WARN : GP_CHECK_INFO);
        gp_check_observed(c, "nvcc is not on PATH");
        gp_check_expected(c, "%s/bin on PATH", t->path);
        if (t->has_nvcc)
            gp_check_fix(c, "export PATH=%s/bin:\"$PATH\" (in ~/.bashrc or ~/.profile)", t->path);
        return;
    }
    if (ce->nvcc_toolkit == 0 || strcmp(ce->nvcc_root, t->path) == 0) {
        c = gp_report_add(r, "toolkit", "nvcc.path", GP_CHECK_PASS);
        gp_check_observed(c, "nvcc on PATH (%s) belongs to %s", ce->nvcc_on_path, t->path);
        gp_check_expected(c, "nvcc on PATH from the toolkit builds use");
        return;
    }
    char tv[16], nv[16] = "unknown";
    gp_fmt_version(&t->version, tv, sizeof tv);
    if (ce->nvcc_toolkit > 0)
        gp_fmt_version(&ce->toolkits[ce->nvcc_toolkit].version, nv, sizeof nv);
    c = gp_report_add(r, "toolkit", "nvcc.path", GP_CHECK_WARN);
    gp_check_observed(c,
                      "nvcc on PATH is %s (CUDA %s) but %s is %s (CUDA %s): make/CMake pick "
                      "the first, PyTorch extensions the second",
                      ce->nvcc_on_path, nv, ce->cuda_home[0] ? "$CUDA_HOME" : "the toolkit",
                      t->path, tv);
    gp_check_expected(c, "one toolkit: nvcc on PATH from %s", t->path);
    if (strcmp(ce->nvcc_root, "/usr") == 0)
        gp_check_fix(c,
                     "remove the distribution's old toolkit (%s) with `sudo apt-get remove "
                     "nvidia-cuda-toolkit`, or export PATH=%s/bin:\"$PATH\"",
                     ce->nvcc_on_path, t->path);
    else
        gp_check_fix(c, "export PATH=%s/bin:\"$PATH\" (or point CUDA_HOME at %s)", t->path,
                     ce->nvcc_root);
}

static void check_cc_toolkit(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_toolkit *t = d->toolkit;
    (void)f;
    int known = 0;
    for (int i = 0; i < d->gpu_count; i++)
        known += d->gpus[i].cc_major > 0;
    if (!t || !t->version_read || known == 0) {
        gp_check *c = gp_report_add(r, "toolkit", "cc.toolkit", GP_CHECK_SKIP);
        gp_check_observed(c, "%s",
                          !t                 ? "no toolkit"
                          : !t->version_read ? "no toolkit version"
                                             : "no GPU compute capability known");
        return;
    }
    int tk = t->version.part[0] * 10 + t->version.part[1];
    int min = gp_cuda_min_cc(t->version.part[0]);
    char tv[16];
    gp_fmt_version(&t->version, tv, sizeof tv);
    for (int i = 0; i < d->gpu_count; i++) {
        const gp_doctor_gpu *g = &d->gpus[i];
        int cc = g->cc_major * 10 + g->cc_minor;
        if (!g->cc_major) continue;
        if (cc < min) {
            gp_check *c = gp_report_add(r, "toolkit", "cc.toolkit", GP_CHECK_FAIL);
            gp_check_observed(c, "%s is CC %d.%d (%s); CUDA %s builds only for CC >= %d.%d",
                              g->name, g->cc_major, g->cc_minor, gp_cc_arch_name(cc), tv, min / 10,
                              min % 10);
            gp_check_expected(c, "a toolkit that supports every GPU here");
            gp_check_fix(c,
                         "use CUDA 12.x for this GPU (e.g. %s cuda-toolkit-12-9 and CUDA_HOME="
                         "/usr/local/cuda-12.9)",
                         gp_fix_pkg_install(&f->os));
            return;
        }
        int first = gp_cuda_first_toolkit_for_cc(cc);
        if (first > tk) {
            gp_check *c = gp_report_add(r, "toolkit", "cc.toolkit", GP_CHECK_WARN);
            gp_check_observed(c,
                              "%s is CC %d.%d (%s), newer than CUDA %s knows: nvcc cannot emit "
                              "sm_%d code; PTX for an older architecture JIT-compiles at start-up",
                              g->name, g->cc_major, g->cc_minor, gp_cc_arch_name(cc), tv, cc);
            gp_check_expected(c, "CUDA >= %d.%d for sm_%d", first / 10, first % 10, cc);
            gp_check_fix(
                c, "install CUDA >= %d.%d (%s cuda-toolkit-%d-%d) and point CUDA_HOME at it",
                first / 10, first % 10, gp_fix_pkg_install(&f->os), first / 10, first % 10);
            return;
        }
    }
    gp_check *c = gp_report_add(r, "toolkit", "cc.toolkit", GP_CHECK_PASS);
    gp_check_observed(c, "CUDA %s builds native code for every GPU here", tv);
    gp_check_expected(c, "a toolkit that supports every GPU here");
}

static void check_ldpath(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_cuda_env *ce = &f->cuda;
    const gp_doctor_toolkit *t = d->toolkit;
    if (!t) {
        gp_check *c = gp_report_add(r, "toolkit", "ldpath", GP_CHECK_SKIP);
        gp_check_observed(c, "no toolkit");
        return;
    }
    int want = t->version_read ? t->version.part[0] : 0;
    for (int i = 0; i < ce->ld_count && want; i++) {
        int m = ce->ld_cudart_major[i];
        if (m == want) break; /* the right runtime comes first */
        if (!m) continue;
        gp_check *c = gp_report_add(r, "toolkit", "ldpath", GP_CHECK_WARN);
        gp_check_observed(c,
                          "LD_LIBRARY_PATH lists %s (libcudart.so.%d) before the toolkit's "
                          "CUDA %d runtime",
                          ce->ld_dirs[i], m, want);
        gp_check_expected(c, "the toolkit's lib folder first, or no other CUDA runtime");
        gp_check_fix(c,
                     "export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} and "
                     "drop %s from it",
                     ce->toolkit_lib[0] ? ce->toolkit_lib : t->path, ce->ld_dirs[i]);
        return;
    }
    if (!ce->toolkit_lib[0]) {
        gp_check *c = gp_report_add(r, "toolkit", "ldpath", GP_CHECK_INFO);
        gp_check_observed(c, "the toolkit at %s has no libcudart.so in lib64/ or lib/", t->path);
        return;
    }
    if (!ce->cudart_known) {
        gp_check *c = gp_report_add(r, "toolkit", "ldpath", GP_CHECK_WARN);
        gp_check_observed(c,
                          "%s is neither on LD_LIBRARY_PATH nor in /etc/ld.so.conf.d: programs "
                          "linked with the shared CUDA runtime (-cudart shared, CMake's "
                          "CUDA::cudart) stop with \"libcudart.so.%d: cannot open shared object "
                          "file\"",
                          ce->toolkit_lib, want ? want : 0);
        gp_check_expected(c, "the toolkit's libraries known to the dynamic loader");
        gp_check_fix(c, "echo %s | sudo tee /etc/ld.so.conf.d/cuda.conf && sudo ldconfig",
                     ce->toolkit_lib);
        return;
    }
    gp_check *c = gp_report_add(r, "toolkit", "ldpath", GP_CHECK_PASS);
    gp_check_observed(c, "the loader finds %s through %s; no other CUDA runtime ahead of it",
                      ce->toolkit_lib, ce->cudart_via);
    gp_check_expected(c, "the toolkit's libraries known to the dynamic loader");
}

void gp_check_toolkit(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    if (f->platform == GP_DOCTOR_WINDOWS) { /* nvcc.path and ldpath are Linux's */
        check_toolkit_found(f, d, r);
        check_cuda_home(f, d, r);
        check_toolkit_driver(f, d, r);
        check_cc_toolkit(f, d, r);
        return;
    }
    check_toolkit_found(f, d, r);
    check_cuda_home(f, d, r);
    check_toolkit_driver(f, d, r);
    check_nvcc_path(f, d, r);
    check_cc_toolkit(f, d, r);
    check_ldpath(f, d, r);
}
