/* checks_windows.c — the Windows checks: the NVIDIA driver (nvidia-smi, NVML or the registry),
 * each GPU's driver model (WDDM, TCC), Visual Studio's compiler that nvcc needs, and what WSL's
 * Linux side needs. The toolkit and PyTorch checks are the shared ones, in Windows' words. */
#include <stdio.h>
#include <string.h>

#include "doctor/checks.h"
#include "doctor/cuda_tables.h"
#include "util/cuda_driver.h"

#define GP_WIN_DRIVER_FIX                                                                          \
    "install the NVIDIA driver for Windows for this GPU (nvidia.com/drivers, or the NVIDIA app), " \
    "then reboot"

void gp_fix_driver_for_cuda(const gp_doctor_facts *f, int major, int minor, char *out, size_t n)
{
    const char *need = gp_cuda_min_driver_for(major, minor);
    if (f->platform != GP_DOCTOR_WINDOWS) {
        gp_fix_driver(&f->os, need, out, n);
        return;
    }
    /* Windows drivers are numbered apart from Linux's but come in the same branches */
    char branch[48] = "";
    if (need)
        snprintf(branch, sizeof branch, " (branch R%.*s or newer)", (int)strcspn(need, "."), need);
    snprintf(out, n,
             "install an NVIDIA driver for Windows that runs CUDA %d.%d%s, from nvidia.com/drivers "
             "or the NVIDIA app, then reboot; nvidia-smi then shows \"CUDA Version: %d.%d\" or "
             "higher",
             major, minor, branch, major, minor);
}

static void check_win_driver(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_win *w = &f->win;
    gp_check *c;
    if (!d->driver[0]) {
        c = gp_report_add(r, "driver", "win.driver", d->gpu ? GP_CHECK_FAIL : GP_CHECK_INFO);
        if (d->gpu) {
            gp_check_observed(c, "the registry lists the NVIDIA display adapter %s%s%s, but %s",
                              w->reg_adapter[0] ? w->reg_adapter : "(unnamed)",
                              w->driver_file_version[0] ? ", driver file version " : "",
                              w->driver_file_version, w->smi_reason);
            gp_check_fix(c, "%s", GP_WIN_DRIVER_FIX);
        } else {
            gp_check_observed(c, "no NVIDIA driver and no NVIDIA display adapter (%s)",
                              w->smi_reason);
        }
        gp_check_expected(c, "the NVIDIA driver for Windows, where there is an NVIDIA GPU");
        if (w->reg_reason[0]) gp_check_note(c, "registry not read: %s", w->reg_reason);
        return;
    }
    bool from_registry = strncmp(w->driver_from, "registry", 8) == 0;
    c = gp_report_add(r, "driver", "win.driver", from_registry ? GP_CHECK_WARN : GP_CHECK_PASS);
    gp_check_observed(c, "NVIDIA driver %s (from %s%s%s)", d->driver, w->driver_from,
                      from_registry ? ", DriverVersion " : "",
                      from_registry ? w->driver_file_version : "");
    if (from_registry) {
        gp_check_note(c, "%s", w->smi_reason);
        gp_check_fix(c, "nvidia-smi.exe (System32) comes with the driver and should answer: "
                        "reinstall the NVIDIA driver for Windows (nvidia.com/drivers, a clean "
                        "installation), then reboot");
    }
    gp_check_expected(c, "a driver that nvidia-smi reports");
    if (w->reg_reason[0]) gp_check_note(c, "registry not read: %s", w->reg_reason);
}

/* One GPU's driver model against what the card is for: TCC (compute only) suits datacenter
 * cards, WDDM (the display model) everything that draws, WSL 2 and DirectX. */
