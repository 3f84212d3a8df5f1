/*
 * buffer.c — OpenCL buffers for the core: device memory, host-allocated (pinned) memory that
 * the driver can map cheaply, and shared buffers where the device uses host memory
 * (CL_DEVICE_HOST_UNIFIED_MEMORY), plus the transfers on a queue.
 */
#include <stdlib.h>

#include "runtime/opencl/errors.h"
#include "util/sys.h"
#include "runtime/opencl/opencl.h"

static gp_cl_buffer *gp_cl_buf(const gp_buffer *b)
{
    return (gp_cl_buffer *)b->impl;
}

/* The whole buffer again, read-only: what a GP_CBUF parameter is given, so that the driver knows
 * the kernel only reads it (and may refuse or ignore a write through a cast). A driver that
 * cannot make it leaves it NULL, and the parameter gets the buffer itself. */
static void gp_cl_read_only_view(const gp_cl_device *cd, gp_cl_buffer *b, size_t size)
{
    cl_buffer_region region = {0, size};
    cl_int err = CL_SUCCESS;
    b->ro = cd->api->clCreateSubBuffer(b->mem, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION,
                                       &region, &err);
    if (err != CL_SUCCESS) b->ro = NULL;
}

gp_status gp_cl_buffer_create(gp_buffer *buf)
{
    gp_cl_device *cd = gp_cl_dev(buf->dev);
    const char *spec = buf->dev->info.spec;
    cl_mem_flags flags = CL_MEM_READ_WRITE;
    if (buf->kind == GP_BUFFER_SHARED && !cd->info.unified_memory)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s (%s) does not share memory with the host "
                            "(CL_DEVICE_HOST_UNIFIED_MEMORY is false): use GP_BUFFER_PINNED or "
                            "GP_BUFFER_DEVICE with gp_buffer_write/read",
                            spec, cd->info.name);
    gp_cl_buffer *b = calloc(1, sizeof *b);
    if (!b) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    /* A shared buffer is host memory gpuport allocates (page-aligned, which drivers need to use
     * it in place): its address is the buffer's host address, so numpy, torch and DLPack
     * consumers see it as CPU memory. */
    if (buf->kind == GP_BUFFER_SHARED) {
        b->host = gp_aligned_alloc((buf->size + 4095) / 4096 * 4096, 4096);
        if (!b->host) {
            free(b);
            return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory for %zu bytes",
                                buf->size);
        }
        flags |= CL_MEM_USE_HOST_PTR;
    } else if (buf->kind != GP_BUFFER_DEVICE) {
        flags |= CL_MEM_ALLOC_HOST_PTR;
    }
    cl_int err;
    b->mem = cd->api->clCreateBuffer(cd->ctx, flags, buf->size, b->host, &err);
    if (!b->mem) {
        gp_aligned_free(b->host);
        free(b);
        return gp_cl_fail(err, "clCreateBuffer of %zu bytes on %s", buf->size, spec);
    }
    gp_cl_read_only_view(cd, b, buf->size);
    buf->impl = b;
    buf->host_ptr = b->host;
    return GP_OK;
}

/* Host memory of another library, through CL_MEM_USE_HOST_PTR: a device that shares memory with
 * the host uses it in place; another may keep a copy, which a map brings back to the host. */
gp_status gp_cl_buffer_wrap(gp_buffer *buf, gp_memory_kind kind, void *memory, size_t offset)
{
    gp_cl_device *cd = gp_cl_dev(buf->dev);
    if (kind != GP_MEMORY_HOST)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s takes only host memory to wrap; copy another library's OpenCL "
                            "buffer into a gpuport buffer",
                            buf->dev->info.spec);
    gp_cl_buffer *b = calloc(1, sizeof *b);
    if (!b) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    cl_int err;
    void *p = (char *)memory + offset;
    b->mem = cd->api->clCreateBuffer(cd->ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, buf->size, p,
                                     &err);
    if (!b->mem) {
        free(b);
        return gp_cl_fail(err, "clCreateBuffer over %zu bytes of host memory on %s", buf->size,
                          buf->dev->info.spec);
    }
    gp_cl_read_only_view(cd, b, buf->size);
    buf->impl = b;
    buf->kind = cd->info.unified_memory ? GP_BUFFER_SHARED : GP_BUFFER_PINNED;
    buf->host_ptr = cd->info.unified_memory ? p : NULL;
    return GP_OK;
}

void *gp_cl_buffer_native(const gp_buffer *buf)
{
    return gp_cl_buf(buf)->mem;
}

void gp_cl_buffer_release(gp_buffer *buf)
{
    gp_cl_buffer *b = gp_cl_buf(buf);
    if (!b) return;
    if (b->ro) gp_cl_dev(buf->dev)->api->clReleaseMemObject(b->ro);
    gp_cl_dev(buf->dev)->api->clReleaseMemObject(b->mem);
    if (b->host) gp_aligned_free(b->host);
    free(b);
    buf->impl = NULL;
}

