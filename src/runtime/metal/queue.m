/*
 * queue.m — Metal queues and events. A gpuport queue is an MTLCommandQueue; each command is one
 * command buffer, committed in call order, whose completion handler reports failures. An event
 * is an empty command buffer that signals an MTLEvent (so other queues can wait for it) and
 * whose GPU end time (or, where Metal gives none, the completion handler's host time) dates it.
 */
#include <mach/mach_time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/metal/metal_impl.h"

@implementation GPMetalCompletion
- (void)dealloc
{
    [error release];
    [super dealloc];
}
@end

static double gp_mtl_host_seconds(void)
{
    static mach_timebase_info_data_t tb;
    if (tb.denom == 0) mach_timebase_info(&tb);
    return (double)mach_absolute_time() * tb.numer / tb.denom / 1e9;
}

/* Completion reporting for a new command buffer (nil: the status is set). */
static id<MTLCommandBuffer> gp_mtl_queue_watch(gp_mtl_queue *q, id<MTLCommandBuffer> cb)
{
    if (!cb) {
        gp_error_set(GP_ERR_BACKEND, "Metal could not create a command buffer (too many in "
                                     "flight, or the GPU was lost)");
        return nil;
    }
    GPMetalCompletion *sink = q->failures;
    [cb addCompletedHandler:^(id<MTLCommandBuffer> done) {
      if (done.status != MTLCommandBufferStatusError) return;
      @synchronized(sink) {
          if (!sink->error) sink->error = [gp_mtl_error_text(done.error) retain];
      }
    }];
    return cb;
}

id<MTLCommandBuffer> gp_mtl_queue_begin(gp_mtl_queue *q)
{
    return gp_mtl_queue_watch(q, [q->queue commandBuffer]);
}

id<MTLCommandBuffer> gp_mtl_queue_begin_logged(gp_mtl_queue *q)
{
#if defined(__MAC_15_0) || defined(__IPHONE_18_0)
    if (@available(macOS 15.0, iOS 18.0, *)) {
        if (!q->log_state) {
            MTLLogStateDescriptor *d = [[MTLLogStateDescriptor alloc] init];
            d.level = MTLLogLevelDebug; /* every message os_log_default.log writes */
            d.bufferSize = 1 << 20;
            NSError *err = nil;
            id<MTLLogState> ls = [q->dev->device newLogStateWithDescriptor:d error:&err];
            [d release];
            if (!ls) {
                gp_error_set(GP_ERR_BACKEND, "Metal could not make a log state for gp_printf: %s",
                             gp_mtl_error_text(err).UTF8String);
                return nil;
            }
            /* each message is one gp_printf call, whole; handed on as Metal delivers it */
            [ls addLogHandler:^(NSString *sub, NSString *category, MTLLogLevel level,
                                NSString *message) {
              (void)sub;
              (void)category;
              (void)level;
              const char *text = message.UTF8String;
              if (text) gp_print_emit(text, strlen(text));
            }];
            q->log_state = ls;
        }
        MTLCommandBufferDescriptor *cd = [[[MTLCommandBufferDescriptor alloc] init] autorelease];
        cd.logState = (id<MTLLogState>)q->log_state;
        return gp_mtl_queue_watch(q, [q->queue commandBufferWithDescriptor:cd]);
    }
#endif
    return gp_mtl_queue_begin(q);
}

void gp_mtl_queue_add_print(gp_mtl_queue *q, id<MTLCommandBuffer> cb, id<MTLBuffer> buf,
                            gp_printf_table *table, const char *kernel)
{
    gp_mtl_print *p = calloc(1, sizeof *p);
    if (!p) {
        gp_log_info("kernel '%s': out of host memory; its gp_printf output is lost", kernel);
        return;
    }
    p->cb = [cb retain];
    p->buf = [buf retain];
    gp_printf_table_retain(table);
    p->table = table;
    gp_copy_str(p->kernel, sizeof p->kernel, kernel);
    *q->prints_tail = p;
    q->prints_tail = &p->next;
}

