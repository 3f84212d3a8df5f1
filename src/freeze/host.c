/* host.c — the machine a run happened on: OS, kernel, architecture, CPU model, cores, memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

#include "freeze/collect.h"
#include "util/fs.h"
#include "util/sys.h"

/* The value of KEY=... in an os-release file, unquoted, into out. */
static void os_release_value(const char *text, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, key, kl) != 0 || p[kl] != '=') continue;
        const char *v = p + kl + 1;
        const char *e = strchr(v, '\n');
        size_t len = e ? (size_t)(e - v) : strlen(v);
        if (len >= 2 && (v[0] == '"' || v[0] == '\'') && v[len - 1] == v[0]) v++, len -= 2;
        if (len >= n) len = n - 1;
        memcpy(out, v, len);
        out[len] = '\0';
        return;
    }
}

static void cpu_model(char *out, size_t n)
{
    out[0] = '\0';
#if defined(__APPLE__)
    size_t len = n;
    if (sysctlbyname("machdep.cpu.brand_string", out, &len, NULL, 0) != 0) out[0] = '\0';
#else
    char err[256];
    char *text = gp_read_file("/proc/cpuinfo", 1 << 20, true, NULL, err, sizeof err);
    if (!text) return;
    /* x86: "model name"; arm64: no model name line, but "CPU part"/"Hardware" sometimes. */
    const char *keys[] = {"model name", "Hardware", "cpu model", "Processor"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0] && !out[0]; k++) {
        const char *p = strstr(text, keys[k]);
        if (!p) continue;
        const char *c = strchr(p, ':');
        if (!c) continue;
        c++;
        while (*c == ' ' || *c == '\t')
            c++;
        const char *e = strchr(c, '\n');
        size_t len = e ? (size_t)(e - c) : strlen(c);
        if (len >= n) len = n - 1;
        memcpy(out, c, len);
        out[len] = '\0';
    }
    free(text);
#endif
}

cJSON *gp_freeze_host(void)
{
    cJSON *h = cJSON_CreateObject();
    gp_uname u;
    if (gp_sys_uname(&u) == 0) {
        cJSON_AddStringToObject(h, "hostname", u.nodename);
        cJSON_AddStringToObject(h, "kernel", u.sysname);
        cJSON_AddStringToObject(h, "kernel_release", u.release);
        cJSON_AddStringToObject(h, "arch", u.machine);
    }
    char os[256] = "";
#if defined(__APPLE__)
    char ver[64] = "";
    size_t len = sizeof ver;
    if (sysctlbyname("kern.osproductversion", ver, &len, NULL, 0) == 0)
        snprintf(os, sizeof os, "macOS %s", ver);
#else
    char err[256];
    char *rel = gp_read_file("/etc/os-release", 64 * 1024, true, NULL, err, sizeof err);
    if (!rel) rel = gp_read_file("/usr/lib/os-release", 64 * 1024, true, NULL, err, sizeof err);
    if (rel) {
        os_release_value(rel, "PRETTY_NAME", os, sizeof os);
        free(rel);
    }
#endif
    cJSON_AddStringToObject(h, "os", os[0] ? os : "unknown");
    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    cJSON_AddStringToObject(h, "cpu", cpu[0] ? cpu : "unknown");
    cJSON_AddNumberToObject(h, "logical_cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
#if defined(__APPLE__)
    unsigned long long mem = 0;
    size_t ml = sizeof mem;
    if (sysctlbyname("hw.memsize", &mem, &ml, NULL, 0) == 0)
        cJSON_AddNumberToObject(h, "memory_bytes", (double)mem);
#else
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psize > 0)
        cJSON_AddNumberToObject(h, "memory_bytes", (double)pages * (double)psize);
#endif
    return h;
}
