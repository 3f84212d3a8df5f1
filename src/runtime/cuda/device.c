/*
 * device.c — CUDA devices: attributes, the primary context, and the probe that `auto` and
 * `gpuport devices` use to record why CUDA was or was not chosen.
 */
#include "runtime/cuda/device.h"
#include "runtime/cuda/ops.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/embedded.h"
#include "runtime/cuda/status.h"
#include "runtime/error.h"

static gp_status gp_cuda_attr(const gp_cuda_driver *drv, CUdevice dev, int attr, int *out)
{
    CUresult r = drv->api.cuDeviceGetAttribute(out, attr, dev);
    if (r != GP_CU_SUCCESS) {
        char what[64];
        snprintf(what, sizeof what, "cuDeviceGetAttribute(%d)", attr);
        return gp_cuda_fail(r, what);
    }
    return GP_OK;
}

gp_status gp_cuda_device_query(const gp_cuda_driver *drv, int ordinal, gp_cuda_device *out)
{
    memset(out, 0, sizeof *out);
    out->drv = drv;
    out->ordinal = ordinal;
    CUresult r = drv->api.cuDeviceGet(&out->dev, ordinal);
    if (r != GP_CU_SUCCESS) return gp_cuda_fail(r, "cuDeviceGet");
    r = drv->api.cuDeviceGetName(out->name, (int)sizeof out->name, out->dev);
    if (r != GP_CU_SUCCESS) return gp_cuda_fail(r, "cuDeviceGetName");
    out->name[sizeof out->name - 1] = '\0';
    r = drv->api.cuDeviceTotalMem_v2(&out->total_memory, out->dev);
    if (r != GP_CU_SUCCESS) return gp_cuda_fail(r, "cuDeviceTotalMem");
    const struct {
        int attr;
        int *dst;
    } attrs[] = {
        {GP_CU_ATTR_COMPUTE_CAPABILITY_MAJOR, &out->cc_major},
        {GP_CU_ATTR_COMPUTE_CAPABILITY_MINOR, &out->cc_minor},
        {GP_CU_ATTR_MAX_THREADS_PER_BLOCK, &out->max_threads},
        {GP_CU_ATTR_MAX_BLOCK_DIM_X, &out->max_block[0]},
        {GP_CU_ATTR_MAX_BLOCK_DIM_Y, &out->max_block[1]},
        {GP_CU_ATTR_MAX_BLOCK_DIM_Z, &out->max_block[2]},
        {GP_CU_ATTR_MAX_GRID_DIM_X, &out->max_grid[0]},
        {GP_CU_ATTR_MAX_GRID_DIM_Y, &out->max_grid[1]},
        {GP_CU_ATTR_MAX_GRID_DIM_Z, &out->max_grid[2]},
        {GP_CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK, &out->shared_per_block},
        {GP_CU_ATTR_MULTIPROCESSOR_COUNT, &out->sm_count},
        {GP_CU_ATTR_WARP_SIZE, &out->warp_size},
        {GP_CU_ATTR_CAN_MAP_HOST_MEMORY, &out->can_map_host},
        {GP_CU_ATTR_INTEGRATED, &out->integrated},
        {GP_CU_ATTR_MEMORY_CLOCK_RATE, &out->mem_clock_khz},
        {GP_CU_ATTR_GLOBAL_MEMORY_BUS_WIDTH, &out->bus_width_bits},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        gp_status st = gp_cuda_attr(drv, out->dev, attrs[i].attr, attrs[i].dst);
        if (st != GP_OK) return st;
    }
    /* descriptive only: a driver that does not answer leaves them unknown */
    const struct {
        int attr;
        int *dst;
    } optional[] = {
        {GP_CU_ATTR_CLOCK_RATE, &out->clock_khz},     {GP_CU_ATTR_L2_CACHE_SIZE, &out->l2_bytes},
        {GP_CU_ATTR_PCI_DOMAIN_ID, &out->pci_domain}, {GP_CU_ATTR_PCI_BUS_ID, &out->pci_bus},
        {GP_CU_ATTR_PCI_DEVICE_ID, &out->pci_device},
    };
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++)
        if (drv->api.cuDeviceGetAttribute(optional[i].dst, optional[i].attr, out->dev) != 0)
            *optional[i].dst = -1;
    return GP_OK;
}

