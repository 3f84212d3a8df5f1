/* registry.c — the one table of backends (in the order `auto` tries them) and the devices opened
 * in this process. Each backend is probed once; each device is opened once and shared by all
 * handles, buffers, programs and queues that reference it, and closed with the last of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"

/* One line per backend. GP_HAVE_BACKEND_<NAME> comes from runtime.cmake. */
static const gp_backend_ops *gp_registry_ops(gp_backend id)
{
    switch (id) {
#if GP_HAVE_BACKEND_CUDA
    case GP_BACKEND_CUDA:
        return &gp_backend_cuda_ops;
#endif
#if GP_HAVE_BACKEND_METAL
    case GP_BACKEND_METAL:
        return &gp_backend_metal_ops;
#endif
#if GP_HAVE_BACKEND_OPENCL
    case GP_BACKEND_OPENCL:
        return &gp_backend_opencl_ops;
#endif
#if GP_HAVE_BACKEND_CPU
    case GP_BACKEND_CPU:
        return &gp_backend_cpu_ops;
#endif
    default:
        return NULL;
    }
}

typedef struct gp_registry_slot {
    bool probed;
    gp_selection_entry probe;
    gp_device_state **states; /* probe.device_count entries, opened on demand */
} gp_registry_slot;

static gp_mutex gp_registry_lock = GP_MUTEX_INIT;
static gp_registry_slot gp_registry[GP_BACKEND_COUNT];

const gp_backend_ops *gp_backend_get(gp_backend id)
{
    return gp_registry_ops(id);
}

const char *gp_backend_name(gp_backend backend)
{
    switch (backend) {
    case GP_BACKEND_CUDA:
        return "cuda";
    case GP_BACKEND_METAL:
        return "metal";
    case GP_BACKEND_OPENCL:
        return "opencl";
    case GP_BACKEND_CPU:
        return "cpu";
    default:
        return "unknown";
    }
}

const char *gp_select_outcome_name(gp_select_outcome outcome)
{
    switch (outcome) {
    case GP_SELECT_CHOSEN:
        return "chosen";
    case GP_SELECT_AVAILABLE:
        return "available";
    case GP_SELECT_LIBRARY_NOT_FOUND:
        return "library not found";
    case GP_SELECT_NO_DEVICE:
        return "no device";
    case GP_SELECT_INIT_ERROR:
        return "init error";
    case GP_SELECT_EXCLUDED:
        return "excluded by GPUPORT_DEVICE";
    case GP_SELECT_NOT_BUILT:
        return "not built on this platform";
    case GP_SELECT_OPEN_FAILED:
        return "open failed";
    case GP_SELECT_NOT_TRIED:
        return "not tried";
    case GP_SELECT_UNSUITABLE:
        return "cannot run this program";
    }
    return "unknown";
}

static void gp_registry_probe_locked(gp_backend b)
{
    gp_registry_slot *s = &gp_registry[b];
    if (s->probed) return;
    memset(&s->probe, 0, sizeof s->probe);
    s->probe.backend = (int32_t)b;
    s->probe.device_index = -1;
    const gp_backend_ops *ops = gp_registry_ops(b);
    if (!ops) {
        s->probe.outcome = GP_SELECT_NOT_BUILT;
        if (b == GP_BACKEND_METAL)
            gp_copy_str(s->probe.detail, sizeof s->probe.detail,
                        "Metal exists only on Apple platforms");
        else { /* formatted aside: GCC 13 at -O3 misjudges the room left in s->probe.detail */
            char why[96];
            snprintf(why, sizeof why, "this libgpuport was built without the %s backend",
                     gp_backend_name(b));
            gp_copy_str(s->probe.detail, sizeof s->probe.detail, why);
        }
    } else {
        gp_status st = ops->probe(&s->probe);
        s->probe.backend = (int32_t)b;
        s->probe.device_index = -1;
        if (st != GP_OK && s->probe.outcome == GP_SELECT_AVAILABLE) {
            s->probe.outcome = GP_SELECT_INIT_ERROR;
            s->probe.code = st;
            gp_copy_str(s->probe.detail, sizeof s->probe.detail, gp_last_error());
        }
        if (s->probe.outcome == GP_SELECT_AVAILABLE && s->probe.device_count == 0)
            s->probe.outcome = GP_SELECT_NO_DEVICE;
        if (s->probe.outcome != GP_SELECT_AVAILABLE) s->probe.device_count = 0;
        if (s->probe.device_count) {
            s->states = calloc(s->probe.device_count, sizeof *s->states);
            if (!s->states) s->probe.device_count = 0;
        }
    }
    s->probed = true;
    gp_log_debug("probed %s: %s%s%s", gp_backend_name(b),
                 gp_select_outcome_name((gp_select_outcome)s->probe.outcome),
                 s->probe.detail[0] ? ": " : "", s->probe.detail);
}

