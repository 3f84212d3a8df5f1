/* checks_driver.c — the NVIDIA driver chain on Linux, WSL2 and in containers, in the order a
 * CUDA call walks it: the GPU on the bus, the kernel module (and nouveau), the /dev nodes, the
 * user-space libraries (libcuda, NVML) and their agreement with the module, cuInit, the
 * visible devices, cuda-compat, NVSwitch, and the WSL and container layouts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/checks.h"
#include "doctor/cuda_tables.h"
#include "doctor/parse.h"
#include "doctor/sysroot.h"

#define SKIP_NO_GPU(c) gp_check_observed(c, "no NVIDIA GPU on this machine")

static void check_pci(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    if (f->os.wsl) {
        gp_check *c = gp_report_add(r, "driver", "pci.gpu", GP_CHECK_SKIP);
        gp_check_observed(c, "WSL2: the GPU is not on the PCI bus inside WSL%s",
                          nv->dev_dxg ? "; /dev/dxg stands for it" : "");
        return;
    }
    if (nv->pci_count == 0) {
        gp_check *c = gp_report_add(r, "driver", "pci.gpu", GP_CHECK_INFO);
        (void)d;
        gp_check_observed(c, "no NVIDIA display or 3D controller in /sys/bus/pci/devices");
        gp_check_expected(c, "an NVIDIA GPU (vendor 0x10de) to run CUDA here");
        return;
    }
    const gp_doctor_pci_gpu *bad = NULL;
    for (int i = 0; i < nv->pci_count; i++)
        if (strcmp(nv->pci[i].driver, "nouveau") == 0 || strcmp(nv->pci[i].driver, "vfio-pci") == 0)
            bad = &nv->pci[i];
    gp_check *c = gp_report_add(r, "driver", "pci.gpu", bad ? GP_CHECK_WARN : GP_CHECK_PASS);
    gp_check_observed(c, "%d NVIDIA GPU(s) on the PCI bus; %s bound to %s", nv->pci_total,
                      nv->pci[0].bdf, nv->pci[0].driver[0] ? nv->pci[0].driver : "no driver");
    if (nv->pci_total > nv->pci_count)
        gp_check_note(c, "only the first %d are listed and checked (the listing is cut)",
                      nv->pci_count);
    gp_check_expected(c, "every NVIDIA GPU bound to the nvidia driver");
    if (bad && strcmp(bad->driver, "vfio-pci") == 0) {
        gp_check_note(c, "%s is bound to vfio-pci (reserved for a virtual machine)", bad->bdf);
        gp_check_fix(c,
                     "release it for this machine: sudo driverctl unset-override %s (or remove "
                     "its id from vfio-pci.ids= on the kernel command line), then reboot",
                     bad->bdf);
    } else if (bad) {
        gp_check_note(c, "nouveau cannot run CUDA");
        gp_check_fix(c, "see the nouveau check");
    }
}

static void check_kmod(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    gp_check *c;
    if (f->os.wsl) {
        c = gp_report_add(r, "driver", "kmod", nv->kmod_present ? GP_CHECK_WARN : GP_CHECK_SKIP);
        gp_check_observed(c, nv->kmod_present ? "an NVIDIA kernel module is loaded inside WSL2"
                                              : "WSL2 uses the Windows driver (no Linux module)");
        gp_check_expected(c, "no Linux NVIDIA kernel module inside WSL2");
        if (nv->kmod_present) gp_check_fix(c, "see the wsl.driver check");
        return;
    }
    if (nv->kmod_present && !nv->kmod_parsed) {
        c = gp_report_add(r, "driver", "kmod", GP_CHECK_WARN);
        gp_check_observed(c, "the kernel module is loaded but its version cannot be read: %s",
                          nv->kmod_reason);
        gp_check_expected(c, "'NVRM version: NVIDIA UNIX ... Kernel Module N.N.N' in "
                             "/proc/driver/nvidia/version");
        gp_check_fix(c,
                     "reinstall the driver so that module and libraries match: %s nvidia-driver "
                     "(your distribution's package), then reboot",
                     gp_fix_pkg_install(&f->os));
        return;
    }
    if (nv->kmod_present) {
        c = gp_report_add(r, "driver", "kmod", GP_CHECK_PASS);
        gp_check_observed(c, "NVIDIA %s kernel module %s loaded",
                          nv->kmod_open ? "open" : "proprietary", nv->kmod_version);
        gp_check_expected(c, "the nvidia kernel module loaded");
        return;
    }
    if (nv->pci_count == 0) {
        c = gp_report_add(r, "driver", "kmod", GP_CHECK_SKIP);
        SKIP_NO_GPU(c);
        return;
    }
    c = gp_report_add(r, "driver", "kmod", GP_CHECK_FAIL);
    gp_check_observed(c, "an NVIDIA GPU is on the PCI bus but /proc/driver/nvidia/version does "
                         "not exist: the nvidia kernel module is not loaded");
    gp_check_expected(c, "the nvidia kernel module loaded");
    if (f->os.container) {
        gp_check_fix(c, "inside a container the module belongs to the host: install the driver "
                        "there (this container sees the host's /proc)");
    } else {
        char fix[512];
        gp_fix_driver(&f->os, NULL, fix, sizeof fix);
        gp_check_fix(c,
                     "sudo modprobe nvidia; if that fails (module not installed or not built "
                     "for kernel %s): %s",
                     f->os.kernel[0] ? f->os.kernel : "running", fix);
    }
}

static void check_nouveau(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    bool bound = false;
    for (int i = 0; i < nv->pci_count; i++)
        bound |= strcmp(nv->pci[i].driver, "nouveau") == 0;
    if (!nv->nouveau_loaded && !bound) {
        gp_check *c =
            gp_report_add(r, "driver", "nouveau", nv->pci_count ? GP_CHECK_PASS : GP_CHECK_SKIP);
        gp_check_observed(c, nv->pci_count ? "nouveau is not loaded"
                                           : "no NVIDIA GPU on this machine");
        gp_check_expected(c, "nouveau not loaded next to the NVIDIA driver");
        return;
    }
    if (nv->pci_count == 0) {
        gp_check *c = gp_report_add(r, "driver", "nouveau", GP_CHECK_INFO);
        gp_check_observed(c, "nouveau is loaded, but there is no NVIDIA GPU on the PCI bus");
        return;
    }
    (void)d;
    gp_check *c = gp_report_add(r, "driver", "nouveau", GP_CHECK_FAIL);
    gp_check_observed(c, "the open-source nouveau driver is %s: CUDA needs the NVIDIA driver",
                      bound ? "bound to the GPU" : "loaded");
    gp_check_expected(c, "nouveau blacklisted, the nvidia module bound to the GPU");
    bool dracut = strstr(f->os.id_like, "rhel") || strstr(f->os.id_like, "fedora") ||
                  strcmp(f->os.id, "fedora") == 0;
    gp_check_fix(c,
                 "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | sudo tee "
                 "/etc/modprobe.d/blacklist-nouveau.conf && %s && sudo reboot",
                 dracut ? "sudo dracut --force" : "sudo update-initramfs -u");
}

static void check_devnodes(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    gp_check *c;
    if (!d->gpu && nv->pci_count == 0) {
        c = gp_report_add(r, "driver", "devnodes", GP_CHECK_SKIP);
        SKIP_NO_GPU(c);
        return;
    }
    if (f->os.wsl) {
        c = gp_report_add(r, "driver", "devnodes", nv->dev_dxg ? GP_CHECK_PASS : GP_CHECK_FAIL);
        gp_check_observed(c, nv->dev_dxg ? "/dev/dxg present (the WSL2 GPU bridge)"
                                         : "/dev/dxg is missing: WSL2 has no GPU support");
        gp_check_expected(c, "/dev/dxg");
        if (!nv->dev_dxg)
            gp_check_fix(c,
                         "in Windows: install the current NVIDIA driver for Windows, run "
                         "`wsl --update` and `wsl --shutdown`, and use a WSL2 (not WSL1) distro");
        return;
    }
    if (nv->dev_access_denied) {
        c = gp_report_add(r, "driver", "devnodes", GP_CHECK_FAIL);
        gp_check_observed(c, "%s exists but this user may not open it", nv->dev_denied_path);
        gp_check_expected(c, "read-write access to /dev/nvidia*");
        gp_check_fix(c, "sudo usermod -aG video,render \"$USER\", then log out and back in");
        return;
    }
    bool missing = !nv->dev_ctl || nv->dev_gpu_count == 0;
    if (missing && f->os.container) {
        c = gp_report_add(r, "driver", "devnodes", GP_CHECK_WARN);
        gp_check_observed(c, "no /dev/nvidia* in this container: no GPU was passed in");
        gp_check_expected(c, "/dev/nvidiactl and /dev/nvidia0 (given by `docker run --gpus all`)");
        gp_check_fix(c, "start the container with `docker run --gpus all ...` (or `podman run "
                        "--device nvidia.com/gpu=all ...`); the host needs the NVIDIA Container "
                        "Toolkit: sudo nvidia-ctk runtime configure --runtime=docker && sudo "
                        "systemctl restart docker");
        return;
    }
    if (missing) {
        c = gp_report_add(r, "driver", "devnodes",
                          nv->kmod_present ? GP_CHECK_FAIL : GP_CHECK_SKIP);
        gp_check_observed(
            c, "%s%s", !nv->dev_ctl ? "/dev/nvidiactl is missing" : "",
            nv->dev_gpu_count == 0 ? (!nv->dev_ctl ? ", no /dev/nvidia0" : "no /dev/nvidia0") : "");
        gp_check_expected(c, "/dev/nvidiactl and one /dev/nvidiaN per GPU");
        if (nv->kmod_present)
            gp_check_fix(c, "sudo nvidia-modprobe -c=0 -u (creates the nodes); "
                            "or reboot");
        else
            gp_check_note(c, "the kernel module is not loaded (see kmod)");
        return;
    }
    c = gp_report_add(r, "driver", "devnodes", nv->dev_uvm ? GP_CHECK_PASS : GP_CHECK_WARN);
    gp_check_observed(c, "/dev/nvidiactl, %d /dev/nvidiaN%s", nv->dev_gpu_count,
                      nv->dev_uvm ? ", /dev/nvidia-uvm" : "; /dev/nvidia-uvm is missing");
    gp_check_expected(c, "/dev/nvidiactl, /dev/nvidiaN and /dev/nvidia-uvm (CUDA needs uvm)");
    if (!nv->dev_uvm) gp_check_fix(c, "sudo modprobe nvidia-uvm && sudo nvidia-modprobe -c=0 -u");
}

static void check_libcuda(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    gp_check *c;
    char where[GP_DOCTOR_PATH + 32];
    snprintf(where, sizeof where, "%s",
             nv->cuda.path[0]   ? nv->cuda.path
             : nv->cuda_real[0] ? nv->cuda_real
                                : "the default library search");
    if (nv->cuda.loaded && nv->cuda.missing[0]) {
        c = gp_report_add(r, "driver", "libcuda", GP_CHECK_WARN);
        gp_check_observed(c, "libcuda.so.1 (%s) loads but lacks %s: not a working CUDA driver",
                          where, nv->cuda.missing);
        gp_check_expected(c, "the CUDA driver API (cuInit, cuDriverGetVersion, ...)");
        gp_check_fix(
            c, "remove or replace that file with the one from the NVIDIA driver; `ldconfig -p "
               "| grep libcuda` lists the copies the loader knows");
        return;
    }
    if (!d->gpu) {
        c = gp_report_add(r, "driver", "libcuda", nv->cuda.loaded ? GP_CHECK_INFO : GP_CHECK_SKIP);
        if (nv->cuda.loaded)
            gp_check_observed(c, "libcuda.so.1 loads (%s) but there is no NVIDIA GPU", where);
        else
            gp_check_observed(c, "no NVIDIA GPU and no libcuda.so.1 (%s)", nv->cuda.error);
        return;
    }
    if (nv->cuda.loaded) {
        c = gp_report_add(r, "driver", "libcuda", GP_CHECK_PASS);
        char v[16];
        gp_version cv = gp_version_from_cuda_int(nv->cuda_driver_version);
        gp_fmt_version(&cv, v, sizeof v);
        gp_check_observed(c, "libcuda.so.1 loads (%s); driver API version %s", where, v);
        gp_check_expected(c, "libcuda.so.1 from the NVIDIA driver");
        return;
    }
    c = gp_report_add(r, "driver", "libcuda", GP_CHECK_FAIL);
    gp_check_observed(c, "an NVIDIA GPU is present but libcuda.so.1 cannot be loaded: %s",
                      nv->cuda.error);
    gp_check_expected(c, "libcuda.so.1 (the driver's user-space part) on the library path");
    char branch[16];
    snprintf(branch, sizeof branch, "%.*s", (int)strcspn(d->driver, "."), d->driver);
    if (f->os.container)
        gp_check_fix(c,
                     "start the container with `docker run --gpus all ...`: the NVIDIA Container "
                     "Toolkit mounts the host's libcuda.so.1 (sudo nvidia-ctk runtime configure "
                     "--runtime=docker on the host)");
    else if (f->os.wsl)
        gp_check_fix(c, "the Windows NVIDIA driver provides /usr/lib/wsl/lib/libcuda.so.1: update "
                        "it in Windows and run `wsl --shutdown`");
    else if (strcmp(f->os.id, "ubuntu") == 0)
        gp_check_fix(c,
                     "sudo apt-get install libnvidia-compute-%s (the same branch as the kernel "
                     "module)",
                     branch[0] ? branch : "<driver branch>");
    else if (strcmp(f->os.id, "debian") == 0)
        gp_check_fix(c, "sudo apt-get install libcuda1 (the same version as the kernel module%s%s)",
                     d->driver[0] ? " " : "", d->driver);
    else if (strcmp(f->os.id, "fedora") == 0)
        gp_check_fix(c,
                     "sudo dnf install xorg-x11-drv-nvidia-cuda-libs (RPM Fusion; the same "
                     "version as the kernel module%s%s)",
                     d->driver[0] ? " " : "", d->driver);
    else
        gp_check_fix(c,
                     "install the driver's CUDA user-space library (libcuda.so.1), the same "
                     "version as the kernel module%s%s",
                     d->driver[0] ? " " : "", d->driver);
}

void gp_check_mismatch(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    gp_check *c;
    char lib[32] = "";
    const char *s = strstr(nv->cuda_real, "libcuda.so.");
    gp_version lv;
    if (s && gp_version_find(s + 11, strlen(s + 11), &lv) && lv.part[0] >= 100)
        gp_version_format(&lv, true, lib, sizeof lib);
    bool rm_mismatch = nv->nvml_probed && nv->nvml_init_rc == 18;
    const char *user = nv->nvml_driver[0] ? nv->nvml_driver : lib;
    bool differ = nv->kmod_parsed && user[0] && strcmp(nv->kmod_version, user) != 0;
    if (!rm_mismatch && !differ) {
        if (nv->nvml.loaded && nv->nvml.missing[0]) {
            c = gp_report_add(r, "driver", "mismatch", GP_CHECK_WARN);
            gp_check_observed(c, "libnvidia-ml.so.1 (%s) lacks %s: the versions cannot be compared",
                              nv->nvml.path[0] ? nv->nvml.path : "default search",
                              nv->nvml.missing);
            gp_check_expected(c, "NVML from the NVIDIA driver");
            gp_check_fix(c,
                         "reinstall the driver's NVML package (%s libnvidia-compute-<branch> or "
                         "nvidia-utils)",
                         gp_fix_pkg_install(&f->os));
            return;
        }
        if (nv->nvml_probed && nv->nvml_init_rc != 0 && d->gpu) {
            c = gp_report_add(r, "driver", "mismatch", GP_CHECK_WARN);
            gp_check_observed(c, "NVML does not start: %s", nv->nvml_init_error);
            gp_check_expected(c, "nvmlInit_v2 succeeds");
            gp_check_fix(c, nv->nvml_init_rc == 9
                                ? "load the driver: sudo modprobe nvidia (see kmod)"
                                : "run nvidia-smi for the driver's own message; "
                                  "reinstalling the driver and rebooting clears "
                                  "most NVML start failures");
            return;
        }
        c = gp_report_add(r, "driver", "mismatch",
                          (nv->kmod_parsed && user[0]) ? GP_CHECK_PASS : GP_CHECK_SKIP);
        if (nv->kmod_parsed && user[0])
            gp_check_observed(c, "kernel module %s and user-space driver %s agree",
                              nv->kmod_version, user);
        else
            gp_check_observed(c, "nothing to compare (%s)",
                              d->gpu ? "the module or NVML version is unknown"
                                     : "no NVIDIA driver");
        gp_check_expected(c, "the same version in the kernel module and the libraries");
        return;
    }
    c = gp_report_add(r, "driver", "mismatch", GP_CHECK_FAIL);
    if (differ)
        gp_check_observed(c,
                          "the loaded kernel module is %s but the libraries are %s "
                          "(nvidia-smi says \"Driver/library version mismatch\")",
                          nv->kmod_version, user);
    else
        gp_check_observed(c, "NVML: %s: the kernel module and the libraries differ",
                          nv->nvml_init_error);
    gp_check_expected(c, "the same version in the kernel module and the libraries");
    gp_check_fix(c, "reboot (the driver was upgraded under the running module). To keep "
                    "unattended upgrades from doing it again: sudo apt-mark hold $(dpkg-query -W "
                    "-f='${Package}\\n' '*nvidia*' | grep -E 'driver|compute|utils|dkms')");
}

void gp_check_driver_cuda(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    (void)f;
    gp_check *c =
        gp_report_add(r, "driver", "driver.cuda", d->driver_cuda.n ? GP_CHECK_INFO : GP_CHECK_SKIP);
    if (!d->driver_cuda.n) {
        gp_check_observed(c, "no NVIDIA driver to ask");
        return;
    }
    char v[16];
    gp_fmt_version(&d->driver_cuda, v, sizeof v);
    gp_check_observed(c,
                      "driver %s runs CUDA %s and older; this is the \"CUDA Version\" nvidia-smi "
                      "shows, not the installed toolkit (see toolkit)",
                      d->driver[0] ? d->driver : "(version unknown)", v);
    gp_check_expected(c, "a driver at least as new as the toolkit and the PyTorch wheel");
}

static const char *cuinit_fix(int rc)
{
    switch (rc) {
    case 35:
        return "the driver is older than this CUDA library: upgrade the driver (see "
               "toolkit.driver)";
    case 100:
        return "no usable GPU: check CUDA_VISIBLE_DEVICES (visible) and the /dev nodes (devnodes)";
    case 802:
        return "an NVSwitch system needs the fabric manager: sudo systemctl enable --now "
               "nvidia-fabricmanager (same version as the driver)";
    case 803:
        return "the kernel module and the libraries differ: reboot (see mismatch)";
    case 804:
        return "a cuda-compat libcuda was loaded on a GPU that does not support forward "
               "compatibility: remove the compat folder from LD_LIBRARY_PATH (see compat.geforce)";
    case 999:
        return "check `sudo dmesg | grep -i -E 'nvrm|xid'` for the driver's own message; often a "
               "reboot";
    default:
        return "see the driver's message above; `nvidia-smi` often names the cause";
    }
}

static void check_cuinit(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    gp_check *c;
    if (!nv->deep) {
        c = gp_report_add(r, "driver", "cuinit", GP_CHECK_SKIP);
        gp_check_observed(c, nv->cuda.loaded ? "not run: cuInit starts the driver; use --deep"
                                             : "no libcuda.so.1 to start");
        return;
    }
    if (nv->cuinit_rc == 0) {
        c = gp_report_add(r, "driver", "cuinit", GP_CHECK_PASS);
        gp_check_observed(c, "cuInit(0) succeeded; %d CUDA device(s)", nv->cuda_gpu_count);
        gp_check_expected(c, "cuInit(0) == CUDA_SUCCESS");
        return;
    }
    /* 100 (no device) on a machine without a GPU is the expected answer. */
    c = gp_report_add(r, "driver", "cuinit",
                      d->gpu || nv->cuinit_rc != 100 ? GP_CHECK_FAIL : GP_CHECK_INFO);
    gp_check_observed(c, "cuInit(0) returned %d %s%s%s%s", nv->cuinit_rc,
                      nv->cuinit_name[0] ? nv->cuinit_name : "", nv->cuinit_text[0] ? " (" : "",
                      nv->cuinit_text, nv->cuinit_text[0] ? ")" : "");
    gp_check_expected(c, "cuInit(0) == CUDA_SUCCESS");
    if (c->status == GP_CHECK_FAIL) gp_check_fix(c, "%s", cuinit_fix(nv->cuinit_rc));
}