void gp_cuda_device_fill_info(const gp_cuda_device *d, gp_device_info *info)
{
    memset(info, 0, sizeof *info);
    info->backend = GP_BACKEND_CUDA;
    info->index = d->ordinal;
    snprintf(info->spec, sizeof info->spec, "cuda:%d", d->ordinal);
    snprintf(info->name, sizeof info->name, "%s", d->name);
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    snprintf(info->driver_version, sizeof info->driver_version, "CUDA %d.%d",
             d->drv->version / 1000, (d->drv->version % 1000) / 10);
    snprintf(info->arch, sizeof info->arch, "sm_%d%d", d->cc_major, d->cc_minor);
    info->total_memory = d->total_memory;
    info->max_shared_memory = (uint64_t)d->shared_per_block;
    info->max_buffer_size = d->total_memory;
    info->compute_units = (uint32_t)d->sm_count;
    info->max_group_size = (uint32_t)d->max_threads;
    for (int i = 0; i < 3; i++)
        info->max_group_dims[i] = (uint32_t)d->max_block[i];
    info->simd_width = (uint32_t)d->warp_size;
    info->compute_capability_major = d->cc_major;
    info->compute_capability_minor = d->cc_minor;
    info->unified_memory = d->integrated ? 1u : 0u;
    info->fp64 = 1;     /* every CUDA device has double, at some rate */
    info->atomic64 = 1; /* and 64-bit atomicAdd/CAS/min/max (double add: sm_60 and later) */
    info->fp16 = d->cc_major * 10 + d->cc_minor >= 53 ? 1u : 0u;
    info->simd_group_width = (uint32_t)d->warp_size;
    info->clock_mhz = d->clock_khz > 0 ? (uint32_t)(d->clock_khz / 1000) : 0;
    info->memory_clock_mhz = d->mem_clock_khz > 0 ? (uint32_t)(d->mem_clock_khz / 1000) : 0;
    info->memory_bus_width = d->bus_width_bits > 0 ? (uint32_t)d->bus_width_bits : 0;
    info->l2_cache_kib = d->l2_bytes > 0 ? (uint32_t)(d->l2_bytes / 1024) : 0;
    if (d->pci_domain >= 0 && d->pci_bus >= 0 && d->pci_device >= 0)
        info->pci_bus_id = (uint32_t)(d->pci_domain & 0xffff) << 16 |
                           (uint32_t)(d->pci_bus & 0xff) << 8 |
                           (uint32_t)(d->pci_device & 0x1f) << 3;
}

double gp_cuda_device_peak_bandwidth(const gp_cuda_device *d)
{
    if (d->mem_clock_khz <= 0 || d->bus_width_bits <= 0) return 0.0;
    return 2.0 * (double)d->mem_clock_khz * 1e3 * ((double)d->bus_width_bits / 8.0);
}

gp_status gp_cuda_device_open(int ordinal, gp_cuda_device **out)
{
    *out = NULL;
    const gp_cuda_driver *drv;
    gp_status st = gp_cuda_driver_get(&drv);
    if (st != GP_OK) return st;
    gp_cuda_device *d = calloc(1, sizeof *d);
    if (!d) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    st = gp_cuda_device_query(drv, ordinal, d);
    if (st != GP_OK) {
        free(d);
        return st;
    }
    CUresult r = drv->api.cuDevicePrimaryCtxRetain(&d->ctx, d->dev);
    if (r != GP_CU_SUCCESS) {
        free(d);
        return gp_cuda_fail_versions(r, "creating the CUDA context", drv->version, 0);
    }
    *out = d;
    return GP_OK;
}

void gp_cuda_device_close(gp_cuda_device *d)
{
    if (!d) return;
    if (d->ctx) d->drv->api.cuDevicePrimaryCtxRelease_v2(d->dev);
    free(d);
}

gp_status gp_cuda_ctx_push(const gp_cuda_device *d)
{
    CUresult r = d->drv->api.cuCtxPushCurrent_v2(d->ctx);
    return r == GP_CU_SUCCESS ? GP_OK : gp_cuda_fail(r, "cuCtxPushCurrent");
}

void gp_cuda_ctx_pop(const gp_cuda_device *d)
{
    CUcontext old;
    d->drv->api.cuCtxPopCurrent_v2(&old);
}

/* Whether kernels can be had on this machine: NVRTC, or PTX built in at build time. */
static bool gp_cuda_have_kernels(char *why, size_t len)
{
    const gp_cuda_nvrtc *nv;
    if (gp_cuda_nvrtc_get(&nv) == GP_OK) {
        snprintf(why, len, "NVRTC %d.%d", nv->major, nv->minor);
        return true;
    }
    if (gp_cuda_embedded_count() > 0) {
        snprintf(why, len, "no NVRTC: only the %zu built-in kernels precompiled to PTX",
                 gp_cuda_embedded_count());
        return true;
    }
    snprintf(why, len, "%s", gp_last_error());
    return false;
}

/* The CUDA version the code gpuport would load needs: NVRTC's own (its output targets it), else
 * that of the nvcc that made the precompiled PTX; 0 when there is neither. */
static int gp_cuda_needed_version(void)
{
    const gp_cuda_nvrtc *nv;
    int v = 0;
    if (gp_cuda_nvrtc_get(&nv) == GP_OK)
        v = nv->major * 1000 + nv->minor * 10;
    else if (gp_cuda_embedded_count() > 0)
        v = gp_cuda_embedded_at(0)->cuda_version;
    gp_error_clear();
    return v;
}

