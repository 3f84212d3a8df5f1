/* probe_tegra.c — an NVIDIA Jetson, from its files: the L4T release (/etc/nv_tegra_release,
 * else the nvidia-l4t-core package), the module and SoC (/proc/device-tree/model and
 * compatible, /etc/nv_boot_control.conf), the integrated GPU's driver (the nvgpu module, the
 * GPU's platform device, /dev/nvhost-ctrl-gpu or /dev/nvgpu/igpu0) and L4T's libcuda. The first
 * look costs a few failed opens on any other machine; the rest runs only on a Jetson. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor/jetson.h"
#include "doctor/parse.h"
#include "doctor/probe.h"

#define GP_DPKG_STATUS_CAP (64u * 1024 * 1024)

static void note(gp_doctor_tegra *t, const char *what)
{
    t->found = true;
    if (!t->evidence[0]) gp_copy(t->evidence, sizeof t->evidence, what);
}

static void read_dt(const gp_probe_ctx *c, const char *name, char *out, size_t n)
{
    const char *dirs[] = {"/proc/device-tree", "/sys/firmware/devicetree/base"};
    for (size_t i = 0; i < 2 && !out[0]; i++) {
        char p[96], err[GP_DOCTOR_TEXT];
        size_t len;
        snprintf(p, sizeof p, "%s/%s", dirs[i], name);
        char *s = gp_sysroot_read(&c->sr, p, 4096, &len, err, sizeof err);
        if (s) gp_parse_dt_strings(s, len, out, n);
        free(s);
    }
}

static void probe_release(const gp_probe_ctx *c, gp_doctor_tegra *t)
{
    char err[GP_DOCTOR_TEXT];
    size_t len;
    char *s = gp_sysroot_read(&c->sr, "/etc/nv_tegra_release", 4096, &len, err, sizeof err);
    if (s) {
        note(t, "/etc/nv_tegra_release");
        t->release_read = gp_parse_nv_tegra_release(s, len, t->l4t, t->board, sizeof t->board);
        if (t->release_read)
            gp_copy(t->l4t_from, sizeof t->l4t_from, "/etc/nv_tegra_release");
        else
            gp_copy(t->release_reason, sizeof t->release_reason,
                    "/etc/nv_tegra_release has no '# R<major> (release), REVISION: <minor>' line");
        free(s);
    } else if (gp_sysroot_exists(&c->sr, "/etc/nv_tegra_release")) {
        note(t, "/etc/nv_tegra_release");
        gp_copy(t->release_reason, sizeof t->release_reason, err);
    }
    read_dt(c, "model", t->model, sizeof t->model);
    read_dt(c, "compatible", t->compatible, sizeof t->compatible);
    if (strstr(t->compatible, "nvidia,tegra") || strstr(t->model, "Jetson"))
        note(t, "/proc/device-tree (an NVIDIA Tegra SoC)");
    s = gp_sysroot_read(&c->sr, "/etc/nv_boot_control.conf", 16 * 1024, &len, err, sizeof err);
    if (s) {
        char id[32];
        note(t, "/etc/nv_boot_control.conf");
        if (gp_parse_keyed_line(s, len, "TEGRA_CHIPID", id, sizeof id))
            t->chip_id = (unsigned)strtoul(id, NULL, 16);
        free(s);
    }
    if (gp_sysroot_exists(&c->sr, "/var/lib/dpkg/info/nvidia-l4t-core.list"))
        note(t, "the nvidia-l4t-core package");
}

static void probe_packages(const gp_probe_ctx *c, gp_doctor_tegra *t)
{
    char err[GP_DOCTOR_TEXT];
    size_t len;
    char *s =
        gp_sysroot_read(&c->sr, "/var/lib/dpkg/status", GP_DPKG_STATUS_CAP, &len, err, sizeof err);
    if (!s) return;
    if (gp_parse_dpkg_field(s, len, "nvidia-l4t-core", "Version", t->l4t_core,
                            sizeof t->l4t_core)) {
        int v[3];
        if (!t->release_read && gp_parse_l4t_version(t->l4t_core, strlen(t->l4t_core), v)) {
            memcpy(t->l4t, v, sizeof v);
            t->release_read = true;
            snprintf(t->l4t_from, sizeof t->l4t_from, "nvidia-l4t-core %.40s", t->l4t_core);
        }
    }
    gp_parse_dpkg_field(s, len, "nvidia-jetpack", "Version", t->jetpack_pkg, sizeof t->jetpack_pkg);
    free(s);
}

static void probe_soc(gp_doctor_tegra *t)
{
    const gp_tegra_soc *soc = gp_tegra_soc_by_compatible(t->compatible);
    const char *from = "/proc/device-tree/compatible";
    if (!soc && t->chip_id) {
        soc = gp_tegra_soc_by_chip_id(t->chip_id);
        from = "TEGRA_CHIPID in /etc/nv_boot_control.conf";
    }
    if (!soc) {
        soc = gp_tegra_soc_by_model(t->model);
        from = "/proc/device-tree/model";
    }
    if (!soc && strcmp(t->board, "t210ref") == 0) {
        soc = gp_tegra_soc_by_number(210);
        from = "BOARD: t210ref in /etc/nv_tegra_release";
    }
    /* the GPU's platform device is named after the GPU: ga10b Orin, gv11b Xavier, gp10b TX2 */
    static const struct {
        const char *end;
        int soc;
    } nodes[] = {{".ga10b", 234}, {".gv11b", 194},       {".gp10b", 186},
                 {".gm20b", 210}, {"57000000.gpu", 210}, {".gb10b", 264}};
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0] && !soc && t->gpu_node; i++) {
        size_t l = strlen(t->gpu_node_path), el = strlen(nodes[i].end);
        if (l > el && strcmp(t->gpu_node_path + l - el, nodes[i].end) == 0) {
            soc = gp_tegra_soc_by_number(nodes[i].soc);
            from = "the GPU's platform device";
        }
    }
    /* L4T R36 (JetPack 6) runs on Orin only, R38 (JetPack 7.0/7.1) on Thor only */
    if (!soc && t->release_read && (t->l4t[0] == 36 || t->l4t[0] == 38)) {
        soc = gp_tegra_soc_by_number(t->l4t[0] == 36 ? 234 : 264);
        from = t->l4t[0] == 36 ? "L4T R36 (Orin only)" : "L4T R38 (Thor only)";
    }
    if (!soc) return;
    t->soc = soc->soc;
    gp_copy(t->soc_from, sizeof t->soc_from, from);
}