/* True when some GPU's UUID starts with the `l` bytes at `s` (CUDA accepts a prefix), or when
 * no UUID is known to compare with. */
static bool uuid_known(const gp_derived *d, const char *s, size_t l)
{
    bool any = false;
    for (int i = 0; i < d->gpu_count; i++) {
        if (!d->gpus[i].uuid[0]) continue;
        any = true;
        if (strncmp(d->gpus[i].uuid, s, l) == 0) return true;
    }
    return !any;
}

static void check_visible(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    gp_check *c;
    if (!nv->visible_set) {
        c = gp_report_add(r, "driver", "visible", d->gpu ? GP_CHECK_PASS : GP_CHECK_SKIP);
        gp_check_observed(c, "CUDA_VISIBLE_DEVICES is not set%s",
                          d->gpu ? ": every GPU is visible" : "");
        return;
    }
    const char *v = nv->visible;
    const char *problem = NULL;
    char buf[GP_DOCTOR_TEXT];
    if (!*v)
        problem = "is empty: it hides every GPU";
    else if (strcmp(v, "-1") == 0 || strcmp(v, "none") == 0)
        problem = "hides every GPU";
    else if (d->gpu_count > 0) {
        /* each entry: an index below the count, or a GPU-/MIG- UUID prefix */
        const char *s = v;
        while (*s && !problem) {
            size_t l = strcspn(s, ",");
            if (l > 0 && s[0] >= '0' && s[0] <= '9') {
                long idx = strtol(s, NULL, 10);
                if (idx >= d->gpu_count) {
                    snprintf(buf, sizeof buf,
                             "names device %ld but this machine has %d GPU(s): "
                             "CUDA ignores it and every entry after it",
                             idx, d->gpu_count);
                    problem = buf;
                }
            } else if (l > 4 && strncmp(s, "GPU-", 4) == 0 && !uuid_known(d, s, l)) {
                snprintf(buf, sizeof buf,
                         "names %.*s, which no GPU here has: CUDA ignores it "
                         "and every entry after it",
                         (int)(l > 60 ? 60 : l), s);
                problem = buf;
            }
            s += l;
            if (*s == ',') s++;
        }
    }
    c = gp_report_add(r, "driver", "visible", problem ? GP_CHECK_WARN : GP_CHECK_PASS);
    gp_check_observed(c, "CUDA_VISIBLE_DEVICES=%s%s%s", v, problem ? " " : "",
                      problem ? problem : "");
    gp_check_expected(c, "unset, or indices/UUIDs of GPUs that exist");
    if (problem)
        gp_check_fix(c, "unset CUDA_VISIBLE_DEVICES (or list existing GPUs: 0..%d)",
                     d->gpu_count > 0 ? d->gpu_count - 1 : 0);
}

