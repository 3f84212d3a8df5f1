/* trace.h — what the core calls to put commands, builds and waits on the timeline (trace.c).
 * Every call site sits behind `if (gp_tracing())`: with tracing off that load and branch is all
 * a launch or a copy pays. */
#ifndef GP_RUNTIME_TRACE_H
#define GP_RUNTIME_TRACE_H

#include <stdatomic.h>

#include "runtime/backend.h"

/* The current trace's number while one is recorded, 0 while none is. */
extern _Atomic int gp_trace_on;

/* Acquire (a plain load on x86): what gp_trace_start set before, the clock's kind, is seen. */
static inline int gp_tracing(void)
{
    return atomic_load_explicit(&gp_trace_on, memory_order_acquire);
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

/* The timeline's host clock in ticks (never 0): the TSC where it is invariant (a few ns to read,
 * where clock_gettime takes 20-60), else nanoseconds of the monotonic clock. gp_trace_tsc is set
 * once, before the first trace starts. */
extern int gp_trace_tsc;
uint64_t gp_trace_clock_slow(void);
static inline uint64_t gp_trace_clock(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (gp_trace_tsc) return __builtin_ia32_rdtsc() | 1; /* the lowest bit: never 0 */
#endif
    return gp_trace_clock_slow();
}

/* A command on a queue: begin before the backend call, end after it (with its status). A CPU
 * command runs when it is enqueued: its span is two clock readings and its record is written to
 * the calling thread's own buffer, without a lock. */
typedef struct gp_trace_span {
    uint64_t begin; /* gp_trace_clock() */
    gp_event *ev0;  /* the marker before it (backends without command_times) */
    void *native;   /* the command's own event (backends with command_times) */
    bool own;
    bool device; /* not the CPU: timed on the device */
} gp_trace_span;
void gp_trace_cmd_begin_device(gp_queue *q, gp_trace_span *s);
static inline void gp_trace_cmd_begin(gp_queue *q, gp_trace_span *s)
{
    if (q->dev->info.backend != GP_BACKEND_CPU) {
        gp_trace_cmd_begin_device(q, s);
        return;
    }
    s->device = false;
    s->begin = gp_trace_clock();
}
/* name_cache: where the name's index is kept between calls (a kernel's trace_name), or NULL
 * (a string literal: the calling thread remembers it). */
void gp_trace_cmd_end(gp_queue *q, gp_trace_span *s, gp_status st, gp_trace_kind kind,
                      const char *name, _Atomic uint32_t *name_cache, uint64_t bytes,
                      const uint32_t *num_groups, const uint32_t *group);
/* A build or a wait on the host, from `begin` (gp_trace_clock) to now. A wait for the whole
 * device or queue (`resolve`) also reads the device times of the commands before it once many
 * are pending. */
void gp_trace_host(gp_device_state *dev, gp_trace_kind kind, uint64_t begin, const char *name,
                   gp_trace_cache cache, bool resolve);
/* Reads GPUPORT_TRACE once (gp_device_open calls it). */
void gp_trace_env_init(void);

#endif
