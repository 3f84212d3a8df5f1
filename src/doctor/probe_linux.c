/* probe_linux.c — the Linux facts (also WSL2 and containers): os-release, the kernel release,
 * the CPU, NVIDIA devices on the PCI bus, the kernel module, nouveau, /dev nodes and the WSL
 * driver layout. Only file reads under the root, so fixture trees emulate machines. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "doctor/parse.h"
#include "doctor/probe.h"
#include "util/sys.h"

#define GP_SMALL_FILE (64 * 1024)

static bool ci_contains(const char *s, const char *needle)
{
    size_t nl = strlen(needle);
    for (; *s; s++)
        if (strncasecmp(s, needle, nl) == 0) return true;
    return false;
}

static void probe_os(const gp_probe_ctx *c, gp_doctor_os *os)
{
    char err[GP_DOCTOR_TEXT];
    size_t len;
    char *t = gp_sysroot_read(&c->sr, "/etc/os-release", GP_SMALL_FILE, &len, err, sizeof err);
    if (!t) { /* the fallback location; the first error is the one worth reporting */
        char err2[GP_DOCTOR_TEXT];
        t = gp_sysroot_read(&c->sr, "/usr/lib/os-release", GP_SMALL_FILE, &len, err2, sizeof err2);
    }
    if (!t) {
        gp_copy(os->release_reason, sizeof os->release_reason, err);
    } else {
        os->release_read = gp_parse_os_release(t, len, os);
        if (!os->release_read)
            gp_copy(os->release_reason, sizeof os->release_reason,
                    "/etc/os-release has neither ID= nor NAME=");
        free(t);
    }
    t = gp_sysroot_read(&c->sr, "/proc/sys/kernel/osrelease", 4096, &len, err, sizeof err);
    if (t) {
        gp_copy_line(os->kernel, sizeof os->kernel, t);
        free(t);
    } else if (c->sr.host) {
        gp_uname u;
        if (gp_sys_uname(&u) == 0) gp_copy(os->kernel, sizeof os->kernel, u.release);
    }
    os->wsl = ci_contains(os->kernel, "microsoft") || ci_contains(os->kernel, "WSL");

    if (gp_sysroot_exists(&c->sr, "/.dockerenv")) {
        os->container = true;
        gp_copy(os->container_why, sizeof os->container_why, "/.dockerenv exists");
    } else if (gp_sysroot_exists(&c->sr, "/run/.containerenv")) {
        os->container = true;
        gp_copy(os->container_why, sizeof os->container_why, "/run/.containerenv exists");
    } else if ((t = gp_sysroot_read(&c->sr, "/proc/1/cgroup", GP_SMALL_FILE, &len, err,
                                    sizeof err))) {
        static const char *const kinds[] = {"docker", "kubepods", "containerd", "lxc", "podman"};
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && !os->container; i++) {
            if (strstr(t, kinds[i])) {
                os->container = true;
                snprintf(os->container_why, sizeof os->container_why, "/proc/1/cgroup names %s",
                         kinds[i]);
            }
        }
        free(t);
    }
}

/* The tree's architecture, never the host's: the ELF header of its programs, dpkg's own
 * architecture, the kernel's arch sysctl, the CPU fields of /proc/cpuinfo, the kernel release. */