static void check_inventory(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    (void)f;
    gp_check *c =
        gp_report_add(r, "driver", "inventory", d->gpu_count ? GP_CHECK_INFO : GP_CHECK_SKIP);
    if (!d->gpu_count) {
        gp_check_observed(c, "no NVIDIA GPU listed");
        return;
    }
    char out[700] = "";
    size_t used = 0;
    if (d->gpu_total > d->gpu_count)
        used = (size_t)snprintf(out, sizeof out,
                                "%d NVIDIA GPUs, the listing cut at the first %d: ", d->gpu_total,
                                d->gpu_count);
    for (int i = 0; i < d->gpu_count && used < sizeof out; i++) {
        const gp_doctor_gpu *g = &d->gpus[i];
        char mem[32] = "", cc[128] = "";
        if (g->memory_bytes) gp_fmt_bytes(g->memory_bytes, mem, sizeof mem);
        if (g->cc_major)
            snprintf(cc, sizeof cc, ", CC %d.%d (%s%s%s)", g->cc_major, g->cc_minor,
                     gp_cc_arch_name(g->cc_major * 10 + g->cc_minor), g->cc_from[0] ? "; " : "",
                     g->cc_from);
        int w = snprintf(out + used, sizeof out - used, "%s%d: %s%s%s%s", i ? "; " : "", i, g->name,
                         cc, mem[0] ? ", " : "", mem);
        if (w < 0) break;
        used += (size_t)w;
    }
    gp_check_observed(c, "%s", out);
}

