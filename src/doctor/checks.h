/* checks.h — the checks: pure functions from the facts to results in the report. Each group
 * lives in its own file (checks_system.c, checks_driver.c, checks_toolkit.c, checks_torch.c,
 * checks_macos.c, checks_opencl.c); gp_doctor_check_all() runs those that apply to the
 * facts' platform. Nothing here reads the machine. */
#ifndef GP_DOCTOR_CHECKS_H
#define GP_DOCTOR_CHECKS_H

#include "doctor/facts.h"
#include "doctor/report.h"

/* What several checks need, worked out once from the facts. */
typedef struct gp_derived {
    bool gpu; /* evidence of an NVIDIA GPU (PCI, procfs, NVML, /dev, WSL) */
    int gpu_count;
    const gp_doctor_gpu *gpus; /* the best list: cuInit > NVML > /proc/driver/nvidia */
    gp_doctor_gpu pci_named[GP_DOCTOR_MAX_GPUS]; /* names made from PCI ids when nothing else */
    char driver[32];                             /* "535.129.03" or "" */
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
