/* checks.h — the checks: pure functions from the facts to results in the report. Each group
 * lives in its own file (checks_system.c, checks_driver.c, checks_toolkit.c, checks_torch.c,
 * checks_macos.c, checks_opencl.c, checks_windows.c); gp_doctor_check_all() runs those that apply
 * to the facts' platform. Nothing here reads the machine. */
#ifndef GP_DOCTOR_CHECKS_H
#define GP_DOCTOR_CHECKS_H

#include "doctor/facts.h"
#include "doctor/jetson.h"
#include "doctor/report.h"

/* What several checks need, worked out once from the facts. */
typedef struct gp_derived {
    bool gpu;      /* evidence of an NVIDIA GPU (PCI, procfs, NVML, /dev, WSL, a Jetson's GPU) */
    int gpu_count; /* listed in gpus (at most GP_DOCTOR_MAX_GPUS) */
    int gpu_total; /* found, all of them */
    const gp_doctor_gpu *gpus; /* the best list: cuInit > NVML > /proc/driver/nvidia > PCI */
    /* that list, with the compute capability filled in from the GPU's identity (PCI id, name,
     * Tegra SoC) where the driver did not report it */
    gp_doctor_gpu list[GP_DOCTOR_MAX_GPUS];
    /* a Jetson: the L4T release's row (JetPack, CUDA) and the SoC */
    bool jetson;
    const gp_l4t_release *l4t;
    bool l4t_exact;
    const gp_tegra_soc *soc;
    char driver[32];                  /* "535.129.03" or "" */
    gp_version driver_cuda;           /* highest CUDA the driver supports; n == 0 unknown */
    const gp_doctor_toolkit *toolkit; /* the one builds use, or NULL */
    const gp_doctor_torch *torch;     /* the first PyTorch found, or NULL */
} gp_derived;

void gp_derive(const gp_doctor_facts *f, gp_derived *d);

void gp_check_system(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
void gp_check_driver(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
void gp_check_toolkit(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
void gp_check_torch(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
void gp_check_macos(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
void gp_check_opencl(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
/* driver.cuda: the highest CUDA the driver runs (checks_driver.c; Linux and Windows). */
void gp_check_driver_cuda(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
/* The kernel module against the user-space driver (checks_driver.c; also a Jetson's, from Thor on).
 */
void gp_check_mismatch(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
/* checks_jetson.c: the driver chain of a Jetson (in place of the PCI/kernel-module checks). */
void gp_check_jetson_driver(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
/* "L4T R36.4.3 (JetPack 6.2, CUDA 12.6)" */
void gp_fmt_jetson(const gp_doctor_facts *f, const gp_derived *d, char *out, size_t n);
/* checks_windows.c: the driver group of a Windows machine (win.driver, driver.cuda,
 * win.driver_model), Visual Studio's compiler for nvcc (msvc) and WSL's Linux side (wsl). */
void gp_check_windows_driver(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
void gp_check_msvc(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
void gp_check_wsl(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r);
/* The fix that installs a driver running CUDA major.minor, in this platform's terms. */
void gp_fix_driver_for_cuda(const gp_doctor_facts *f, int major, int minor, char *out, size_t n);
/* All of the above that apply, in report order. */
void gp_doctor_check_all(const gp_doctor_facts *f, gp_doctor_report *r);

/* Shared wording: the package manager's install command for this OS ("sudo apt-get install"),
 * the command that installs NVIDIA driver >= `min` here, and "12.4"-style formatting. */
const char *gp_fix_pkg_install(const gp_doctor_os *os);
void gp_fix_driver(const gp_doctor_os *os, const char *min, char *out, size_t n);
void gp_fmt_version(const gp_version *v, char *out, size_t n);
/* "80 GiB" */
void gp_fmt_bytes(uint64_t b, char *out, size_t n);

#endif