static void check_compat(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    gp_check *c;
    if (!nv->compat_dir[0]) {
        c = gp_report_add(r, "driver", "compat.geforce", d->gpu ? GP_CHECK_PASS : GP_CHECK_SKIP);
        gp_check_observed(c, "no cuda-compat (forward compatibility) libcuda in use");
        return;
    }
    /* the weakest GPU decides: CUDA refuses to start when any visible GPU cannot */
    gp_forward_compat fc = d->jetson ? GP_FC_YES : GP_FC_UNKNOWN;
    const char *who = d->gpu_count ? d->gpus[0].name : "an unknown GPU";
    for (int i = 0; i < d->gpu_count && !d->jetson; i++) {
        gp_forward_compat g =
            gp_gpu_forward_compat(d->gpus[i].name, i < nv->pci_count ? nv->pci[i].class_code : 0);
        if (fc == GP_FC_UNKNOWN || g > fc) fc = g, who = d->gpus[i].name;
    }
    bool refused = nv->deep && nv->cuinit_rc == 804;
    gp_check_status st = refused || fc == GP_FC_NO ? GP_CHECK_FAIL
                         : fc == GP_FC_YES         ? GP_CHECK_PASS
                                                   : GP_CHECK_WARN;
    c = gp_report_add(r, "driver", "compat.geforce", st);
    gp_check_observed(
        c, "a cuda-compat libcuda (forward compatibility) from %s is in use (%s) on %s%s",
        nv->compat_dir, nv->compat_via[0] ? nv->compat_via : "library path", who,
        refused          ? "; cuInit returned 804"
        : fc == GP_FC_NO ? ": a consumer GPU, so the first CUDA call fails with error 804 "
                           "(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)"
        : fc == GP_FC_SELECTED
            ? ": a professional GPU; only NVIDIA's select NGC Server Ready RTX SKUs "
              "support forward compatibility (--deep shows whether cuInit accepts it)"
        : fc == GP_FC_UNKNOWN ? ": the GPU is unknown, so whether it may is too"
        : d->jetson           ? ": Jetson boards support forward compatibility"
                              : ": a data-centre GPU, which supports it");
    gp_check_expected(c, "forward compatibility only on NVIDIA data-centre GPUs, select NGC Server "
                         "Ready RTX SKUs and Jetson boards (elsewhere cuInit returns 804)");
    if (st == GP_CHECK_PASS) return;
    char where[2 * GP_DOCTOR_PATH + 200];
    if (strncmp(nv->compat_via, "/etc/ld.so.conf", 15) == 0)
        snprintf(where, sizeof where,
                 "remove the line %s from %s and run sudo ldconfig (in a container image: drop "
                 "that file and the cuda-compat package from the image)",
                 nv->compat_dir, nv->compat_via);
    else
        snprintf(where, sizeof where,
                 "remove %s from LD_LIBRARY_PATH (and from the image's ENV / the shell's profile)",
                 nv->compat_dir);
    char drv[300];
    gp_fix_driver(&f->os, NULL, drv, sizeof drv);
    gp_check_fix(c,
                 "%s; the package: sudo apt-get remove 'cuda-compat-*'. For a newer CUDA on this "
                 "GPU upgrade the driver itself: %s",
                 where, drv);
}

