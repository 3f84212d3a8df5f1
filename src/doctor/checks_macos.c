/* checks_macos.c — a Mac as a GPU development machine: Apple Silicon or Intel, Rosetta (this
 * process and the python3 on PATH), the macOS version MPS needs, the Metal device and its
 * memory budget, the PyTorch wheel's platform, PYTORCH_ENABLE_MPS_FALLBACK, and CUDA settings
 * that cannot work here. Plain C over the facts: tested on Linux by filling the struct. */
#include <stdio.h>
#include <string.h>

#include "doctor/checks.h"
#include "doctor/parse.h"

static void check_arch(const gp_doctor_facts *f, gp_doctor_report *r)
{
    gp_check *c = gp_report_add(r, "macos", "arch", GP_CHECK_INFO);
    gp_check_observed(c, "%s%s%s",
                      f->mac.apple_silicon ? "Apple Silicon (arm64)" : "Intel Mac (x86_64)",
                      f->cpu.model[0] ? ", " : "", f->cpu.model);
    gp_check_expected(c, "Apple Silicon for MPS and Metal compute");
}

static void check_rosetta(const gp_doctor_facts *f, gp_doctor_report *r)
{
    const gp_doctor_python *py = &f->py;
    gp_check *c;
    if (!f->mac.apple_silicon) {
        c = gp_report_add(r, "macos", "rosetta", GP_CHECK_SKIP);
        gp_check_observed(c, "an Intel Mac: no Rosetta");
        return;
    }
    if (f->mac.translated) {
        c = gp_report_add(r, "macos", "rosetta", GP_CHECK_FAIL);
        gp_check_observed(c, "this gpuport runs under Rosetta (an x86_64 build on Apple Silicon), "
                             "as does everything started from an x86_64 shell");
        gp_check_expected(c, "native arm64 processes");
        gp_check_fix(c,
                     "install the arm64 build (arm64 Homebrew lives in /opt/homebrew, the x86_64 "
                     "one in /usr/local); check the terminal is not set to \"Open using Rosetta\"");
        return;
    }
    if (py->found && py->has_x86_64 && !py->has_arm64) {
        c = gp_report_add(r, "macos", "rosetta", GP_CHECK_FAIL);
        gp_check_observed(c,
                          "python3 on PATH (%s) is x86_64 only: it runs under Rosetta, reports "
                          "macOS 10.16, and torch.backends.mps.is_available() is always False",
                          py->real);
        gp_check_expected(c, "an arm64 (or universal2) Python");
        gp_check_fix(
            c, "install an arm64 Python (brew install python@3.12 from /opt/homebrew, the "
               "python.org universal2 installer, or Miniforge for osx-arm64), put it first on "
               "PATH, and recreate the virtualenv");
        return;
    }
    c = gp_report_add(r, "macos", "rosetta", GP_CHECK_PASS);
    gp_check_observed(c, "native arm64 process%s%s%s", py->found ? "; python3 is " : "",
                      py->found ? py->arch : "",
                      py->found && py->has_x86_64 && py->has_arm64
                          ? " (runs as arm64 unless started with arch -x86_64)"
                          : "");
    gp_check_expected(c, "native arm64 processes");
}

static void check_macos_version(const gp_doctor_facts *f, gp_doctor_report *r)
{
    gp_version v;
    const char *pv = f->mac.product_version;
    if (!gp_version_find(pv, strlen(pv), &v)) {
        /* "15" alone is a valid product version */
        v.part[0] = 0;
        v.n = 0;
        if (pv[0] >= '1' && pv[0] <= '9') {
            v.part[0] = pv[0] - '0';
            if (pv[1] >= '0' && pv[1] <= '9') v.part[0] = v.part[0] * 10 + pv[1] - '0';
            v.part[1] = 0;
            v.n = 2;
        }
    }
    gp_version need_old = {{12, 3}, 2}, need_new = {{14, 0}, 2};
    gp_check_status st = !v.n                                ? GP_CHECK_WARN
                         : gp_version_cmp(&v, &need_old) < 0 ? GP_CHECK_FAIL
                         : gp_version_cmp(&v, &need_new) < 0 ? GP_CHECK_WARN
                                                             : GP_CHECK_PASS;
    gp_check *c = gp_report_add(r, "macos", "macos", st);
    if (!v.n)
        gp_check_observed(c, "the macOS version cannot be read (kern.osproductversion = '%s')", pv);
    else
        gp_check_observed(c, "macOS %s%s", pv,
                          st == GP_CHECK_FAIL   ? ": PyTorch MPS needs macOS 12.3 or newer"
                          : st == GP_CHECK_WARN ? ": current PyTorch builds want macOS 14 for MPS; "
                                                  "some ops are missing before it"
                                                : "");
    gp_check_expected(c, "macOS 14.0 or newer (12.3 at the very least) for MPS");
    if (st != GP_CHECK_PASS)
        gp_check_fix(c, "update macOS (System Settings > General > Software Update)");
}

