/* checks_system.c — what the other checks share (the derived facts, the wording of fixes) and
 * the system group: the OS and the CPU. gp_doctor_check_all() is the one list of groups. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "doctor/checks.h"
#include "doctor/cuda_tables.h"
#include "doctor/gpu_identity.h"
#include "doctor/parse.h"
#include "doctor/sysroot.h"

void gp_fmt_version(const gp_version *v, char *out, size_t n)
{
    gp_version_format(v, false, out, n);
    if (!out[0]) gp_copy(out, n, "unknown");
}

void gp_fmt_bytes(uint64_t b, char *out, size_t n)
{
    double g = (double)b / (1024.0 * 1024.0 * 1024.0);
    if (g >= 10)
        snprintf(out, n, "%.0f GiB", g);
    else if (g >= 1)
        snprintf(out, n, "%.1f GiB", g);
    else
        snprintf(out, n, "%.0f MiB", (double)b / (1024.0 * 1024.0));
}

static bool os_is(const gp_doctor_os *os, const char *id)
{
    return strcmp(os->id, id) == 0 || strstr(os->id_like, id) != NULL;
}

const char *gp_fix_pkg_install(const gp_doctor_os *os)
{
    if (os_is(os, "fedora") || os_is(os, "rhel") || os_is(os, "centos")) return "sudo dnf install";
    if (os_is(os, "arch")) return "sudo pacman -S";
    if (os_is(os, "suse")) return "sudo zypper install";
    return "sudo apt-get install";
}

void gp_fix_driver(const gp_doctor_os *os, const char *min, char *out, size_t n)
{
    char branch[16] = "";
    if (min) snprintf(branch, sizeof branch, "%.*s", (int)strcspn(min, "."), min);
    if (strcmp(os->id, "ubuntu") == 0 || os_is(os, "ubuntu")) {
        if (min)
            snprintf(out, n,
                     "sudo apt-get install nvidia-driver-%s-server (or nvidia-driver-%s), "
                     "then reboot",
                     branch, branch);
        else
            snprintf(out, n, "sudo ubuntu-drivers install, then reboot");
    } else if (os_is(os, "debian")) {
        if (min)
            snprintf(out, n,
                     "Debian's nvidia-driver package if `apt-cache policy nvidia-driver` "
                     "shows >= %s, else NVIDIA's CUDA repository for Debian: sudo apt-get "
                     "install cuda-drivers-%s; then reboot",
                     min, branch);
        else
            snprintf(out, n,
                     "sudo apt-get install nvidia-driver firmware-misc-nonfree (the "
                     "non-free component must be enabled), then reboot");
    } else if (os_is(os, "fedora") || os_is(os, "rhel")) {
        snprintf(out, n,
                 "sudo dnf module install nvidia-driver:%s (NVIDIA's CUDA repository), "
                 "then reboot",
                 branch[0] ? branch : "latest-dkms");
    } else {
        snprintf(out, n,
                 "install NVIDIA driver >= %s (https://www.nvidia.com/Download/index.aspx)"
                 ", then reboot",
                 min ? min : "the one for this GPU");
    }
}

/* The PCI device of a listed GPU: by its bus address, else by position when the lists match. */
static const gp_doctor_pci_gpu *pci_of(const gp_doctor_nvidia *nv, const gp_doctor_gpu *g, int i,
                                       int n)
{
    for (int k = 0; k < nv->pci_count && g->bdf[0]; k++)
        if (strcasecmp(nv->pci[k].bdf, g->bdf) == 0) return &nv->pci[k];
    return nv->pci_count == n && i < nv->pci_count ? &nv->pci[i] : NULL;
}

/* The compute capability from the GPU's identity where no driver reported it. */
static void fill_cc(const gp_doctor_nvidia *nv, gp_doctor_gpu *g, int i, int n)
{
    if (g->cc_major > 0) return;
    const gp_doctor_pci_gpu *p = pci_of(nv, g, i, n);
    int cc = 0;
    const char *name = NULL;
    if (p) cc = gp_gpu_cc_for_pci(p->device, &name, g->cc_from, sizeof g->cc_from);
    if (!cc) cc = gp_gpu_cc_for_name(g->name, g->cc_from, sizeof g->cc_from);
    if (!cc) {
        g->cc_from[0] = '\0';
        return;
    }
    g->cc_major = cc / 10;
    g->cc_minor = cc % 10;
}

