/* buffer.c — buffers: argument and range checks, then the backend. Every transfer names the
 * buffer's size and the range asked for when it is out of bounds. */
#include <stdint.h>
#include <stdlib.h>

#include "runtime/core.h"
#include "runtime/trace.h"

static const char *gp_kind_name(gp_buffer_kind k)
{
    switch (k) {
    case GP_BUFFER_DEVICE:
        return "device";
    case GP_BUFFER_PINNED:
        return "pinned";
    case GP_BUFFER_SHARED:
        return "shared";
    }
    return "unknown";
}

gp_status gp_buffer_create(gp_device *device, gp_buffer_kind kind, size_t size, gp_buffer **out)
{
    if (!device || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_buffer_create: NULL argument");
    *out = NULL;
    if ((unsigned)kind > GP_BUFFER_SHARED)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_buffer_create: unknown kind %d",
                            (int)kind);
    if (size == 0)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "gp_buffer_create: size 0 (a buffer holds at least one byte)");
    gp_device_state *dev = device->state;
    if (dev->info.max_buffer_size && size > dev->info.max_buffer_size)
        return gp_error_set(GP_ERR_OUT_OF_MEMORY,
                            "a %zu-byte buffer is larger than %s allows in one allocation (%llu "
                            "bytes); split the data",
                            size, dev->info.spec, (unsigned long long)dev->info.max_buffer_size);
    gp_buffer *b = calloc(1, sizeof *b);
    if (!b) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    b->dev = dev;
    b->kind = kind;
    b->size = size;
    b->checks = device->checks;
    gp_status st = dev->ops->buffer_create(b);
    if (st != GP_OK) {
        free(b);
        return st;
    }
    gp_device_state_ref(dev);
    *out = b;
    return GP_OK;
}

gp_status gp_buffer_wrap(gp_device *device, gp_memory_kind kind, void *memory, size_t offset,
                         size_t size, gp_buffer **out)
{
    if (out) *out = NULL;
    if (!device || !memory || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_buffer_wrap: NULL argument");
    if ((unsigned)kind > GP_MEMORY_NATIVE)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_buffer_wrap: unknown memory kind %d",
                            (int)kind);
    if (size == 0)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "gp_buffer_wrap: size 0 (a buffer holds at least one byte)");
    if (offset > SIZE_MAX - size ||
        (kind == GP_MEMORY_HOST && (uintptr_t)memory > UINTPTR_MAX - offset - size))
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "gp_buffer_wrap: %zu bytes at offset %zu run past the end of the "
                            "address space",
                            size, offset);
    gp_device_state *dev = device->state;
    if (!dev->ops->buffer_wrap)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s cannot use memory it did not allocate; copy the data into a "
                            "buffer (gp_buffer_create, gp_buffer_write)",
                            dev->info.spec);
    gp_buffer *b = calloc(1, sizeof *b);
    if (!b) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    b->dev = dev;
    b->size = size;
    b->wrapped = true;
    gp_status st = dev->ops->buffer_wrap(b, kind, memory, offset);
    if (st != GP_OK) {
        free(b);
        return st;
    }
    gp_device_state_ref(dev);
    *out = b;
    return GP_OK;
}

gp_status gp_buffer_native(const gp_buffer *buffer, void **native, size_t *offset, void **host)
{
    if (!buffer || !native || !offset)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_buffer_native: NULL argument");
    const gp_backend_ops *ops = buffer->dev->ops;
    *native = ops->buffer_native ? ops->buffer_native(buffer) : buffer->impl;
    *offset = buffer->offset;
    if (host) *host = buffer->host_ptr;
    return GP_OK;
}

gp_status gp_buffer_release(gp_buffer *buffer)
{
    if (!buffer) return GP_OK;
    gp_device_state *dev = buffer->dev;
    if (buffer->mapped) dev->ops->buffer_unmap(buffer);
    if (!buffer->wrapped)
        dev->ops->buffer_release(buffer);
    else if (dev->ops->buffer_unwrap)
        dev->ops->buffer_unwrap(buffer);
    free(buffer);
    gp_device_state_unref(dev);
    return GP_OK;
}