/* The GPU's platform device: 17000000.gpu (Orin, R36), 17000000.ga10b (Orin, R35), .gv11b
 * (Xavier), .gp10b (TX2), 57000000.gpu (Nano, TX1). */
static void probe_gpu_node(const gp_probe_ctx *c, gp_doctor_tegra *t)
{
    static const char *const dirs[] = {"/sys/devices/platform/bus@0", "/sys/devices/platform",
                                       "/sys/devices"};
    static const char *const ends[] = {".gpu", ".ga10b", ".gv11b", ".gp10b", ".gm20b", ".gb10b"};
    for (size_t i = 0; i < 3 && !t->gpu_node; i++) {
        DIR *d = gp_sysroot_opendir(&c->sr, dirs[i]);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d)) && !t->gpu_node) {
            size_t l = strlen(e->d_name);
            if (e->d_name[0] == '.' || l > 64) continue;
            for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
                size_t el = strlen(ends[k]);
                if (l > el && strcmp(e->d_name + l - el, ends[k]) == 0) {
                    t->gpu_node = true;
                    snprintf(t->gpu_node_path, sizeof t->gpu_node_path, "%s/%s", dirs[i],
                             e->d_name);
                    break;
                }
            }
        }
        closedir(d);
    }
    t->nvgpu_module = gp_sysroot_exists(&c->sr, "/sys/module/nvgpu");
}

static void probe_nodes_and_lib(const gp_probe_ctx *c, gp_doctor_tegra *t)
{
    static const char *const nodes[] = {"/dev/nvhost-ctrl-gpu", "/dev/nvgpu/igpu0/ctrl",
                                        "/dev/nvhost-gpu"};
    for (size_t i = 0; i < 3 && !t->dev_gpu; i++) {
        if (!gp_sysroot_exists(&c->sr, nodes[i])) continue;
        t->dev_gpu = true;
        gp_copy(t->dev_path, sizeof t->dev_path, nodes[i]);
        if (gp_sysroot_access(&c->sr, nodes[i], R_OK | W_OK) != 0 &&
            (errno == EACCES || errno == EPERM))
            t->dev_denied = true;
    }
    static const char *const libs[] = {"/usr/lib/aarch64-linux-gnu/nvidia/libcuda.so.1",
                                       "/usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1",
                                       "/usr/lib/aarch64-linux-gnu/tegra/libcuda.so",
                                       "/usr/lib/aarch64-linux-gnu/libcuda.so.1"};
    for (size_t i = 0; i < sizeof libs / sizeof libs[0] && !t->libcuda; i++) {
        if (!gp_sysroot_exists(&c->sr, libs[i])) continue;
        t->libcuda = true;
        gp_copy(t->libcuda_path, sizeof t->libcuda_path, libs[i]);
    }
}

void gp_probe_tegra(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    gp_doctor_tegra *t = &f->nv.tegra;
    probe_release(c, t);
    if (!t->found && strcmp(f->cpu.arch, "aarch64") == 0 && strstr(f->os.kernel, "tegra"))
        note(t, "a Tegra kernel (aarch64)");
    if (!t->found) return;
    probe_packages(c, t);
    probe_gpu_node(c, t);
    probe_soc(t);
    probe_nodes_and_lib(c, t);
}
