/* checks_jetson.c — the driver chain of an NVIDIA Jetson, in place of the PCI and kernel-module
 * checks of a discrete GPU: which Jetson, L4T release and JetPack; the integrated GPU's driver
 * (nvgpu; the NVIDIA open module from Thor on), its /dev nodes, L4T's libcuda and the CUDA it
 * runs. Every fix is Jetson's own (L4T packages, JetPack, SDK Manager), never a desktop driver. */
#include <stdio.h>
#include <string.h>

#include "doctor/checks.h"
#include "doctor/cuda_tables.h"
#include "doctor/parse.h"
#include "doctor/sysroot.h"

void gp_fmt_jetson(const gp_doctor_facts *f, const gp_derived *d, char *out, size_t n)
{
    const gp_doctor_tegra *t = &f->nv.tegra;
    if (!t->release_read) {
        snprintf(out, n, "L4T release unknown");
        return;
    }
    if (!d->l4t) {
        snprintf(out, n, "L4T R%d.%d.%d (a release doctor's table does not know)", t->l4t[0],
                 t->l4t[1], t->l4t[2]);
        return;
    }
    snprintf(out, n, "L4T R%d.%d.%d (JetPack %s%s, CUDA %d.%d)", t->l4t[0], t->l4t[1], t->l4t[2],
             d->l4t->jetpack, d->l4t_exact ? "" : " or a later update of it", d->l4t->cuda / 10,
             d->l4t->cuda % 10);
}

static bool openrm(const gp_doctor_facts *f)
{
    return f->nv.tegra.release_read && f->nv.tegra.l4t[0] >= 38;
}

static void check_identity(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_tegra *t = &f->nv.tegra;
    char rel[160];
    gp_fmt_jetson(f, d, rel, sizeof rel);
    gp_check_status st = !t->release_read ? GP_CHECK_WARN : GP_CHECK_INFO;
    gp_check *c = gp_report_add(r, "driver", "jetson", st);
    if (d->soc)
        gp_check_observed(c, "NVIDIA Jetson%s%s (tegra%d: %s, integrated %s GPU, CC %d.%d); %s%s%s",
                          t->model[0] ? ": " : "", t->model, d->soc->soc, d->soc->jetsons,
                          d->soc->gpu_arch, d->soc->cc / 10, d->soc->cc % 10, rel,
                          t->release_read ? " from " : "", t->l4t_from);
    else
        gp_check_observed(c, "NVIDIA Jetson (%s; the SoC is not named by the device tree); %s%s%s",
                          t->evidence, rel, t->release_read ? " from " : "", t->l4t_from);
    if (t->jetpack_pkg[0]) gp_check_note(c, "nvidia-jetpack %s installed", t->jetpack_pkg);
    if (d->l4t) gp_check_note(c, "this JetPack supports %s", d->l4t->modules);
    gp_check_expected(c, "a JetPack release with its L4T (Jetson Linux) and CUDA");
    if (st == GP_CHECK_WARN) {
        gp_check_note(c, "%s",
                      t->release_reason[0] ? t->release_reason
                                           : "no /etc/nv_tegra_release, no nvidia-l4t-core");
        gp_check_fix(c, "sudo apt-get install --reinstall nvidia-l4t-core (it writes "
                        "/etc/nv_tegra_release); if apt has no L4T repository, reflash the module "
                        "with JetPack (NVIDIA SDK Manager)");
    }
}

static void check_pci(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    (void)d;
    gp_check *c =
        gp_report_add(r, "driver", "pci.gpu", f->nv.pci_count ? GP_CHECK_INFO : GP_CHECK_SKIP);
    if (f->nv.pci_count)
        gp_check_observed(c, "%d NVIDIA GPU(s) on the PCI bus next to the Jetson's integrated GPU",
                          f->nv.pci_total);
    else
        gp_check_observed(c, "a Jetson: the GPU is part of the SoC, not on the PCI bus");
}

