/* cuda_driver.c — see cuda_driver.h. */
#include "util/cuda_driver.h"

#include <stdio.h>

static const struct {
    int cuda; /* major*10 + minor */
    const char *driver;
} rows[] = {
    {110, "450.36.06"}, {111, "455.23"},    {112, "460.27.03"}, {113, "465.19.01"},
    {114, "470.42.01"}, {115, "495.29.05"}, {116, "510.39.01"}, {117, "515.43.04"},
    {118, "520.61.05"}, {120, "525.60.13"}, {121, "530.30.02"}, {122, "535.54.03"},
    {123, "545.23.06"}, {124, "550.54.14"}, {125, "555.42.02"}, {126, "560.28.03"},
    {128, "570.26"},    {129, "575.51.03"}, {130, "580.65.06"}, {131, "590.44.01"},
    {132, "595.45.04"},
};

const char *gp_cuda_min_driver_for(int major, int minor)
{
    int want = major * 10 + minor;
    if (major < 11 || minor < 0 || minor > 9) return NULL;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].cuda >= want) return rows[i].driver;
    return NULL;
}

/* Compares two dotted versions numerically, part by part (missing parts are 0). */
static int version_cmp(const char *a, const char *b)
{
    unsigned pa[3] = {0}, pb[3] = {0};
    sscanf(a, "%u.%u.%u", &pa[0], &pa[1], &pa[2]);
    sscanf(b, "%u.%u.%u", &pb[0], &pb[1], &pb[2]);
    for (int i = 0; i < 3; i++)
        if (pa[i] != pb[i]) return pa[i] < pb[i] ? -1 : 1;
    return 0;
}

int gp_cuda_max_for_driver(const char *driver_version)
{
    unsigned major;
    if (!driver_version || sscanf(driver_version, "%u", &major) != 1) return 0;
    int best = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (version_cmp(driver_version, rows[i].driver) >= 0) best = rows[i].cuda;
    return best;
}
