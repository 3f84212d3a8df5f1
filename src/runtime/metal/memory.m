/*
 * memory.m — Metal buffers and transfers. Every kind of buffer is one MTLBuffer in shared
 * storage: on Apple Silicon (unified memory) the host and the GPU use the same pages, so a
 * buffer is zero-copy and maps for free. Transfers keep queue order: blocking ones wait for the
 * queue and then copy on the host; asynchronous ones are blit commands on the queue (a write
 * first copies the caller's bytes into a staging buffer, so they may be reused at once).
 * Blits need 4-byte aligned offsets and sizes on macOS; unaligned transfers go the host way.
 */
#include <string.h>
#include <unistd.h>

#include "runtime/metal/metal_impl.h"

static id<MTLBuffer> gp_mtl_buf(const gp_buffer *b)
{
    return (id<MTLBuffer>)b->impl;
}

gp_status gp_mtl_op_buffer_create(gp_buffer *buf)
{
    @autoreleasepool {
        gp_mtl_device *m = gp_mtl_dev(buf->dev);
        id<MTLBuffer> b = [m->device newBufferWithLength:buf->size
                                                 options:MTLResourceStorageModeShared];
        if (!b)
            return gp_error_set(GP_ERR_OUT_OF_MEMORY,
                                "Metal could not allocate %zu bytes on %s (recommended working "
                                "set: %llu bytes)",
                                buf->size, m->device.name.UTF8String,
                                (unsigned long long)m->device.recommendedMaxWorkingSetSize);
        buf->impl = b;
        buf->host_ptr = b.contents;
        return GP_OK;
    }
}

/* Another library's memory: an MTLBuffer of this device (retained while gpuport's buffer lives;
 * PyTorch's MPS tensors are such buffers, in private storage), or host memory Metal uses in place
 * (newBufferWithBytesNoCopy takes whole pages: the buffer covers the pages that hold the range). */
gp_status gp_mtl_op_buffer_wrap(gp_buffer *buf, gp_memory_kind kind, void *memory, size_t offset)
{
    @autoreleasepool {
        gp_mtl_device *m = gp_mtl_dev(buf->dev);
        id<MTLBuffer> b = nil;
        if (kind == GP_MEMORY_NATIVE) {
            b = (id<MTLBuffer>)memory;
            if (b.device != m->device)
                return gp_error_set(
                    GP_ERR_INVALID_ARGUMENT, "the Metal buffer belongs to %s, not to %s (%s)",
                    b.device.name.UTF8String, buf->dev->info.spec, m->device.name.UTF8String);
            if (offset > b.length || buf->size > b.length - offset)
                return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                                    "bytes %zu..%zu are outside the %zu-byte Metal buffer", offset,
                                    offset + buf->size, (size_t)b.length);
            [b retain];
            buf->offset = offset;
        } else {
            uintptr_t page = (uintptr_t)getpagesize();
            uintptr_t start = (uintptr_t)memory + offset;
            uintptr_t base = start & ~(page - 1);
            size_t len = (size_t)(((start + buf->size - base) + page - 1) & ~(page - 1));
            /* the memory stays its owner's: the deallocator frees nothing */
            b = [m->device newBufferWithBytesNoCopy:(void *)base
                                             length:len
                                            options:MTLResourceStorageModeShared
                                        deallocator:^(void *p, NSUInteger n) {
                                          (void)p;
                                          (void)n;
                                        }];
            if (!b)
                return gp_error_set(GP_ERR_UNSUPPORTED,
                                    "Metal on %s does not use this host memory in place; copy it "
                                    "into a buffer (gp_buffer_write)",
                                    buf->dev->info.spec);
            buf->offset = (size_t)(start - base);
        }
        bool shared = b.storageMode == MTLStorageModeShared;
        buf->impl = b;
        buf->kind = shared ? GP_BUFFER_SHARED : GP_BUFFER_DEVICE;
        buf->host_ptr = shared ? (char *)b.contents + buf->offset : NULL;
        return GP_OK;
    }
}

/* A wrapped buffer in private storage: the host cannot reach it, and blits need 4-byte aligned
 * ranges. */