static void tree_arch(const gp_probe_ctx *c, const char *cpuinfo, size_t cilen, const char *kernel,
                      gp_doctor_cpu *cpu)
{
    static const char *const progs[] = {
        "/bin/sh",    "/usr/bin/env",     "/bin/ls",       "/usr/bin/ls",
        "/sbin/init", "/usr/bin/python3", "/usr/bin/bash", "/usr/local/bin/python3"};
    char err[GP_DOCTOR_TEXT];
    size_t len;
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        char *t = gp_sysroot_read(&c->sr, progs[i], 64, &len, err, sizeof err);
        bool ok =
            t && gp_parse_elf_machine((const unsigned char *)t, len, cpu->arch, sizeof cpu->arch);
        free(t);
        if (ok) {
            snprintf(cpu->arch_from, sizeof cpu->arch_from, "the ELF header of %s", progs[i]);
            return;
        }
    }
    char *t = gp_sysroot_read(&c->sr, "/var/lib/dpkg/arch", 4096, &len, err, sizeof err);
    if (t) {
        char first[32];
        gp_copy_line(first, sizeof first, t);
        free(t);
        const char *u = gp_dpkg_arch_to_uname(first);
        if (u) {
            gp_copy(cpu->arch, sizeof cpu->arch, u);
            snprintf(cpu->arch_from, sizeof cpu->arch_from, "/var/lib/dpkg/arch (%s)", first);
            return;
        }
    }
    t = gp_sysroot_read(&c->sr, "/proc/sys/kernel/arch", 256, &len, err, sizeof err);
    if (t) {
        gp_copy_line(cpu->arch, sizeof cpu->arch, t);
        free(t);
        if (cpu->arch[0]) {
            gp_copy(cpu->arch_from, sizeof cpu->arch_from, "/proc/sys/kernel/arch");
            return;
        }
    }
    if (cpuinfo && gp_parse_cpuinfo_arch(cpuinfo, cilen, cpu->arch, sizeof cpu->arch)) {
        gp_copy(cpu->arch_from, sizeof cpu->arch_from, "/proc/cpuinfo");
        return;
    }
    static const char *const hints[][2] = {{"amd64", "x86_64"},  {"x86_64", "x86_64"},
                                           {"arm64", "aarch64"}, {"aarch64", "aarch64"},
                                           {"tegra", "aarch64"}, {"64k", "aarch64"}};
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++) {
        if (!strstr(kernel, hints[i][0])) continue;
        gp_copy(cpu->arch, sizeof cpu->arch, hints[i][1]);
        snprintf(cpu->arch_from, sizeof cpu->arch_from, "the kernel release (%.40s)", kernel);
        return;
    }
}

static void probe_cpu(const gp_probe_ctx *c, const gp_doctor_os *os, gp_doctor_cpu *cpu)
{
    char err[GP_DOCTOR_TEXT];
    size_t len;
    char *t =
        gp_sysroot_read(&c->sr, "/sys/devices/system/cpu/online", 4096, &len, err, sizeof err);
    if (t) {
        cpu->logical = gp_parse_cpu_list(t, len);
        free(t);
    }
    size_t cilen = 0;
    char *ci = gp_sysroot_read(&c->sr, "/proc/cpuinfo", 4 * 1024 * 1024, &cilen, err, sizeof err);
    if (ci) {
        if (!gp_parse_keyed_line(ci, cilen, "model name", cpu->model, sizeof cpu->model) &&
            !gp_parse_keyed_line(ci, cilen, "Model", cpu->model, sizeof cpu->model))
            gp_parse_keyed_line(ci, cilen, "Hardware", cpu->model, sizeof cpu->model);
        if (cpu->logical == 0) cpu->logical = gp_parse_cpuinfo_count(ci, cilen);
    }
    if (cpu->logical == 0 && (t = gp_sysroot_read(&c->sr, "/sys/devices/system/cpu/present", 4096,
                                                  &len, err, sizeof err))) {
        cpu->logical = gp_parse_cpu_list(t, len);
        free(t);
    }
    if (cpu->logical == 0) { /* the cpuN folders */
        DIR *d = gp_sysroot_opendir(&c->sr, "/sys/devices/system/cpu");
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (strncmp(e->d_name, "cpu", 3) == 0 && isdigit((unsigned char)e->d_name[3]))
                cpu->logical++;
        if (d) closedir(d);
    }
    if (cpu->logical == 0 && c->sr.host) cpu->logical = (int)sysconf(_SC_NPROCESSORS_ONLN);
    t = gp_sysroot_read(&c->sr, "/proc/meminfo", GP_SMALL_FILE, &len, err, sizeof err);
    if (t) {
        char kb[64];
        if (gp_parse_keyed_line(t, len, "MemTotal", kb, sizeof kb))
            cpu->memory_bytes = strtoull(kb, NULL, 10) * 1024ull;
        free(t);
    }
    if (c->sr.host) {
        gp_uname u;
        if (gp_sys_uname(&u) == 0) {
            gp_copy(cpu->arch, sizeof cpu->arch, u.machine);
            gp_copy(cpu->arch_from, sizeof cpu->arch_from, "uname");
        }
    } else {
        tree_arch(c, ci, cilen, os->kernel, cpu);
    }
    free(ci);
}

