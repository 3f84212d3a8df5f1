/* probe_macos.c — the macOS facts: the OS version, Apple Silicon or Intel, Rosetta, the CPU's
 * performance and efficiency cores, memory (sysctl), and the Metal device (metal_device.m).
 * Compiled only on Apple platforms; the checks that judge these facts are plain C and are
 * tested on Linux by filling the struct. */
#if defined(__APPLE__)
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <sys/sysctl.h>

#include "doctor/probe.h"

static int sysctl_int(const char *name, int fallback)
{
    int v = 0;
    size_t len = sizeof v;
    return sysctlbyname(name, &v, &len, NULL, 0) == 0 ? v : fallback;
}

static void sysctl_str(const char *name, char *out, size_t n)
{
    size_t len = n;
    if (sysctlbyname(name, out, &len, NULL, 0) != 0) out[0] = '\0';
    out[n - 1] = '\0';
}

void gp_probe_macos(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    (void)c;
    f->platform = GP_DOCTOR_MACOS;
    gp_doctor_mac *m = &f->mac;
    sysctl_str("kern.osproductversion", m->product_version, sizeof m->product_version);
    snprintf(f->os.pretty, sizeof f->os.pretty, "macOS %s", m->product_version);
    gp_copy(f->os.id, sizeof f->os.id, "macos");
    gp_copy(f->os.version_id, sizeof f->os.version_id, m->product_version);
    f->os.release_read = m->product_version[0] != '\0';
    sysctl_str("kern.osrelease", f->os.kernel, sizeof f->os.kernel);
    m->apple_silicon = sysctl_int("hw.optional.arm64", 0) == 1;
    m->translated = sysctl_int("sysctl.proc_translated", 0) == 1; /* ENOENT: native */
    sysctl_str("machdep.cpu.brand_string", f->cpu.model, sizeof f->cpu.model);
    f->cpu.logical = sysctl_int("hw.logicalcpu", 0);
    if (sysctl_int("hw.nperflevels", 1) >= 2) {
        f->cpu.performance = sysctl_int("hw.perflevel0.logicalcpu", 0);
        f->cpu.efficiency = sysctl_int("hw.perflevel1.logicalcpu", 0);
    }
    gp_copy(f->cpu.arch, sizeof f->cpu.arch, m->apple_silicon ? "arm64" : "x86_64");
    uint64_t mem = 0;
    size_t len = sizeof mem;
    if (sysctlbyname("hw.memsize", &mem, &len, NULL, 0) == 0) f->cpu.memory_bytes = mem;
    gp_probe_metal(f);
}
#else
/* Not an Apple platform: nothing to compile (ISO C wants a declaration in every file). */
typedef int gp_probe_macos_unused;
#endif