gp_status gp_cl_buffer_map(gp_buffer *buf, void **host_ptr)
{
    gp_cl_device *cd = gp_cl_dev(buf->dev);
    gp_cl_buffer *b = gp_cl_buf(buf);
    /* A map must also wait for commands on other queues that use the buffer; OpenCL orders a
     * map only within its own queue, so every queue of the device is finished first. */
    gp_status st = gp_cl_device_finish_all(buf->dev);
    if (st != GP_OK) return st;
    cl_int err;
    /* blocking, on the default queue: in order after everything enqueued there */
    void *p =
        cd->api->clEnqueueMapBuffer(gp_cl_queue(buf->dev->default_queue), b->mem, CL_TRUE,
                                    CL_MAP_READ | CL_MAP_WRITE, 0, buf->size, 0, NULL, NULL, &err);
    if (!p)
        return gp_cl_fail(err, "clEnqueueMapBuffer of %zu bytes on %s", buf->size,
                          buf->dev->info.spec);
    b->mapping = p;
    *host_ptr = p;
    return GP_OK;
}

gp_status gp_cl_buffer_unmap(gp_buffer *buf)
{
    gp_cl_device *cd = gp_cl_dev(buf->dev);
    gp_cl_buffer *b = gp_cl_buf(buf);
    cl_command_queue q = gp_cl_queue(buf->dev->default_queue);
    cl_event ev = NULL;
    cl_int err = cd->api->clEnqueueUnmapMemObject(q, b->mem, b->mapping, 0, NULL, &ev);
    b->mapping = NULL;
    if (err != CL_SUCCESS)
        return gp_cl_fail(err, "clEnqueueUnmapMemObject on %s", buf->dev->info.spec);
    /* The host's writes must be visible to the next command on any queue. */
    err = cd->api->clWaitForEvents(1, &ev);
    cd->api->clReleaseEvent(ev);
    return err == CL_SUCCESS ? GP_OK : gp_cl_fail(err, "waiting for the unmap");
}

/* Waits for `ev` when blocking; releases it in any case. */
static gp_status gp_cl_finish_event(gp_cl_device *cd, cl_event ev, bool blocking, const char *what)
{
    cl_int err = CL_SUCCESS;
    if (gp_trace_capture && cd->api->clRetainEvent(ev) == CL_SUCCESS) *gp_trace_capture = ev;
    if (blocking) err = cd->api->clWaitForEvents(1, &ev);
    cd->api->clReleaseEvent(ev);
    return err == CL_SUCCESS ? GP_OK : gp_cl_fail(err, "waiting for %s", what);
}

gp_status gp_cl_buffer_write(gp_queue *q, gp_buffer *dst, size_t off, const void *src, size_t n,
                             bool blocking)
{
    gp_cl_device *cd = gp_cl_dev(q->dev);
    cl_int err = cd->api->clEnqueueWriteBuffer(gp_cl_queue(q), gp_cl_buf(dst)->mem,
                                               blocking ? CL_TRUE : CL_FALSE, off, n, src, 0, NULL,
                                               (cl_event *)gp_trace_capture);
    return err == CL_SUCCESS ? GP_OK
                             : gp_cl_fail(err, "clEnqueueWriteBuffer of %zu bytes at %zu on %s", n,
                                          off, q->dev->info.spec);
}

gp_status gp_cl_buffer_read(gp_queue *q, gp_buffer *src, size_t off, void *dst, size_t n,
                            bool blocking)
{
    gp_cl_device *cd = gp_cl_dev(q->dev);
    cl_int err = cd->api->clEnqueueReadBuffer(gp_cl_queue(q), gp_cl_buf(src)->mem,
                                              blocking ? CL_TRUE : CL_FALSE, off, n, dst, 0, NULL,
                                              (cl_event *)gp_trace_capture);
    return err == CL_SUCCESS ? GP_OK
                             : gp_cl_fail(err, "clEnqueueReadBuffer of %zu bytes at %zu on %s", n,
                                          off, q->dev->info.spec);
}

gp_status gp_cl_buffer_copy(gp_queue *q, gp_buffer *dst, size_t dst_off, gp_buffer *src,
                            size_t src_off, size_t n, bool blocking)
{
    gp_cl_device *cd = gp_cl_dev(q->dev);
    cl_event ev = NULL;
    cl_int err =
        cd->api->clEnqueueCopyBuffer(gp_cl_queue(q), gp_cl_buf(src)->mem, gp_cl_buf(dst)->mem,
                                     src_off, dst_off, n, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return gp_cl_fail(err, "clEnqueueCopyBuffer of %zu bytes on %s", n, q->dev->info.spec);
    return gp_cl_finish_event(cd, ev, blocking, "a buffer copy");
}

gp_status gp_cl_buffer_fill(gp_queue *q, gp_buffer *dst, size_t off, const void *pattern,
                            size_t pattern_size, size_t n, bool blocking)
{
    gp_cl_device *cd = gp_cl_dev(q->dev);
    cl_event ev = NULL;
    cl_int err = cd->api->clEnqueueFillBuffer(gp_cl_queue(q), gp_cl_buf(dst)->mem, pattern,
                                              pattern_size, off, n, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return gp_cl_fail(err, "clEnqueueFillBuffer of %zu bytes on %s", n, q->dev->info.spec);
    return gp_cl_finish_event(cd, ev, blocking, "a buffer fill");
}