static void check_model(const gp_doctor_facts *f, const gp_derived *d, int i, gp_doctor_report *r)
{
    const gp_doctor_win *w = &f->win;
    const char *cur = w->model_current[i], *pend = w->model_pending[i];
    const char *name = d->gpus[i].name;
    gp_forward_compat kind = gp_gpu_forward_compat(name, 0);
    bool geforce = kind == GP_FC_NO || strcmp(w->brand[i], "GeForce") == 0;
    bool tcc = strcmp(cur, "TCC") == 0;
    gp_check *c;
    if (pend[0] && strcmp(pend, "N/A") != 0 && strcmp(pend, cur) != 0) {
        c = gp_report_add(r, "driver", "win.driver_model", GP_CHECK_WARN);
        gp_check_observed(c, "GPU %d (%s) runs %s; %s is pending", i, name, cur, pend);
        gp_check_expected(c, "the current and the pending driver model alike");
        gp_check_fix(c,
                     "reboot to switch GPU %d to %s (or `nvidia-smi -i %d -dm %d` as "
                     "administrator to cancel)",
                     i, pend, i, tcc ? 1 : 0);
        return;
    }
    if (tcc && (geforce || w->wsl2_distros > 0)) {
        c = gp_report_add(r, "driver", "win.driver_model", GP_CHECK_WARN);
        gp_check_observed(c,
                          "GPU %d (%s) is in TCC: compute only, it drives no display and WSL 2 "
                          "and DirectX do not see it%s",
                          i, name, w->wsl2_distros > 0 ? " (WSL 2 is installed here)" : "");
        gp_check_expected(c, "%s",
                          geforce ? "WDDM on a GeForce card" : "WDDM for a GPU WSL 2 uses");
        gp_check_fix(c, "`nvidia-smi -i %d -dm 0` as administrator (WDDM), then reboot", i);
        return;
    }
    if (!tcc && strcmp(cur, "WDDM") == 0 && kind == GP_FC_YES && w->wsl2_distros == 0) {
        c = gp_report_add(r, "driver", "win.driver_model", GP_CHECK_WARN);
        gp_check_observed(c,
                          "datacenter GPU %d (%s) runs the display model WDDM: kernels are batched "
                          "and stopped by the display timeout (TDR) after about 2 s",
                          i, name);
        gp_check_expected(c, "TCC on a datacenter GPU that drives no display");
        gp_check_fix(c,
                     "`nvidia-smi -i %d -dm 1` as administrator (TCC), then reboot; keep WDDM "
                     "only if WSL 2 or a display needs this GPU",
                     i);
        return;
    }
    c = gp_report_add(r, "driver", "win.driver_model", GP_CHECK_PASS);
    gp_check_observed(c, "GPU %d (%s): %s", i, name, cur);
    gp_check_expected(c, "WDDM on GPUs that draw or serve WSL 2, TCC on datacenter GPUs");
}

static void check_win_models(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    bool any = false;
    for (int i = 0; i < d->gpu_count; i++) {
        if (!f->win.model_current[i][0] || strcmp(f->win.model_current[i], "N/A") == 0) continue;
        check_model(f, d, i, r);
        any = true;
    }
    if (!any) {
        gp_check *c = gp_report_add(r, "driver", "win.driver_model", GP_CHECK_SKIP);
        gp_check_observed(c, d->gpu ? "nvidia-smi -q did not report the driver model"
                                    : "no NVIDIA GPU");
    }
}

void gp_check_windows_driver(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    check_win_driver(f, d, r);
    gp_check_driver_cuda(f, d, r);
    check_win_models(f, d, r);
}