gp_status gp_buffer_size(const gp_buffer *buffer, size_t *size)
{
    if (!buffer || !size)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_buffer_size: NULL argument");
    *size = buffer->size;
    return GP_OK;
}

gp_status gp_buffer_kind_of(const gp_buffer *buffer, gp_buffer_kind *kind)
{
    if (!buffer || !kind)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_buffer_kind_of: NULL argument");
    *kind = buffer->kind;
    return GP_OK;
}

gp_status gp_buffer_map(gp_buffer *buffer, void **host_ptr)
{
    if (!buffer || !host_ptr)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_buffer_map: NULL argument");
    if (buffer->kind == GP_BUFFER_DEVICE)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "gp_buffer_map: a device buffer is not host-visible; create it as "
                            "GP_BUFFER_PINNED or GP_BUFFER_SHARED, or use gp_buffer_read/write");
    if (buffer->mapped)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_buffer_map: already mapped");
    gp_status st = buffer->dev->ops->buffer_map(buffer, host_ptr);
    if (st == GP_OK) buffer->mapped = true;
    return st;
}

gp_status gp_buffer_unmap(gp_buffer *buffer)
{
    if (!buffer) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_buffer_unmap: NULL buffer");
    if (!buffer->mapped)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_buffer_unmap: not mapped");
    buffer->mapped = false;
    return buffer->dev->ops->buffer_unmap(buffer);
}

static gp_status gp_range_check(const char *fn, const gp_buffer *b, size_t off, size_t n)
{
    if (off > b->size || n > b->size - off)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "%s: bytes %zu..%zu are outside the %zu-byte %s buffer", fn, off,
                            off + n, b->size, gp_kind_name(b->kind));
    if (b->mapped)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "%s: the buffer is mapped; unmap it first",
                            fn);
    return GP_OK;
}

static gp_queue *gp_pick_queue(gp_queue *q, gp_buffer *b)
{
    return q ? q : b->dev->default_queue;
}

static gp_status gp_write(const char *fn, gp_queue *q, gp_buffer *dst, size_t off, const void *src,
                          size_t n, bool blocking)
{
    if (!dst || (!src && n)) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "%s: NULL argument", fn);
    gp_status st = gp_range_check(fn, dst, off, n);
    if (st != GP_OK || n == 0) return st;
    q = gp_pick_queue(q, dst);
    if (q->dev != dst->dev)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "%s: queue and buffer are on different devices", fn);
    if (!gp_tracing()) return dst->dev->ops->buffer_write(q, dst, off, src, n, blocking);
    gp_trace_span sp;
    gp_trace_cmd_begin(q, &sp);
    st = dst->dev->ops->buffer_write(q, dst, off, src, n, blocking);
    gp_trace_cmd_end(q, &sp, st, GP_TRACE_WRITE, "write", NULL, n, NULL, NULL);
    return st;
}

static gp_status gp_read(const char *fn, gp_queue *q, gp_buffer *src, size_t off, void *dst,
                         size_t n, bool blocking)
{
    if (!src || (!dst && n)) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "%s: NULL argument", fn);
    gp_status st = gp_range_check(fn, src, off, n);
    if (st != GP_OK || n == 0) return st;
    q = gp_pick_queue(q, src);
    if (q->dev != src->dev)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "%s: queue and buffer are on different devices", fn);
    if (!gp_tracing()) return src->dev->ops->buffer_read(q, src, off, dst, n, blocking);
    gp_trace_span sp;
    gp_trace_cmd_begin(q, &sp);
    st = src->dev->ops->buffer_read(q, src, off, dst, n, blocking);
    gp_trace_cmd_end(q, &sp, st, GP_TRACE_READ, "read", NULL, n, NULL, NULL);
    return st;
}

