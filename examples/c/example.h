/* example.h — what the C examples share: checking every call (printing gp_last_error(), which
 * names the cause and the fix) and opening the `auto` device with the reason it was chosen. */
#ifndef GPUPORT_EXAMPLE_H
#define GPUPORT_EXAMPLE_H

#include <gpuport/gpuport.h>
#include <stdio.h>

/* Returns 1 from the calling function when `call` fails, after printing why. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        gp_status st_ = (call);                                                                    \
        if (st_ != GP_OK) {                                                                        \
            fprintf(stderr, "%s: %s: %s\n", EXAMPLE_NAME, gp_status_name(st_), gp_last_error());   \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

/* Opens the best device of this machine and prints it with the selection record (why this one,
 * why not the others). GP_OK or the failing status. */
static inline gp_status example_open_auto(gp_device **dev)
{
    gp_status st = gp_device_open("auto", dev);
    if (st != GP_OK) return st;
    gp_device_info info;
    char record[4096];
    if ((st = gp_device_get_info(*dev, &info)) != GP_OK ||
        (st = gp_device_selection_text(*dev, record, sizeof record, NULL)) != GP_OK)
        return st;
    printf("device: %s (%s)\nwhy this device:\n%s", info.spec, info.name, record);
    return GP_OK;
}

#endif
