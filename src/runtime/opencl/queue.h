/*
 * queue.h — the OpenCL command queues gpuport uses: in-order (gpuport's queues promise order),
 * with profiling on so that events can report elapsed time; and the event timing helper.
 */
#ifndef GP_RUNTIME_OPENCL_QUEUE_H
#define GP_RUNTIME_OPENCL_QUEUE_H

#include <stdbool.h>

#include "gpuport/gpuport.h"
#include "runtime/opencl/cl_api.h"

/* Creates an in-order queue with CL_QUEUE_PROFILING_ENABLE; a driver that refuses profiling
 * gets a queue without it (*profiling false), so that only event timing is lost. */
gp_status gp_cl_queue_create(const gp_cl_api *api, cl_context ctx, cl_device_id dev,
                             cl_command_queue *out, bool *profiling);

/* Waits for both events and returns the time from the end of `start` to the end of `end` in
 * milliseconds (negative when `end` finished first). GP_ERR_UNSUPPORTED when the queue had no
 * profiling. */
gp_status gp_cl_event_elapsed_ms(const gp_cl_api *api, cl_event start, cl_event end, double *ms);

#endif
