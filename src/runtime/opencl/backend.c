/*
 * backend.c — the OpenCL backend's table for the core: probing (loader, platforms, devices,
 * each miss with its reason), device facts, contexts, in-order profiling queues, events and
 * synchronisation. Buffers are in buffer.c, programs and launches in launch.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/opencl/errors.h"
#include "runtime/opencl/loader.h"
#include "runtime/opencl/opencl.h"
#include "runtime/opencl/program.h"
#include "runtime/opencl/queue.h"

/* The process's view of OpenCL, taken once: the registry's state for this backend. */
static gp_once gp_cl_probe_once = GP_ONCE_INIT;
static const gp_cl_api *gp_cl_probe_api;
static gp_cl_device_info *gp_cl_probe_devices;
static size_t gp_cl_probe_count;
static gp_selection_entry gp_cl_probe_entry;

static void gp_cl_probe_detail(gp_selection_entry *e)
{
    /* "PoCL 3.1+debian: 1 device (pthread-haswell-AMD EPYC)", platforms joined by "; " */
    size_t o = 0;
    e->detail[0] = '\0';
    for (size_t i = 0; i < gp_cl_probe_count && o < sizeof e->detail; i++) {
        const gp_cl_device_info *d = &gp_cl_probe_devices[i];
        o += (size_t)snprintf(e->detail + o, sizeof e->detail - o, "%sopencl:%zu %s (%s, %s)",
                              i ? "; " : "", i, d->name, d->platform_name, d->driver_version);
    }
}

static void gp_cl_probe_run(void)
{
    gp_selection_entry *e = &gp_cl_probe_entry;
    memset(e, 0, sizeof *e);
    e->backend = GP_BACKEND_OPENCL;
    e->device_index = -1;
    char why[2048] = "";
    gp_cl_probe_api = gp_cl_api_get(why, sizeof why);
    if (!gp_cl_probe_api) {
        /* a library that loads but is not an ICD loader is an init error, else not found */
        e->outcome =
            strstr(why, "not an OpenCL 1.2") ? GP_SELECT_INIT_ERROR : GP_SELECT_LIBRARY_NOT_FOUND;
        gp_copy_str(e->detail, sizeof e->detail, why);
        return;
    }
    cl_int err = CL_SUCCESS;
    gp_cl_enum_result r = gp_cl_devices_enumerate(gp_cl_probe_api, &gp_cl_probe_devices,
                                                  &gp_cl_probe_count, why, sizeof why, &err);
    switch (r) {
    case GP_CL_ENUM_OK:
        e->outcome = GP_SELECT_AVAILABLE;
        e->device_count = (uint32_t)gp_cl_probe_count;
        gp_cl_probe_detail(e);
        return;
    case GP_CL_ENUM_NO_PLATFORM:
    case GP_CL_ENUM_NO_DEVICE:
        e->outcome = GP_SELECT_NO_DEVICE;
        break;
    case GP_CL_ENUM_ERROR:
        e->outcome = GP_SELECT_INIT_ERROR;
        e->code = err;
        break;
    }
    gp_copy_str(e->detail, sizeof e->detail, why);
}

static gp_status gp_cl_probe(gp_selection_entry *out)
{
    gp_once_call(&gp_cl_probe_once, gp_cl_probe_run);
    *out = gp_cl_probe_entry;
    return GP_OK;
}

static uint32_t gp_cl_u32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static gp_status gp_cl_device_info_get(uint32_t index, gp_device_info *info)
{
    gp_once_call(&gp_cl_probe_once, gp_cl_probe_run);
    if (index >= gp_cl_probe_count)
        return gp_error_set(GP_ERR_NOT_FOUND, "opencl:%u: there are %zu OpenCL devices", index,
                            gp_cl_probe_count);
    const gp_cl_device_info *d = &gp_cl_probe_devices[index];
    memset(info, 0, sizeof *info);
    info->backend = GP_BACKEND_OPENCL;
    info->index = (int32_t)index;
    snprintf(info->spec, sizeof info->spec, "opencl:%u", index);
    gp_copy_str(info->name, sizeof info->name, d->name);
    gp_copy_str(info->vendor, sizeof info->vendor, d->vendor);
    gp_copy_str(info->driver_version, sizeof info->driver_version, d->driver_version);
    /* OpenCL has no architecture name; the device name is what changes the binary (with the
     * driver version, which the compiler id adds to the cache key). */
    gp_copy_str(info->arch, sizeof info->arch, d->name);
    info->total_memory = d->global_mem_bytes;
    info->max_shared_memory = d->local_mem_bytes;
    info->max_buffer_size = d->max_alloc_bytes;
    info->compute_units = d->compute_units;
    info->max_group_size = gp_cl_u32(d->max_group_size);
    for (int i = 0; i < 3; i++)
        info->max_group_dims[i] = gp_cl_u32(d->max_item_sizes[i]);
    info->simd_width = d->simd_width;
    info->unified_memory = d->unified_memory;
    info->fp64 = d->fp64;
    info->atomic64 = d->atomic64;
    info->fp16 = d->fp16;
    info->clock_mhz = d->clock_mhz; /* CL_DEVICE_MAX_CLOCK_FREQUENCY */
    return GP_OK;
}