static gp_status gp_mtl_hostless(const char *what)
{
    return gp_error_set(GP_ERR_UNSUPPORTED,
                        "%s: the Metal buffer is another library's, in private storage: the host "
                        "cannot reach it, and a blit needs offsets and sizes that are multiples of "
                        "4; copy it into a gpuport buffer (gp_buffer_copy) and use that",
                        what);
}

void gp_mtl_op_buffer_release(gp_buffer *buf)
{
    [gp_mtl_buf(buf) release];
    buf->impl = NULL;
    buf->host_ptr = NULL;
}

gp_status gp_mtl_op_buffer_map(gp_buffer *buf, void **host_ptr)
{
    /* Kernels on any queue may use the buffer: wait for the whole device. */
    gp_status st = gp_mtl_op_device_synchronize(buf->dev);
    if (st != GP_OK) return st;
    *host_ptr = buf->host_ptr;
    return GP_OK;
}

gp_status gp_mtl_op_buffer_unmap(gp_buffer *buf)
{
    (void)buf; /* shared storage is coherent: nothing to flush */
    return GP_OK;
}

/* Commits cb on q (lock held by the caller until it returns) and, for a blocking transfer,
 * waits for the queue. */
static gp_status gp_mtl_submit(gp_mtl_queue *q, id<MTLCommandBuffer> cb, bool blocking)
{
    gp_mtl_queue_commit(q, cb);
    pthread_mutex_unlock(&q->lock);
    return blocking ? gp_mtl_queue_wait(q) : GP_OK;
}

static bool gp_mtl_aligned(size_t a, size_t b, size_t c)
{
    return ((a | b | c) & 3u) == 0;
}

gp_status gp_mtl_op_buffer_write(gp_queue *q, gp_buffer *dst, size_t off, const void *src, size_t n,
                                 bool blocking)
{
    @autoreleasepool {
        gp_mtl_queue *mq = q->impl;
        bool aligned = gp_mtl_aligned(off + dst->offset, n, 0);
        if (!dst->host_ptr && !aligned) return gp_mtl_hostless("gp_buffer_write");
        if (dst->host_ptr && (blocking || !aligned)) {
            gp_status st = gp_mtl_queue_wait(mq);
            if (st != GP_OK) return st;
            memcpy((char *)dst->host_ptr + off, src, n);
            return GP_OK;
        }
        id<MTLBuffer> staging = [mq->dev->device newBufferWithBytes:src
                                                             length:n
                                                            options:MTLResourceStorageModeShared];
        if (!staging)
            return gp_error_set(GP_ERR_OUT_OF_MEMORY,
                                "Metal could not allocate a %zu-byte staging buffer", n);
        pthread_mutex_lock(&mq->lock);
        id<MTLCommandBuffer> cb = gp_mtl_queue_begin(mq);
        if (!cb) {
            pthread_mutex_unlock(&mq->lock);
            [staging release];
            return GP_ERR_BACKEND;
        }
        id<MTLBlitCommandEncoder> blit = [cb blitCommandEncoder];
        [blit copyFromBuffer:staging
                 sourceOffset:0
                     toBuffer:gp_mtl_buf(dst)
            destinationOffset:off + dst->offset
                         size:n];
        [blit endEncoding];
        [staging release]; /* the command buffer keeps it until it completes */
        return gp_mtl_submit(mq, cb, blocking);
    }
}

gp_status gp_mtl_op_buffer_read(gp_queue *q, gp_buffer *src, size_t off, void *dst, size_t n,
                                bool blocking)
{
    @autoreleasepool {
        gp_mtl_queue *mq = q->impl;
        if (!src->host_ptr) return gp_mtl_hostless("gp_buffer_read");
        if (blocking) {
            gp_status st = gp_mtl_queue_wait(mq);
            if (st != GP_OK) return st;
            memcpy(dst, (const char *)src->host_ptr + off, n);
            return GP_OK;
        }
        /* After everything before it on the queue, the host copies the bytes out. */
        pthread_mutex_lock(&mq->lock);
        id<MTLCommandBuffer> cb = gp_mtl_queue_begin(mq);
        if (!cb) {
            pthread_mutex_unlock(&mq->lock);
            return GP_ERR_BACKEND;
        }
        id<MTLBuffer> from = gp_mtl_buf(src); /* retained by the block */
        size_t at = src->offset + off;
        [cb addCompletedHandler:^(id<MTLCommandBuffer> done) {
          if (done.status != MTLCommandBufferStatusError)
              memcpy(dst, (const char *)from.contents + at, n);
        }];
        return gp_mtl_submit(mq, cb, false);
    }
}