static gp_status gp_copy(const char *fn, gp_queue *q, gp_buffer *dst, size_t doff, gp_buffer *src,
                         size_t soff, size_t n, bool blocking)
{
    if (!dst || !src) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "%s: NULL buffer", fn);
    if (dst->dev != src->dev)
        return gp_error_set(
            GP_ERR_INVALID_ARGUMENT,
            "%s: the buffers are on different devices (%s, %s); copy through the host", fn,
            dst->dev->info.spec, src->dev->info.spec);
    gp_status st = gp_range_check(fn, dst, doff, n);
    if (st == GP_OK) st = gp_range_check(fn, src, soff, n);
    if (st != GP_OK || n == 0) return st;
    if (dst == src && doff < soff + n && soff < doff + n)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "%s: source and destination ranges overlap",
                            fn);
    q = gp_pick_queue(q, dst);
    if (q->dev != dst->dev)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "%s: queue and buffer are on different devices", fn);
    if (!gp_tracing()) return dst->dev->ops->buffer_copy(q, dst, doff, src, soff, n, blocking);
    gp_trace_span sp;
    gp_trace_cmd_begin(q, &sp);
    st = dst->dev->ops->buffer_copy(q, dst, doff, src, soff, n, blocking);
    gp_trace_cmd_end(q, &sp, st, GP_TRACE_COPY, "copy", NULL, n, NULL, NULL);
    return st;
}

static gp_status gp_fill(const char *fn, gp_queue *q, gp_buffer *dst, size_t off, const void *pat,
                         size_t psz, size_t n, bool blocking)
{
    if (!dst || !pat) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "%s: NULL argument", fn);
    if (psz != 1 && psz != 2 && psz != 4 && psz != 8 && psz != 16)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "%s: pattern of %zu bytes (use 1, 2, 4, 8 or 16)", fn, psz);
    if (off % psz || n % psz)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "%s: offset %zu and size %zu must be multiples of the %zu-byte pattern",
                            fn, off, n, psz);
    gp_status st = gp_range_check(fn, dst, off, n);
    if (st != GP_OK || n == 0) return st;
    q = gp_pick_queue(q, dst);
    if (q->dev != dst->dev)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "%s: queue and buffer are on different devices", fn);
    if (!gp_tracing()) return dst->dev->ops->buffer_fill(q, dst, off, pat, psz, n, blocking);
    gp_trace_span sp;
    gp_trace_cmd_begin(q, &sp);
    st = dst->dev->ops->buffer_fill(q, dst, off, pat, psz, n, blocking);
    gp_trace_cmd_end(q, &sp, st, GP_TRACE_FILL, "fill", NULL, n, NULL, NULL);
    return st;
}

gp_status gp_buffer_write(gp_buffer *dst, size_t offset, const void *src, size_t size)
{
    return gp_write("gp_buffer_write", NULL, dst, offset, src, size, true);
}
gp_status gp_buffer_read(gp_buffer *src, size_t offset, void *dst, size_t size)
{
    return gp_read("gp_buffer_read", NULL, src, offset, dst, size, true);
}
gp_status gp_buffer_copy(gp_buffer *dst, size_t dst_offset, gp_buffer *src, size_t src_offset,
                         size_t size)
{
    return gp_copy("gp_buffer_copy", NULL, dst, dst_offset, src, src_offset, size, true);
}
gp_status gp_buffer_fill(gp_buffer *dst, size_t offset, const void *pattern, size_t pattern_size,
                         size_t size)
{
    return gp_fill("gp_buffer_fill", NULL, dst, offset, pattern, pattern_size, size, true);
}
gp_status gp_buffer_write_async(gp_queue *queue, gp_buffer *dst, size_t offset, const void *src,
                                size_t size)
{
    return gp_write("gp_buffer_write_async", queue, dst, offset, src, size, false);
}
gp_status gp_buffer_read_async(gp_queue *queue, gp_buffer *src, size_t offset, void *dst,
                               size_t size)
{
    return gp_read("gp_buffer_read_async", queue, src, offset, dst, size, false);
}
gp_status gp_buffer_copy_async(gp_queue *queue, gp_buffer *dst, size_t dst_offset, gp_buffer *src,
                               size_t src_offset, size_t size)
{
    return gp_copy("gp_buffer_copy_async", queue, dst, dst_offset, src, src_offset, size, false);
}
gp_status gp_buffer_fill_async(gp_queue *queue, gp_buffer *dst, size_t offset, const void *pattern,
                               size_t pattern_size, size_t size)
{
    return gp_fill("gp_buffer_fill_async", queue, dst, offset, pattern, pattern_size, size, false);
}