void gp_registry_probe(gp_backend b, gp_selection_entry *out)
{
    gp_mutex_lock(&gp_registry_lock);
    gp_registry_probe_locked(b);
    *out = gp_registry[b].probe;
    gp_mutex_unlock(&gp_registry_lock);
}

gp_status gp_backend_probe(gp_backend backend, gp_selection_entry *out)
{
    if ((unsigned)backend >= GP_BACKEND_COUNT || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_backend_probe: no backend %d or NULL out",
                            (int)backend);
    gp_registry_probe(backend, out);
    return GP_OK;
}

gp_status gp_device_count(uint32_t *count)
{
    if (!count) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_count: NULL count");
    uint32_t n = 0;
    for (int b = 0; b < GP_BACKEND_COUNT; b++) {
        gp_selection_entry e;
        gp_registry_probe((gp_backend)b, &e);
        n += e.device_count;
    }
    *count = n;
    return GP_OK;
}

static void gp_info_fill_spec(gp_device_info *info, gp_backend b, uint32_t index)
{
    info->backend = (int32_t)b;
    info->index = (int32_t)index;
    snprintf(info->spec, sizeof info->spec, "%s:%u", gp_backend_name(b), index);
}

gp_status gp_device_enumerate(uint32_t index, gp_device_info *info)
{
    if (!info) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_enumerate: NULL info");
    uint32_t i = index;
    for (int b = 0; b < GP_BACKEND_COUNT; b++) {
        gp_selection_entry e;
        gp_registry_probe((gp_backend)b, &e);
        if (i < e.device_count) {
            memset(info, 0, sizeof *info);
            gp_status st = gp_registry_ops((gp_backend)b)->device_info(i, info);
            gp_info_fill_spec(info, (gp_backend)b, i);
            return st;
        }
        i -= e.device_count;
    }
    return gp_error_set(GP_ERR_NOT_FOUND,
                        "no device %u: this machine has %u (see `gpuport devices`)", index,
                        index - i);
}

static gp_status gp_state_open(gp_backend b, uint32_t index, gp_device_state **out)
{
    const gp_backend_ops *ops = gp_registry_ops(b);
    gp_device_state *d = calloc(1, sizeof *d);
    if (!d) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory opening a device");
    d->ops = ops;
    d->index = index;
    gp_status st = ops->device_info(index, &d->info);
    gp_info_fill_spec(&d->info, b, index);
    if (st == GP_OK) st = ops->device_open(d);
    if (st != GP_OK) {
        free(d);
        return st;
    }
    d->default_queue = calloc(1, sizeof *d->default_queue);
    if (!d->default_queue) st = gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    if (st == GP_OK) {
        d->default_queue->dev = d;
        d->default_queue->is_default = true;
        st = ops->queue_create(d->default_queue);
    }
    if (st != GP_OK) {
        free(d->default_queue);
        ops->device_close(d);
        free(d);
        return st;
    }
    gp_mutex_init(&d->lock);
    d->refs = 1;
    *out = d;
    return GP_OK;
}

gp_status gp_registry_acquire(gp_backend b, uint32_t index, gp_device_state **out)
{
    gp_mutex_lock(&gp_registry_lock);
    gp_registry_probe_locked(b);
    gp_registry_slot *s = &gp_registry[b];
    gp_status st = GP_OK;
    if (index >= s->probe.device_count) {
        st = gp_error_set(GP_ERR_NOT_FOUND, "%s:%u: the %s backend has %u device(s)%s%s",
                          gp_backend_name(b), index, gp_backend_name(b), s->probe.device_count,
                          s->probe.detail[0] ? " — " : "", s->probe.detail);
    } else if (s->states[index]) {
        gp_device_state_ref(s->states[index]);
        *out = s->states[index];
    } else {
        st = gp_state_open(b, index, &s->states[index]);
        if (st == GP_OK) *out = s->states[index];
    }
    gp_mutex_unlock(&gp_registry_lock);
    return st;
}

void gp_device_state_ref(gp_device_state *dev)
{
    gp_mutex_lock(&dev->lock);
    dev->refs++;
    gp_mutex_unlock(&dev->lock);
}

void gp_device_state_unref(gp_device_state *dev)
{
    gp_mutex_lock(&gp_registry_lock); /* so that acquire never sees a dying state */
    gp_mutex_lock(&dev->lock);
    int left = --dev->refs;
    gp_mutex_unlock(&dev->lock);
    if (left == 0) {
        gp_backend b = (gp_backend)dev->info.backend;
        gp_registry[b].states[dev->index] = NULL;
        dev->ops->device_synchronize(dev);
        gp_program_cache_drop(dev);
        dev->ops->queue_release(dev->default_queue);
        free(dev->default_queue);
        dev->ops->device_close(dev);
        gp_mutex_destroy(&dev->lock);
        free(dev);
    }
    gp_mutex_unlock(&gp_registry_lock);
}