static void derive_jetson(const gp_doctor_facts *f, gp_derived *d)
{
    const gp_doctor_tegra *t = &f->nv.tegra;
    if (!t->found) return;
    d->jetson = true;
    if (t->release_read) d->l4t = gp_l4t_lookup(t->l4t, &d->l4t_exact);
    d->soc = gp_tegra_soc_by_number(t->soc);
    if (d->gpu_count > 0 || !d->soc) return;
    /* the integrated GPU is not on the PCI bus and, before Thor, NVML does not list it */
    gp_doctor_gpu *g = &d->list[0];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%.64s (integrated %.9s GPU)",
             t->model[0] ? t->model : d->soc->jetsons, d->soc->gpu_arch);
    g->cc_major = d->soc->cc / 10;
    g->cc_minor = d->soc->cc % 10;
    snprintf(g->cc_from, sizeof g->cc_from, "Tegra SoC (tegra%d, from %.30s)", d->soc->soc,
             t->soc_from);
    d->gpus = d->list;
    d->gpu_count = d->gpu_total = 1;
}

static void derive_gpus(const gp_doctor_facts *f, gp_derived *d)
{
    const gp_doctor_nvidia *nv = &f->nv;
    const gp_doctor_gpu *src = NULL;
    int n = 0;
    if (nv->deep && nv->cuda_gpu_count > 0)
        src = nv->cuda_gpus, n = nv->cuda_gpu_count;
    else if (nv->nvml_gpu_count > 0)
        src = nv->nvml_gpus, n = nv->nvml_gpu_count;
    else if (nv->proc_gpu_count > 0)
        src = nv->proc_gpus, n = nv->proc_gpu_count;
    if (src) {
        memcpy(d->list, src, (size_t)n * sizeof *src);
    } else if (nv->pci_count > 0) {
        n = nv->pci_count;
        for (int i = 0; i < n; i++) {
            gp_doctor_gpu *g = &d->list[i];
            const char *name = NULL;
            int cc = gp_gpu_cc_for_pci(nv->pci[i].device, &name, g->cc_from, sizeof g->cc_from);
            gp_copy(g->bdf, sizeof g->bdf, nv->pci[i].bdf);
            if (name)
                snprintf(g->name, sizeof g->name, "%s (10de:%04x at %.24s)", name,
                         nv->pci[i].device, nv->pci[i].bdf);
            else
                snprintf(g->name, sizeof g->name, "NVIDIA PCI device 10de:%04x at %.24s",
                         nv->pci[i].device, nv->pci[i].bdf);
            g->cc_major = cc / 10;
            g->cc_minor = cc % 10;
        }
    }
    for (int i = 0; i < n; i++)
        fill_cc(nv, &d->list[i], i, n);
    if (n > 0) d->gpus = d->list;
    d->gpu_count = n;
    int totals[] = {n, nv->pci_total, nv->proc_gpu_total, nv->nvml_gpu_total,
                    nv->deep ? nv->cuda_gpu_total : 0};
    for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++)
        if (totals[i] > d->gpu_total) d->gpu_total = totals[i];
    derive_jetson(f, d);
    const gp_doctor_tegra *t = &nv->tegra;
    bool tegra_gpu = t->found && (t->gpu_node || t->nvgpu_module || t->dev_gpu || d->soc);
    d->gpu = d->gpu_count > 0 || nv->dev_gpu_count > 0 ||
             (f->os.wsl && nv->dev_dxg && nv->wsl_lib) || tegra_gpu;
}

static void derive_driver(const gp_doctor_facts *f, gp_derived *d)
{
    const gp_doctor_nvidia *nv = &f->nv;
    if (nv->nvml_driver[0])
        gp_copy(d->driver, sizeof d->driver, nv->nvml_driver);
    else if (nv->kmod_parsed)
        gp_copy(d->driver, sizeof d->driver, nv->kmod_version);
    else {
        const char *s = strstr(nv->cuda_real, "libcuda.so.");
        gp_version v;
        if (s && gp_version_find(s + 11, strlen(s + 11), &v) && v.n >= 2 && v.part[0] >= 100)
            gp_version_format(&v, true, d->driver, sizeof d->driver);
    }
    int cuda = nv->nvml_cuda ? nv->nvml_cuda : nv->cuda_driver_version;
    if (cuda > 0) {
        d->driver_cuda = gp_version_from_cuda_int(cuda);
    } else if (d->l4t) { /* a Jetson's CUDA driver is L4T's */
        d->driver_cuda.part[0] = d->l4t->cuda / 10;
        d->driver_cuda.part[1] = d->l4t->cuda % 10;
        d->driver_cuda.n = 2;
    } else if (d->driver[0]) {
        gp_version v;
        if (gp_version_find(d->driver, strlen(d->driver), &v))
            d->driver_cuda = gp_cuda_for_driver(&v);
    }
}

