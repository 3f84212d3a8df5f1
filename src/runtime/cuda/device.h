/*
 * device.h — one CUDA device as the backend sees it: its attributes (read once), its primary
 * context (retained while the device is open) and the default stream. Every driver call made
 * for a device runs with its context pushed on the calling thread (gp_cuda_ctx_push/pop), so
 * gpuport never disturbs a context the application made current itself.
 */
#ifndef GP_RUNTIME_CUDA_DEVICE_H
#define GP_RUNTIME_CUDA_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "gpuport/gpuport.h"
#include "runtime/cuda/loader.h"

typedef struct gp_cuda_device {
    const gp_cuda_driver *drv;
    int ordinal;
    CUdevice dev;
    CUcontext ctx; /* the primary context, retained by open */
    char name[256];
    size_t total_memory;
    int cc_major, cc_minor;
    int max_threads;      /* per block */
    int max_block[3];     /* per dimension */
    int max_grid[3];      /* blocks per dimension */
    int shared_per_block; /* bytes without opt-in */
    int sm_count, warp_size, can_map_host, integrated;
    int mem_clock_khz, bus_width_bits;
    /* optional: -1 when the driver does not say */
    int clock_khz, l2_bytes, pci_domain, pci_bus, pci_device;
} gp_cuda_device;

/* Reads the attributes of device `ordinal` (no context is created). */
gp_status gp_cuda_device_query(const gp_cuda_driver *drv, int ordinal, gp_cuda_device *out);

/* Fills the public description (arch "sm_90", driver_version "CUDA 13.0"). */
void gp_cuda_device_fill_info(const gp_cuda_device *d, gp_device_info *info);

/* Peak memory bandwidth in bytes/s from the driver's attributes (memory clock x bus width x 2
 * for double data rate); 0 when the driver does not report them. */
double gp_cuda_device_peak_bandwidth(const gp_cuda_device *d);

/* Queries and retains the primary context. Thread-safe. */
gp_status gp_cuda_device_open(int ordinal, gp_cuda_device **out);
void gp_cuda_device_close(gp_cuda_device *d);

/* Makes the device's context current on this thread until the matching pop. */
gp_status gp_cuda_ctx_push(const gp_cuda_device *d);
void gp_cuda_ctx_pop(const gp_cuda_device *d);

/* The probe of `auto` and `gpuport devices`: the driver, cuInit, the device count, and whether
 * kernels can be had at all (NVRTC or precompiled PTX). Fills outcome, code, device_count and a
 * one-line detail. */
void gp_cuda_probe(gp_selection_entry *out);

#endif