static void check_kmod(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_tegra *t = &f->nv.tegra;
    const gp_doctor_nvidia *nv = &f->nv;
    bool loaded = t->nvgpu_module || t->gpu_node || (openrm(f) && nv->kmod_present);
    gp_check *c = gp_report_add(r, "driver", "kmod", loaded ? GP_CHECK_PASS : GP_CHECK_FAIL);
    if (loaded && openrm(f) && nv->kmod_present)
        gp_check_observed(c, "NVIDIA %s kernel module %s loaded (L4T R%d drives the GPU with it)",
                          nv->kmod_open ? "open" : "proprietary",
                          nv->kmod_parsed ? nv->kmod_version : "(version unreadable)", t->l4t[0]);
    else if (loaded)
        gp_check_observed(c, "the Tegra GPU driver (nvgpu) is loaded:%s%s%s",
                          t->nvgpu_module ? " /sys/module/nvgpu" : "", t->gpu_node ? " " : "",
                          t->gpu_node_path);
    else
        gp_check_observed(c,
                          "no sign of the integrated GPU's driver: no /sys/module/nvgpu, no GPU "
                          "platform device under /sys/devices%s",
                          openrm(f) ? ", no /proc/driver/nvidia/version" : "");
    gp_check_expected(c, "the GPU driver of L4T loaded (nvgpu; the NVIDIA open module on Thor)");
    if (loaded) return;
    (void)d;
    if (f->os.container)
        gp_check_fix(c, "inside a container the driver belongs to the Jetson itself: start it "
                        "with docker run --runtime nvidia, and check the host with gpuport doctor");
    else if (openrm(f))
        gp_check_fix(c, "sudo modprobe nvidia; if that fails, reinstall L4T's kernel modules: sudo "
                        "apt-get install --reinstall nvidia-l4t-kernel-openrm && sudo reboot (a "
                        "desktop NVIDIA driver never belongs on a Jetson)");
    else
        gp_check_fix(c, "sudo modprobe nvgpu; if the module is missing, reinstall L4T's kernel "
                        "packages: sudo apt-get install --reinstall nvidia-l4t-kernel "
                        "nvidia-l4t-kernel-oot-modules && sudo reboot, or reflash with SDK "
                        "Manager (a desktop NVIDIA driver never belongs on a Jetson)");
}

static void check_nouveau(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    (void)d;
    gp_check *c =
        gp_report_add(r, "driver", "nouveau", f->nv.nouveau_loaded ? GP_CHECK_WARN : GP_CHECK_SKIP);
    if (!f->nv.nouveau_loaded) {
        gp_check_observed(c, "a Jetson: L4T drives the GPU with nvgpu");
        return;
    }
    gp_check_observed(c, "nouveau is loaded on a Jetson: CUDA needs L4T's nvgpu driver");
    gp_check_expected(c, "nouveau not loaded");
    gp_check_fix(c,
                 "printf 'blacklist nouveau\\n' | sudo tee /etc/modprobe.d/blacklist-nouveau.conf "
                 "&& sudo reboot");
}

static void check_devnodes(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_tegra *t = &f->nv.tegra;
    const gp_doctor_nvidia *nv = &f->nv;
    (void)d;
    bool orm = openrm(f) && nv->dev_ctl && nv->dev_gpu_count > 0;
    gp_check *c;
    if (t->dev_denied || (orm && nv->dev_access_denied)) {
        c = gp_report_add(r, "driver", "devnodes", GP_CHECK_FAIL);
        gp_check_observed(c, "%s exists but this user may not open it",
                          t->dev_denied ? t->dev_path : nv->dev_denied_path);
        gp_check_expected(c, "read-write access to the GPU's nodes (group video)");
        gp_check_fix(c, "sudo usermod -aG video \"$USER\", then log out and back in");
        return;
    }
    if (t->dev_gpu || orm) {
        c = gp_report_add(r, "driver", "devnodes", GP_CHECK_PASS);
        gp_check_observed(c, "%s present",
                          t->dev_gpu ? t->dev_path : "/dev/nvidiactl, /dev/nvidia0");
        gp_check_expected(c,
                          "the integrated GPU's nodes (/dev/nvhost-ctrl-gpu or /dev/nvgpu/igpu0)");
        return;
    }
    if (f->os.container) {
        c = gp_report_add(r, "driver", "devnodes", GP_CHECK_WARN);
        gp_check_observed(c, "no Jetson GPU nodes in this container: no GPU was passed in");
        gp_check_expected(c,
                          "/dev/nvhost-ctrl-gpu or /dev/nvgpu/igpu0 (given by --runtime nvidia)");
        gp_check_fix(c, "docker run --runtime nvidia ... (the NVIDIA Container Toolkit of JetPack "
                        "on the Jetson: sudo apt-get install nvidia-container)");
        return;
    }
    bool drv = t->nvgpu_module || t->gpu_node;
    c = gp_report_add(r, "driver", "devnodes", drv ? GP_CHECK_FAIL : GP_CHECK_SKIP);
    gp_check_observed(c, "no /dev/nvhost-ctrl-gpu, no /dev/nvgpu/igpu0/ctrl");
    gp_check_expected(c, "the integrated GPU's nodes, made by nvgpu");
    if (drv)
        gp_check_fix(c, "sudo reboot (nvgpu makes the nodes at start); if they stay missing, "
                        "reinstall L4T's kernel packages (see kmod)");
    else
        gp_check_note(c, "the GPU driver is not loaded (see kmod)");
}

