/*
 * metal_impl.h — the Metal backend's objects and functions (Objective-C, Apple platforms only).
 * The files of this folder are compiled without ARC: every object kept in a C struct is
 * retained explicitly and released by the matching *_release function. Each entry point from C
 * runs inside its own @autoreleasepool, since the calling threads have none.
 */
#ifndef GP_RUNTIME_METAL_IMPL_H
#define GP_RUNTIME_METAL_IMPL_H

#if __has_feature(objc_arc)
#error "the Metal backend manages references itself: compile src/runtime/metal without -fobjc-arc"
#endif

#import <Foundation/Foundation.h>
#import <Metal/Metal.h>
#include <pthread.h>

#include "runtime/backend.h"

/* What a command buffer's completion handler writes: an object, so that it outlives the C
 * struct that asked for it if that is released first (the handler's block retains it). Fields
 * are read and written under @synchronized(self). */
@interface GPMetalCompletion : NSObject {
  @public
    BOOL done;
    double host_time; /* seconds (mach absolute time), when the handler ran */
    NSString *error;  /* retained; the first failure reported */
}
@end

/* One opened Metal device. */
typedef struct gp_mtl_device {
    id<MTLDevice> device;           /* retained */
    bool dispatch_threads;          /* non-uniform dispatch supported (Apple4+, Mac2) */
    MTLLanguageVersion language;    /* the version every program is compiled for */
    bool print_oslog;               /* gp_printf through os_log: programs that print are compiled
                                       as MSL 3.2 with logging (else the record buffer, with
                                       dev->print_records set) */
    pthread_mutex_t lock;           /* guards the two collections below */
    NSMutableDictionary *libraries; /* cache key -> id<MTLLibrary>, for the process's lifetime */
    NSMutableDictionary *pipelines; /* "<cache key>/<kernel>" -> id<MTLComputePipelineState> */
    struct gp_mtl_queue *queues;    /* live queues, for device_synchronize */
} gp_mtl_device;

/* The print buffer of one launch of a program on the record path, waiting for its command
 * buffer to complete: then its records are formatted and handed on (gp_mtl_queue_wait). */
typedef struct gp_mtl_print {
    id<MTLCommandBuffer> cb; /* retained */
    id<MTLBuffer> buf;       /* retained */
    gp_printf_table *table;  /* a reference */
    char kernel[128];
    struct gp_mtl_print *next;
} gp_mtl_print;

/* A gpuport queue: a command queue, the last command buffer committed to it, and the first
 * error any of its command buffers reported (returned by the next finish). */
typedef struct gp_mtl_queue {
    gp_mtl_device *dev;
    id<MTLCommandQueue> queue;   /* retained */
    pthread_mutex_t lock;        /* guards `last`; held while encoding, so commands keep the
                                    order of the calls; never held while waiting */
    id<MTLCommandBuffer> last;   /* retained; nil before the first command */
    GPMetalCompletion *failures; /* retained; where command buffers report errors */
    gp_mtl_print *prints;        /* print buffers in launch order (guarded by `lock`) */
    gp_mtl_print **prints_tail;
    id log_state;              /* retained id<MTLLogState> (macOS 15), made by the first launch
                                  of a program that logs; nil before */
    struct gp_mtl_queue *next; /* in dev->queues */
} gp_mtl_queue;

/* A recorded event: an empty command buffer committed after everything before it, which
 * signals an MTLEvent (for other queues to wait on) and notes its completion time. */
typedef struct gp_mtl_event {
    id<MTLCommandBuffer> cb;     /* retained */
    id<MTLEvent> signal;         /* retained */
    GPMetalCompletion *complete; /* retained */
} gp_mtl_event;

/* A built program: its library and the cache key its pipelines are filed under. */
typedef struct gp_mtl_program {
    id<MTLLibrary> library; /* retained */
    NSString *key;          /* retained */
    bool logging;           /* compiled with os_log enabled: launched with the queue's log state */
} gp_mtl_program;

static inline gp_mtl_device *gp_mtl_dev(const gp_device_state *s)
{
    return (gp_mtl_device *)s->impl;
}

