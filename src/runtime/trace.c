/*
 * trace.c — the timeline: every kernel launch, buffer copy, program build and wait, recorded while
 * tracing is on and written in the Chrome Trace Event Format (Perfetto, chrome://tracing). The
 * core calls in here only behind one branch on `gp_trace_on`, so tracing off costs nothing else.
 *
 * Clocks. Timestamps are microseconds since gp_trace_start on the host's monotonic clock. A
 * command on the CPU runs when it is enqueued, so its host interval is its run on the CPU's
 * clock. On the other backends a command is timed by its own event where the backend hands it
 * out (command_times: OpenCL's profiling info), else between two markers around it
 * (gp_event_record: CUDA events); device times are aligned to the host clock by a reference
 * marker the host waited for on each queue's first command. Where markers
 * fail (no device time), the host interval is written and args.device_time says "unsupported".
 *
 * Recording. A CPU command, a build and a wait are written by the calling thread into a buffer
 * of its own (chunks of records kept from one trace to the next), without a lock or a shared
 * write: two clock readings and some 80 bytes. The lock is taken only the first time a thread
 * meets a queue, a device or a name in a trace. Commands timed on a device hold an event until
 * their times are read, so they go into the shared array under the lock, which also orders them
 * against the stop. The stop gathers the threads' buffers into that array; a command that
 * finishes on another thread while the trace stops is left out.
 */
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"
#include "runtime/trace.h"
#include "util/strbuf.h"
#include "util/sys.h"

#define GP_TRACE_MAX_RECORDS 4000000 /* in one trace; then counted as dropped */
#define GP_TRACE_MAX_DEVICES 16
#define GP_TRACE_MAX_QUEUES  64
#define GP_TRACE_FIRST_CHUNK 512   /* records: a thread that only waits or builds needs few */
#define GP_TRACE_CHUNK       8192  /* records of each chunk after the first */
#define GP_TRACE_RESOLVE_AT  16384 /* device times pending when a wait reads them */

_Atomic int gp_trace_on;
_Thread_local void **gp_trace_capture;
int gp_trace_tsc;

typedef struct gp_trace_queue {
    const gp_queue *q;
    uint32_t dev; /* index in devices */
    uint32_t tid;
    gp_event *ref;   /* the reference marker; NULL when the device has no markers */
    uint64_t ref_at; /* host clock when ref had completed */
    uint64_t ref_ns; /* ref's end on the device clock (command_times); 0: not read yet */
    bool ref_tried;
} gp_trace_queue;

typedef struct gp_trace_device {
    gp_device_state *state; /* a reference is held while the trace has records of it */
    uint32_t next_tid;
} gp_trace_device;

typedef struct gp_trace_rec {
    /* host clock; with device times (clock 1), nanoseconds on the device since the track's
     * reference marker ended, as int64_t */
    uint64_t t0, t1;
    uint32_t name; /* index in gp_tr.names */
    uint16_t dev, tid;
    uint16_t track; /* index in gp_tr.queues (records with device times) */
    uint8_t kind;   /* gp_trace_kind */
    uint8_t clock;  /* 0 host (the CPU's own), 1 device, 2 no device time */
    uint8_t cache;  /* builds: gp_trace_cache */
    union {
        struct {
            uint32_t grid[3], group[3]; /* launches: groups, work-items per group */
        } l;
        uint64_t bytes; /* copies */
    } u;
    gp_event *ev0, *ev1; /* the markers around it until they are read */
    void *native;        /* or its own event (command_times) */
} gp_trace_rec;

/* A thread's records: chunks in a list that only the thread appends to. Readers (under the lock)
 * read the first `n` records of a buffer whose `gen` is the current trace's. */
typedef struct gp_trace_chunk {
    struct gp_trace_chunk *_Atomic next;
    size_t cap;
    gp_trace_rec recs[];
} gp_trace_chunk;

typedef struct gp_trace_qslot {
    const gp_queue *q;
    uint16_t dev, tid;
    uint8_t timing; /* devices: 0 unknown yet, 1 timed (a reference marker was taken), 2 not */
} gp_trace_qslot;

typedef struct gp_trace_buf {
    struct gp_trace_buf *next; /* in gp_tr.bufs; buffers are never freed, only reused */
    _Atomic int gen;           /* the trace its records belong to */
    _Atomic size_t n;          /* records written in that trace */
    _Atomic uint64_t dropped;
    gp_trace_chunk *first;
    size_t taken; /* under the lock: records gathered already */
    bool orphan;  /* under the lock: its thread has ended; another may take it */
    /* the thread's own */
    gp_trace_chunk *chunk;
    gp_trace_rec *pos, *end;
    size_t count;
    gp_trace_qslot queues[4]; /* the last queues met, most recent first */
    struct {
        gp_device_state *state;
        uint16_t index;
    } dev; /* the last device of a build or wait */
    struct {
        const char *ptr, *copy; /* the caller's string, the trace's copy */
        uint32_t index;
    } names[4];
    unsigned next_name;
} gp_trace_buf;

static _Thread_local gp_trace_buf *gp_trace_self;
static gp_tls_key gp_trace_key; /* its destructor marks the ending thread's buffer orphaned */
static gp_once gp_trace_key_once = GP_ONCE_INIT;

/* On cache lines of its own: records are written from the launching thread while the CPU
 * backend's workers poll their own atomics, which the linker may place next to this. */
static struct {
    _Alignas(64) gp_mutex lock;
    char *path;
    uint64_t tick0; /* the clock at start, and the monotonic seconds then */
    double s0;
    int gen;            /* the number of the last trace started */
    gp_trace_rec *recs; /* commands timed on devices, then every record once gathered */
    size_t n, cap;
    size_t resolved; /* records before it have no device times pending */
    uint64_t dropped;
    _Atomic size_t budget; /* records the threads' buffers may hold in this trace */
    gp_trace_buf *bufs;
    gp_trace_device devs[GP_TRACE_MAX_DEVICES];
    uint32_t ndevs;
    gp_trace_queue queues[GP_TRACE_MAX_QUEUES];
    uint32_t nqueues;
    gp_trace_queue *last_queue; /* the track of the last command: most are on the same one */
    _Atomic size_t pending;     /* records whose device times are still to be read */
    char **names; /* kernel and file names, each once, kept for the process (kernels and
                     threads remember their indices) */
    uint32_t nnames, capnames, last_name;
    bool summary_at_exit;
    char pad[64];
} gp_tr = {.lock = GP_MUTEX_INIT};