/* Windows: the GPUs and the driver as nvidia-smi, NVML or the registry gave them. */
static void derive_windows(const gp_doctor_facts *f, gp_derived *d)
{
    const gp_doctor_win *w = &f->win;
    memcpy(d->list, w->gpus, (size_t)w->gpu_count * sizeof *w->gpus);
    d->gpu_count = w->gpu_count;
    d->gpu_total = w->gpu_total > w->gpu_count ? w->gpu_total : w->gpu_count;
    if (d->gpu_count > 0) d->gpus = d->list;
    d->gpu = d->gpu_count > 0 || w->reg_adapters > 0;
    gp_copy(d->driver, sizeof d->driver, w->driver);
    gp_version v;
    if (w->cuda > 0)
        d->driver_cuda = gp_version_from_cuda_int(w->cuda);
    else if (d->driver[0] && gp_version_find(d->driver, strlen(d->driver), &v))
        d->driver_cuda = gp_cuda_for_driver(&v); /* a release's Windows drivers share its branch */
}

void gp_derive(const gp_doctor_facts *f, gp_derived *d)
{
    memset(d, 0, sizeof *d);
    if (f->platform == GP_DOCTOR_WINDOWS) {
        derive_windows(f, d);
    } else {
        derive_gpus(f, d);
        derive_driver(f, d);
    }
    if (f->cuda.toolkit_count > 0) d->toolkit = &f->cuda.toolkits[0];
    if (f->py.torch_count > 0) d->torch = &f->py.torch[0];
}

static void check_os(const gp_doctor_facts *f, gp_doctor_report *r)
{
    const gp_doctor_os *os = &f->os;
    gp_check *c = gp_report_add(r, "system", "os", GP_CHECK_INFO);
    if (os->release_read)
        gp_check_observed(c, "%s%s%s", os->pretty[0] ? os->pretty : os->id,
                          os->kernel[0] ? ", kernel " : "", os->kernel);
    else
        gp_check_observed(c,
                          "the OS could not be identified (%s); fixes below assume "
                          "%s commands%s%s",
                          os->release_reason,
                          f->platform == GP_DOCTOR_WINDOWS ? "Windows" : "Debian/Ubuntu",
                          os->kernel[0] ? "; kernel " : "", os->kernel);
    if (os->wsl) gp_check_note(c, "WSL2 (the GPU belongs to the Windows driver)");
    if (os->container) gp_check_note(c, "in a container (%s)", os->container_why);
    gp_check_expected(c, "a Linux, macOS or Windows machine doctor knows how to fix");
}

static void check_cpu(const gp_doctor_facts *f, gp_doctor_report *r)
{
    const gp_doctor_cpu *cpu = &f->cpu;
    gp_check *c = gp_report_add(r, "system", "cpu", GP_CHECK_INFO);
    char mem[32] = "unknown";
    if (cpu->memory_bytes) gp_fmt_bytes(cpu->memory_bytes, mem, sizeof mem);
    char cores[32] = "core count unknown";
    if (cpu->logical > 0)
        snprintf(cores, sizeof cores, "%d logical core%s", cpu->logical,
                 cpu->logical == 1 ? "" : "s");
    gp_check_observed(c, "%s%s%s, %s, memory %s", cores, cpu->model[0] ? ", " : "", cpu->model,
                      cpu->arch[0] ? cpu->arch : "unknown arch", mem);
    if (cpu->arch[0] && cpu->arch_from[0] && strcmp(cpu->arch_from, "uname") != 0)
        gp_check_note(c, "architecture from %s", cpu->arch_from);
    if (cpu->performance > 0)
        gp_check_note(c,
                      "%d performance + %d efficiency cores: "
                      "torch.set_num_threads(%d) keeps CPU work off the efficiency cores",
                      cpu->performance, cpu->efficiency, cpu->performance);
    gp_check_expected(c, "at least one core (the CPU backend always works)");
}

void gp_check_system(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    (void)d;
    check_os(f, r);
    check_cpu(f, r);
}

void gp_doctor_check_all(const gp_doctor_facts *f, gp_doctor_report *r)
{
    gp_derived d;
    gp_derive(f, &d);
    gp_check_system(f, &d, r);
    if (f->platform == GP_DOCTOR_MACOS) {
        gp_check_macos(f, &d, r);
    } else if (f->platform == GP_DOCTOR_WINDOWS) {
        gp_check_wsl(f, &d, r);
        gp_check_windows_driver(f, &d, r);
        gp_check_toolkit(f, &d, r);
        gp_check_msvc(f, &d, r);
        gp_check_torch(f, &d, r);
        return; /* OpenCL.dll is not probed on Windows (gpuport devices lists its devices) */
    } else {
        gp_check_driver(f, &d, r);
        gp_check_toolkit(f, &d, r);
        gp_check_torch(f, &d, r);
    }
    gp_check_opencl(f, &d, r);
}
