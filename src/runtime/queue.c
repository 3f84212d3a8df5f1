/* queue.c — queues and events: the checks and reference counting around the backend's streams,
 * command queues and markers. */
#include <stdlib.h>

#include "runtime/core.h"
#include "runtime/trace.h"

gp_status gp_queue_create(gp_device *device, gp_queue **out)
{
    if (!device || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_queue_create: NULL argument");
    gp_queue *q = calloc(1, sizeof *q);
    if (!q) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    q->dev = device->state;
    gp_status st = q->dev->ops->queue_create(q);
    if (st != GP_OK) {
        free(q);
        return st;
    }
    gp_device_state_ref(q->dev);
    *out = q;
    return GP_OK;
}

gp_status gp_queue_wrap(gp_device *device, void *native, gp_queue **out)
{
    if (!device || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_queue_wrap: NULL argument");
    *out = NULL;
    gp_device_state *dev = device->state;
    if (!dev->ops->queue_wrap)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s has no streams of other libraries to use; order the work with "
                            "gp_queue_finish or gp_device_synchronize instead",
                            dev->info.spec);
    gp_queue *q = calloc(1, sizeof *q);
    if (!q) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    q->dev = dev;
    q->wrapped = true;
    gp_status st = dev->ops->queue_wrap(q, native);
    if (st != GP_OK) {
        free(q);
        return st;
    }
    gp_device_state_ref(dev);
    *out = q;
    return GP_OK;
}

gp_status gp_queue_native(const gp_queue *queue, void **native)
{
    if (!queue || !native)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_queue_native: NULL argument");
    if (!queue->dev->ops->queue_native)
        return gp_error_set(GP_ERR_UNSUPPORTED, "%s queues have no handle to hand out",
                            queue->dev->info.spec);
    *native = queue->dev->ops->queue_native(queue);
    return GP_OK;
}

gp_status gp_queue_release(gp_queue *queue)
{
    if (!queue || queue->is_default) return GP_OK;
    gp_device_state *dev = queue->dev;
    if (queue->wrapped) { /* the stream is the other library's: nothing to wait for or destroy */
        free(queue);
        gp_device_state_unref(dev);
        return GP_OK;
    }
    gp_status st = dev->ops->queue_finish(queue);
    dev->ops->queue_release(queue);
    free(queue);
    gp_device_state_unref(dev);
    return st;
}

gp_status gp_queue_finish(gp_queue *queue)
{
    if (!queue) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_queue_finish: NULL queue");
    if (!gp_tracing()) return queue->dev->ops->queue_finish(queue);
    uint64_t t = gp_trace_clock();
    gp_status st = queue->dev->ops->queue_finish(queue);
    gp_trace_host(queue->dev, GP_TRACE_WAIT, t, "gp_queue_finish", 0, true);
    return st;
}

gp_status gp_event_record(gp_queue *queue, gp_event **out)
{
    if (!queue || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_event_record: NULL argument");
    gp_event *e = calloc(1, sizeof *e);
    if (!e) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    e->dev = queue->dev;
    gp_status st = e->dev->ops->event_record(queue, e);
    if (st != GP_OK) {
        free(e);
        return st;
    }
    gp_device_state_ref(e->dev);
    *out = e;
    return GP_OK;
}

gp_status gp_queue_wait_event(gp_queue *queue, gp_event *event)
{
    if (!queue || !event)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_queue_wait_event: NULL argument");
    if (queue->dev != event->dev)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "gp_queue_wait_event: the event belongs to %s, the queue to %s",
                            event->dev->info.spec, queue->dev->info.spec);
    return queue->dev->ops->queue_wait_event(queue, event);
}

gp_status gp_event_wait(gp_event *event)
{
    if (!event) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_event_wait: NULL event");
    if (!gp_tracing()) return event->dev->ops->event_wait(event);
    uint64_t t = gp_trace_clock();
    gp_status st = event->dev->ops->event_wait(event);
    gp_trace_host(event->dev, GP_TRACE_WAIT, t, "gp_event_wait", 0, false);
    return st;
}

gp_status gp_event_wait_for(gp_event *event, uint32_t timeout_ms, int *done)
{
    if (!event || !done)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_event_wait_for: NULL argument");
    *done = 0;
    if (event->dev->ops->event_wait_for)
        return event->dev->ops->event_wait_for(event, timeout_ms, done);
    gp_status st = event->dev->ops->event_wait(event);
    if (st == GP_OK) *done = 1;
    return st;
}

gp_status gp_event_elapsed_ms(gp_event *start, gp_event *end, double *ms)
{
    if (!start || !end || !ms)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_event_elapsed_ms: NULL argument");
    if (start->dev != end->dev)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "gp_event_elapsed_ms: the events belong to different devices");
    return start->dev->ops->event_elapsed_ms(start, end, ms);
}

gp_status gp_event_release(gp_event *event)
{
    if (!event) return GP_OK;
    gp_device_state *dev = event->dev;
    dev->ops->event_release(event);
    free(event);
    gp_device_state_unref(dev);
    return GP_OK;
}