/* ---- the clock: the TSC where it is invariant, else the monotonic clock in ns ---------------- */
static gp_once gp_trace_clock_once = GP_ONCE_INIT;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
static void gp_trace_clock_choose(void)
{
    unsigned a, b, c, d;
    gp_trace_tsc = __get_cpuid(0x80000007u, &a, &b, &c, &d) && (d & (1u << 8)); /* invariant */
}
#else
static void gp_trace_clock_choose(void)
{
    gp_trace_tsc = 0;
}
#endif

uint64_t gp_trace_clock_slow(void)
{
    uint64_t t = (uint64_t)(gp_monotonic_s() * 1e9);
    return t ? t : 1;
}

/* Clock ticks per microsecond, measured against the monotonic clock since the process's first
 * trace started (the invariant TSC's rate does not change; the longer the span, the more exact),
 * after at least 2 ms of it, slept rather than spun, so that the readings' jitter is lost in it. */
static uint64_t gp_rate_tick0;
static double gp_rate_s0;

static double gp_trace_rate_locked(void)
{
    if (!gp_trace_tsc) return 1000.0;
    double s = gp_monotonic_s();
    if (s - gp_rate_s0 < 0.002) gp_sleep_us((unsigned)((0.002 - (s - gp_rate_s0)) * 1e6) + 1);
    uint64_t t;
    do {
        s = gp_monotonic_s();
        t = gp_trace_clock();
    } while (s - gp_rate_s0 < 0.002);
    return (double)(t - gp_rate_tick0) / ((s - gp_rate_s0) * 1e6);
}

static double gp_trace_us(uint64_t t, double rate)
{
    return t > gp_tr.tick0 ? (double)(t - gp_tr.tick0) / rate : 0.0;
}

static double gp_rec_begin(const gp_trace_rec *r, double rate)
{
    if (r->clock != 1) return gp_trace_us(r->t0, rate);
    return gp_trace_us(gp_tr.queues[r->track].ref_at, rate) + (double)(int64_t)r->t0 / 1e3;
}

static double gp_rec_end(const gp_trace_rec *r, double rate)
{
    if (r->clock != 1) return gp_trace_us(r->t1, rate);
    return gp_trace_us(gp_tr.queues[r->track].ref_at, rate) + (double)(int64_t)r->t1 / 1e3;
}

/* The index of name in the table (added on first use); the last one is checked first. */
static uint32_t gp_trace_name_locked(const char *name)
{
    if (gp_tr.last_name < gp_tr.nnames && !strcmp(gp_tr.names[gp_tr.last_name], name))
        return gp_tr.last_name;
    for (uint32_t i = 0; i < gp_tr.nnames; i++)
        if (!strcmp(gp_tr.names[i], name)) return gp_tr.last_name = i;
    if (gp_tr.nnames == gp_tr.capnames) {
        uint32_t cap = gp_tr.capnames ? gp_tr.capnames * 2 : 16;
        char **n = realloc(gp_tr.names, cap * sizeof *n);
        if (!n) return UINT32_MAX;
        gp_tr.names = n;
        gp_tr.capnames = cap;
    }
    char *copy = strdup(name);
    if (!copy) return UINT32_MAX;
    gp_tr.names[gp_tr.nnames] = copy;
    return gp_tr.last_name = gp_tr.nnames++;
}

static const char *gp_rec_name(const gp_trace_rec *r)
{
    return r->name < gp_tr.nnames ? gp_tr.names[r->name] : "?";
}

static uint32_t gp_trace_device_locked(gp_device_state *dev)
{
    for (uint32_t i = 0; i < gp_tr.ndevs; i++)
        if (gp_tr.devs[i].state == dev) return i;
    if (gp_tr.ndevs == GP_TRACE_MAX_DEVICES) return UINT32_MAX;
    gp_device_state_ref(dev);
    gp_tr.devs[gp_tr.ndevs].state = dev;
    gp_tr.devs[gp_tr.ndevs].next_tid = 2; /* 0: the host's calls, 1: the default queue */
    return gp_tr.ndevs++;
}

/* The track of queue q (made on first use). NULL when the tables are full. */
static gp_trace_queue *gp_trace_queue_locked(const gp_queue *q)
{
    if (gp_tr.last_queue && gp_tr.last_queue->q == q) return gp_tr.last_queue;
    for (uint32_t i = 0; i < gp_tr.nqueues; i++)
        if (gp_tr.queues[i].q == q) return gp_tr.last_queue = &gp_tr.queues[i];
    uint32_t d = gp_trace_device_locked(q->dev);
    if (d == UINT32_MAX || gp_tr.nqueues == GP_TRACE_MAX_QUEUES) return NULL;
    gp_trace_queue *t = &gp_tr.queues[gp_tr.nqueues++];
    memset(t, 0, sizeof *t);
    t->q = q;
    t->dev = d;
    t->tid = q->is_default ? 1 : gp_tr.devs[d].next_tid++;
    return gp_tr.last_queue = t;
}

/* Room for `more` records in the shared array. */
static bool gp_trace_room_locked(size_t more)
{
    if (gp_tr.n + more <= gp_tr.cap) return true;
    size_t cap = gp_tr.cap ? gp_tr.cap : 1024;
    while (cap < gp_tr.n + more)
        cap *= 2;
    gp_trace_rec *r = realloc(gp_tr.recs, cap * sizeof *r);
    if (!r) return false;
    gp_tr.recs = r;
    gp_tr.cap = cap;
    return true;
}

static gp_trace_rec *gp_trace_add_locked(void)
{
    if (gp_tr.n >= GP_TRACE_MAX_RECORDS || !gp_trace_room_locked(1)) {
        gp_tr.dropped++;
        return NULL;
    }
    return &gp_tr.recs[gp_tr.n++];
}

