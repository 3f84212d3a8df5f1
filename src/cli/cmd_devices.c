/* cmd_devices.c — `gpuport devices`: every backend and what probing it found, every device with
 * its limits, and what `auto` picks on this machine and why (the selection record). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gpuport/gpuport.h"
#include "util/json.h"
#include "util/term.h"

static void devices_usage(void)
{
    printf("usage: gpuport devices [--json]\n\n"
           "Lists every backend gpuport knows (cuda, metal, opencl, cpu) with what probing it\n"
           "found, every device with its limits, and the device `auto` picks here with the\n"
           "reason each earlier backend was skipped. GPUPORT_DEVICE and GPUPORT_LOG apply.\n\n"
           "  --json     one JSON object (schema gpuport.devices/1)\n"
           "  --help     this text\n  --version  the version\n\n"
           "Exit codes: 0 listed (auto found a device), 1 auto could not open any device,\n"
           "2 usage, 3 internal error.\n");
}

static const char *human_bytes(uint64_t b, char *buf, size_t cap)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 4)
        v /= 1024, u++;
    snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
    return buf;
}

static cJSON *entry_json(const gp_selection_entry *e)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "backend", gp_backend_name((gp_backend)e->backend));
    cJSON_AddStringToObject(o, "outcome", gp_select_outcome_name((gp_select_outcome)e->outcome));
    cJSON_AddNumberToObject(o, "code", e->code);
    cJSON_AddNumberToObject(o, "device_count", e->device_count);
    if (e->device_index >= 0) cJSON_AddNumberToObject(o, "device_index", e->device_index);
    cJSON_AddStringToObject(o, "detail", e->detail);
    return o;
}

static cJSON *info_json(const gp_device_info *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "spec", d->spec);
    cJSON_AddStringToObject(o, "backend", gp_backend_name((gp_backend)d->backend));
    cJSON_AddNumberToObject(o, "index", d->index);
    cJSON_AddStringToObject(o, "name", d->name);
    cJSON_AddStringToObject(o, "vendor", d->vendor);
    cJSON_AddStringToObject(o, "driver_version", d->driver_version);
    cJSON_AddStringToObject(o, "arch", d->arch);
    cJSON_AddNumberToObject(o, "total_memory", (double)d->total_memory);
    cJSON_AddNumberToObject(o, "max_buffer_size", (double)d->max_buffer_size);
    cJSON_AddNumberToObject(o, "max_shared_memory", (double)d->max_shared_memory);
    cJSON_AddNumberToObject(o, "compute_units", d->compute_units);
    cJSON_AddNumberToObject(o, "max_group_size", d->max_group_size);
    cJSON *dims = cJSON_AddArrayToObject(o, "max_group_dims");
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(dims, cJSON_CreateNumber(d->max_group_dims[i]));
    cJSON_AddNumberToObject(o, "simd_width", d->simd_width);
    cJSON_AddNumberToObject(o, "simd_group_width", d->simd_group_width);
    /* what the driver says of the hardware; null where the backend does not know */
    const struct {
        const char *key;
        uint32_t v;
    } hw[] = {{"clock_mhz", d->clock_mhz},
              {"memory_clock_mhz", d->memory_clock_mhz},
              {"memory_bus_width", d->memory_bus_width},
              {"l2_cache_kib", d->l2_cache_kib}};
    for (size_t i = 0; i < sizeof hw / sizeof hw[0]; i++)
        if (hw[i].v)
            cJSON_AddNumberToObject(o, hw[i].key, hw[i].v);
        else
            cJSON_AddNullToObject(o, hw[i].key);
    if (d->pci_bus_id) {
        char pci[32];
        snprintf(pci, sizeof pci, "%04x:%02x:%02x.%x", d->pci_bus_id >> 16,
                 d->pci_bus_id >> 8 & 0xff, d->pci_bus_id >> 3 & 0x1f, d->pci_bus_id & 7);
        cJSON_AddStringToObject(o, "pci_bus_id", pci);
    } else {
        cJSON_AddNullToObject(o, "pci_bus_id");
    }
    if (d->compute_capability_major) {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", d->compute_capability_major, d->compute_capability_minor);
        cJSON_AddStringToObject(o, "compute_capability", cc);
    } else {
        cJSON_AddNullToObject(o, "compute_capability");
    }
    cJSON_AddBoolToObject(o, "unified_memory", d->unified_memory != 0);
    cJSON_AddBoolToObject(o, "fp64", d->fp64 != 0);
    cJSON_AddBoolToObject(o, "atomic64", d->atomic64 != 0);
    cJSON_AddBoolToObject(o, "fp16", d->fp16 != 0);
    return o;
}

