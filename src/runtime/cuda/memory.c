/*
 * memory.c — CUDA buffers and transfers. DEVICE buffers are cuMemAlloc memory; PINNED and SHARED
 * are page-locked host memory from cuMemHostAlloc, mapped into the device's address space, so a
 * kernel can use them directly and copies to and from them run at full PCIe/NVLink speed.
 * Every transfer goes on the queue's stream; a blocking one then waits for that stream.
 */
#include <stdio.h>
#include <string.h>

#include "runtime/cuda/ops.h"

/* Runs `r` (already called with the context pushed), pops, and turns a failure into a status. */
static gp_status gp_cuda_done(const gp_cuda_device *d, CUresult r, const char *what)
{
    gp_cuda_ctx_pop(d);
    return r == GP_CU_SUCCESS ? GP_OK : gp_cuda_fail(r, what);
}

gp_status gp_cuda_op_buffer_create(gp_buffer *buf)
{
    gp_cuda_device *d = gp_cuda_dev(buf->dev);
    const gp_cuda_driver_api *api = &d->drv->api;
    if (buf->kind != GP_BUFFER_DEVICE && !d->can_map_host)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s cannot map host memory, so it has no %s buffers: use "
                            "GP_BUFFER_DEVICE and copies",
                            d->name, buf->kind == GP_BUFFER_PINNED ? "pinned" : "shared");
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUresult r;
    char what[96];
    if (buf->kind == GP_BUFFER_DEVICE) {
        CUdeviceptr p = 0;
        r = api->cuMemAlloc_v2(&p, buf->size);
        buf->impl = (void *)(uintptr_t)p;
        snprintf(what, sizeof what, "allocating %zu bytes of device memory", buf->size);
    } else {
        void *p = NULL;
        r = api->cuMemHostAlloc(&p, buf->size,
                                GP_CU_MEMHOSTALLOC_PORTABLE | GP_CU_MEMHOSTALLOC_DEVICEMAP);
        buf->impl = p;
        buf->host_ptr = p;
        snprintf(what, sizeof what, "allocating %zu bytes of pinned host memory", buf->size);
    }
    return gp_cuda_done(d, r, what);
}

void gp_cuda_op_buffer_release(gp_buffer *buf)
{
    gp_cuda_device *d = gp_cuda_dev(buf->dev);
    if (!buf->impl || gp_cuda_ctx_push(d) != GP_OK) return;
    if (buf->kind == GP_BUFFER_DEVICE)
        d->drv->api.cuMemFree_v2((CUdeviceptr)(uintptr_t)buf->impl);
    else
        d->drv->api.cuMemFreeHost(buf->impl);
    gp_cuda_ctx_pop(d);
    buf->impl = NULL;
    buf->host_ptr = NULL;
}

/* Another library's device memory (PyTorch, CuPy): a pointer of the primary context, used as is.
 * Host memory would first have to be registered with the driver, which gpuport does not do. */
gp_status gp_cuda_op_buffer_wrap(gp_buffer *buf, gp_memory_kind kind, void *memory, size_t offset)
{
    if (kind != GP_MEMORY_NATIVE)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s does not use host memory in place; copy the data into a buffer "
                            "(gp_buffer_write), or wrap a CUDA device pointer",
                            buf->dev->info.spec);
    buf->kind = GP_BUFFER_DEVICE;
    buf->impl = (void *)((uintptr_t)memory + offset);
    return GP_OK;
}

void *gp_cuda_op_buffer_native(const gp_buffer *buf)
{
    return (void *)(uintptr_t)gp_cuda_buffer_ptr(buf);
}

gp_status gp_cuda_op_buffer_map(gp_buffer *buf, void **host_ptr)
{
    if (buf->kind == GP_BUFFER_DEVICE)
        return gp_error_set(GP_ERR_UNSUPPORTED, "device buffers cannot be mapped: use read/write");
    /* Kernels on any stream may use the memory: wait for the whole device. */
    gp_status st = gp_cuda_op_device_synchronize(buf->dev);
    if (st != GP_OK) return st;
    *host_ptr = buf->host_ptr;
    return GP_OK;
}

gp_status gp_cuda_op_buffer_unmap(gp_buffer *buf)
{
    (void)buf; /* the mapping is permanent; nothing to flush on a coherent host mapping */
    return GP_OK;
}