void gp_check_msvc(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_win *w = &f->win;
    const gp_doctor_toolkit *t = d->toolkit;
    gp_check *c;
    if (w->cl_path[0]) {
        c = gp_report_add(r, "toolkit", "msvc", GP_CHECK_PASS);
        gp_check_observed(c, "cl.exe at %s (on PATH)%s%s", w->cl_path, w->vs_name[0] ? "; " : "",
                          w->vs_name);
        gp_check_expected(c, "MSVC's cl.exe on PATH: nvcc compiles the host code with it");
        return;
    }
    if (!t || !t->has_nvcc) {
        c = gp_report_add(r, "toolkit", "msvc", GP_CHECK_SKIP);
        gp_check_observed(c, "no nvcc here to need Visual Studio's compiler%s%s",
                          w->vs_name[0] ? "; found " : "", w->vs_name);
        return;
    }
    if (w->vs_path[0] && w->vs_has_cl) {
        c = gp_report_add(r, "toolkit", "msvc", GP_CHECK_WARN);
        gp_check_observed(c,
                          "%s %s at %s has the C++ compiler, but cl.exe is not on PATH: nvcc stops "
                          "with \"Cannot find compiler 'cl.exe' in PATH\"",
                          w->vs_name[0] ? w->vs_name : "Visual Studio", w->vs_version, w->vs_path);
        gp_check_expected(c, "cl.exe on PATH where nvcc runs");
        gp_check_fix(c,
                     "build in the \"x64 Native Tools Command Prompt\" of this Visual Studio, or "
                     "run \"%s\\VC\\Auxiliary\\Build\\vcvars64.bat\" first, or give nvcc "
                     "-ccbin with the folder of cl.exe",
                     w->vs_path);
        return;
    }
    c = gp_report_add(r, "toolkit", "msvc", GP_CHECK_FAIL);
    if (w->vs_path[0])
        gp_check_observed(c,
                          "%s at %s has no C++ compiler (no VC\\Tools\\MSVC\\*\\bin\\Hostx64\\x64\\"
                          "cl.exe): nvcc cannot compile here",
                          w->vs_name[0] ? w->vs_name : "Visual Studio", w->vs_path);
    else
        gp_check_observed(c, "no cl.exe on PATH and no Visual Studio (vswhere): nvcc on Windows "
                             "compiles host code only with MSVC, so it cannot compile here");
    gp_check_expected(c, "Visual Studio's C++ compiler (MSVC) for nvcc");
    gp_check_fix(c, "%s",
                 w->vs_path[0]
                     ? "Visual Studio Installer > Modify > add the \"Desktop development with "
                       "C++\" workload"
                     : "install Visual Studio 2022 (Community or Build Tools, e.g. winget install "
                       "Microsoft.VisualStudio.2022.BuildTools) with the \"Desktop development "
                       "with C++\" workload; the Visual Studio versions each CUDA release accepts "
                       "are in NVIDIA's CUDA Installation Guide for Windows");
}

void gp_check_wsl(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_win *w = &f->win;
    gp_check *c;
    if (!w->wsl) {
        c = gp_report_add(r, "system", "wsl", GP_CHECK_SKIP);
        gp_check_observed(c, "WSL is not installed");
        return;
    }
    if (w->wsl_distros == 0) {
        c = gp_report_add(r, "system", "wsl", GP_CHECK_INFO);
        gp_check_observed(c, "WSL is installed without a Linux distribution");
        gp_check_expected(c, "a WSL 2 distribution, to run Linux CUDA work here");
        return;
    }
    bool wsl1 = w->wsl2_distros < w->wsl_distros;
    c = gp_report_add(r, "system", "wsl", wsl1 ? GP_CHECK_WARN : GP_CHECK_INFO);
    gp_check_observed(c, "WSL distributions: %s", w->wsl_names);
    gp_check_note(c,
                  "CUDA in WSL 2 runs on this Windows driver%s: it provides libcuda.so in "
                  "/usr/lib/wsl/lib; install no Linux NVIDIA driver inside WSL; a toolkit comes "
                  "from NVIDIA's WSL-Ubuntu repository (cuda-toolkit-X-Y, never cuda or "
                  "cuda-drivers); `gpuport doctor` inside WSL checks that side",
                  d->driver[0] ? "" : " (install it first)");
    gp_check_expected(c, "WSL 2 distributions (WSL 1 has no GPU)");
    if (wsl1)
        gp_check_fix(c, "wsl --set-version <distribution> 2 for each WSL 1 distribution: only "
                        "WSL 2 has the GPU");
}