/* ---- the threads' buffers ------------------------------------------------------------------ */

static void gp_trace_buf_orphan(void *p)
{
    gp_trace_buf *b = p;
    gp_mutex_lock(&gp_tr.lock);
    b->orphan = true;
    gp_mutex_unlock(&gp_tr.lock);
    if (gp_trace_self == b) gp_trace_self = NULL;
}

static void gp_trace_key_make(void)
{
    gp_tls_create(&gp_trace_key, gp_trace_buf_orphan);
}

static gp_trace_chunk *gp_trace_chunk_new(size_t cap)
{
    gp_trace_chunk *c = malloc(sizeof *c + cap * sizeof(gp_trace_rec));
    if (!c) return NULL;
    atomic_init(&c->next, NULL);
    c->cap = cap;
    return c;
}

/* Moves the buffer's writing position to `c`, within the trace's budget of records. */
static void gp_trace_buf_enter(gp_trace_buf *b, gp_trace_chunk *c)
{
    b->chunk = c;
    b->pos = b->end = c->recs;
    if (atomic_fetch_add_explicit(&gp_tr.budget, c->cap, memory_order_relaxed) + c->cap <=
        GP_TRACE_MAX_RECORDS)
        b->end = c->recs + c->cap;
}

/* The calling thread's buffer, ready for trace `gen` (NULL: out of memory). */
static gp_trace_buf *gp_trace_buf_ready(int gen)
{
    gp_trace_buf *b = gp_trace_self;
    if (!b) {
        gp_once_call(&gp_trace_key_once, gp_trace_key_make);
        gp_mutex_lock(&gp_tr.lock);
        for (b = gp_tr.bufs; b && !b->orphan; b = b->next) {
        }
        if (b) {
            b->orphan = false;
        } else if ((b = calloc(1, sizeof *b)) &&
                   (b->first = gp_trace_chunk_new(GP_TRACE_FIRST_CHUNK))) {
            b->chunk = b->first;
            b->next = gp_tr.bufs;
            gp_tr.bufs = b;
        } else {
            free(b);
            b = NULL;
        }
        gp_mutex_unlock(&gp_tr.lock);
        if (!b) return NULL;
        gp_tls_set(gp_trace_key, b);
        gp_trace_self = b;
    }
    if (atomic_load_explicit(&b->gen, memory_order_relaxed) != gen) {
        b->count = 0;
        atomic_store_explicit(&b->n, 0, memory_order_relaxed);
        atomic_store_explicit(&b->dropped, 0, memory_order_relaxed);
        memset(b->queues, 0, sizeof b->queues);
        memset(&b->dev, 0, sizeof b->dev);
        gp_trace_buf_enter(b, b->first);
        atomic_store_explicit(&b->gen, gen, memory_order_release);
    }
    return b;
}

/* A record's place when the current chunk is full: the next chunk (made on first use), or NULL
 * (dropped) past the trace's budget or out of memory. */
static gp_trace_rec *gp_trace_buf_grow(gp_trace_buf *b)
{
    gp_trace_chunk *c = b->chunk;
    if (b->pos != c->recs + c->cap) return NULL; /* over the budget */
    gp_trace_chunk *next = atomic_load_explicit(&c->next, memory_order_relaxed);
    if (!next) {
        if (!(next = gp_trace_chunk_new(GP_TRACE_CHUNK))) return NULL;
        atomic_store_explicit(&c->next, next, memory_order_release);
    }
    gp_trace_buf_enter(b, next);
    return b->pos < b->end ? b->pos : NULL;
}

/* The track of queue q for the calling thread's records: the most recent one is checked first,
 * the lock taken on a queue not among the last four. NULL: the tables are full or the trace
 * stopped. */
static int gp_trace_buf_queue(gp_trace_buf *b, const gp_queue *q, int gen)
{
    for (int i = 1; i < 4; i++) {
        if (b->queues[i].q != q) continue;
        gp_trace_qslot hit = b->queues[i];
        memmove(&b->queues[1], &b->queues[0], (size_t)i * sizeof b->queues[0]);
        b->queues[0] = hit;
        return 0;
    }
    gp_mutex_lock(&gp_tr.lock);
    gp_trace_queue *tq = atomic_load_explicit(&gp_trace_on, memory_order_relaxed) == gen
                             ? gp_trace_queue_locked(q)
                             : NULL;
    if (tq) {
        memmove(&b->queues[1], &b->queues[0], 3 * sizeof b->queues[0]);
        b->queues[0].q = q;
        b->queues[0].dev = (uint16_t)tq->dev;
        b->queues[0].tid = (uint16_t)tq->tid;
        b->queues[0].timing = !tq->ref_tried ? 0 : tq->ref ? 1 : 2;
    }
    gp_mutex_unlock(&gp_tr.lock);
    return tq ? 0 : -1;
}

static uint32_t gp_trace_name_slow(gp_trace_buf *b, const char *name, _Atomic uint32_t *cache)
{
    gp_mutex_lock(&gp_tr.lock);
    uint32_t i = gp_trace_name_locked(name);
    const char *copy = i != UINT32_MAX ? gp_tr.names[i] : NULL;
    gp_mutex_unlock(&gp_tr.lock);
    if (!copy) return i;
    if (cache) {
        atomic_store_explicit(cache, i + 1, memory_order_relaxed);
    } else {
        unsigned k = b->next_name++ % 4;
        b->names[k].ptr = name;
        b->names[k].copy = copy;
        b->names[k].index = i;
    }
    return i;
}

static inline uint32_t gp_trace_name_of(gp_trace_buf *b, const char *name, _Atomic uint32_t *cache)
{
    if (cache) {
        uint32_t v = atomic_load_explicit(cache, memory_order_relaxed);
        if (v) return v - 1;
    } else {
        for (int i = 0; i < 4; i++)
            if (b->names[i].ptr == name && !strcmp(b->names[i].copy, name))
                return b->names[i].index;
    }
    return gp_trace_name_slow(b, name, cache);
}