/* Hands on the output of every print buffer whose command buffer is done, in launch order. */
static void gp_mtl_queue_print(gp_mtl_queue *q)
{
    pthread_mutex_lock(&q->lock);
    gp_mtl_print *done = NULL, **tail = &done;
    while (q->prints && q->prints->cb.status >= MTLCommandBufferStatusCompleted) {
        gp_mtl_print *p = q->prints;
        q->prints = p->next;
        p->next = NULL;
        *tail = p;
        tail = &p->next;
    }
    if (!q->prints) q->prints_tail = &q->prints;
    pthread_mutex_unlock(&q->lock);
    while (done) {
        gp_mtl_print *p = done;
        done = p->next;
        gp_printf_records_emit(p->table, p->kernel, (const uint32_t *)p->buf.contents,
                               p->buf.length / sizeof(uint32_t));
        gp_printf_table_release(p->table);
        [p->buf release];
        [p->cb release];
        free(p);
    }
}

void gp_mtl_queue_commit(gp_mtl_queue *q, id<MTLCommandBuffer> cb)
{
    [cb commit];
    [q->last release];
    q->last = [cb retain];
}

gp_status gp_mtl_queue_wait(gp_mtl_queue *q)
{
    @autoreleasepool {
        pthread_mutex_lock(&q->lock);
        id<MTLCommandBuffer> last = [q->last retain];
        pthread_mutex_unlock(&q->lock);
        /* Command buffers of one queue run in order: the last one done means all are. */
        [last waitUntilCompleted];
        NSString *failure = nil;
        if (last.status == MTLCommandBufferStatusError) failure = gp_mtl_error_text(last.error);
        [last release];
        gp_mtl_queue_print(q); /* the launches' gp_printf output, now that they are done */
        GPMetalCompletion *sink = q->failures;
        @synchronized(sink) {
            if (!failure && sink->error) failure = [[sink->error retain] autorelease];
            [sink->error release];
            sink->error = nil;
        }
        if (failure)
            return gp_error_set(GP_ERR_BACKEND, "a Metal command failed on the GPU: %s",
                                failure.UTF8String);
        return GP_OK;
    }
}

gp_status gp_mtl_op_queue_create(gp_queue *q)
{
    @autoreleasepool {
        gp_mtl_device *m = gp_mtl_dev(q->dev);
        gp_mtl_queue *mq = calloc(1, sizeof *mq);
        if (!mq) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
        mq->queue = [m->device newCommandQueue];
        if (!mq->queue) {
            free(mq);
            return gp_error_set(GP_ERR_BACKEND, "Metal could not create a command queue");
        }
        mq->dev = m;
        mq->failures = [[GPMetalCompletion alloc] init];
        mq->prints_tail = &mq->prints;
        pthread_mutex_init(&mq->lock, NULL);
        pthread_mutex_lock(&m->lock);
        mq->next = m->queues;
        m->queues = mq;
        pthread_mutex_unlock(&m->lock);
        q->impl = mq;
        return GP_OK;
    }
}

void gp_mtl_op_queue_release(gp_queue *q)
{
    @autoreleasepool {
        gp_mtl_queue *mq = q->impl;
        if (!mq) return;
        gp_mtl_queue_wait(mq);
        gp_error_clear();
        gp_mtl_device *m = mq->dev;
        pthread_mutex_lock(&m->lock);
        for (gp_mtl_queue **p = &m->queues; *p; p = &(*p)->next) {
            if (*p == mq) {
                *p = mq->next;
                break;
            }
        }
        pthread_mutex_unlock(&m->lock);
        [mq->last release];
        [mq->failures release];
        [mq->log_state release];
        [mq->queue release];
        pthread_mutex_destroy(&mq->lock);
        free(mq);
        q->impl = NULL;
    }
}