static void print_entry(const gp_selection_entry *e)
{
    gp_color c = e->outcome == GP_SELECT_CHOSEN      ? GP_COLOR_GREEN
                 : e->outcome == GP_SELECT_AVAILABLE ? GP_COLOR_RESET
                 : e->outcome == GP_SELECT_NOT_TRIED ? GP_COLOR_DIM
                                                     : GP_COLOR_YELLOW;
    printf("  %-7s %s%s%s", gp_backend_name((gp_backend)e->backend), gp_term_color(stdout, c),
           gp_select_outcome_name((gp_select_outcome)e->outcome),
           gp_term_color(stdout, GP_COLOR_RESET));
    if (e->code) printf(" (code %d)", e->code);
    if (e->detail[0]) printf(": %s", e->detail);
    printf("\n");
}

static void print_device(const gp_device_info *d)
{
    char mem[32], sh[32];
    printf("  %s%-9s%s %s (%s)\n", gp_term_color(stdout, GP_COLOR_BOLD), d->spec,
           gp_term_color(stdout, GP_COLOR_RESET), d->name, d->vendor);
    printf("            memory %s, %u compute units, group up to %u (%u x %u x %u), shared %s per "
           "group, SIMD width %u\n",
           human_bytes(d->total_memory, mem, sizeof mem), d->compute_units, d->max_group_size,
           d->max_group_dims[0], d->max_group_dims[1], d->max_group_dims[2],
           human_bytes(d->max_shared_memory, sh, sizeof sh), d->simd_width);
    if (d->simd_group_width)
        printf("            SIMD-group operations: groups of %u\n", d->simd_group_width);
    else
        printf("            SIMD-group operations: none\n");
    if (d->clock_mhz || d->memory_clock_mhz || d->l2_cache_kib || d->pci_bus_id) {
        char hw[256] = "";
        size_t n = 0;
        if (d->clock_mhz)
            n += (size_t)snprintf(hw + n, sizeof hw - n, ", clock %u MHz", d->clock_mhz);
        if (d->memory_clock_mhz && n < sizeof hw)
            n += (size_t)snprintf(hw + n, sizeof hw - n, ", memory clock %u MHz x %u bits",
                                  d->memory_clock_mhz, d->memory_bus_width);
        if (d->l2_cache_kib && n < sizeof hw)
            n += (size_t)snprintf(hw + n, sizeof hw - n, ", L2 %u KiB", d->l2_cache_kib);
        if (d->pci_bus_id && n < sizeof hw)
            snprintf(hw + n, sizeof hw - n, ", PCI %04x:%02x:%02x.%x", d->pci_bus_id >> 16,
                     d->pci_bus_id >> 8 & 0xff, d->pci_bus_id >> 3 & 0x1f, d->pci_bus_id & 7);
        printf("            %s\n", hw + 2);
    }
    printf("            unified memory %s, fp64 %s, fp16 %s, 64-bit atomics %s",
           d->unified_memory ? "yes" : "no", d->fp64 ? "yes" : "no", d->fp16 ? "yes" : "no",
           d->atomic64 ? "yes" : "no");
    if (d->compute_capability_major)
        printf(", compute capability %d.%d", d->compute_capability_major,
               d->compute_capability_minor);
    printf(", arch %s, driver %s\n", d->arch, d->driver_version);
}

