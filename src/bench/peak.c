/* peak.c — what each figure is measured against, and how that was found: CUDA driver attributes
 * (memory clock x bus width, SM clock x SMs x FP32 lanes of a per-architecture table, the PCIe link
 * from sysfs), an Apple chip table, the CPU's cache and clock from the OS, and --peak overrides.
 * A peak that cannot be derived is 0 with a source that says so plainly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

#include "bench/bench.h"

static const char *const gp_peak_names[GP_PEAK_COUNT] = {"", "memory", "h2d", "d2h", "fp32"};

int gp_bench_cuda_lanes_per_sm(int major, int minor)
{
    /* FP32 lanes per SM (CUDA programming guide, arithmetic instruction throughput). */
    if (major == 6) return minor == 0 ? 64 : 128;
    if (major == 7) return 64;
    if (major == 8) return minor == 0 ? 64 : 128;
    if (major == 9 || major == 10 || major == 11 || major == 12) return 128;
    return 0;
}

typedef struct gp_apple_chip {
    const char *name; /* matched as the whole name after "Apple " */
    double mem_gbs;
} gp_apple_chip;

/* Unified memory bandwidth by chip (Apple's published figures). Longest names first. */
static const gp_apple_chip gp_apple_chips[] = {
    {"M1 Ultra", 800}, {"M1 Max", 400}, {"M1 Pro", 200}, {"M1", 68},        {"M2 Ultra", 800},
    {"M2 Max", 400},   {"M2 Pro", 200}, {"M2", 100},     {"M3 Ultra", 819}, {"M3 Max", 400},
    {"M3 Pro", 150},   {"M3", 100},     {"M4 Max", 546}, {"M4 Pro", 273},   {"M4", 120},
};

int gp_bench_apple_peak(const char *name, uint32_t gpu_cores, double *mem_gbs, double *fp32_gflops,
                        char *src, size_t srclen)
{
    *mem_gbs = 0;
    *fp32_gflops = 0;
    if (strncmp(name, "Apple ", 6) != 0) return -1;
    const char *chip = name + 6;
    for (size_t i = 0; i < sizeof gp_apple_chips / sizeof gp_apple_chips[0]; i++) {
        if (strcmp(chip, gp_apple_chips[i].name) != 0) continue;
        *mem_gbs = gp_apple_chips[i].mem_gbs;
        /* FP32: GPU cores x 128 ALUs x 2 (FMA) x clock; only where the clock is published and the
         * core count is known (Metal does not report it). */
        double clock_ghz = !strncmp(chip, "M1", 2) ? 1.278 : !strncmp(chip, "M2", 2) ? 1.398 : 0;
        if (gpu_cores && clock_ghz > 0) *fp32_gflops = gpu_cores * 128.0 * 2.0 * clock_ghz;
        snprintf(src, srclen, "Apple chip table: %s, %.0f GB/s unified memory", chip,
                 gp_apple_chips[i].mem_gbs);
        return 0;
    }
    return -1;
}

/* Published peaks of common NVIDIA parts, used only when the driver's attributes cannot give one
 * (a driver that reports no memory clock). Matched as a substring of the device name. */
typedef struct gp_nvidia_part {
    const char *name;
    double mem_gbs, fp32_gflops;
} gp_nvidia_part;

static const gp_nvidia_part gp_nvidia_parts[] = {
    {"H200", 4800, 66900},     {"H100 PCIe", 2000, 51200}, {"H100", 3350, 66900},
    {"RTX 4090", 1008, 82600}, {"RTX 3060", 360, 12700},
};

int gp_bench_nvidia_peak(const char *name, double *mem_gbs, double *fp32_gflops)
{
    for (size_t i = 0; i < sizeof gp_nvidia_parts / sizeof gp_nvidia_parts[0]; i++)
        if (strstr(name, gp_nvidia_parts[i].name)) {
            *mem_gbs = gp_nvidia_parts[i].mem_gbs;
            *fp32_gflops = gp_nvidia_parts[i].fp32_gflops;
            return 0;
        }
    *mem_gbs = *fp32_gflops = 0;
    return -1;
}