static void check_nvswitch(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    (void)d;
    if (!nv->dev_nvswitch) {
        gp_check *c = gp_report_add(r, "driver", "nvswitch", GP_CHECK_SKIP);
        gp_check_observed(c, "no NVSwitch");
        return;
    }
    bool down = nv->deep && nv->cuinit_rc == 802;
    gp_check *c = gp_report_add(r, "driver", "nvswitch", down ? GP_CHECK_FAIL : GP_CHECK_INFO);
    gp_check_observed(c, "NVSwitch present%s",
                      down ? "; cuInit returned 802 (system not ready)"
                           : "; the fabric manager must run (--deep checks)");
    gp_check_expected(c, "nvidia-fabricmanager running, the same version as the driver");
    if (down)
        gp_check_fix(
            c,
            "sudo apt-get install nvidia-fabricmanager-%.*s && sudo systemctl enable --now "
            "nvidia-fabricmanager",
            (int)strcspn(d->driver, "."), d->driver);
}

static void check_wsl(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    (void)d;
    if (!f->os.wsl) return;
    gp_check *c =
        gp_report_add(r, "driver", "wsl.driver",
                      nv->wsl_linux_driver || !nv->wsl_lib ? GP_CHECK_FAIL : GP_CHECK_PASS);
    if (nv->wsl_linux_driver) {
        gp_check_observed(c,
                          "a Linux NVIDIA driver is installed inside WSL2 (%s): it shadows the "
                          "Windows driver's libcuda",
                          nv->wsl_linux_driver_path);
        gp_check_fix(c, "sudo apt-get remove --purge '^nvidia-.*' '^libnvidia-.*' && sudo ldconfig "
                        "(inside WSL install only the CUDA toolkit: cuda-toolkit-12-x, never "
                        "cuda or cuda-drivers)");
    } else if (!nv->wsl_lib) {
        gp_check_observed(c, "/usr/lib/wsl/lib/libcuda.so.1 is missing");
        gp_check_fix(c, "install the NVIDIA driver in Windows (it provides /usr/lib/wsl/lib), then "
                        "`wsl --shutdown`");
    } else {
        gp_check_observed(c, "libcuda comes from the Windows driver (/usr/lib/wsl/lib)");
    }
    gp_check_expected(c, "only the Windows driver; no Linux driver packages inside WSL2");
    bool ld = nv->wsl_ldconf;
    c = gp_report_add(r, "driver", "wsl.ldpath", ld ? GP_CHECK_PASS : GP_CHECK_WARN);
    gp_check_observed(c, ld ? "/usr/lib/wsl/lib is in the loader's configuration"
                            : "/usr/lib/wsl/lib is not in /etc/ld.so.conf.d: programs may not find "
                              "libcuda.so.1");
    gp_check_expected(c, "/usr/lib/wsl/lib known to the dynamic loader");
    if (!ld)
        gp_check_fix(
            c, "echo /usr/lib/wsl/lib | sudo tee /etc/ld.so.conf.d/ld.wsl.conf && sudo ldconfig");
}