static gp_status gp_cl_device_open(gp_device_state *dev)
{
    gp_once_call(&gp_cl_probe_once, gp_cl_probe_run);
    if (dev->index >= gp_cl_probe_count)
        return gp_error_set(GP_ERR_NOT_FOUND, "opencl:%u: no such OpenCL device", dev->index);
    const gp_cl_device_info *d = &gp_cl_probe_devices[dev->index];
    if (!d->available)
        return gp_error_set(GP_ERR_BACKEND,
                            "opencl:%u (%s) is not available (CL_DEVICE_AVAILABLE "
                            "is false): another process may hold it, or it is disabled",
                            dev->index, d->name);
    if (!d->compiler_available)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "opencl:%u (%s) has no OpenCL C compiler, and "
                            "gpuport builds kernels from source; use another device",
                            dev->index, d->name);
    gp_cl_device *cd = calloc(1, sizeof *cd);
    if (!cd) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    cd->api = gp_cl_probe_api;
    cd->info = *d;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)d->platform, 0};
    cl_int err;
    cd->ctx = cd->api->clCreateContext(props, 1, &d->device, NULL, NULL, &err);
    if (!cd->ctx) {
        free(cd);
        return gp_cl_fail(err, "clCreateContext for opencl:%u (%s)", dev->index, d->name);
    }
    gp_mutex_init(&cd->lock);
    dev->impl = cd;
    /* gp_printf through a print buffer (bounded, ordered, counted), unless asked for the
     * driver's printf */
    const char *print = getenv("GPUPORT_OPENCL_PRINT");
    dev->print_records_typed = !(print && !strcmp(print, "driver"));
    if (print && *print && strcmp(print, "driver") && strcmp(print, "buffer"))
        gp_log_info("GPUPORT_OPENCL_PRINT=%s is neither 'buffer' nor 'driver'; using the print "
                    "buffer",
                    print);
    gp_log_debug("opencl:%u: context on %s (%s %s)", dev->index, d->name, d->platform_name,
                 d->driver_version);
    return GP_OK;
}

static void gp_cl_device_close(gp_device_state *dev)
{
    gp_cl_device *cd = gp_cl_dev(dev);
    if (!cd) return;
    cd->api->clReleaseContext(cd->ctx);
    gp_mutex_destroy(&cd->lock);
    free(cd->queues);
    free(cd);
    dev->impl = NULL;
}

static gp_status gp_cl_compiler_id(gp_device_state *dev, char *buf, size_t cap)
{
    const gp_cl_device_info *d = &gp_cl_dev(dev)->info;
    /* Everything that can change a program binary: platform (with its version), device, driver
     * and OpenCL C version. */
    snprintf(buf, cap, "opencl platform=%s (%s) device=%s driver=%s c=%s%s", d->platform_name,
             d->platform_version, d->name, d->driver_version, d->c_version,
             /* binaries of that PoCL built before the conditional-barrier workaround */
             gp_cl_pocl_conditional_barrier_bug(d->platform_name, d->driver_version)
                 ? " barriers=O0"
                 : "");
    return GP_OK;
}

/* ---- queues and events ---------------------------------------------------------------------- */

static gp_status gp_cl_queue_create_op(gp_queue *q)
{
    gp_cl_device *cd = gp_cl_dev(q->dev);
    cl_command_queue cq;
    bool profiling;
    gp_status st = gp_cl_queue_create(cd->api, cd->ctx, cd->info.device, &cq, &profiling);
    if (st != GP_OK) return st;
    gp_mutex_lock(&cd->lock);
    if (cd->num_queues == cd->cap_queues) {
        size_t cap = cd->cap_queues ? cd->cap_queues * 2 : 4;
        cl_command_queue *grown = realloc(cd->queues, cap * sizeof *grown);
        if (!grown) {
            gp_mutex_unlock(&cd->lock);
            cd->api->clReleaseCommandQueue(cq);
            return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
        }
        cd->queues = grown;
        cd->cap_queues = cap;
    }
    cd->queues[cd->num_queues++] = cq;
    if (cd->num_queues == 1) cd->profiling = profiling;
    gp_mutex_unlock(&cd->lock);
    q->impl = cq;
    return GP_OK;
}

