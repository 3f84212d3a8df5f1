/*
 * ops.h — the CUDA backend's functions behind the table of backend.h (backend.c fills it in),
 * grouped by the file that holds them, and the small helpers they share.
 */
#ifndef GP_RUNTIME_CUDA_OPS_H
#define GP_RUNTIME_CUDA_OPS_H

#include "runtime/backend.h"
#include "runtime/cuda/device.h"
#include "runtime/cuda/status.h"

static inline gp_cuda_device *gp_cuda_dev(const gp_device_state *s)
{
    return (gp_cuda_device *)s->impl;
}

static inline const gp_cuda_driver_api *gp_cuda_api(const gp_device_state *s)
{
    return &gp_cuda_dev(s)->drv->api;
}

static inline CUstream gp_cuda_stream(const gp_queue *q)
{
    return (CUstream)q->impl;
}

/* The address a kernel or a copy uses for a buffer: device memory, or the mapped host memory of
 * PINNED and SHARED buffers (one address space with unified addressing). */
static inline CUdeviceptr gp_cuda_buffer_ptr(const gp_buffer *b)
{
    return b->kind == GP_BUFFER_DEVICE ? (CUdeviceptr)(uintptr_t)b->impl
                                       : (CUdeviceptr)(uintptr_t)b->host_ptr;
}

/* device.c */
gp_status gp_cuda_op_probe(gp_selection_entry *out);
gp_status gp_cuda_op_device_info(uint32_t index, gp_device_info *info);
gp_status gp_cuda_op_device_open(gp_device_state *dev);
void gp_cuda_op_device_close(gp_device_state *dev);
gp_status gp_cuda_op_device_synchronize(gp_device_state *dev);

/* memory.c */
gp_status gp_cuda_op_buffer_create(gp_buffer *buf);
void gp_cuda_op_buffer_release(gp_buffer *buf);
gp_status gp_cuda_op_buffer_wrap(gp_buffer *buf, gp_memory_kind kind, void *memory, size_t offset);
void *gp_cuda_op_buffer_native(const gp_buffer *buf);
gp_status gp_cuda_op_buffer_map(gp_buffer *buf, void **host_ptr);
gp_status gp_cuda_op_buffer_unmap(gp_buffer *buf);
gp_status gp_cuda_op_buffer_write(gp_queue *q, gp_buffer *dst, size_t off, const void *src,
                                  size_t n, bool blocking);
gp_status gp_cuda_op_buffer_read(gp_queue *q, gp_buffer *src, size_t off, void *dst, size_t n,
                                 bool blocking);
gp_status gp_cuda_op_buffer_copy(gp_queue *q, gp_buffer *dst, size_t dst_off, gp_buffer *src,
                                 size_t src_off, size_t n, bool blocking);
gp_status gp_cuda_op_buffer_fill(gp_queue *q, gp_buffer *dst, size_t off, const void *pattern,
                                 size_t pattern_size, size_t n, bool blocking);

/* queue.c */
gp_status gp_cuda_op_queue_create(gp_queue *q);
void gp_cuda_op_queue_release(gp_queue *q);
gp_status gp_cuda_op_queue_wrap(gp_queue *q, void *native);
void *gp_cuda_op_queue_native(const gp_queue *q);
gp_status gp_cuda_op_queue_finish(gp_queue *q);
gp_status gp_cuda_op_event_record(gp_queue *q, gp_event *e);
gp_status gp_cuda_op_event_wait(gp_event *e);
gp_status gp_cuda_op_event_wait_for(gp_event *e, uint32_t ms, int *done);
gp_status gp_cuda_op_queue_wait_event(gp_queue *q, gp_event *e);
gp_status gp_cuda_op_event_elapsed_ms(gp_event *start, gp_event *end, double *ms);
void gp_cuda_op_event_release(gp_event *e);

/* program.c */
gp_status gp_cuda_op_compiler_id(gp_device_state *dev, char *buf, size_t cap);
gp_status gp_cuda_op_program_build(gp_program *prog, const gp_build_request *req);
void gp_cuda_op_program_release(gp_program *prog);
gp_status gp_cuda_op_kernel_create(gp_kernel *k);
void gp_cuda_op_kernel_release(gp_kernel *k);
gp_status gp_cuda_op_kernel_launch(gp_queue *q, gp_kernel *k, const gp_launch *l);

#endif
