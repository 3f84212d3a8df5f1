/* trace.h — what the core calls to put commands, builds and waits on the timeline (trace.c).
 * Every call site sits behind `if (gp_tracing())`: with tracing off that load and branch is all
 * a launch or a copy pays. */
#ifndef GP_RUNTIME_TRACE_H
#define GP_RUNTIME_TRACE_H

#include <stdatomic.h>

#include "runtime/backend.h"

extern _Atomic int gp_trace_on;

static inline int gp_tracing(void)
{
    return atomic_load_explicit(&gp_trace_on, memory_order_relaxed);
}

typedef enum gp_trace_kind {
    GP_TRACE_LAUNCH = 0,
    GP_TRACE_WRITE = 1, /* host to device */
    GP_TRACE_READ = 2,  /* device to host */
    GP_TRACE_COPY = 3,  /* device to device */
    GP_TRACE_FILL = 4,
    GP_TRACE_BUILD = 5,
    GP_TRACE_WAIT = 6,
} gp_trace_kind;

typedef enum gp_trace_cache {
    GP_TRACE_CACHE_MISS = 1, /* compiled */
    GP_TRACE_CACHE_DISK = 2,
    GP_TRACE_CACHE_MEMORY = 3,
    GP_TRACE_CACHE_OFF = 4,
} gp_trace_cache;

/* A command on a queue: begin before the backend call, end after it (with its status). */
typedef struct gp_trace_span {
    uint64_t begin; /* gp_trace_clock() */
    gp_event *ev0;  /* the marker before it (backends without command_times) */
    void *native;   /* the command's own event (backends with command_times) */
    bool own;
} gp_trace_span;
void gp_trace_cmd_begin(gp_queue *q, gp_trace_span *s);
void gp_trace_cmd_end(gp_queue *q, gp_trace_span *s, gp_status st, gp_trace_kind kind,
                      const char *name, uint64_t bytes, const uint32_t *num_groups,
                      const uint32_t *group);
/* A build or a wait on the host, from `begin` (gp_trace_clock) to now. A wait for the whole
 * device or queue (`resolve`) also reads the device times of the commands before it. */
void gp_trace_host(gp_device_state *dev, gp_trace_kind kind, uint64_t begin, const char *name,
                   gp_trace_cache cache, bool resolve);
/* The timeline's host clock in ticks (never 0): the TSC where it is invariant (a few ns to read,
 * where clock_gettime takes 20-60), else nanoseconds of the monotonic clock. */
uint64_t gp_trace_clock(void);
/* Reads GPUPORT_TRACE once (gp_device_open calls it). */
void gp_trace_env_init(void);

#endif