gp_status gp_mtl_op_queue_finish(gp_queue *q)
{
    return gp_mtl_queue_wait(q->impl);
}

gp_status gp_mtl_op_event_record(gp_queue *q, gp_event *e)
{
    @autoreleasepool {
        gp_mtl_queue *mq = q->impl;
        gp_mtl_event *ev = calloc(1, sizeof *ev);
        if (!ev) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
        ev->signal = [mq->dev->device newEvent];
        ev->complete = [[GPMetalCompletion alloc] init];
        pthread_mutex_lock(&mq->lock);
        id<MTLCommandBuffer> cb = gp_mtl_queue_begin(mq);
        if (!cb) {
            pthread_mutex_unlock(&mq->lock);
            [ev->signal release];
            [ev->complete release];
            free(ev);
            return GP_ERR_BACKEND;
        }
        [cb encodeSignalEvent:ev->signal value:1];
        GPMetalCompletion *complete = ev->complete;
        [cb addCompletedHandler:^(id<MTLCommandBuffer> done) {
          (void)done;
          @synchronized(complete) {
              complete->host_time = gp_mtl_host_seconds();
              complete->done = YES;
          }
        }];
        ev->cb = [cb retain];
        gp_mtl_queue_commit(mq, cb);
        pthread_mutex_unlock(&mq->lock);
        e->impl = ev;
        return GP_OK;
    }
}

gp_status gp_mtl_op_event_wait(gp_event *e)
{
    @autoreleasepool {
        gp_mtl_event *ev = e->impl;
        [ev->cb waitUntilCompleted];
        if (ev->cb.status == MTLCommandBufferStatusError)
            return gp_error_set(GP_ERR_BACKEND, "a Metal command before this event failed: %s",
                                gp_mtl_error_text(ev->cb.error).UTF8String);
        return GP_OK;
    }
}

gp_status gp_mtl_op_queue_wait_event(gp_queue *q, gp_event *e)
{
    @autoreleasepool {
        gp_mtl_queue *mq = q->impl;
        gp_mtl_event *ev = e->impl;
        pthread_mutex_lock(&mq->lock);
        id<MTLCommandBuffer> cb = gp_mtl_queue_begin(mq);
        if (cb) {
            [cb encodeWaitForEvent:ev->signal value:1];
            gp_mtl_queue_commit(mq, cb);
        }
        pthread_mutex_unlock(&mq->lock);
        return cb ? GP_OK : GP_ERR_BACKEND;
    }
}

/* The completion handler's host time (seconds); waitUntilCompleted may return just before the
 * handler has run, so wait for it. */
static double gp_mtl_event_host_time(gp_mtl_event *ev)
{
    GPMetalCompletion *c = ev->complete;
    for (;;) {
        @synchronized(c) {
            if (c->done) return c->host_time;
        }
        usleep(50);
    }
}

gp_status gp_mtl_op_event_elapsed_ms(gp_event *start, gp_event *end, double *ms)
{
    gp_status st = gp_mtl_op_event_wait(start);
    if (st == GP_OK) st = gp_mtl_op_event_wait(end);
    if (st != GP_OK) return st;
    gp_mtl_event *a = start->impl, *b = end->impl;
    /* The GPU's end times of the two command buffers, in seconds of the host clock; where Metal
     * reports none (0), the completion handlers' host times for both. */
    double ta = a->cb.GPUEndTime, tb = b->cb.GPUEndTime;
    if (ta <= 0 || tb <= 0) {
        ta = gp_mtl_event_host_time(a);
        tb = gp_mtl_event_host_time(b);
    }
    *ms = (tb - ta) * 1e3;
    return GP_OK;
}

void gp_mtl_op_event_release(gp_event *e)
{
    gp_mtl_event *ev = e->impl;
    if (!ev) return;
    [ev->cb waitUntilCompleted];
    [ev->cb release];
    [ev->signal release];
    [ev->complete release];
    free(ev);
    e->impl = NULL;
}