gp_status gp_mtl_op_buffer_copy(gp_queue *q, gp_buffer *dst, size_t dst_off, gp_buffer *src,
                                size_t src_off, size_t n, bool blocking)
{
    @autoreleasepool {
        gp_mtl_queue *mq = q->impl;
        if (!gp_mtl_aligned(dst_off + dst->offset, src_off + src->offset, n)) {
            if (!dst->host_ptr) return gp_mtl_hostless("gp_buffer_copy");
            if (!src->host_ptr) return gp_mtl_hostless("gp_buffer_copy");
            gp_status st = gp_mtl_queue_wait(mq);
            if (st != GP_OK) return st;
            memmove((char *)dst->host_ptr + dst_off, (const char *)src->host_ptr + src_off, n);
            return GP_OK;
        }
        pthread_mutex_lock(&mq->lock);
        id<MTLCommandBuffer> cb = gp_mtl_queue_begin(mq);
        if (!cb) {
            pthread_mutex_unlock(&mq->lock);
            return GP_ERR_BACKEND;
        }
        id<MTLBlitCommandEncoder> blit = [cb blitCommandEncoder];
        [blit copyFromBuffer:gp_mtl_buf(src)
                 sourceOffset:src_off + src->offset
                     toBuffer:gp_mtl_buf(dst)
            destinationOffset:dst_off + dst->offset
                         size:n];
        [blit endEncoding];
        return gp_mtl_submit(mq, cb, blocking);
    }
}

static void gp_mtl_repeat(void *dst, const void *pattern, size_t pattern_size, size_t n)
{
    for (size_t i = 0; i < n; i += pattern_size)
        memcpy((char *)dst + i, pattern, pattern_size);
}

gp_status gp_mtl_op_buffer_fill(gp_queue *q, gp_buffer *dst, size_t off, const void *pattern,
                                size_t pattern_size, size_t n, bool blocking)
{
    @autoreleasepool {
        gp_mtl_queue *mq = q->impl;
        const unsigned char *p = pattern;
        bool one_byte = true;
        for (size_t i = 1; i < pattern_size; i++)
            one_byte = one_byte && p[i] == p[0];
        if (!gp_mtl_aligned(off + dst->offset, n, 0)) {
            if (!dst->host_ptr) return gp_mtl_hostless("gp_buffer_fill");
            gp_status st = gp_mtl_queue_wait(mq);
            if (st != GP_OK) return st;
            gp_mtl_repeat((char *)dst->host_ptr + off, pattern, pattern_size, n);
            return GP_OK;
        }
        id<MTLBuffer> staging = nil;
        if (!one_byte) {
            staging = [mq->dev->device newBufferWithLength:n options:MTLResourceStorageModeShared];
            if (!staging)
                return gp_error_set(GP_ERR_OUT_OF_MEMORY,
                                    "Metal could not allocate a %zu-byte staging buffer", n);
            gp_mtl_repeat(staging.contents, pattern, pattern_size, n);
        }
        pthread_mutex_lock(&mq->lock);
        id<MTLCommandBuffer> cb = gp_mtl_queue_begin(mq);
        if (!cb) {
            pthread_mutex_unlock(&mq->lock);
            [staging release];
            return GP_ERR_BACKEND;
        }
        id<MTLBlitCommandEncoder> blit = [cb blitCommandEncoder];
        if (one_byte)
            [blit fillBuffer:gp_mtl_buf(dst) range:NSMakeRange(off + dst->offset, n) value:p[0]];
        else
            [blit copyFromBuffer:staging
                     sourceOffset:0
                         toBuffer:gp_mtl_buf(dst)
                destinationOffset:off + dst->offset
                             size:n];
        [blit endEncoding];
        [staging release];
        return gp_mtl_submit(mq, cb, blocking);
    }
}