static void check_libcuda(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_tegra *t = &f->nv.tegra;
    const gp_doctor_nvidia *nv = &f->nv;
    (void)d;
    gp_check *c;
    if (nv->cuda.loaded && nv->cuda.missing[0]) {
        c = gp_report_add(r, "driver", "libcuda", GP_CHECK_WARN);
        gp_check_observed(c, "libcuda.so.1 loads but lacks %s", nv->cuda.missing);
        gp_check_expected(c, "L4T's CUDA driver (nvidia-l4t-cuda)");
        gp_check_fix(c, "sudo apt-get install --reinstall nvidia-l4t-cuda");
        return;
    }
    if (nv->cuda.loaded || t->libcuda) {
        c = gp_report_add(r, "driver", "libcuda", GP_CHECK_PASS);
        gp_check_observed(c, "L4T's libcuda %s (%s)", nv->cuda.loaded ? "loads" : "is installed",
                          nv->cuda.loaded && nv->cuda.path[0] ? nv->cuda.path
                          : t->libcuda                        ? t->libcuda_path
                                                              : "the default library search");
        gp_check_expected(c, "libcuda.so.1 from L4T's nvidia-l4t-cuda package");
        return;
    }
    c = gp_report_add(r, "driver", "libcuda", GP_CHECK_FAIL);
    gp_check_observed(c, "no libcuda.so.1 in /usr/lib/aarch64-linux-gnu/nvidia or .../tegra: "
                         "L4T's CUDA driver is missing");
    gp_check_expected(c, "libcuda.so.1 from L4T's nvidia-l4t-cuda package");
    if (f->os.container)
        gp_check_fix(c, "docker run --runtime nvidia ... mounts L4T's libcuda into the container");
    else
        gp_check_fix(c, "sudo apt-get install nvidia-l4t-cuda (L4T's CUDA driver; with the "
                        "toolkit and libraries: sudo apt-get install nvidia-jetpack)");
}

static void check_driver_cuda(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    char rel[160], v[16];
    gp_fmt_jetson(f, d, rel, sizeof rel);
    gp_check *c =
        gp_report_add(r, "driver", "driver.cuda", d->driver_cuda.n ? GP_CHECK_INFO : GP_CHECK_SKIP);
    if (!d->driver_cuda.n) {
        gp_check_observed(c, "the CUDA of this Jetson is unknown (%s)", rel);
        return;
    }
    gp_fmt_version(&d->driver_cuda, v, sizeof v);
    gp_check_observed(c, "%s: L4T's CUDA driver runs CUDA %s and older%s", rel, v,
                      f->nv.tegra.l4t[0] >= 35
                          ? "; a newer CUDA of the same JetPack line through NVIDIA's CUDA upgrade "
                            "(cuda-compat) package for Jetson"
                          : "; JetPack 4 takes no newer CUDA");
    gp_check_expected(c, "a toolkit and PyTorch built for this JetPack's CUDA");
}

void gp_check_jetson_driver(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    check_identity(f, d, r);
    check_pci(f, d, r);
    check_kmod(f, d, r);
    check_nouveau(f, d, r);
    check_devnodes(f, d, r);
    check_libcuda(f, d, r);
    if (openrm(f)) {
        gp_check_mismatch(f, d, r);
    } else {
        gp_check *c = gp_report_add(r, "driver", "mismatch", GP_CHECK_SKIP);
        gp_check_observed(c, "a Jetson: kernel driver and libcuda both come with L4T");
    }
    check_driver_cuda(f, d, r);
}
