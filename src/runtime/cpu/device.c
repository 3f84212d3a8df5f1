/* device.c — the CPU as a gpuport device: one device, described from the operating system (model
 * name, memory, cores), with the limits the CPU backend imposes itself (group size bounded by the
 * fibers a thread keeps; shared memory is thread-local storage). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

#include "runtime/cpu/cpu.h"
#include "runtime/cpu/pool.h"
#include "util/fs.h"
#include "util/sys.h"

static void gp_cpu_model(char *name, size_t ncap, char *vendor, size_t vcap)
{
    gp_copy_str(name, ncap, "CPU");
    gp_copy_str(vendor, vcap, "unknown");
#if defined(__APPLE__)
    size_t n = ncap;
    if (sysctlbyname("machdep.cpu.brand_string", name, &n, NULL, 0) != 0)
        gp_copy_str(name, ncap, "Apple CPU");
    gp_copy_str(vendor, vcap, strstr(name, "Apple") ? "Apple" : "Intel");
#else
    char err[256];
    char *info = gp_read_file("/proc/cpuinfo", (size_t)4 << 20, true, NULL, err, sizeof err);
    if (!info) return;
    static const char *const keys[] = {"model name", "Model", "cpu model"};
    for (size_t k = 0; k < 3; k++) {
        char *l = strstr(info, keys[k]);
        char *colon = l ? strchr(l, ':') : NULL;
        if (colon && colon < strchr(l, '\n')) {
            colon++;
            while (*colon == ' ')
                colon++;
            size_t len = strcspn(colon, "\n");
            snprintf(name, ncap, "%.*s", (int)len, colon);
            break;
        }
    }
    char *v = strstr(info, "vendor_id");
    char *colon = v ? strchr(v, ':') : NULL;
    if (colon) {
        colon++;
        while (*colon == ' ')
            colon++;
        snprintf(vendor, vcap, "%.*s", (int)strcspn(colon, "\n"), colon);
    } else if (strstr(info, "CPU implementer")) {
        gp_copy_str(vendor, vcap, "ARM");
    }
    free(info);
#endif
}

static uint32_t gp_cpu_simd_width(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return 16;
    if (__builtin_cpu_supports("avx2")) return 8;
    return 4;
#else
    return 4; /* NEON / SSE: four floats */
#endif
}

gp_status gp_cpu_device_info(uint32_t index, gp_device_info *info)
{
    (void)index;
    gp_cpu_model(info->name, sizeof info->name, info->vendor, sizeof info->vendor);
    gp_uname u;
    if (gp_sys_uname(&u) == 0) {
        char v[sizeof u.sysname + sizeof u.release + 2];
        snprintf(v, sizeof v, "%s %s", u.sysname, u.release);
        gp_copy_str(info->driver_version, sizeof info->driver_version, v);
        gp_copy_str(info->arch, sizeof info->arch, u.machine);
    }
    info->total_memory = gp_physical_memory();
    info->max_buffer_size = info->total_memory;
    info->max_shared_memory = GP_CPU_MAX_SHARED;
    info->compute_units = gp_pool_threads();
    info->max_group_size = GP_CPU_MAX_GROUP;
    info->max_group_dims[0] = GP_CPU_MAX_GROUP;
    info->max_group_dims[1] = GP_CPU_MAX_GROUP;
    info->max_group_dims[2] = 64;
    info->simd_width = gp_cpu_simd_width();
    info->unified_memory = 1;
    info->fp64 = 1;
    info->atomic64 = 1;
    info->fp16 = 0;
    info->simd_group_width = GP_CPU_SIMD_WIDTH; /* emulated with fibers */
    return GP_OK;
}