static unsigned read_hex_file(const gp_probe_ctx *c, const char *p)
{
    char err[GP_DOCTOR_TEXT];
    char *t = gp_sysroot_read(&c->sr, p, 64, NULL, err, sizeof err);
    if (!t) return 0;
    unsigned v = (unsigned)strtoul(t, NULL, 16);
    free(t);
    return v;
}

static void probe_pci(const gp_probe_ctx *c, gp_doctor_nvidia *nv)
{
    DIR *d = gp_sysroot_opendir(&c->sr, "/sys/bus/pci/devices");
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strlen(e->d_name) > 24) continue;
        char p[GP_DOCTOR_PATH];
        snprintf(p, sizeof p, "/sys/bus/pci/devices/%s/vendor", e->d_name);
        if (read_hex_file(c, p) != 0x10de) continue;
        snprintf(p, sizeof p, "/sys/bus/pci/devices/%s/class", e->d_name);
        unsigned cls = read_hex_file(c, p);
        if ((cls >> 16) != 0x03) continue; /* audio functions, NVSwitch bridges */
        /* every GPU is counted; the first GP_DOCTOR_MAX_GPUS are listed and checked */
        if (nv->pci_total++ >= GP_DOCTOR_MAX_GPUS) continue;
        gp_doctor_pci_gpu *g = &nv->pci[nv->pci_count++];
        gp_copy(g->bdf, sizeof g->bdf, e->d_name);
        g->class_code = cls;
        snprintf(p, sizeof p, "/sys/bus/pci/devices/%s/device", e->d_name);
        g->device = read_hex_file(c, p);
        snprintf(p, sizeof p, "/sys/bus/pci/devices/%s/driver", e->d_name);
        char target[GP_DOCTOR_PATH];
        if (gp_sysroot_readlink(&c->sr, p, target, sizeof target)) {
            const char *b = strrchr(target, '/');
            gp_copy(g->driver, sizeof g->driver, b ? b + 1 : target);
        }
    }
    closedir(d);
}

static void probe_kmod(const gp_probe_ctx *c, gp_doctor_nvidia *nv)
{
    char err[GP_DOCTOR_TEXT];
    size_t len;
    char *t = gp_sysroot_read(&c->sr, "/proc/driver/nvidia/version", GP_SMALL_FILE, &len, err,
                              sizeof err);
    if (t) {
        nv->kmod_present = true;
        nv->kmod_parsed = gp_parse_nvidia_version(t, len, nv->kmod_version, sizeof nv->kmod_version,
                                                  &nv->kmod_open);
        if (!nv->kmod_parsed)
            gp_copy(nv->kmod_reason, sizeof nv->kmod_reason,
                    "/proc/driver/nvidia/version has no 'NVRM version: ... Kernel Module N.N' "
                    "line");
        free(t);
    } else if (gp_sysroot_exists(&c->sr, "/proc/driver/nvidia/version")) {
        nv->kmod_present = true;
        gp_copy(nv->kmod_reason, sizeof nv->kmod_reason, err);
    }
    nv->nouveau_loaded = gp_sysroot_exists(&c->sr, "/sys/module/nouveau");

    DIR *d = gp_sysroot_opendir(&c->sr, "/proc/driver/nvidia/gpus");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.' || strlen(e->d_name) > 24) continue;
            if (nv->proc_gpu_total++ >= GP_DOCTOR_MAX_GPUS) continue;
            char p[GP_DOCTOR_PATH];
            snprintf(p, sizeof p, "/proc/driver/nvidia/gpus/%s/information", e->d_name);
            t = gp_sysroot_read(&c->sr, p, GP_SMALL_FILE, &len, err, sizeof err);
            gp_doctor_gpu *g = &nv->proc_gpus[nv->proc_gpu_count++];
            if (!t || !gp_parse_gpu_information(t, len, g))
                snprintf(g->name, sizeof g->name, "NVIDIA GPU at %.24s", e->d_name);
            gp_copy(g->bdf, sizeof g->bdf, e->d_name);
            free(t);
        }
        closedir(d);
    }
}