static uint64_t gp_bench_read_u64(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[64] = "";
    char *ok = fgets(line, sizeof line, f);
    fclose(f);
    if (!ok) return 0;
    char *end;
    unsigned long long v = strtoull(line, &end, 10);
    if (end == line) return 0;
    if (*end == 'K') v *= 1024;
    if (*end == 'M') v *= 1024 * 1024;
    return v;
}

/* The largest cache of cpu0 (Linux sysfs, else sysconf, else sysctl on macOS). */
static uint64_t gp_bench_cpu_llc(char *src, size_t srclen)
{
    uint64_t best = 0;
    int best_level = 0;
    for (int i = 0; i < 8; i++) {
        char p[128];
        snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        int level = (int)gp_bench_read_u64(p);
        if (level <= 0) continue;
        snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        uint64_t size = gp_bench_read_u64(p);
        if (level > best_level || (level == best_level && size > best)) {
            best_level = level;
            best = size;
        }
    }
    if (best) {
        snprintf(src, srclen, "L%d of cpu0 (sysfs)", best_level);
        return best;
    }
#if defined(_SC_LEVEL3_CACHE_SIZE)
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0) {
        snprintf(src, srclen, "L3 (sysconf)");
        return (uint64_t)l3;
    }
#endif
#if defined(__APPLE__)
    uint64_t v = 0;
    size_t len = sizeof v;
    if (sysctlbyname("hw.perflevel0.l2cachesize", &v, &len, NULL, 0) == 0 && v) {
        snprintf(src, srclen, "L2 of the performance cores (sysctl)");
        return v;
    }
#endif
    snprintf(src, srclen, "unknown");
    return 0;
}

/* The CPU's highest clock in MHz: cpufreq, else /proc/cpuinfo; 0 unknown. */
static double gp_bench_cpu_mhz(char *src, size_t srclen)
{
    uint64_t khz = gp_bench_read_u64("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    if (khz) {
        snprintf(src, srclen, "cpufreq max");
        return (double)khz / 1000.0;
    }
    FILE *f = fopen("/proc/cpuinfo", "r");
    double mhz = 0;
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "cpu MHz", 7)) {
                const char *c = strchr(line, ':');
                if (c) mhz = atof(c + 1);
                break;
            }
        fclose(f);
    }
    snprintf(src, srclen, "/proc/cpuinfo");
    return mhz;
}

static void gp_bench_peak_unknown(gp_bench_peak *p, const char *name, const char *why)
{
    p->value = 0;
    snprintf(p->source, sizeof p->source, "unknown peak: %s; give --peak %s=VALUE", why, name);
}

/* One link attribute of a PCI device from sysfs ("32.0 GT/s PCIe" -> 32; "16" -> 16); 0 unknown. */
static double gp_bench_pci_attr(int domain, int bus, int dev, const char *attr)
{
    char p[160], line[64];
    snprintf(p, sizeof p, "/sys/bus/pci/devices/%04x:%02x:%02x.0/%s", domain, bus, dev, attr);
    FILE *f = fopen(p, "r");
    if (!f) return 0;
    double v = fgets(line, sizeof line, f) ? atof(line) : 0;
    fclose(f);
    return v > 0 ? v : 0;
}

/* The PCIe link of a device: GB/s per direction, 0 unknown. The maximum link is used, because
 * GPUs train the link down while idle (the current speed then reads 2.5 GT/s); the current one is
 * shown beside it. */
