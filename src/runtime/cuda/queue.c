/*
 * queue.c — CUDA queues and events: a gpuport queue is a non-blocking stream (it does not
 * serialise with the legacy default stream of other libraries in the process); an event is a
 * timing-enabled CUevent recorded on a stream.
 */
#include "runtime/cuda/ops.h"
#include "util/sys.h"
#include "util/thread.h"

gp_status gp_cuda_op_queue_create(gp_queue *q)
{
    gp_cuda_device *d = gp_cuda_dev(q->dev);
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUstream s = NULL;
    CUresult r = d->drv->api.cuStreamCreate(&s, GP_CU_STREAM_NON_BLOCKING);
    gp_cuda_ctx_pop(d);
    if (r != GP_CU_SUCCESS) return gp_cuda_fail(r, "creating a CUDA stream");
    q->impl = s;
    return GP_OK;
}

/* Another library's stream, used as it is: its handles (1 and 2 for the default streams
 * included) are the driver's. */
gp_status gp_cuda_op_queue_wrap(gp_queue *q, void *native)
{
    q->impl = native;
    return GP_OK;
}

void *gp_cuda_op_queue_native(const gp_queue *q)
{
    return q->impl;
}

void gp_cuda_op_queue_release(gp_queue *q)
{
    gp_cuda_device *d = gp_cuda_dev(q->dev);
    if (!q->impl || gp_cuda_ctx_push(d) != GP_OK) return;
    d->drv->api.cuStreamSynchronize(gp_cuda_stream(q));
    d->drv->api.cuStreamDestroy_v2(gp_cuda_stream(q));
    gp_cuda_ctx_pop(d);
    q->impl = NULL;
}

gp_status gp_cuda_op_queue_finish(gp_queue *q)
{
    gp_cuda_device *d = gp_cuda_dev(q->dev);
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUresult r = d->drv->api.cuStreamSynchronize(gp_cuda_stream(q));
    gp_cuda_ctx_pop(d);
    return r == GP_CU_SUCCESS ? GP_OK : gp_cuda_fail(r, "waiting for a CUDA stream");
}

gp_status gp_cuda_op_event_record(gp_queue *q, gp_event *e)
{
    gp_cuda_device *d = gp_cuda_dev(q->dev);
    const gp_cuda_driver_api *api = &d->drv->api;
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUevent ev = NULL;
    CUresult r = api->cuEventCreate(&ev, GP_CU_EVENT_DEFAULT);
    if (r == GP_CU_SUCCESS) {
        r = api->cuEventRecord(ev, gp_cuda_stream(q));
        if (r != GP_CU_SUCCESS) api->cuEventDestroy_v2(ev);
    }
    gp_cuda_ctx_pop(d);
    if (r != GP_CU_SUCCESS) return gp_cuda_fail(r, "recording a CUDA event");
    e->impl = ev;
    return GP_OK;
}

gp_status gp_cuda_op_event_wait(gp_event *e)
{
    gp_cuda_device *d = gp_cuda_dev(e->dev);
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUresult r = d->drv->api.cuEventSynchronize((CUevent)e->impl);
    gp_cuda_ctx_pop(d);
    return r == GP_CU_SUCCESS ? GP_OK : gp_cuda_fail(r, "waiting for a CUDA event");
}

/* A wait with a time limit: CUDA has none for events, so the event is asked, yielding at first
 * (short work) and then sleeping up to 200 us between questions, until it is done or the time
 * is up. */
gp_status gp_cuda_op_event_wait_for(gp_event *e, uint32_t ms, int *done)
{
    gp_cuda_device *d = gp_cuda_dev(e->dev);
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    double end = gp_monotonic_s() + ms / 1e3;
    unsigned nap = 0;
    CUresult r;
    while ((r = d->drv->api.cuEventQuery((CUevent)e->impl)) == GP_CU_ERROR_NOT_READY &&
           gp_monotonic_s() < end) {
        if (nap < 200) {
            gp_thread_yield();
            nap += 10;
        } else {
            gp_sleep_us(200);
        }
    }
    gp_cuda_ctx_pop(d);
    if (r == GP_CU_ERROR_NOT_READY) return GP_OK; /* *done stays 0 */
    if (r != GP_CU_SUCCESS) return gp_cuda_fail(r, "asking a CUDA event");
    *done = 1;
    return GP_OK;
}

gp_status gp_cuda_op_queue_wait_event(gp_queue *q, gp_event *e)
{
    gp_cuda_device *d = gp_cuda_dev(q->dev);
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUresult r = d->drv->api.cuStreamWaitEvent(gp_cuda_stream(q), (CUevent)e->impl, 0);
    gp_cuda_ctx_pop(d);
    return r == GP_CU_SUCCESS ? GP_OK : gp_cuda_fail(r, "making a CUDA stream wait");
}

gp_status gp_cuda_op_event_elapsed_ms(gp_event *start, gp_event *end, double *ms)
{
    gp_cuda_device *d = gp_cuda_dev(start->dev);
    const gp_cuda_driver_api *api = &d->drv->api;
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    float f = 0.0f;
    CUresult r = api->cuEventSynchronize((CUevent)start->impl);
    if (r == GP_CU_SUCCESS) r = api->cuEventSynchronize((CUevent)end->impl);
    if (r == GP_CU_SUCCESS)
        r = api->cuEventElapsedTime(&f, (CUevent)start->impl, (CUevent)end->impl);
    gp_cuda_ctx_pop(d);
    if (r != GP_CU_SUCCESS) return gp_cuda_fail(r, "measuring the time between CUDA events");
    *ms = (double)f;
    return GP_OK;
}

void gp_cuda_op_event_release(gp_event *e)
{
    gp_cuda_device *d = gp_cuda_dev(e->dev);
    if (!e->impl || gp_cuda_ctx_push(d) != GP_OK) return;
    d->drv->api.cuEventDestroy_v2((CUevent)e->impl);
    gp_cuda_ctx_pop(d);
    e->impl = NULL;
}