static inline gp_trace_rec *gp_trace_buf_slot(gp_trace_buf *b)
{
    gp_trace_rec *r = b->pos < b->end ? b->pos : gp_trace_buf_grow(b);
    if (!r) atomic_fetch_add_explicit(&b->dropped, 1, memory_order_relaxed);
    return r;
}

static inline void gp_trace_buf_commit(gp_trace_buf *b, gp_trace_rec *r)
{
    b->pos = r + 1;
    atomic_store_explicit(&b->n, ++b->count, memory_order_release);
}

/* Copies the records the threads wrote since the last time into the shared array. */
static void gp_trace_gather_locked(void)
{
    int gen = gp_tr.gen;
    bool resolved = gp_tr.resolved == gp_tr.n; /* the gathered records have no device times */
    for (gp_trace_buf *b = gp_tr.bufs; b; b = b->next) {
        if (atomic_load_explicit(&b->gen, memory_order_acquire) != gen) continue;
        size_t n = atomic_load_explicit(&b->n, memory_order_acquire), at = 0;
        if (n <= b->taken) continue;
        if (!gp_trace_room_locked(n - b->taken)) {
            gp_tr.dropped += n - b->taken;
            b->taken = n;
            continue;
        }
        for (gp_trace_chunk *c = b->first; c && at < n;
             c = atomic_load_explicit(&c->next, memory_order_acquire)) {
            size_t k = n - at < c->cap ? n - at : c->cap;
            if (at + k > b->taken) {
                size_t from = b->taken > at ? b->taken - at : 0;
                memcpy(&gp_tr.recs[gp_tr.n], &c->recs[from], (k - from) * sizeof(gp_trace_rec));
                gp_tr.n += k - from;
            }
            at += k;
        }
        b->taken = n;
    }
    if (resolved) gp_tr.resolved = gp_tr.n;
}

static uint64_t gp_trace_dropped_locked(void)
{
    uint64_t d = gp_tr.dropped;
    for (gp_trace_buf *b = gp_tr.bufs; b; b = b->next)
        if (atomic_load_explicit(&b->gen, memory_order_acquire) == gp_tr.gen)
            d += atomic_load_explicit(&b->dropped, memory_order_relaxed);
    return d;
}

/* ---- device times -------------------------------------------------------------------------- */

/* Device times of the records with markers or their own events (their queues are finished),
 * into t0/t1; the host interval stays (clock 2) where they cannot be read. */
static void gp_trace_resolve_locked(void)
{
    for (size_t i = gp_tr.resolved; i < gp_tr.n; i++) {
        gp_trace_rec *r = &gp_tr.recs[i];
        if (!r->ev0 && !r->native) continue;
        gp_device_state *dev = gp_tr.devs[r->dev].state;
        gp_trace_queue *tq = &gp_tr.queues[r->track];
        int64_t a = 0, b = 0;
        bool ok = false;
        if (r->native && tq->ref) {
            uint64_t s0 = 0, e0 = 0, s1 = 0, e1 = 0;
            if (!tq->ref_ns && dev->ops->command_times(dev, tq->ref->impl, &s0, &e0) == GP_OK)
                tq->ref_ns = e0 ? e0 : 1;
            if (tq->ref_ns && dev->ops->command_times(dev, r->native, &s1, &e1) == GP_OK &&
                e1 >= s1) {
                a = (int64_t)(s1 - tq->ref_ns);
                b = (int64_t)(e1 - tq->ref_ns);
                ok = true;
            }
        } else if (r->ev0 && tq->ref) {
            double ma = 0, mb = 0;
            ok = gp_event_elapsed_ms(tq->ref, r->ev0, &ma) == GP_OK &&
                 gp_event_elapsed_ms(tq->ref, r->ev1, &mb) == GP_OK && mb >= ma;
            a = llround(ma * 1e6);
            b = llround(mb * 1e6);
        }
        if (ok) {
            r->t0 = (uint64_t)a;
            r->t1 = (uint64_t)b;
            r->clock = 1;
        } else {
            r->clock = 2; /* the host interval stays */
        }
        if (r->native) dev->ops->command_release(dev, r->native);
        gp_event_release(r->ev0);
        gp_event_release(r->ev1);
        r->ev0 = r->ev1 = NULL;
        r->native = NULL;
    }
    gp_tr.resolved = gp_tr.n;
    atomic_store_explicit(&gp_tr.pending, 0, memory_order_relaxed);
}

/* ---- the calls from the core --------------------------------------------------------------- */

void gp_trace_cmd_begin_device(gp_queue *q, gp_trace_span *s)
{
    memset(s, 0, sizeof s[0]);
    s->device = true;
    int gen = atomic_load_explicit(&gp_trace_on, memory_order_relaxed);
    gp_trace_buf *b = gen ? gp_trace_buf_ready(gen) : NULL;
    if (b && b->queues[0].q != q && gp_trace_buf_queue(b, q, gen) != 0) b = NULL;
    if (b && !b->queues[0].timing) {
        /* the queue's first command in this trace on this thread: its reference marker */
        gp_mutex_lock(&gp_tr.lock);
        gp_trace_queue *tq = atomic_load_explicit(&gp_trace_on, memory_order_relaxed) == gen
                                 ? gp_trace_queue_locked(q)
                                 : NULL;
        if (tq && !tq->ref_tried) {
            tq->ref_tried = true;
            gp_event *ref = NULL;
            if (gp_event_record(q, &ref) == GP_OK && ref->dev->ops->event_wait(ref) == GP_OK) {
                tq->ref = ref;
                tq->ref_at = gp_trace_clock();
            } else {
                gp_event_release(ref);
            }
        }
        b->queues[0].timing = tq && tq->ref ? 1 : 2;
        gp_mutex_unlock(&gp_tr.lock);
    }
    if (b && b->queues[0].timing == 1) {
        if (q->dev->ops->command_times) { /* the command's own event */
            s->own = true;
            gp_trace_capture = &s->native;
        } else if (gp_event_record(q, &s->ev0) != GP_OK) { /* markers around it */
            s->ev0 = NULL;
        }
    }
    s->begin = gp_trace_clock();
}