static int devices_run(int argc, char **argv)
{
    bool json;
    int parsed = gp_cli_parse_plain("devices", argc, argv, devices_usage, &json);
    if (parsed >= 0) return parsed;
    if (optind < argc)
        return gp_cli_usage_error("devices", "unexpected argument '%s'", argv[optind]);

    gp_selection_entry probe[GP_BACKEND_COUNT];
    for (int b = 0; b < GP_BACKEND_COUNT; b++)
        if (gp_backend_probe((gp_backend)b, &probe[b]) != GP_OK)
            return gp_cli_internal_error("devices", "%s", gp_last_error());
    uint32_t n = 0;
    if (gp_device_count(&n) != GP_OK)
        return gp_cli_internal_error("devices", "%s", gp_last_error());
    gp_device_info *infos = calloc(n ? n : 1, sizeof *infos);
    if (!infos) return gp_cli_internal_error("devices", "out of memory");
    for (uint32_t i = 0; i < n; i++)
        if (gp_device_enumerate(i, &infos[i]) != GP_OK) {
            free(infos);
            return gp_cli_internal_error("devices", "%s", gp_last_error());
        }
    gp_device *dev = NULL;
    char auto_err[4096] = "";
    if (gp_device_open("auto", &dev) != GP_OK)
        snprintf(auto_err, sizeof auto_err, "%s", gp_last_error());
    gp_selection_entry rec[GP_BACKEND_COUNT];
    gp_device_info chosen;
    if (dev) {
        gp_device_selection(dev, rec, GP_BACKEND_COUNT, NULL);
        gp_device_get_info(dev, &chosen);
    }
    const char *env = getenv("GPUPORT_DEVICE");

    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "schema", "gpuport.devices/1");
        cJSON *bs = cJSON_AddArrayToObject(o, "backends");
        for (int b = 0; b < GP_BACKEND_COUNT; b++)
            cJSON_AddItemToArray(bs, entry_json(&probe[b]));
        cJSON *ds = cJSON_AddArrayToObject(o, "devices");
        for (uint32_t i = 0; i < n; i++)
            cJSON_AddItemToArray(ds, info_json(&infos[i]));
        cJSON *a = cJSON_AddObjectToObject(o, "auto");
        if (env && *env)
            cJSON_AddStringToObject(a, "gpuport_device", env);
        else
            cJSON_AddNullToObject(a, "gpuport_device");
        if (dev) {
            cJSON_AddStringToObject(a, "device", chosen.spec);
            cJSON_AddNullToObject(a, "error");
            cJSON *sel = cJSON_AddArrayToObject(a, "selection");
            for (int b = 0; b < GP_BACKEND_COUNT; b++)
                cJSON_AddItemToArray(sel, entry_json(&rec[b]));
        } else {
            cJSON_AddNullToObject(a, "device");
            cJSON_AddStringToObject(a, "error", auto_err);
            cJSON_AddArrayToObject(a, "selection");
        }
        int rc = gp_json_print(stdout, o);
        cJSON_Delete(o);
        if (rc != 0) {
            free(infos);
            gp_device_release(dev);
            return gp_cli_internal_error("devices", "cannot render JSON");
        }
    } else {
        printf("Backends (in the order auto tries them)\n");
        for (int b = 0; b < GP_BACKEND_COUNT; b++)
            print_entry(&probe[b]);
        printf("\nDevices\n");
        for (uint32_t i = 0; i < n; i++)
            print_device(&infos[i]);
        printf("\nauto%s%s%s\n", env && *env ? " (GPUPORT_DEVICE=" : "", env && *env ? env : "",
               env && *env ? ")" : "");
        if (dev) {
            printf("  -> %s (%s)\n", chosen.spec, chosen.name);
            for (int b = 0; b < GP_BACKEND_COUNT; b++)
                print_entry(&rec[b]);
        } else {
            printf("  %sno device%s: %s\n", gp_term_color(stdout, GP_COLOR_RED),
                   gp_term_color(stdout, GP_COLOR_RESET), auto_err);
        }
    }
    free(infos);
    int code = dev ? GP_EXIT_OK : GP_EXIT_FAIL;
    gp_device_release(dev);
    return gp_cli_finish("devices", code);
}

const gp_command gp_cmd_devices = {
    "devices", "list every device of every backend and what auto picks", devices_run};
