/* fuzz_doctor_parse.c — every text reader doctor applies to machine files (driver version,
 * os-release, torch/version.py, WHEEL, version.json/version.txt, cuda.h, nvcc output, GPU
 * information, pyvenv.cfg, CPU lists, nv_tegra_release, dpkg's status, device-tree strings,
 * cpuinfo, ELF headers, wheel METADATA and RECORD, GPU names) and the
 * report's text cleaner on the same input, which is not NUL-terminated. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/gpu_identity.h"
#include "doctor/jetson.h"
#include "doctor/parse.h"
#include "doctor/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    gp_version v;
    char buf[64], reason[160];
    bool open, sys;
    gp_version_find(s, size, &v);
    gp_parse_nvidia_version(s, size, buf, sizeof buf, &open);
    gp_doctor_os os;
    memset(&os, 0, sizeof os);
    gp_parse_os_release(s, size, &os);
    gp_doctor_torch t;
    memset(&t, 0, sizeof t);
    gp_parse_torch_version(s, size, &t);
    gp_parse_wheel_platform(s, size, buf, sizeof buf);
    gp_parse_cuda_version_json(s, size, &v, reason, sizeof reason);
    gp_parse_cuda_version_txt(s, size, &v);
    gp_parse_cuda_h(s, size, &v);
    gp_parse_nvcc_version(s, size, &v);
    gp_doctor_gpu g;
    memset(&g, 0, sizeof g);
    gp_parse_gpu_information(s, size, &g);
    gp_parse_pyvenv_cfg(s, size, buf, sizeof buf, &sys);
    gp_parse_cpu_list(s, size);
    /* Jetson files, dpkg's status, device-tree strings, cpuinfo, ELF headers, wheel metadata */
    int l4t[3];
    char board[32], text[160];
    gp_parse_nv_tegra_release(s, size, l4t, board, sizeof board);
    gp_parse_l4t_version(s, size, l4t);
    gp_parse_dpkg_field(s, size, "nvidia-l4t-core", "Version", text, sizeof text);
    gp_parse_dt_strings(s, size, text, sizeof text);
    gp_parse_cpuinfo_count(s, size);
    gp_parse_cpuinfo_arch(s, size, buf, sizeof buf);
    gp_parse_elf_machine(data, size, buf, sizeof buf);
    gp_parse_wheel_metadata(s, size, buf, sizeof buf, text, sizeof text);
    gp_parse_record_has_cuda(s, size);
    /* the name rules of the compute-capability lookup, on a NUL-terminated copy */
    char *name = malloc(size + 1);
    if (name) {
        memcpy(name, data, size);
        name[size] = '\0';
        gp_gpu_cc_for_name(name, text, sizeof text);
        gp_tegra_soc_by_model(name);
        gp_tegra_soc_by_compatible(name);
        free(name);
    }
    /* report text cleaning: the result is printable UTF-8, so cleaning it again changes nothing */
    char *clean = malloc(size + 1), *again = malloc(size + 1);
    if (clean && again) {
        memcpy(clean, data, size);
        clean[size] = '\0';
        gp_text_clean(clean);
        memcpy(again, clean, size + 1);
        gp_text_clean(again);
        if (strcmp(clean, again) != 0) __builtin_trap();
    }
    free(clean);
    free(again);
    char out[32];
    gp_version_format(&v, true, out, sizeof out);
    return 0;
}
