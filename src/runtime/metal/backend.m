/*
 * backend.m — the Metal backend's entry in the registry: Apple GPUs (and the AMD/Intel GPUs of
 * older Macs) through Metal.framework, with kernels compiled from the dialect's Metal prelude.
 * Built only on Apple platforms.
 */
#include "runtime/metal/metal_impl.h"

const gp_backend_ops gp_backend_metal_ops = {
    .id = GP_BACKEND_METAL,
    .name = "metal",
    .probe = gp_mtl_op_probe,
    .device_info = gp_mtl_op_device_info,
    .device_open = gp_mtl_op_device_open,
    .device_close = gp_mtl_op_device_close,
    .compiler_id = gp_mtl_op_compiler_id,
    .buffer_create = gp_mtl_op_buffer_create,
    .buffer_release = gp_mtl_op_buffer_release,
    .buffer_map = gp_mtl_op_buffer_map,
    .buffer_unmap = gp_mtl_op_buffer_unmap,
    .buffer_write = gp_mtl_op_buffer_write,
    .buffer_read = gp_mtl_op_buffer_read,
    .buffer_copy = gp_mtl_op_buffer_copy,
    .buffer_fill = gp_mtl_op_buffer_fill,
    .program_build = gp_mtl_op_program_build,
    .program_release = gp_mtl_op_program_release,
    .kernel_create = gp_mtl_op_kernel_create,
    .kernel_release = gp_mtl_op_kernel_release,
    .kernel_launch = gp_mtl_op_kernel_launch,
    .queue_create = gp_mtl_op_queue_create,
    .queue_release = gp_mtl_op_queue_release,
    .queue_finish = gp_mtl_op_queue_finish,
    .event_record = gp_mtl_op_event_record,
    .event_wait = gp_mtl_op_event_wait,
    .queue_wait_event = gp_mtl_op_queue_wait_event,
    .event_elapsed_ms = gp_mtl_op_event_elapsed_ms,
    .event_release = gp_mtl_op_event_release,
    .device_synchronize = gp_mtl_op_device_synchronize,
    .buffer_wrap = gp_mtl_op_buffer_wrap,
    .buffer_unwrap = gp_mtl_op_buffer_release, /* a release: nothing of the memory is freed */
};