/* Message from an NSError (its localized description, plus the failure reason when present),
 * autoreleased and independent of the error's lifetime. */
NSString *gp_mtl_error_text(NSError *err);

/* A new command buffer on q (the queue's lock is held by the caller); nil with the status set
 * when Metal refuses. The buffer reports failures into q->error when it completes. */
id<MTLCommandBuffer> gp_mtl_queue_begin(gp_mtl_queue *q);
/* The same with the queue's log state attached (made on first use; macOS 15), for a launch of a
 * program compiled with logging: its os_log messages go to the print handler. */
id<MTLCommandBuffer> gp_mtl_queue_begin_logged(gp_mtl_queue *q);
/* Files a launch's print buffer (lock held); its records are handed on after cb completes. */
void gp_mtl_queue_add_print(gp_mtl_queue *q, id<MTLCommandBuffer> cb, id<MTLBuffer> buf,
                            gp_printf_table *table, const char *kernel);
/* Commits cb as the queue's latest command (lock held). */
void gp_mtl_queue_commit(gp_mtl_queue *q, id<MTLCommandBuffer> cb);
/* Waits for everything committed to q so far; reports a failed command buffer. */
gp_status gp_mtl_queue_wait(gp_mtl_queue *q);

/* device.m */
gp_status gp_mtl_op_probe(gp_selection_entry *out);
gp_status gp_mtl_op_device_info(uint32_t index, gp_device_info *info);
gp_status gp_mtl_op_device_open(gp_device_state *dev);
void gp_mtl_op_device_close(gp_device_state *dev);
gp_status gp_mtl_op_compiler_id(gp_device_state *dev, char *buf, size_t cap);
gp_status gp_mtl_op_device_synchronize(gp_device_state *dev);

/* memory.m */
gp_status gp_mtl_op_buffer_create(gp_buffer *buf);
void gp_mtl_op_buffer_release(gp_buffer *buf);
gp_status gp_mtl_op_buffer_wrap(gp_buffer *buf, gp_memory_kind kind, void *memory, size_t offset);
gp_status gp_mtl_op_buffer_map(gp_buffer *buf, void **host_ptr);
gp_status gp_mtl_op_buffer_unmap(gp_buffer *buf);
gp_status gp_mtl_op_buffer_write(gp_queue *q, gp_buffer *dst, size_t off, const void *src, size_t n,
                                 bool blocking);
gp_status gp_mtl_op_buffer_read(gp_queue *q, gp_buffer *src, size_t off, void *dst, size_t n,
                                bool blocking);
gp_status gp_mtl_op_buffer_copy(gp_queue *q, gp_buffer *dst, size_t dst_off, gp_buffer *src,
                                size_t src_off, size_t n, bool blocking);
gp_status gp_mtl_op_buffer_fill(gp_queue *q, gp_buffer *dst, size_t off, const void *pattern,
                                size_t pattern_size, size_t n, bool blocking);

/* queue.m */
gp_status gp_mtl_op_queue_create(gp_queue *q);
void gp_mtl_op_queue_release(gp_queue *q);
gp_status gp_mtl_op_queue_finish(gp_queue *q);
gp_status gp_mtl_op_event_record(gp_queue *q, gp_event *e);
gp_status gp_mtl_op_event_wait(gp_event *e);
gp_status gp_mtl_op_queue_wait_event(gp_queue *q, gp_event *e);
gp_status gp_mtl_op_event_elapsed_ms(gp_event *start, gp_event *end, double *ms);
void gp_mtl_op_event_release(gp_event *e);

/* program.m */
gp_status gp_mtl_op_program_build(gp_program *prog, const gp_build_request *req);
void gp_mtl_op_program_release(gp_program *prog);
gp_status gp_mtl_op_kernel_create(gp_kernel *k);
void gp_mtl_op_kernel_release(gp_kernel *k);
gp_status gp_mtl_op_kernel_launch(gp_queue *q, gp_kernel *k, const gp_launch *l);

#endif