static double gp_bench_pcie_gbs(int domain, int bus, int dev, char *desc, size_t desclen)
{
    double gts = gp_bench_pci_attr(domain, bus, dev, "max_link_speed");
    int width = (int)gp_bench_pci_attr(domain, bus, dev, "max_link_width");
    double cur = gp_bench_pci_attr(domain, bus, dev, "current_link_speed");
    int curw = (int)gp_bench_pci_attr(domain, bus, dev, "current_link_width");
    if (gts <= 0 || width <= 0) return 0;
    int gen = gts >= 60 ? 6 : gts >= 30 ? 5 : gts >= 15 ? 4 : gts >= 7 ? 3 : gts >= 4 ? 2 : 1;
    double enc = gts >= 7 ? 128.0 / 130.0 : 0.8; /* 128b/130b from Gen3, 8b/10b before */
    snprintf(desc, desclen, "Gen%d x%d (%.1f GT/s; now %.1f GT/s x%d)", gen, width, gts, cur, curw);
    return gts * width * enc / 8.0;
}

static void gp_bench_describe_cuda(gp_bench_device *d)
{
    /* what the CUDA backend read from the driver (gp_device_info) */
    const gp_device_info *in = &d->info;
    int clk = (int)in->clock_mhz * 1000, mclk = (int)in->memory_clock_mhz * 1000;
    int bus = (int)in->memory_bus_width, sms = (int)in->compute_units;
    long long l2 = (long long)in->l2_cache_kib * 1024;
    int pdom = in->pci_bus_id ? (int)(in->pci_bus_id >> 16) : -1;
    int pbus = in->pci_bus_id ? (int)(in->pci_bus_id >> 8 & 0xff) : -1;
    int pdev = in->pci_bus_id ? (int)(in->pci_bus_id >> 3 & 0x1f) : -1;
    if (l2 > 0) {
        d->llc_bytes = (uint64_t)l2;
        snprintf(d->llc_source, sizeof d->llc_source, "L2 (the driver's L2_CACHE_SIZE)");
    }
    d->clock_mhz = clk > 0 ? clk / 1000.0 : 0;
    d->memory_clock_mhz = mclk > 0 ? mclk / 1000.0 : 0;
    d->bus_width_bits = bus > 0 ? bus : 0;
    double tm = 0, tf = 0;
    gp_bench_nvidia_peak(d->info.name, &tm, &tf);
    gp_bench_peak *m = &d->peaks[GP_PEAK_MEMORY];
    if (mclk > 0 && bus > 0) {
        m->value = (double)mclk * 1e3 * (bus / 8.0) * 2.0 / 1e9;
        snprintf(m->source, sizeof m->source,
                 "driver: memory clock %d MHz x bus %d bits / 8 x 2 (double data rate)",
                 mclk / 1000, bus);
    } else if (tm > 0) {
        m->value = tm;
        snprintf(m->source, sizeof m->source,
                 "published figure for %.200s (the driver reports no memory clock or bus width)",
                 d->info.name);
    } else {
        gp_bench_peak_unknown(m, "memory", "the driver reports no memory clock or bus width");
    }
    int major = d->info.compute_capability_major, minor = d->info.compute_capability_minor;
    int lanes = gp_bench_cuda_lanes_per_sm(major, minor);
    gp_bench_peak *f = &d->peaks[GP_PEAK_FP32];
    if (clk > 0 && sms > 0 && lanes > 0) {
        f->value = (double)clk * 1e3 * sms * lanes * 2.0 / 1e9;
        snprintf(f->source, sizeof f->source,
                 "driver: SM clock %d MHz x %d SMs x %d FP32 lanes/SM (sm_%d%d table) x 2 (FMA)",
                 clk / 1000, sms, lanes, major, minor);
    } else if (tf > 0) {
        f->value = tf;
        snprintf(f->source, sizeof f->source,
                 "published figure for %.200s (no SM clock, SM count or lanes-per-SM entry)",
                 d->info.name);
    } else {
        gp_bench_peak_unknown(f, "fp32",
                              "no SM clock, SM count or lanes-per-SM entry for this "
                              "architecture");
    }
    char link[64] = "";
    double gbs = (pdom >= 0 && pbus >= 0 && pdev >= 0)
                     ? gp_bench_pcie_gbs(pdom, pbus, pdev, link, sizeof link)
                     : 0;
    snprintf(d->pcie, sizeof d->pcie, "%s", link);
    for (int k = GP_PEAK_H2D; k <= GP_PEAK_D2H; k++) {
        if (gbs > 0) {
            d->peaks[k].value = gbs;
            snprintf(d->peaks[k].source, sizeof d->peaks[k].source,
                     "PCIe %s from sysfs: max GT/s x lanes x encoding / 8, per direction", link);
        } else {
            gp_bench_peak_unknown(&d->peaks[k], gp_peak_names[k], "the PCIe link is not readable");
        }
    }
}

