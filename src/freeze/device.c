/* device.c — the device gpuport's `auto` would run kernels on here, and why: the backend is the
 * first thing that differs between the GPU server and the Mac, and the selection record says why
 * the others were skipped. Read through the public runtime API (gpuport.h). */
#include <gpuport/gpuport.h>
#include <stdio.h>

#include "freeze/collect.h"

cJSON *gp_freeze_device(void)
{
    gp_device *dev = NULL;
    if (gp_device_open("auto", &dev) != GP_OK) return gp_freeze_unavailable(gp_last_error());
    cJSON *o = cJSON_CreateObject();
    gp_device_info info;
    if (gp_device_get_info(dev, &info) == GP_OK) {
        cJSON_AddStringToObject(o, "backend", gp_backend_name((gp_backend)info.backend));
        cJSON_AddStringToObject(o, "spec", info.spec);
        cJSON_AddStringToObject(o, "name", info.name);
        cJSON_AddStringToObject(o, "driver_version", info.driver_version);
        cJSON_AddStringToObject(o, "arch", info.arch);
        if (info.compute_capability_major) {
            char cc[16];
            snprintf(cc, sizeof cc, "%d.%d", info.compute_capability_major,
                     info.compute_capability_minor);
            cJSON_AddStringToObject(o, "compute_capability", cc);
        }
        cJSON_AddBoolToObject(o, "fp64", info.fp64 != 0);
    }
    gp_selection_entry sel[GP_BACKEND_COUNT];
    uint32_t n = 0;
    if (gp_device_selection(dev, sel, GP_BACKEND_COUNT, &n) == GP_OK) {
        cJSON *rec = cJSON_AddObjectToObject(o, "selection");
        for (uint32_t i = 0; i < n; i++)
            cJSON_AddStringToObject(rec, gp_backend_name((gp_backend)sel[i].backend),
                                    gp_select_outcome_name((gp_select_outcome)sel[i].outcome));
    }
    gp_device_release(dev);
    return o;
}
