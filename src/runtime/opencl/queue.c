/*
 * queue.c — in-order, profiling command queues and event timing for the OpenCL backend.
 * Timing uses CL_PROFILING_COMMAND_END of two markers, which is what "elapsed time between
 * events" means in CUDA and Metal as well: the work between them, on the device's clock.
 */
#include "runtime/opencl/queue.h"

#include "runtime/error.h"
#include "runtime/opencl/errors.h"

gp_status gp_cl_queue_create(const gp_cl_api *api, cl_context ctx, cl_device_id dev,
                             cl_command_queue *out, bool *profiling)
{
    cl_int err;
    *profiling = true;
    *out = api->clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!*out && err == -35 /* CL_INVALID_QUEUE_PROPERTIES */) {
        *profiling = false;
        *out = api->clCreateCommandQueue(ctx, dev, 0, &err);
    }
    if (!*out) return gp_cl_fail(err, "clCreateCommandQueue");
    return GP_OK;
}

static gp_status gp_cl_event_end(const gp_cl_api *api, cl_event ev, cl_ulong *ns)
{
    cl_int err = api->clWaitForEvents(1, &ev);
    if (err != CL_SUCCESS) return gp_cl_fail(err, "clWaitForEvents");
    err = api->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof *ns, ns, NULL);
    if (err != CL_SUCCESS)
        return gp_cl_fail(err, "clGetEventProfilingInfo(CL_PROFILING_COMMAND_END)");
    return GP_OK;
}

gp_status gp_cl_event_elapsed_ms(const gp_cl_api *api, cl_event start, cl_event end, double *ms)
{
    cl_ulong a = 0, b = 0;
    gp_status st = gp_cl_event_end(api, start, &a);
    if (st == GP_OK) st = gp_cl_event_end(api, end, &b);
    if (st != GP_OK) return st;
    *ms = (b >= a) ? (double)(b - a) / 1e6 : -(double)(a - b) / 1e6;
    return GP_OK;
}