static void gp_bench_describe_host(gp_bench_device *d)
{
    d->llc_bytes = gp_bench_cpu_llc(d->llc_source, sizeof d->llc_source);
    double mem = 0, fp32 = 0;
    char src[256] = "";
    bool apple = gp_bench_apple_peak(d->info.name, 0, &mem, &fp32, src, sizeof src) == 0;
    if (apple) {
        d->peaks[GP_PEAK_MEMORY].value = mem;
        snprintf(d->peaks[GP_PEAK_MEMORY].source, sizeof d->peaks[GP_PEAK_MEMORY].source, "%s",
                 src);
    } else {
        gp_bench_peak_unknown(&d->peaks[GP_PEAK_MEMORY], "memory",
                              "the OS does not report the memory's bandwidth");
    }
    const char *unified = "unified memory: no link between host and device; measured as a copy "
                          "into a shared buffer";
    snprintf(d->peaks[GP_PEAK_H2D].source, sizeof d->peaks[GP_PEAK_H2D].source, "%s", unified);
    snprintf(d->peaks[GP_PEAK_D2H].source, sizeof d->peaks[GP_PEAK_D2H].source, "%s", unified);
    if (d->info.backend != GP_BACKEND_CPU) {
        /* the clock `gpuport devices` shows (CL_DEVICE_MAX_CLOCK_FREQUENCY); OpenCL says
         * nothing of the FP32 lanes behind a compute unit, so no FP32 peak from it */
        d->clock_mhz = d->info.clock_mhz;
        char why[160];
        if (d->info.clock_mhz)
            snprintf(why, sizeof why,
                     "the OpenCL driver reports the clock (%u MHz) but not the FP32 lanes of a "
                     "compute unit",
                     d->info.clock_mhz);
        else
            snprintf(why, sizeof why, "the OpenCL driver reports no clock or FP32 lanes");
        gp_bench_peak_unknown(&d->peaks[GP_PEAK_FP32], "fp32", why);
        return;
    }
    char msrc[64];
    double mhz = gp_bench_cpu_mhz(msrc, sizeof msrc);
    d->clock_mhz = mhz;
    uint32_t lanes = d->info.simd_width ? d->info.simd_width : 4;
    if (mhz > 0 && d->info.compute_units) {
        /* Two FMA pipes per core is an assumption (true of current x86-64 server cores and of
         * Apple's performance cores as 4 x 128-bit NEON ~ 2 x 256-bit): said in the source. */
        d->peaks[GP_PEAK_FP32].value = d->info.compute_units * (mhz / 1e3) * lanes * 2.0 * 2.0;
        snprintf(d->peaks[GP_PEAK_FP32].source, sizeof d->peaks[GP_PEAK_FP32].source,
                 "estimate: %u threads x %.0f MHz (%s) x %u FP32 lanes x 2 (FMA) x 2 FMA pipes "
                 "per core (assumed)",
                 d->info.compute_units, mhz, msrc, lanes);
    } else {
        gp_bench_peak_unknown(&d->peaks[GP_PEAK_FP32], "fp32", "the CPU clock is not readable");
    }
}

