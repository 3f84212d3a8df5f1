/*
 * backend.c — the CUDA backend's entry in the registry: NVIDIA GPUs through the driver API
 * (libcuda.so.1, opened at run time) with kernels compiled by NVRTC or precompiled to PTX.
 */
#include "runtime/cuda/ops.h"

const gp_backend_ops gp_backend_cuda_ops = {
    .id = GP_BACKEND_CUDA,
    .name = "cuda",
    .probe = gp_cuda_op_probe,
    .device_info = gp_cuda_op_device_info,
    .device_open = gp_cuda_op_device_open,
    .device_close = gp_cuda_op_device_close,
    .compiler_id = gp_cuda_op_compiler_id,
    .buffer_create = gp_cuda_op_buffer_create,
    .buffer_release = gp_cuda_op_buffer_release,
    .buffer_map = gp_cuda_op_buffer_map,
    .buffer_unmap = gp_cuda_op_buffer_unmap,
    .buffer_write = gp_cuda_op_buffer_write,
    .buffer_read = gp_cuda_op_buffer_read,
    .buffer_copy = gp_cuda_op_buffer_copy,
    .buffer_fill = gp_cuda_op_buffer_fill,
    .program_build = gp_cuda_op_program_build,
    .program_release = gp_cuda_op_program_release,
    .kernel_create = gp_cuda_op_kernel_create,
    .kernel_release = gp_cuda_op_kernel_release,
    .kernel_launch = gp_cuda_op_kernel_launch,
    .queue_create = gp_cuda_op_queue_create,
    .queue_release = gp_cuda_op_queue_release,
    .queue_finish = gp_cuda_op_queue_finish,
    .event_record = gp_cuda_op_event_record,
    .event_wait = gp_cuda_op_event_wait,
    .event_wait_for = gp_cuda_op_event_wait_for,
    .queue_wait_event = gp_cuda_op_queue_wait_event,
    .event_elapsed_ms = gp_cuda_op_event_elapsed_ms,
    .event_release = gp_cuda_op_event_release,
    .device_synchronize = gp_cuda_op_device_synchronize,
    .buffer_wrap = gp_cuda_op_buffer_wrap,
    .buffer_native = gp_cuda_op_buffer_native,
    .queue_wrap = gp_cuda_op_queue_wrap,
    .queue_native = gp_cuda_op_queue_native,
};
