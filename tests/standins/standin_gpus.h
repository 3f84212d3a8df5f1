/* standin_gpus.h — the device list shared by the STAND-IN driver libraries (libcuda_standin.c,
 * libnvml_standin.c), parsed from $GPUPORT_STANDIN_GPUS at each call:
 * "name|cc|memory MiB|SMs|uuid;..." (missing fields: CC 0.0, 0 MiB, 0 SMs, no UUID). */
#ifndef GP_STANDIN_GPUS_H
#define GP_STANDIN_GPUS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gp_standin_gpu {
    char name[96];
    int cc_major, cc_minor;
    unsigned long long memory_mib;
    int sms;
    char uuid[96];
} gp_standin_gpu;

/* The i-th ';'-separated entry of $GPUPORT_STANDIN_GPUS; false when there is none. */
static inline bool gp_standin_gpu_get(int index, gp_standin_gpu *g)
{
    const char *s = getenv("GPUPORT_STANDIN_GPUS");
    if (!s || index < 0) return false;
    for (int i = 0; i < index; i++) {
        s = strchr(s, ';');
        if (!s) return false;
        s++;
    }
    if (!*s || *s == ';') return false;
    char entry[512];
    snprintf(entry, sizeof entry, "%.*s", (int)strcspn(s, ";"), s);
    memset(g, 0, sizeof *g);
    char *field[5] = {entry, NULL, NULL, NULL, NULL};
    for (int k = 1; k < 5; k++) {
        char *bar = field[k - 1] ? strchr(field[k - 1], '|') : NULL;
        if (bar) *bar = '\0', field[k] = bar + 1;
    }
    snprintf(g->name, sizeof g->name, "%.95s", field[0]);
    if (field[1]) sscanf(field[1], "%d.%d", &g->cc_major, &g->cc_minor);
    if (field[2]) g->memory_mib = strtoull(field[2], NULL, 10);
    if (field[3]) g->sms = atoi(field[3]);
    if (field[4]) snprintf(g->uuid, sizeof g->uuid, "%.95s", field[4]);
    return true;
}

static inline int gp_standin_gpu_count(void)
{
    gp_standin_gpu g;
    int n = 0;
    while (n < 64 && gp_standin_gpu_get(n, &g))
        n++;
    return n;
}

#endif