static void check_metal(const gp_doctor_facts *f, gp_doctor_report *r)
{
    const gp_doctor_mac *m = &f->mac;
    if (!m->metal) {
        gp_check *c = gp_report_add(r, "macos", "metal", GP_CHECK_WARN);
        gp_check_observed(c, "no Metal device (MTLCreateSystemDefaultDevice returned nil)");
        gp_check_expected(c, "a Metal GPU");
        gp_check_fix(c,
                     "this happens in virtual machines and over some remote sessions: run on the "
                     "Mac itself; the CPU backend still works");
        gp_check *mc = gp_report_add(r, "macos", "memory", GP_CHECK_SKIP);
        gp_check_observed(mc, "no Metal device");
        return;
    }
    gp_check *c = gp_report_add(r, "macos", "metal", GP_CHECK_PASS);
    gp_check_observed(c, "%s%s%s", m->metal_name, m->metal_unified ? ", unified memory" : "", "");
    if (m->metal_family)
        gp_check_note(c, "GPU family Apple%d%s", m->metal_family,
                      m->metal_family >= 9   ? " (M3/M4 class)"
                      : m->metal_family == 8 ? " (M2 class)"
                      : m->metal_family == 7 ? " (M1 class)"
                                             : "");
    gp_check_expected(c, "a Metal GPU");
    gp_check *mc = gp_report_add(r, "macos", "memory", GP_CHECK_INFO);
    char ws[32] = "unknown", ram[32] = "unknown";
    if (m->metal_working_set) gp_fmt_bytes(m->metal_working_set, ws, sizeof ws);
    if (f->cpu.memory_bytes) gp_fmt_bytes(f->cpu.memory_bytes, ram, sizeof ram);
    gp_check_observed(mc,
                      "Metal may keep %s of the %s of memory resident (recommendedMaxWorking"
                      "SetSize); models and tensors beyond that page or fail",
                      ws, ram);
    gp_check_expected(mc, "the working set above the model's memory need");
}

static void check_torch_mps(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_torch *t = d->torch;
    if (!t || !t->parsed) {
        gp_check *c = gp_report_add(r, "macos", "torch.mps", t ? GP_CHECK_WARN : GP_CHECK_INFO);
        gp_check_observed(
            c, t ? "torch in %s, but its version cannot be read: %s" : "no PyTorch found%s%s",
            t ? t->site : "", t ? t->reason : "");
        if (t) gp_check_fix(c, "reinstall it: pip install --force-reinstall torch");
        return;
    }
    size_t pl = strlen(t->wheel_platform);
    bool x86 = pl >= 6 && strcmp(t->wheel_platform + pl - 6, "x86_64") == 0;
    gp_version v, min = {{1, 12}, 2};
    bool old = gp_version_find(t->version, strlen(t->version), &v) && gp_version_cmp(&v, &min) < 0;
    if (f->mac.apple_silicon && x86) {
        gp_check *c = gp_report_add(r, "macos", "torch.mps", GP_CHECK_FAIL);
        gp_check_observed(c, "torch %s in %s is an x86_64 wheel (%s): MPS is never available",
                          t->version, t->site, t->wheel_platform);
        gp_check_expected(c, "an arm64 wheel (macosx_*_arm64)");
        gp_check_fix(c, "from an arm64 python3: python3 -m pip install --force-reinstall torch");
        return;
    }
    if (old) {
        gp_check *c = gp_report_add(r, "macos", "torch.mps", GP_CHECK_FAIL);
        gp_check_observed(c, "torch %s predates MPS (1.12)", t->version);
        gp_check_expected(c, "torch >= 1.12 (current 2.x for full MPS coverage)");
        gp_check_fix(c, "python3 -m pip install --upgrade torch");
        return;
    }
    gp_check *c = gp_report_add(r, "macos", "torch.mps",
                                f->mac.apple_silicon ? GP_CHECK_PASS : GP_CHECK_INFO);
    gp_check_observed(c, "torch %s, wheel %s%s", t->version,
                      t->wheel_platform[0] ? t->wheel_platform : "(tag unknown)",
                      f->mac.apple_silicon ? ": MPS should be available (torch.device('mps'))"
                                           : ": on an Intel Mac MPS needs an AMD GPU");
    gp_check_expected(c, "an arm64 wheel >= 1.12");
}