/* The probe's one-line detail; long paths are cut, not overflowed. */
static void gp_cuda_detail(gp_selection_entry *out, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
static void gp_cuda_detail(gp_selection_entry *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->detail, sizeof out->detail, fmt, ap);
    va_end(ap);
}

void gp_cuda_probe(gp_selection_entry *out)
{
    memset(out, 0, sizeof *out);
    out->backend = GP_BACKEND_CUDA;
    out->device_index = -1;
    const gp_cuda_driver *drv;
    gp_status st = gp_cuda_driver_get(&drv);
    if (st != GP_OK) {
        int version = 0;
        int init = gp_cuda_driver_init_result(&version);
        if (init < 0) {
            out->outcome = GP_SELECT_LIBRARY_NOT_FOUND;
            gp_cuda_detail(out, "%s", gp_last_error());
            return;
        }
        out->code = init;
        out->outcome = init == GP_CU_ERROR_NO_DEVICE ? GP_SELECT_NO_DEVICE : GP_SELECT_INIT_ERROR;
        if (init == GP_CU_ERROR_INSUFFICIENT_DRIVER ||
            init == GP_CU_ERROR_CALL_REQUIRES_NEWER_DRIVER)
            /* Say which version is needed: that of the code gpuport would load. */
            gp_cuda_fail_versions(init, "cuInit failed", version, gp_cuda_needed_version());
        gp_cuda_detail(out, "%s", gp_last_error());
        return;
    }
    int count = 0;
    CUresult r = drv->api.cuDeviceGetCount(&count);
    if (r != GP_CU_SUCCESS || count <= 0) {
        out->outcome = GP_SELECT_NO_DEVICE;
        out->code = r != GP_CU_SUCCESS ? r : GP_CU_ERROR_NO_DEVICE;
        gp_cuda_fail_versions(r != GP_CU_SUCCESS ? r : GP_CU_ERROR_NO_DEVICE, "cuDeviceGetCount",
                              drv->version, 0);
        gp_cuda_detail(out, "%s", gp_last_error());
        return;
    }
    out->device_count = (uint32_t)count;
    char kernels[400];
    if (!gp_cuda_have_kernels(kernels, sizeof kernels)) {
        out->outcome = GP_SELECT_LIBRARY_NOT_FOUND;
        snprintf(out->detail, sizeof out->detail, "%d device(s), but no way to compile kernels: %s",
                 count, kernels);
        return;
    }
    int needed = gp_cuda_needed_version();
    if (needed / 1000 > drv->version / 1000) {
        /* Code from a newer major CUDA than the driver's cannot load: the driver is too old. */
        out->outcome = GP_SELECT_INIT_ERROR;
        out->code = GP_CU_ERROR_INSUFFICIENT_DRIVER;
        char what[600];
        snprintf(what, sizeof what, "%d device(s), but the kernels would come from %s", count,
                 kernels);
        gp_cuda_fail_versions(GP_CU_ERROR_INSUFFICIENT_DRIVER, what, drv->version, needed);
        gp_cuda_detail(out,
                       "%s; or install an NVRTC of the driver's CUDA (pip install "
                       "nvidia-cuda-nvrtc-cu%d)",
                       gp_last_error(), drv->version / 1000);
        return;
    }
    out->outcome = GP_SELECT_AVAILABLE;
    gp_cuda_detail(out, "CUDA %d.%d driver (%s), %d device(s), %s", drv->version / 1000,
                   (drv->version % 1000) / 10, drv->path, count, kernels);
}

/* ---- the backend table's device functions ------------------------------------------------ */

gp_status gp_cuda_op_probe(gp_selection_entry *out)
{
    gp_cuda_probe(out);
    return GP_OK;
}

gp_status gp_cuda_op_device_info(uint32_t index, gp_device_info *info)
{
    const gp_cuda_driver *drv;
    gp_status st = gp_cuda_driver_get(&drv);
    if (st != GP_OK) return st;
    gp_cuda_device d;
    st = gp_cuda_device_query(drv, (int)index, &d);
    if (st != GP_OK) return st;
    gp_cuda_device_fill_info(&d, info);
    return GP_OK;
}

gp_status gp_cuda_op_device_open(gp_device_state *dev)
{
    gp_cuda_device *d;
    gp_status st = gp_cuda_device_open((int)dev->index, &d);
    if (st != GP_OK) return st;
    dev->impl = d;
    return GP_OK;
}

void gp_cuda_op_device_close(gp_device_state *dev)
{
    gp_cuda_device_close(gp_cuda_dev(dev));
    dev->impl = NULL;
}

gp_status gp_cuda_op_device_synchronize(gp_device_state *dev)
{
    gp_cuda_device *d = gp_cuda_dev(dev);
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUresult r = d->drv->api.cuCtxSynchronize();
    gp_cuda_ctx_pop(d);
    return r == GP_CU_SUCCESS ? GP_OK : gp_cuda_fail(r, "synchronizing the CUDA device");
}