/* Waits for the stream when the transfer is blocking; the context is pushed. */
static CUresult gp_cuda_finish_if(const gp_cuda_driver_api *api, CUstream s, CUresult r,
                                  bool blocking)
{
    if (r == GP_CU_SUCCESS && blocking) r = api->cuStreamSynchronize(s);
    return r;
}

gp_status gp_cuda_op_buffer_write(gp_queue *q, gp_buffer *dst, size_t off, const void *src,
                                  size_t n, bool blocking)
{
    gp_cuda_device *d = gp_cuda_dev(q->dev);
    const gp_cuda_driver_api *api = &d->drv->api;
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUstream s = gp_cuda_stream(q);
    CUresult r = api->cuMemcpyHtoDAsync_v2(gp_cuda_buffer_ptr(dst) + off, src, n, s);
    return gp_cuda_done(d, gp_cuda_finish_if(api, s, r, blocking), "copying host to device");
}

gp_status gp_cuda_op_buffer_read(gp_queue *q, gp_buffer *src, size_t off, void *dst, size_t n,
                                 bool blocking)
{
    gp_cuda_device *d = gp_cuda_dev(q->dev);
    const gp_cuda_driver_api *api = &d->drv->api;
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUstream s = gp_cuda_stream(q);
    CUresult r = api->cuMemcpyDtoHAsync_v2(dst, gp_cuda_buffer_ptr(src) + off, n, s);
    return gp_cuda_done(d, gp_cuda_finish_if(api, s, r, blocking), "copying device to host");
}

gp_status gp_cuda_op_buffer_copy(gp_queue *q, gp_buffer *dst, size_t dst_off, gp_buffer *src,
                                 size_t src_off, size_t n, bool blocking)
{
    gp_cuda_device *d = gp_cuda_dev(q->dev);
    const gp_cuda_driver_api *api = &d->drv->api;
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUstream s = gp_cuda_stream(q);
    CUresult r = api->cuMemcpyDtoDAsync_v2(gp_cuda_buffer_ptr(dst) + dst_off,
                                           gp_cuda_buffer_ptr(src) + src_off, n, s);
    return gp_cuda_done(d, gp_cuda_finish_if(api, s, r, blocking), "copying device to device");
}

/* An 8- or 16-byte pattern: one strided 32-bit memset per word of the pattern (rows of one
 * word, `pattern_size` bytes apart), all on the stream. */
static CUresult gp_cuda_fill_wide(const gp_cuda_driver_api *api, CUdeviceptr p, const void *pattern,
                                  size_t pattern_size, size_t n, CUstream s)
{
    CUresult r = GP_CU_SUCCESS;
    for (size_t w = 0; w < pattern_size / 4 && r == GP_CU_SUCCESS; w++) {
        uint32_t word;
        memcpy(&word, (const char *)pattern + 4 * w, 4);
        r = api->cuMemsetD2D32Async(p + 4 * w, pattern_size, word, 1, n / pattern_size, s);
    }
    return r;
}

gp_status gp_cuda_op_buffer_fill(gp_queue *q, gp_buffer *dst, size_t off, const void *pattern,
                                 size_t pattern_size, size_t n, bool blocking)
{
    gp_cuda_device *d = gp_cuda_dev(q->dev);
    const gp_cuda_driver_api *api = &d->drv->api;
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUstream s = gp_cuda_stream(q);
    CUdeviceptr p = gp_cuda_buffer_ptr(dst) + off;
    CUresult r;
    if (pattern_size == 1) {
        r = api->cuMemsetD8Async(p, *(const unsigned char *)pattern, n, s);
    } else if (pattern_size == 2) {
        uint16_t v;
        memcpy(&v, pattern, 2);
        r = api->cuMemsetD16Async(p, v, n / 2, s);
    } else if (pattern_size == 4) {
        uint32_t v;
        memcpy(&v, pattern, 4);
        r = api->cuMemsetD32Async(p, v, n / 4, s);
    } else {
        r = gp_cuda_fill_wide(api, p, pattern, pattern_size, n, s);
    }
    return gp_cuda_done(d, gp_cuda_finish_if(api, s, r, blocking), "filling a buffer");
}