static void check_container(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_nvidia *nv = &f->nv;
    if (!f->os.container) {
        gp_check *c = gp_report_add(r, "driver", "container", GP_CHECK_SKIP);
        gp_check_observed(c, "not in a container");
        return;
    }
    bool passed = (nv->dev_ctl && nv->dev_gpu_count > 0) || (d->jetson && nv->tegra.dev_gpu);
    bool torch_cuda = d->torch && d->torch->cuda_build;
    bool wants = nv->container_expects_gpu || torch_cuda;
    gp_check *c = gp_report_add(r, "driver", "container",
                                passed  ? GP_CHECK_PASS
                                : wants ? GP_CHECK_WARN
                                        : GP_CHECK_INFO);
    if (passed) {
        gp_check_observed(c, "in a container (%s) with %d GPU(s) passed in", f->os.container_why,
                          nv->dev_gpu_count);
        return;
    }
    gp_check_observed(c, "in a container (%s) without %s%s", f->os.container_why,
                      d->jetson ? "the Jetson GPU's /dev nodes" : "/dev/nvidia*",
                      nv->container_expects_gpu
                          ? "; the image expects a GPU (NVIDIA_VISIBLE_DEVICES is set)"
                      : torch_cuda ? "; a CUDA build of PyTorch is installed"
                                   : "");
    gp_check_expected(c, "GPUs passed in when the work needs CUDA");
    if (wants && d->jetson)
        gp_check_fix(c, "docker run --runtime nvidia ... (on the Jetson: the NVIDIA Container "
                        "Toolkit of JetPack, sudo apt-get install nvidia-container)");
    else if (wants)
        gp_check_fix(
            c,
            "docker run --gpus all ... (the host needs the NVIDIA Container Toolkit: "
            "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker)");
}

void gp_check_driver(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    if (d->jetson) {
        gp_check_jetson_driver(f, d, r);
        check_cuinit(f, d, r);
        check_visible(f, d, r);
        check_inventory(f, d, r);
        check_compat(f, d, r);
        check_container(f, d, r);
        return;
    }
    check_pci(f, d, r);
    check_kmod(f, d, r);
    check_nouveau(f, d, r);
    check_devnodes(f, d, r);
    check_libcuda(f, d, r);
    gp_check_mismatch(f, d, r);
    gp_check_driver_cuda(f, d, r);
    check_cuinit(f, d, r);
    check_visible(f, d, r);
    check_inventory(f, d, r);
    check_compat(f, d, r);
    check_nvswitch(f, d, r);
    check_wsl(f, d, r);
    check_container(f, d, r);
}