static void gp_cl_queue_release_op(gp_queue *q)
{
    gp_cl_device *cd = gp_cl_dev(q->dev);
    cl_command_queue cq = gp_cl_queue(q);
    gp_mutex_lock(&cd->lock);
    for (size_t i = 0; i < cd->num_queues; i++) {
        if (cd->queues[i] == cq) {
            cd->queues[i] = cd->queues[--cd->num_queues];
            break;
        }
    }
    gp_mutex_unlock(&cd->lock);
    cd->api->clReleaseCommandQueue(cq);
    q->impl = NULL;
}

static gp_status gp_cl_queue_finish_op(gp_queue *q)
{
    cl_int err = gp_cl_dev(q->dev)->api->clFinish(gp_cl_queue(q));
    return err == CL_SUCCESS ? GP_OK : gp_cl_fail(err, "clFinish on %s", q->dev->info.spec);
}

static gp_status gp_cl_event_record_op(gp_queue *q, gp_event *e)
{
    cl_event ev = NULL;
    cl_int err = gp_cl_dev(q->dev)->api->clEnqueueMarkerWithWaitList(gp_cl_queue(q), 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return gp_cl_fail(err, "clEnqueueMarkerWithWaitList on %s", q->dev->info.spec);
    e->impl = ev;
    return GP_OK;
}

static gp_status gp_cl_event_wait_op(gp_event *e)
{
    cl_event ev = (cl_event)e->impl;
    cl_int err = gp_cl_dev(e->dev)->api->clWaitForEvents(1, &ev);
    return err == CL_SUCCESS ? GP_OK : gp_cl_fail(err, "clWaitForEvents");
}

/* A wait for an event with a time limit: OpenCL waits only without one, so the event's
 * completion callback wakes a condition variable. The waiter is shared by the caller and the
 * callback (which may come after the caller gave up): the last of the two frees it. */
typedef struct gp_cl_waiter {
    gp_mutex mu;
    gp_cond cv;
    int done, refs;
} gp_cl_waiter;

static void gp_cl_waiter_unref(gp_cl_waiter *w)
{
    gp_mutex_lock(&w->mu);
    int left = --w->refs;
    gp_mutex_unlock(&w->mu);
    if (left) return;
    gp_cond_destroy(&w->cv);
    gp_mutex_destroy(&w->mu);
    free(w);
}

static void GP_CL_CALL gp_cl_waiter_done(cl_event ev, cl_int status, void *user)
{
    (void)ev, (void)status;
    gp_cl_waiter *w = user;
    gp_mutex_lock(&w->mu);
    w->done = 1;
    gp_cond_broadcast(&w->cv);
    gp_mutex_unlock(&w->mu);
    gp_cl_waiter_unref(w);
}

static gp_status gp_cl_event_wait_for_op(gp_event *e, uint32_t ms, int *done)
{
    const gp_cl_api *api = gp_cl_dev(e->dev)->api;
    cl_event ev = (cl_event)e->impl;
    cl_int status = CL_COMPLETE;
    cl_int err =
        api->clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    if (err != CL_SUCCESS) return gp_cl_fail(err, "clGetEventInfo");
    if (status < 0) return gp_cl_fail(status, "the work before the event failed");
    if (status == CL_COMPLETE || ms == 0) {
        *done = status == CL_COMPLETE;
        return GP_OK;
    }
    gp_cl_waiter *w = calloc(1, sizeof *w);
    if (!w) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    gp_mutex_init(&w->mu);
    gp_cond_init(&w->cv);
    w->refs = 2;
    err = api->clSetEventCallback(ev, CL_COMPLETE, gp_cl_waiter_done, w);
    if (err != CL_SUCCESS) {
        w->refs = 1;
        gp_cl_waiter_unref(w);
        return gp_cl_fail(err, "clSetEventCallback");
    }
    gp_mutex_lock(&w->mu);
    bool more = true;
    while (!w->done && more)
        more = gp_cond_wait_ms(&w->cv, &w->mu, ms);
    *done = w->done;
    gp_mutex_unlock(&w->mu);
    gp_cl_waiter_unref(w);
    return GP_OK;
}

static gp_status gp_cl_queue_wait_event_op(gp_queue *q, gp_event *e)
{
    cl_event ev = (cl_event)e->impl;
    cl_int err = gp_cl_dev(q->dev)->api->clEnqueueBarrierWithWaitList(gp_cl_queue(q), 1, &ev, NULL);
    return err == CL_SUCCESS ? GP_OK : gp_cl_fail(err, "clEnqueueBarrierWithWaitList");
}

static gp_status gp_cl_event_elapsed_op(gp_event *start, gp_event *end, double *ms)
{
    gp_cl_device *cd = gp_cl_dev(start->dev);
    if (!cd->profiling)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s: the OpenCL driver refused profiling queues, "
                            "so events carry no times",
                            start->dev->info.spec);
    return gp_cl_event_elapsed_ms(cd->api, (cl_event)start->impl, (cl_event)end->impl, ms);
}

