/*
 * opencl.h — what the files of the OpenCL backend share: the backend's device, buffer and
 * kernel objects behind the core's `impl` pointers, and the ops each file provides to the
 * table in backend.c.
 */
#ifndef GP_RUNTIME_OPENCL_OPENCL_H
#define GP_RUNTIME_OPENCL_OPENCL_H

#include <stdbool.h>

#include "runtime/backend.h"
#include "runtime/opencl/cl_api.h"
#include "runtime/opencl/device.h"
#include "util/thread.h"

/* dev->impl: one opened OpenCL device. */
typedef struct gp_cl_device {
    const gp_cl_api *api;
    gp_cl_device_info info;
    cl_context ctx;
    bool profiling;           /* queues have CL_QUEUE_PROFILING_ENABLE */
    gp_mutex lock;            /* guards the queue list */
    cl_command_queue *queues; /* every live queue, for device_synchronize */
    size_t num_queues, cap_queues;
} gp_cl_device;

/* buf->impl */
typedef struct gp_cl_buffer {
    cl_mem mem;
    cl_mem ro;     /* the whole buffer as CL_MEM_READ_ONLY, for GP_CBUF parameters (NULL: none) */
    void *mapping; /* while mapped */
    void *host;    /* a shared buffer's own host memory (CL_MEM_USE_HOST_PTR), freed after mem */
} gp_cl_buffer;

/* k->impl. OpenCL kernel objects hold their arguments, so a launch (set arguments + enqueue)
 * holds `lock`: gpuport promises that one kernel may be launched from many threads. */
typedef struct gp_cl_kernel {
    cl_kernel kernel;
    gp_mutex lock;
} gp_cl_kernel;

static inline gp_cl_device *gp_cl_dev(const gp_device_state *dev)
{
    return (gp_cl_device *)dev->impl;
}

static inline cl_command_queue gp_cl_queue(const gp_queue *q)
{
    return (cl_command_queue)q->impl;
}

/* backend.c: waits for every queue of the device (device_synchronize; buffer maps use it so
 * that a map also waits for other queues' use of the buffer). */
gp_status gp_cl_device_finish_all(gp_device_state *dev);

/* buffer.c */
gp_status gp_cl_buffer_create(gp_buffer *buf);
void gp_cl_buffer_release(gp_buffer *buf);
gp_status gp_cl_buffer_wrap(gp_buffer *buf, gp_memory_kind kind, void *memory, size_t offset);
void *gp_cl_buffer_native(const gp_buffer *buf);
gp_status gp_cl_buffer_map(gp_buffer *buf, void **host_ptr);
gp_status gp_cl_buffer_unmap(gp_buffer *buf);
gp_status gp_cl_buffer_write(gp_queue *q, gp_buffer *dst, size_t off, const void *src, size_t n,
                             bool blocking);
gp_status gp_cl_buffer_read(gp_queue *q, gp_buffer *src, size_t off, void *dst, size_t n,
                            bool blocking);
gp_status gp_cl_buffer_copy(gp_queue *q, gp_buffer *dst, size_t dst_off, gp_buffer *src,
                            size_t src_off, size_t n, bool blocking);
gp_status gp_cl_buffer_fill(gp_queue *q, gp_buffer *dst, size_t off, const void *pattern,
                            size_t pattern_size, size_t n, bool blocking);

/* launch.c: programs (with the disk cache), kernels, launches */
gp_status gp_cl_program_build(gp_program *prog, const gp_build_request *req);
void gp_cl_program_release(gp_program *prog);
gp_status gp_cl_kernel_create(gp_kernel *k);
void gp_cl_kernel_release(gp_kernel *k);
gp_status gp_cl_kernel_launch(gp_queue *q, gp_kernel *k, const gp_launch *l);

/* The file extension of OpenCL program binaries in the kernel cache. */
#define GP_CL_CACHE_EXT "clbin"

#endif
