/* cuda_tables.c — see cuda_tables.h. The figures come from NVIDIA's CUDA release notes and the
 * PyTorch wheel build matrix; a new toolkit is one more row. */
#include "doctor/cuda_tables.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "doctor/parse.h"
#include "util/cuda_driver.h"

gp_version gp_cuda_for_driver(const gp_version *driver)
{
    char text[64];
    snprintf(text, sizeof text, "%d.%d.%d", driver->part[0], driver->n > 1 ? driver->part[1] : 0,
             driver->n > 2 ? driver->part[2] : 0);
    int cuda = gp_cuda_max_for_driver(text);
    gp_version best = {{0}, 0};
    if (cuda) {
        best.part[0] = cuda / 10;
        best.part[1] = cuda % 10;
        best.n = 2;
    }
    return best;
}

int gp_cuda_min_cc(int toolkit_major)
{
    if (toolkit_major >= 13) return 75;
    if (toolkit_major == 12) return 50;
    if (toolkit_major == 11) return 35;
    return 30;
}

int gp_cuda_first_toolkit_for_cc(int cc)
{
    static const int rows[][2] = {{50, 65},   {60, 80},   {70, 90},   {75, 100}, {80, 110},
                                  {86, 111},  {87, 114},  {89, 118},  {90, 118}, {100, 128},
                                  {103, 129}, {110, 130}, {120, 128}, {121, 129}};
    int best = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i][0] == cc) best = rows[i][1];
    return best;
}

const char *gp_cc_arch_name(int cc)
{
    if (cc >= 100) return "Blackwell";
    if (cc >= 90) return "Hopper";
    if (cc == 89) return "Ada";
    if (cc >= 80) return "Ampere";
    if (cc == 75) return "Turing";
    if (cc >= 70) return "Volta";
    if (cc >= 60) return "Pascal";
    if (cc >= 50) return "Maxwell";
    return cc > 0 ? "Kepler or older" : "unknown";
}

size_t gp_torch_wheel_targets(int major, int minor, int *out, size_t n)
{
    static const int cu11[] = {37, 50, 60, 70, 75, 80, 86, 90};
    static const int cu12[] = {50, 60, 70, 75, 80, 86, 90};
    static const int cu128[] = {75, 80, 86, 90, 100, 120};
    static const int cu13[] = {75, 80, 86, 90, 100, 110, 120};
    const int *t = cu12;
    size_t c = sizeof cu12 / sizeof cu12[0];
    if (major <= 11)
        t = cu11, c = sizeof cu11 / sizeof cu11[0];
    else if (major == 12 && minor >= 8)
        t = cu128, c = sizeof cu128 / sizeof cu128[0];
    else if (major >= 13)
        t = cu13, c = sizeof cu13 / sizeof cu13[0];
    if (c > n) c = n;
    memcpy(out, t, c * sizeof *t);
    return c;
}

bool gp_torch_runs_on(const int *targets, size_t n, int cc)
{
    for (size_t i = 0; i < n; i++)
        if (targets[i] / 10 == cc / 10 && targets[i] <= cc) return true;
    return false;
}

const char *gp_torch_index_for(int driver_cuda, int cc)
{
    static const struct {
        int cuda;
        const char *index;
    } idx[] = {{130, "cu130"}, {128, "cu128"}, {126, "cu126"}, {124, "cu124"}, {118, "cu118"}};
    /* First a wheel no newer than the driver; failing that, one of the same major, which runs
     * under minor-version compatibility. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof idx / sizeof idx[0]; i++) {
            bool fits = !driver_cuda || idx[i].cuda <= driver_cuda ||
                        (pass == 1 && idx[i].cuda / 10 == driver_cuda / 10);
            if (!fits) continue;
            int targets[16];
            size_t nt = gp_torch_wheel_targets(idx[i].cuda / 10, idx[i].cuda % 10, targets, 16);
            if (cc && !gp_torch_runs_on(targets, nt, cc)) continue;
            return idx[i].index;
        }
    }
    return NULL;
}

static bool has_any(const char *name, const char *const *parts)
{
    for (; *parts; parts++)
        if (strstr(name, *parts)) return true;
    return false;
}

gp_forward_compat gp_gpu_forward_compat(const char *name, unsigned pci_class)
{
    /* data-centre parts by the names the driver gives them, matched at word starts of
     * " NAME " ("Tesla V100-SXM2-16GB", "NVIDIA A100 80GB PCIe", "NVIDIA L4", "NVIDIA A2") */
    static const char *const dc[] = {
        " Tesla ", " A100", " A800",  " AX800", " A30",   " A40",   " A10 ", " A10G",
        " A10M",   " A16 ", " A2 ",   " H100",  " H200",  " H800",  " H20",  " GH200",
        " B100",   " B200", " GB200", " B300",  " GB300", " GB10 ", " L40",  " L4 ",
        " L20 ",   " L2 ",  " T4 ",   " V100",  " P100",  " P40 ",  " P4 ",  NULL};
    static const char *const consumer[] = {"GeForce", "TITAN", NULL};
    static const char *const pro[] = {"Quadro",    " RTX A",    " RTX PRO",  " Ada Generation",
                                      " RTX 6000", " RTX 5000", " RTX 4500", " RTX 4000",
                                      " RTX 2000", " NVS ",     " T1000",    " T400",
                                      " T600",     NULL};
    if (!name || !*name)
        return pci_class == 0x030200 ? GP_FC_YES : pci_class ? GP_FC_NO : GP_FC_UNKNOWN;
    char padded[160];
    snprintf(padded, sizeof padded, " %s ", name);
    if (has_any(padded, consumer)) return GP_FC_NO;
    if (strstr(padded, "Server Edition")) return GP_FC_YES; /* RTX PRO 6000 Blackwell Server */
    if (has_any(padded, pro)) return GP_FC_SELECTED;
    if (has_any(padded, dc)) return GP_FC_YES;
    return pci_class == 0x030200 ? GP_FC_YES : GP_FC_NO;
}

bool gp_cuda_major_min_driver(int major, const char **linux_min, const char **windows_min)
{
    static const struct {
        int major;
        const char *linux_min, *windows_min;
    } rows[] = {{11, "450.80.02", "452.39"}, {12, "525.60.13", "528.33"}, {13, "580.65.06", NULL}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].major != major) continue;
        if (linux_min) *linux_min = rows[i].linux_min;
        if (windows_min) *windows_min = rows[i].windows_min;
        return true;
    }
    return false;
}