static void gp_trace_cmd_end_device(gp_queue *q, gp_trace_span *s, uint64_t end, gp_status st,
                                    gp_trace_kind kind, const char *name, uint64_t bytes,
                                    const uint32_t *grid, const uint32_t *group)
{
    gp_event *ev1 = NULL;
    if (s->own) gp_trace_capture = NULL;
    if (s->ev0 && (st != GP_OK || gp_event_record(q, &ev1) != GP_OK)) {
        gp_event_release(s->ev0);
        s->ev0 = NULL;
    }
    if (st != GP_OK) {
        if (s->native) q->dev->ops->command_release(q->dev, s->native);
        return;
    }
    gp_mutex_lock(&gp_tr.lock);
    gp_trace_queue *tq =
        atomic_load_explicit(&gp_trace_on, memory_order_relaxed) ? gp_trace_queue_locked(q) : NULL;
    gp_trace_rec *r = tq ? gp_trace_add_locked() : NULL;
    if (r) {
        r->kind = (uint8_t)kind;
        r->clock = 2; /* the device time, where there is one, is read later: host time until then */
        r->cache = 0;
        r->dev = (uint16_t)tq->dev;
        r->tid = (uint16_t)tq->tid;
        r->track = (uint16_t)(tq - gp_tr.queues);
        r->name = gp_trace_name_locked(name);
        r->t0 = s->begin;
        r->t1 = end;
        r->ev0 = s->ev0;
        r->ev1 = ev1;
        r->native = s->native;
        if (s->native || s->ev0) /* written under the lock, read without it by the waits */
            atomic_store_explicit(&gp_tr.pending,
                                  atomic_load_explicit(&gp_tr.pending, memory_order_relaxed) + 1,
                                  memory_order_relaxed);
        memset(&r->u, 0, sizeof r->u);
        if (grid) {
            memcpy(r->u.l.grid, grid, sizeof r->u.l.grid);
            memcpy(r->u.l.group, group, sizeof r->u.l.group);
        } else {
            r->u.bytes = bytes;
        }
    }
    gp_mutex_unlock(&gp_tr.lock);
    if (!r) {
        gp_event_release(s->ev0);
        gp_event_release(ev1);
        if (s->native) q->dev->ops->command_release(q->dev, s->native);
    }
}

void gp_trace_cmd_end(gp_queue *q, gp_trace_span *s, gp_status st, gp_trace_kind kind,
                      const char *name, _Atomic uint32_t *name_cache, uint64_t bytes,
                      const uint32_t *grid, const uint32_t *group)
{
    uint64_t end = gp_trace_clock();
    if (s->device) {
        gp_trace_cmd_end_device(q, s, end, st, kind, name, bytes, grid, group);
        return;
    }
    int gen = atomic_load_explicit(&gp_trace_on, memory_order_relaxed);
    if (st != GP_OK || !gen) return;
    gp_trace_buf *b = gp_trace_self;
    if (!b || atomic_load_explicit(&b->gen, memory_order_relaxed) != gen) {
        if (!(b = gp_trace_buf_ready(gen))) return;
    }
    if (b->queues[0].q != q && gp_trace_buf_queue(b, q, gen) != 0) return;
    uint32_t ni = gp_trace_name_of(b, name, name_cache);
    gp_trace_rec *r = gp_trace_buf_slot(b);
    if (!r) return;
    r->t0 = s->begin;
    r->t1 = end;
    r->name = ni;
    r->dev = b->queues[0].dev;
    r->tid = b->queues[0].tid;
    r->track = 0;
    r->kind = (uint8_t)kind;
    r->clock = 0;
    r->cache = 0;
    if (grid) {
        memcpy(r->u.l.grid, grid, sizeof r->u.l.grid);
        memcpy(r->u.l.group, group, sizeof r->u.l.group);
    } else {
        r->u.bytes = bytes;
    }
    r->ev0 = r->ev1 = NULL;
    r->native = NULL;
    gp_trace_buf_commit(b, r);
}

void gp_trace_host(gp_device_state *dev, gp_trace_kind kind, uint64_t begin, const char *name,
                   gp_trace_cache cache, bool resolve)
{
    uint64_t end = gp_trace_clock();
    int gen = atomic_load_explicit(&gp_trace_on, memory_order_relaxed);
    gp_trace_buf *b = gen ? gp_trace_buf_ready(gen) : NULL;
    if (!b) return;
    if (b->dev.state != dev) {
        gp_mutex_lock(&gp_tr.lock);
        uint32_t d = atomic_load_explicit(&gp_trace_on, memory_order_relaxed) == gen
                         ? gp_trace_device_locked(dev)
                         : UINT32_MAX;
        gp_mutex_unlock(&gp_tr.lock);
        if (d == UINT32_MAX) return;
        b->dev.state = dev;
        b->dev.index = (uint16_t)d;
    }
    uint32_t ni = gp_trace_name_of(b, name, NULL);
    gp_trace_rec *r = gp_trace_buf_slot(b);
    if (r) {
        memset(r, 0, sizeof *r);
        r->kind = (uint8_t)kind;
        r->dev = b->dev.index;
        r->name = ni;
        r->t0 = begin;
        r->t1 = end;
        r->cache = (uint8_t)cache;
        gp_trace_buf_commit(b, r);
    }
    /* a wait for a device or a queue finished its commands: their device times are read here
     * once many are pending (else at the stop), keeping a launch loop's waits short */
    if (resolve &&
        atomic_load_explicit(&gp_tr.pending, memory_order_relaxed) >= GP_TRACE_RESOLVE_AT) {
        gp_mutex_lock(&gp_tr.lock);
        if (atomic_load_explicit(&gp_trace_on, memory_order_relaxed) == gen)
            gp_trace_resolve_locked();
        gp_mutex_unlock(&gp_tr.lock);
    }
}

/* ---- the file ------------------------------------------------------------------------------ */

static const char *const gp_trace_kind_name[] = {"launch", "write", "read", "copy",
                                                 "fill",   "build", "wait"};
