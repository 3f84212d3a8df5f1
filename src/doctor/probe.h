/* probe.h — the one probe interface: gp_doctor_probe() fills gp_doctor_facts from the machine
 * (or the machine tree under a root). The platform part is probe_linux.c or probe_macos.c
 * (compiled only where it applies); the driver libraries, toolkit, Python and OpenCL probes are
 * shared. A Windows machine (or tree) is read by probe_windows.c alone. Probes record what they
 * could not read as reasons in the facts; they never fail. */
#ifndef GP_DOCTOR_PROBE_H
#define GP_DOCTOR_PROBE_H

#include "doctor/doctor.h"
#include "doctor/facts.h"
#include "doctor/sysroot.h"

typedef struct gp_probe_ctx {
    gp_sysroot sr;
    bool deep;
    char driver_path[2048]; /* colon-separated folders searched first for driver libraries */
} gp_probe_ctx;

/* Fills *f (zeroed first). False only when the options are unusable (root path too long). */
bool gp_doctor_probe(const gp_doctor_options *o, gp_doctor_facts *f);

/* The parts (each fills its own section of the facts). The platform part is the Linux probe
 * (procfs, sysfs, /dev: it only reads files, so it also reads machine trees on any host) or,
 * on the real root of a Mac, the macOS probe (sysctl and Metal, compiled only on Apple). */
void gp_probe_platform(const gp_probe_ctx *c, gp_doctor_facts *f);
void gp_probe_linux(const gp_probe_ctx *c, gp_doctor_facts *f);
#if defined(__APPLE__)
void gp_probe_macos(const gp_probe_ctx *c, gp_doctor_facts *f);
/* metal_device.m: the default Metal device's facts into f->mac. */
void gp_probe_metal(gp_doctor_facts *f);
#endif
/* probe_tegra.c: a Jetson's L4T release, SoC, GPU driver and libcuda (after the Linux probe). */
void gp_probe_tegra(const gp_probe_ctx *c, gp_doctor_facts *f);
void gp_probe_nvidia_libs(const gp_probe_ctx *c, gp_doctor_facts *f);
/* NVML from `soname` (libnvidia-ml.so.1; nvml.dll on Windows): the driver, its CUDA, the GPUs. */
void gp_probe_nvml(const gp_probe_ctx *c, gp_doctor_nvidia *nv, const char *soname);
/* probe_windows.c: a Windows machine (the live one, or a tree that holds Windows/System32): the
 * driver and GPUs (nvidia-smi, NVML, the registry), the toolkit, Visual Studio, PyTorch, WSL. */
bool gp_probe_is_windows(const gp_probe_ctx *c);
void gp_probe_windows(const gp_probe_ctx *c, gp_doctor_facts *f);
/* probe_python.c: the PyTorch in site-packages folder `site` (machine path), if any. */
void gp_probe_torch_site(const gp_probe_ctx *c, gp_doctor_python *py, const char *site,
                         const char *from);
void gp_probe_toolkit(const gp_probe_ctx *c, gp_doctor_facts *f);
void gp_probe_python(const gp_probe_ctx *c, gp_doctor_facts *f);
void gp_probe_opencl(const gp_probe_ctx *c, gp_doctor_facts *f);

/* dlopen()s `soname` from the driver path folders, then (on the real machine only) through
 * the normal search. NULL with lib->error set when not found. */
void *gp_probe_dlopen(const gp_probe_ctx *c, const char *soname, gp_doctor_lib *lib);

#endif