static void check_fallback(const gp_doctor_facts *f, gp_doctor_report *r)
{
    const gp_doctor_python *py = &f->py;
    bool on = py->mps_fallback_set && strcmp(py->mps_fallback, "1") == 0;
    gp_check_status st = py->mps_fallback_set && !on ? GP_CHECK_WARN : GP_CHECK_INFO;
    gp_check *c = gp_report_add(r, "macos", "mps.fallback", st);
    if (!py->mps_fallback_set)
        gp_check_observed(c, "PYTORCH_ENABLE_MPS_FALLBACK is not set: an op MPS lacks raises "
                             "NotImplementedError (export PYTORCH_ENABLE_MPS_FALLBACK=1 before "
                             "starting Python runs it on the CPU instead)");
    else if (on)
        gp_check_observed(
            c, "PYTORCH_ENABLE_MPS_FALLBACK=1: ops MPS lacks run on the CPU, slowly "
               "and silently; setting it in os.environ after `import torch` has no effect");
    else
        gp_check_observed(c, "PYTORCH_ENABLE_MPS_FALLBACK=%s: only \"1\" turns the fallback on",
                          py->mps_fallback);
    gp_check_expected(c, "PYTORCH_ENABLE_MPS_FALLBACK=1 set before Python starts, when wanted");
    if (st == GP_CHECK_WARN)
        gp_check_fix(c,
                     "export PYTORCH_ENABLE_MPS_FALLBACK=1 (in the shell, before python starts)");
}

static void check_cuda_on_mac(const gp_doctor_facts *f, gp_doctor_report *r)
{
    const gp_doctor_cuda_env *ce = &f->cuda;
    char what[600] = "";
    size_t used = 0;
#define GP_ADD(...)                                                                                \
    do {                                                                                           \
        int w_ = snprintf(what + used, sizeof what - used, __VA_ARGS__);                           \
        if (w_ > 0 && (size_t)w_ < sizeof what - used) used += (size_t)w_;                         \
    } while (0)
    if (ce->cuda_home[0]) GP_ADD("%sCUDA_HOME/CUDA_PATH=%s", used ? "; " : "", ce->cuda_home);
    if (f->nv.visible_set) GP_ADD("%sCUDA_VISIBLE_DEVICES=%s", used ? "; " : "", f->nv.visible);
    if (ce->pip_cuda_index) GP_ADD("%s%s", used ? "; " : "", ce->pip_index);
#undef GP_ADD
    gp_check *c = gp_report_add(r, "macos", "cuda.on.mac", used ? GP_CHECK_WARN : GP_CHECK_PASS);
    gp_check_observed(c, used ? "%s: CUDA cannot run on a Mac" : "no CUDA settings", what);
    gp_check_expected(c, "no CUDA settings on a Mac: PyTorch uses 'mps', gpuport uses metal");
    if (used)
        gp_check_fix(c, "unset CUDA_HOME CUDA_PATH CUDA_VISIBLE_DEVICES PIP_INDEX_URL "
                        "PIP_EXTRA_INDEX_URL (the plain PyPI wheel is the Mac build); use "
                        "torch.device('mps') here and keep CUDA runs on a Linux GPU machine "
                        "(gpuport remote)");
}

void gp_check_macos(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    check_arch(f, r);
    check_rosetta(f, r);
    check_macos_version(f, r);
    check_metal(f, r);
    check_torch_mps(f, d, r);
    check_fallback(f, r);
    check_cuda_on_mac(f, r);
}