static const char *const gp_trace_cache_name[] = {"", "compiled (cache miss)", "disk cache hit",
                                                  "in-process cache hit", "cache off"};

static void gp_trace_json_str(gp_strbuf *sb, const char *s)
{
    gp_strbuf_putc(sb, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            gp_strbuf_printf(sb, "\\%c", c);
        else if (c < 0x20)
            gp_strbuf_printf(sb, "\\u%04x", c);
        else
            gp_strbuf_putc(sb, (char)c);
    }
    gp_strbuf_putc(sb, '"');
}

/* Durations below the clock's nanosecond are written as one nanosecond: a command took time. */
static double gp_trace_dur(const gp_trace_rec *r, double rate)
{
    double d = gp_rec_end(r, rate) - gp_rec_begin(r, rate);
    return d < 0.001 ? 0.001 : d;
}

static void gp_trace_event_json(gp_strbuf *sb, const gp_trace_rec *r, double rate)
{
    const gp_device_info *in = &gp_tr.devs[r->dev].state->info;
    gp_strbuf_puts(sb, "{\"name\":");
    gp_trace_json_str(sb, gp_rec_name(r));
    gp_strbuf_printf(sb,
                     ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%u,\"tid\":%u",
                     gp_trace_kind_name[r->kind], gp_rec_begin(r, rate), gp_trace_dur(r, rate),
                     r->dev + 1, r->tid);
    gp_strbuf_printf(
        sb, ",\"args\":{\"backend\":\"%s\",\"device\":", gp_backend_name((gp_backend)in->backend));
    gp_trace_json_str(sb, in->spec);
    gp_strbuf_puts(sb, ",\"device_name\":");
    gp_trace_json_str(sb, in->name);
    if (r->kind == GP_TRACE_LAUNCH) {
        gp_strbuf_puts(sb, ",\"kernel\":");
        gp_trace_json_str(sb, gp_rec_name(r));
        const uint32_t *grid = r->u.l.grid, *group = r->u.l.group;
        gp_strbuf_printf(sb, ",\"grid\":[%u,%u,%u],\"group\":[%u,%u,%u]", grid[0] * group[0],
                         grid[1] * group[1], grid[2] * group[2], group[0], group[1], group[2]);
    } else if (r->kind != GP_TRACE_BUILD && r->kind != GP_TRACE_WAIT) {
        gp_strbuf_printf(sb, ",\"bytes\":%llu", (unsigned long long)r->u.bytes);
    } else if (r->kind == GP_TRACE_BUILD) {
        gp_strbuf_printf(sb, ",\"cache\":\"%s\"", gp_trace_cache_name[r->cache]);
    }
    if (r->tid == 0)
        gp_strbuf_puts(sb, ",\"clock\":\"host\"");
    else if (r->clock == 0)
        gp_strbuf_puts(sb, ",\"clock\":\"cpu (the command ran on the calling thread's pool)\"");
    else if (r->clock == 1)
        gp_strbuf_printf(sb, ",\"clock\":\"device (%s), aligned to the host\"",
                         in->backend == GP_BACKEND_OPENCL ? "OpenCL profiling info"
                         : in->backend == GP_BACKEND_CUDA ? "CUDA events"
                                                          : "command-buffer times");
    else
        gp_strbuf_puts(sb, ",\"clock\":\"host\",\"device_time\":\"unsupported\"");
    gp_strbuf_puts(sb, "}}");
}

static void gp_trace_meta_json(gp_strbuf *sb)
{
    for (uint32_t d = 0; d < gp_tr.ndevs; d++) {
        const gp_device_info *in = &gp_tr.devs[d].state->info;
        gp_strbuf_printf(sb,
                         "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,"
                         "\"args\":{\"name\":",
                         d + 1);
        char label[400];
        snprintf(label, sizeof label, "%s (%s)", in->spec, in->name);
        gp_trace_json_str(sb, label);
        gp_strbuf_puts(sb, "}},\n");
        gp_strbuf_printf(sb,
                         "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,"
                         "\"args\":{\"name\":\"host: builds and waits\"}},\n",
                         d + 1);
    }
    for (uint32_t i = 0; i < gp_tr.nqueues; i++) {
        const gp_trace_queue *t = &gp_tr.queues[i];
        gp_strbuf_printf(sb,
                         "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,"
                         "\"args\":{\"name\":\"queue %u%s\"}},\n",
                         t->dev + 1, t->tid, t->tid, t->tid == 1 ? " (default)" : "");
    }
}

typedef struct gp_trace_sortkey {
    double at;
    uint32_t i;
} gp_trace_sortkey;