static void probe_dev(const gp_probe_ctx *c, gp_doctor_nvidia *nv)
{
    nv->dev_ctl = gp_sysroot_exists(&c->sr, "/dev/nvidiactl");
    nv->dev_uvm = gp_sysroot_exists(&c->sr, "/dev/nvidia-uvm");
    nv->dev_dxg = gp_sysroot_exists(&c->sr, "/dev/dxg");
    nv->dev_nvswitch = gp_sysroot_exists(&c->sr, "/dev/nvidia-nvswitchctl");
    DIR *d = gp_sysroot_opendir(&c->sr, "/dev");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strncmp(e->d_name, "nvidia", 6) != 0 || !isdigit((unsigned char)e->d_name[6]))
                continue;
            bool digits = true;
            for (const char *s = e->d_name + 6; *s; s++)
                digits &= isdigit((unsigned char)*s) != 0;
            if (digits) nv->dev_gpu_count++;
        }
        closedir(d);
    }
    const char *nodes[] = {"/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia-uvm"};
    for (size_t i = 0; i < 3; i++) {
        if (!gp_sysroot_exists(&c->sr, nodes[i])) continue;
        if (gp_sysroot_access(&c->sr, nodes[i], R_OK | W_OK) != 0 &&
            (errno == EACCES || errno == EPERM)) {
            nv->dev_access_denied = true;
            gp_copy(nv->dev_denied_path, sizeof nv->dev_denied_path, nodes[i]);
            break;
        }
    }
}

static void probe_wsl(const gp_probe_ctx *c, gp_doctor_nvidia *nv)
{
    nv->wsl_lib = gp_sysroot_exists(&c->sr, "/usr/lib/wsl/lib/libcuda.so.1");
    static const char *const linux_libs[] = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1",
                                             "/usr/lib64/libcuda.so.1",
                                             "/usr/lib/aarch64-linux-gnu/libcuda.so.1"};
    for (size_t i = 0; i < 3; i++) {
        char real[GP_DOCTOR_PATH];
        if (!gp_sysroot_exists(&c->sr, linux_libs[i])) continue;
        if (gp_sysroot_resolve(&c->sr, linux_libs[i], real, sizeof real) &&
            strncmp(real, "/usr/lib/wsl/", 13) == 0)
            continue;
        nv->wsl_linux_driver = true;
        gp_copy(nv->wsl_linux_driver_path, sizeof nv->wsl_linux_driver_path, linux_libs[i]);
        break;
    }
    DIR *d = gp_sysroot_opendir(&c->sr, "/etc/ld.so.conf.d");
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && !nv->wsl_ldconf) {
        if (e->d_name[0] == '.' || strlen(e->d_name) > 128) continue;
        char p[GP_DOCTOR_PATH], err[GP_DOCTOR_TEXT];
        snprintf(p, sizeof p, "/etc/ld.so.conf.d/%s", e->d_name);
        char *t = gp_sysroot_read(&c->sr, p, GP_SMALL_FILE, NULL, err, sizeof err);
        if (t && strstr(t, "/usr/lib/wsl/lib")) nv->wsl_ldconf = true;
        free(t);
    }
    closedir(d);
}

void gp_probe_linux(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    f->platform = GP_DOCTOR_LINUX;
    probe_os(c, &f->os);
    probe_cpu(c, &f->os, &f->cpu);
    probe_pci(c, &f->nv);
    probe_kmod(c, &f->nv);
    probe_dev(c, &f->nv);
    gp_probe_tegra(c, f);
    if (f->os.wsl) probe_wsl(c, &f->nv);
    const char *v = getenv("CUDA_VISIBLE_DEVICES");
    if (v) {
        f->nv.visible_set = true;
        gp_copy(f->nv.visible, sizeof f->nv.visible, v);
    }
    v = getenv("NVIDIA_VISIBLE_DEVICES");
    f->nv.container_expects_gpu =
        f->os.container && v && *v && strcmp(v, "void") != 0 && strcmp(v, "none") != 0;
}