static void gp_bench_describe_metal(gp_bench_device *d)
{
    double mem = 0, fp32 = 0;
    char src[256] = "";
    if (gp_bench_apple_peak(d->info.name, d->info.compute_units, &mem, &fp32, src, sizeof src) ==
        0) {
        d->peaks[GP_PEAK_MEMORY].value = mem;
        snprintf(d->peaks[GP_PEAK_MEMORY].source, sizeof d->peaks[GP_PEAK_MEMORY].source, "%s",
                 src);
    } else {
        gp_bench_peak_unknown(&d->peaks[GP_PEAK_MEMORY], "memory", "the chip is not in the table");
    }
    if (fp32 > 0) {
        d->peaks[GP_PEAK_FP32].value = fp32;
        snprintf(d->peaks[GP_PEAK_FP32].source, sizeof d->peaks[GP_PEAK_FP32].source,
                 "Apple chip table: %u GPU cores x 128 x 2 x clock", d->info.compute_units);
    } else {
        gp_bench_peak_unknown(&d->peaks[GP_PEAK_FP32], "fp32",
                              "Metal does not report the GPU core count or clock");
    }
    snprintf(d->peaks[GP_PEAK_H2D].source, sizeof d->peaks[GP_PEAK_H2D].source,
             "unified memory: no link; measured as a copy into a shared buffer");
    snprintf(d->peaks[GP_PEAK_D2H].source, sizeof d->peaks[GP_PEAK_D2H].source,
             "unified memory: no link; measured as a copy into a shared buffer");
}

void gp_bench_describe(gp_device *device, const gp_bench_options *opt, gp_bench_device *out)
{
    memset(out, 0, sizeof *out);
    if (gp_device_get_info(device, &out->info) != GP_OK) {
        out->info.spec[0] = '\0';
        return;
    }
    snprintf(out->llc_source, sizeof out->llc_source, "unknown");
    if (out->info.backend == GP_BACKEND_CUDA) {
        gp_bench_describe_cuda(out);
    } else if (out->info.backend == GP_BACKEND_METAL) {
        gp_bench_describe_metal(out);
    } else if (out->info.backend == GP_BACKEND_CPU || out->info.unified_memory) {
        gp_bench_describe_host(out);
    } else {
        for (int k = GP_PEAK_MEMORY; k < GP_PEAK_COUNT; k++)
            gp_bench_peak_unknown(&out->peaks[k], gp_peak_names[k],
                                  "the OpenCL driver reports no memory clock, bus width or link");
    }
    for (size_t i = 0; i < opt->num_peaks; i++) {
        gp_bench_peak *p = &out->peaks[opt->peaks[i].kind];
        p->value = opt->peaks[i].value;
        snprintf(p->source, sizeof p->source, "--peak %s", opt->peaks[i].text);
    }
}

int gp_bench_peak_parse(const char *text, gp_bench_peak_override *out, char *err, size_t errlen)
{
    const char *eq = strchr(text, '=');
    if (!eq) {
        snprintf(err, errlen, "--peak '%s': expected NAME=VALUE (memory, h2d, d2h, link, fp32)",
                 text);
        return -1;
    }
    size_t nl = (size_t)(eq - text);
    char *end;
    double v = strtod(eq + 1, &end);
    if (end == eq + 1 || *end || !(v > 0) || !isfinite(v)) {
        snprintf(err, errlen, "--peak '%s': the value must be a positive number (GB/s or GFLOP/s)",
                 text);
        return -1;
    }
    out->value = v;
    snprintf(out->text, sizeof out->text, "%s", text);
    for (int k = GP_PEAK_MEMORY; k < GP_PEAK_COUNT; k++)
        if (strlen(gp_peak_names[k]) == nl && !strncmp(text, gp_peak_names[k], nl)) {
            out->kind = (gp_bench_peak_kind)k;
            return 0;
        }
    if (nl == 4 && !strncmp(text, "link", 4)) {
        out->kind = GP_PEAK_COUNT; /* both directions: expanded by the caller */
        return 0;
    }
    snprintf(err, errlen, "--peak '%s': unknown name (memory, h2d, d2h, link, fp32)", text);
    return -1;
}