static int gp_trace_sortkey_cmp(const void *a, const void *b)
{
    const gp_trace_sortkey *x = a, *y = b;
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* The records' indices by start time, or NULL when they are in order already (or no memory). */
static uint32_t *gp_trace_order_locked(double rate)
{
    bool sorted = true;
    for (size_t i = 1; i < gp_tr.n && sorted; i++)
        sorted = gp_rec_begin(&gp_tr.recs[i - 1], rate) <= gp_rec_begin(&gp_tr.recs[i], rate);
    if (sorted) return NULL;
    gp_trace_sortkey *keys = malloc(gp_tr.n * sizeof *keys);
    uint32_t *order = malloc(gp_tr.n * sizeof *order);
    if (!keys || !order) {
        free(keys);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < gp_tr.n; i++) {
        keys[i].at = gp_rec_begin(&gp_tr.recs[i], rate);
        keys[i].i = (uint32_t)i;
    }
    qsort(keys, gp_tr.n, sizeof *keys, gp_trace_sortkey_cmp);
    for (size_t i = 0; i < gp_tr.n; i++)
        order[i] = keys[i].i;
    free(keys);
    return order;
}

static gp_status gp_trace_write_locked(const char *path)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_puts(&sb, "{\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"producer\":\"gpuport ");
    gp_strbuf_puts(&sb, gp_version_string());
    gp_strbuf_printf(&sb,
                     "\",\"time_unit\":\"us since gp_trace_start (host monotonic clock)\","
                     "\"dropped_events\":%llu},\n\"traceEvents\":[\n",
                     (unsigned long long)gp_trace_dropped_locked());
    gp_trace_meta_json(&sb);
    double rate = gp_trace_rate_locked();
    /* in the order of their starts: the threads' records were gathered one thread at a time */
    uint32_t *order = gp_trace_order_locked(rate);
    for (size_t i = 0; i < gp_tr.n; i++) {
        gp_trace_event_json(&sb, &gp_tr.recs[order ? order[i] : i], rate);
        gp_strbuf_puts(&sb, i + 1 < gp_tr.n ? ",\n" : "\n");
    }
    free(order);
    if (gp_tr.n == 0) { /* no trailing comma after the metadata */
        gp_strbuf_puts(&sb, "{\"name\":\"trace\",\"ph\":\"M\",\"pid\":0,\"tid\":0,\"args\":{}}\n");
    }
    gp_strbuf_puts(&sb, "]}\n");
    if (sb.failed) {
        gp_strbuf_free(&sb);
        return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory writing the trace");
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        gp_strbuf_free(&sb);
        return gp_error_set(GP_ERR_IO, "cannot write the trace %s: %s", path, strerror(errno));
    }
    size_t len = strlen(gp_strbuf_cstr(&sb));
    bool ok = fwrite(gp_strbuf_cstr(&sb), 1, len, f) == len;
    ok &= fclose(f) == 0;
    gp_strbuf_free(&sb);
    if (!ok) return gp_error_set(GP_ERR_IO, "cannot write the trace %s: %s", path, strerror(errno));
    return GP_OK;
}

/* ---- the summary --------------------------------------------------------------------------- */

typedef struct gp_trace_sum {
    char name[128];
    uint8_t kind;
    uint64_t count, bytes;
    double us;
} gp_trace_sum;

static void gp_trace_summary_locked(gp_strbuf *sb)
{
    gp_trace_sum rows[256];
    size_t nrows = 0;
    uint64_t builds[5] = {0};
    double build_us = 0, wait_us = 0, first = 0, last = 0;
    uint64_t waits = 0;
    double rate = gp_trace_rate_locked();
    for (size_t i = 0; i < gp_tr.n; i++) {
        const gp_trace_rec *r = &gp_tr.recs[i];
        double b = gp_rec_begin(r, rate), e = gp_rec_end(r, rate), dur = gp_trace_dur(r, rate);
        if (i == 0 || b < first) first = b;
        if (e > last) last = e;
        if (r->kind == GP_TRACE_BUILD) {
            builds[r->cache]++;
            build_us += dur;
            continue;
        }
        if (r->kind == GP_TRACE_WAIT) {
            waits++;
            wait_us += dur;
            continue;
        }
        const char *key = r->kind == GP_TRACE_LAUNCH ? gp_rec_name(r) : gp_trace_kind_name[r->kind];
        size_t k = 0;
        while (k < nrows && !(rows[k].kind == r->kind && !strcmp(rows[k].name, key)))
            k++;
        if (k == nrows) {
            if (nrows == sizeof rows / sizeof rows[0]) continue;
            memset(&rows[k], 0, sizeof rows[k]);
            gp_copy_str(rows[k].name, sizeof rows[k].name, key);
            rows[k].kind = r->kind;
            nrows++;
        }
        rows[k].count++;
        rows[k].bytes += r->kind == GP_TRACE_LAUNCH ? 0 : r->u.bytes;
        rows[k].us += dur;
    }
    gp_strbuf_printf(sb, "gpuport trace: %zu events over %.3f ms%s\n", gp_tr.n,
                     gp_tr.n ? (last - first) / 1e3 : 0.0,
                     gp_trace_dropped_locked() ? " (some dropped: over the limit of records)" : "");
    gp_strbuf_puts(sb, "kernels:\n");
    for (size_t k = 0; k < nrows; k++)
        if (rows[k].kind == GP_TRACE_LAUNCH)
            gp_strbuf_printf(sb, "  %-32s %8llu launches %12.3f ms total %10.3f us each\n",
                             rows[k].name, (unsigned long long)rows[k].count, rows[k].us / 1e3,
                             rows[k].us / (double)rows[k].count);
    static const char *const dir[] = {"", "host to device", "device to host", "device to device",
                                      "fill"};
    gp_strbuf_puts(sb, "copies:\n");
    for (size_t k = 0; k < nrows; k++)
        if (rows[k].kind != GP_TRACE_LAUNCH)
            gp_strbuf_printf(sb, "  %-32s %8llu copies %14llu bytes %10.3f ms %10.3f GB/s\n",
                             dir[rows[k].kind], (unsigned long long)rows[k].count,
                             (unsigned long long)rows[k].bytes, rows[k].us / 1e3,
                             rows[k].us > 0 ? (double)rows[k].bytes / (rows[k].us * 1e3) : 0.0);
    gp_strbuf_printf(sb,
                     "builds: %llu in %.3f ms (%llu compiled, %llu from the disk cache, %llu from "
                     "the in-process cache, %llu with the cache off)\n",
                     (unsigned long long)(builds[1] + builds[2] + builds[3] + builds[4]),
                     build_us / 1e3, (unsigned long long)builds[1], (unsigned long long)builds[2],
                     (unsigned long long)builds[3], (unsigned long long)builds[4]);
    gp_strbuf_printf(sb, "waits: %llu in %.3f ms\n", (unsigned long long)waits, wait_us / 1e3);
    gp_strbuf_puts(sb, "idle per queue (between its first command's start and last one's end):\n");
    for (uint32_t i = 0; i < gp_tr.nqueues; i++) {
        const gp_trace_queue *t = &gp_tr.queues[i];
        double lo = 0, hi = 0, busy = 0;
        uint64_t n = 0;
        for (size_t k = 0; k < gp_tr.n; k++) {
            const gp_trace_rec *r = &gp_tr.recs[k];
            if (r->dev != t->dev || r->tid != t->tid) continue;
            double b = gp_rec_begin(r, rate), e = gp_rec_end(r, rate);
            if (!n || b < lo) lo = b;
            if (!n || e > hi) hi = e;
            busy += gp_trace_dur(r, rate);
            n++;
        }
        if (!n) continue;
        double span = hi - lo, idle = span > busy ? span - busy : 0;
        gp_strbuf_printf(sb, "  %s queue %u: %.3f ms idle of %.3f ms (%.1f%% busy)\n",
                         gp_tr.devs[t->dev].state->info.spec, t->tid, idle / 1e3, span / 1e3,
                         span > 0 ? 100.0 * (span - idle) / span : 100.0);
    }
}