/* The timeline's device times of a command (its own event) or a marker. */
static gp_status gp_cl_command_times_op(gp_device_state *dev, void *native, uint64_t *start,
                                        uint64_t *end)
{
    gp_cl_device *cd = gp_cl_dev(dev);
    cl_event ev = native;
    cl_ulong a = 0, b = 0;
    if (!cd->profiling) return GP_ERR_UNSUPPORTED;
    if (cd->api->clWaitForEvents(1, &ev) != CL_SUCCESS ||
        cd->api->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL) !=
            CL_SUCCESS ||
        cd->api->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL) !=
            CL_SUCCESS)
        return GP_ERR_BACKEND;
    *start = a;
    *end = b;
    return GP_OK;
}

static void gp_cl_command_release_op(gp_device_state *dev, void *native)
{
    if (native) gp_cl_dev(dev)->api->clReleaseEvent((cl_event)native);
}

static void gp_cl_event_release_op(gp_event *e)
{
    if (e->impl) gp_cl_dev(e->dev)->api->clReleaseEvent((cl_event)e->impl);
    e->impl = NULL;
}

gp_status gp_cl_device_finish_all(gp_device_state *dev)
{
    gp_cl_device *cd = gp_cl_dev(dev);
    gp_status st = GP_OK;
    /* clFinish is called under the lock so that a queue cannot be released meanwhile; queues
     * are not created or released on hot paths. */
    gp_mutex_lock(&cd->lock);
    for (size_t i = 0; i < cd->num_queues && st == GP_OK; i++) {
        cl_int err = cd->api->clFinish(cd->queues[i]);
        if (err != CL_SUCCESS) st = gp_cl_fail(err, "clFinish on %s", dev->info.spec);
    }
    gp_mutex_unlock(&cd->lock);
    return st;
}

const gp_backend_ops gp_backend_opencl_ops = {
    .id = GP_BACKEND_OPENCL,
    .name = "opencl",
    .probe = gp_cl_probe,
    .device_info = gp_cl_device_info_get,
    .device_open = gp_cl_device_open,
    .device_close = gp_cl_device_close,
    .compiler_id = gp_cl_compiler_id,
    .buffer_create = gp_cl_buffer_create,
    .buffer_release = gp_cl_buffer_release,
    .buffer_map = gp_cl_buffer_map,
    .buffer_unmap = gp_cl_buffer_unmap,
    .buffer_write = gp_cl_buffer_write,
    .buffer_read = gp_cl_buffer_read,
    .buffer_copy = gp_cl_buffer_copy,
    .buffer_fill = gp_cl_buffer_fill,
    .program_build = gp_cl_program_build,
    .program_release = gp_cl_program_release,
    .kernel_create = gp_cl_kernel_create,
    .kernel_release = gp_cl_kernel_release,
    .kernel_launch = gp_cl_kernel_launch,
    .queue_create = gp_cl_queue_create_op,
    .queue_release = gp_cl_queue_release_op,
    .queue_finish = gp_cl_queue_finish_op,
    .event_record = gp_cl_event_record_op,
    .event_wait = gp_cl_event_wait_op,
    .event_wait_for = gp_cl_event_wait_for_op,
    .command_times = gp_cl_command_times_op,
    .command_release = gp_cl_command_release_op,
    .queue_wait_event = gp_cl_queue_wait_event_op,
    .event_elapsed_ms = gp_cl_event_elapsed_op,
    .event_release = gp_cl_event_release_op,
    .device_synchronize = gp_cl_device_finish_all,
    .buffer_wrap = gp_cl_buffer_wrap,
    .buffer_unwrap = gp_cl_buffer_release, /* the cl_mem is gpuport's; the memory is not */
    .buffer_native = gp_cl_buffer_native,
};