/* ---- start, stop ---------------------------------------------------------------------------- */

static void gp_trace_clear_locked(void)
{
    for (size_t i = gp_tr.resolved; i < gp_tr.n; i++) {
        gp_trace_rec *r = &gp_tr.recs[i];
        gp_event_release(r->ev0);
        gp_event_release(r->ev1);
        if (r->native)
            gp_tr.devs[r->dev].state->ops->command_release(gp_tr.devs[r->dev].state, r->native);
    }
    for (uint32_t i = 0; i < gp_tr.nqueues; i++)
        gp_event_release(gp_tr.queues[i].ref);
    for (uint32_t i = 0; i < gp_tr.ndevs; i++)
        gp_device_state_unref(gp_tr.devs[i].state);
    gp_tr.last_queue = NULL;
    free(gp_tr.path); /* the records' array is kept for the next trace: its pages are faulted in */
    gp_tr.path = NULL;
    gp_tr.n = gp_tr.resolved = 0;
    gp_tr.dropped = 0;
    gp_tr.ndevs = gp_tr.nqueues = 0;
    atomic_store(&gp_tr.pending, 0);
    atomic_store(&gp_tr.budget, 0);
    for (gp_trace_buf *b = gp_tr.bufs; b; b = b->next)
        b->taken = 0;
}

gp_status gp_trace_start(const char *path)
{
    gp_mutex_lock(&gp_tr.lock);
    if (atomic_load(&gp_trace_on)) {
        gp_mutex_unlock(&gp_tr.lock);
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "gp_trace_start: a trace is already being recorded%s%s; stop it "
                            "first (gp_trace_stop)",
                            gp_tr.path ? " into " : "", gp_tr.path ? gp_tr.path : "");
    }
    gp_trace_clear_locked();
    if (path) {
        /* refuse a path that cannot be written now, not after the work */
        FILE *f = fopen(path, "ab");
        if (!f) {
            gp_mutex_unlock(&gp_tr.lock);
            return gp_error_set(GP_ERR_IO, "cannot write the trace %s: %s", path, strerror(errno));
        }
        fclose(f);
        gp_tr.path = strdup(path);
    }
    gp_once_call(&gp_trace_clock_once, gp_trace_clock_choose);
    gp_tr.s0 = gp_monotonic_s();
    gp_tr.tick0 = gp_trace_clock();
    if (!gp_rate_tick0) {
        gp_rate_tick0 = gp_tr.tick0;
        gp_rate_s0 = gp_tr.s0;
    }
    if (++gp_tr.gen <= 0) gp_tr.gen = 1;
    atomic_store(&gp_trace_on, gp_tr.gen);
    gp_mutex_unlock(&gp_tr.lock);
    return GP_OK;
}

gp_status gp_trace_stop(void)
{
    gp_mutex_lock(&gp_tr.lock);
    if (!atomic_load(&gp_trace_on)) {
        gp_mutex_unlock(&gp_tr.lock);
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_trace_stop: no trace is being recorded");
    }
    atomic_store(&gp_trace_on, 0);
    /* the commands still queued finish first: their device times are known then */
    for (uint32_t d = 0; d < gp_tr.ndevs; d++)
        gp_tr.devs[d].state->ops->device_synchronize(gp_tr.devs[d].state);
    gp_trace_resolve_locked();
    gp_trace_gather_locked();
    gp_status st = gp_tr.path ? gp_trace_write_locked(gp_tr.path) : GP_OK;
    gp_mutex_unlock(&gp_tr.lock);
    return st;
}

gp_status gp_trace_summary(char *buf, size_t cap, size_t *needed)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_mutex_lock(&gp_tr.lock);
    if (atomic_load(&gp_trace_on)) {
        for (uint32_t d = 0; d < gp_tr.ndevs; d++)
            gp_tr.devs[d].state->ops->device_synchronize(gp_tr.devs[d].state);
        gp_trace_resolve_locked();
        gp_trace_gather_locked();
    }
    gp_trace_summary_locked(&sb);
    gp_mutex_unlock(&gp_tr.lock);
    return gp_strbuf_out(&sb, buf, cap, needed);
}

/* GPUPORT_TRACE=FILE: on from the first device open to the end of the process. */
static void gp_trace_at_exit(void)
{
    if (!atomic_load(&gp_trace_on)) return;
    gp_status st = gp_trace_stop();
    if (st != GP_OK) fprintf(stderr, "gpuport: GPUPORT_TRACE: %s\n", gp_last_error());
    if (gp_tr.summary_at_exit) {
        size_t need = 0;
        gp_trace_summary(NULL, 0, &need);
        char *text = malloc(need ? need : 1);
        if (text && gp_trace_summary(text, need, NULL) == GP_OK) fputs(text, stderr);
        free(text);
    }
}

static gp_once gp_trace_env_once = GP_ONCE_INIT;

static void gp_trace_env_read(void)
{
    const char *path = getenv("GPUPORT_TRACE");
    if (!path || !*path) return;
    const char *sum = getenv("GPUPORT_TRACE_SUMMARY");
    gp_tr.summary_at_exit = sum && *sum && strcmp(sum, "0") != 0;
    if (gp_trace_start(path) != GP_OK) {
        fprintf(stderr, "gpuport: GPUPORT_TRACE: %s\n", gp_last_error());
        return;
    }
    atexit(gp_trace_at_exit);
}

void gp_trace_env_init(void)
{
    gp_once_call(&gp_trace_env_once, gp_trace_env_read);
}
