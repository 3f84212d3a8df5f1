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
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"
#include "runtime/trace.h"
#include "util/strbuf.h"
#include "util/sys.h"

#define GP_TRACE_MAX_RECORDS 4000000 /* then counted as dropped */
#define GP_TRACE_MAX_DEVICES 16
#define GP_TRACE_MAX_QUEUES  64

_Atomic int gp_trace_on;
_Thread_local void **gp_trace_capture;

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
    uint8_t kind;  /* gp_trace_kind */
    uint8_t clock; /* 0 host (the CPU's own), 1 device, 2 no device time */
    uint8_t cache; /* builds: gp_trace_cache */
    uint16_t dev, tid;
    uint32_t name;       /* index in gp_tr.names */
    uint64_t t0, t1;     /* host clock */
    double begin, end;   /* µs, of records with device times (clock 1) */
    gp_event *ev0, *ev1; /* the markers around it until they are read */
    void *native;        /* or its own event (command_times) */
    uint64_t bytes;
    uint32_t grid[3], group[3];
} gp_trace_rec;

static struct {
    gp_mutex lock;
    char *path;
    uint64_t tick0; /* the clock at start, and the monotonic seconds then */
    double s0;
    gp_trace_rec *recs;
    size_t n, cap;
    uint64_t dropped;
    gp_trace_device devs[GP_TRACE_MAX_DEVICES];
    uint32_t ndevs;
    gp_trace_queue queues[GP_TRACE_MAX_QUEUES];
    uint32_t nqueues;
    gp_trace_queue *last_queue; /* the track of the last command: most are on the same one */
    size_t pending;             /* records whose device times are still to be read */
    char **names;               /* kernel and file names, each once */
    uint32_t nnames, capnames, last_name;
    bool summary_at_exit;
} gp_tr = {.lock = GP_MUTEX_INIT};

/* ---- the clock: the TSC where it is invariant, else the monotonic clock in ns ---------------- */
static int gp_trace_tsc; /* set once, before the first trace starts */
static gp_once gp_trace_clock_once = GP_ONCE_INIT;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
static void gp_trace_clock_choose(void)
{
    unsigned a, b, c, d;
    gp_trace_tsc = __get_cpuid(0x80000007u, &a, &b, &c, &d) && (d & (1u << 8)); /* invariant */
}
static inline uint64_t gp_trace_raw(void)
{
    return gp_trace_tsc ? __builtin_ia32_rdtsc() : (uint64_t)(gp_monotonic_s() * 1e9);
}
#else
static void gp_trace_clock_choose(void)
{
    gp_trace_tsc = 0;
}
static inline uint64_t gp_trace_raw(void)
{
    return (uint64_t)(gp_monotonic_s() * 1e9);
}
#endif

uint64_t gp_trace_clock(void)
{
    uint64_t t = gp_trace_raw();
    return t ? t : 1;
}

/* Clock ticks per microsecond, measured against the monotonic clock since the start (at least
 * 2 ms of it, so that the readings' jitter is lost in it). */
static double gp_trace_rate_locked(void)
{
    if (!gp_trace_tsc) return 1000.0;
    double s;
    uint64_t t;
    do {
        s = gp_monotonic_s();
        t = gp_trace_raw();
    } while (s - gp_tr.s0 < 0.002);
    return (double)(t - gp_tr.tick0) / ((s - gp_tr.s0) * 1e6);
}

static double gp_trace_us(uint64_t t, double rate)
{
    return t > gp_tr.tick0 ? (double)(t - gp_tr.tick0) / rate : 0.0;
}

static double gp_rec_begin(const gp_trace_rec *r, double rate)
{
    return r->clock == 1 ? r->begin : gp_trace_us(r->t0, rate);
}

static double gp_rec_end(const gp_trace_rec *r, double rate)
{
    return r->clock == 1 ? r->end : gp_trace_us(r->t1, rate);
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

static gp_trace_rec *gp_trace_add_locked(void)
{
    if (gp_tr.n == gp_tr.cap) {
        if (gp_tr.cap >= GP_TRACE_MAX_RECORDS) {
            gp_tr.dropped++;
            return NULL;
        }
        size_t cap = gp_tr.cap ? gp_tr.cap * 2 : 1024;
        gp_trace_rec *r = realloc(gp_tr.recs, cap * sizeof *r);
        if (!r) {
            gp_tr.dropped++;
            return NULL;
        }
        gp_tr.recs = r;
        gp_tr.cap = cap;
    }
    return &gp_tr.recs[gp_tr.n++];
}

/* Device times of the records with markers (their queues are finished), into begin/end. */
static gp_trace_queue *gp_trace_track_locked(uint32_t dev, uint32_t tid)
{
    for (uint32_t k = 0; k < gp_tr.nqueues; k++)
        if (gp_tr.queues[k].dev == dev && gp_tr.queues[k].tid == tid) return &gp_tr.queues[k];
    return NULL;
}

/* Device times of the records with markers or their own events (their queues are finished),
 * into begin/end; the host interval stays (clock 2) where they cannot be read. */
static void gp_trace_resolve_locked(void)
{
    double rate = 0;
    for (size_t i = 0; i < gp_tr.n; i++) {
        gp_trace_rec *r = &gp_tr.recs[i];
        if (!r->ev0 && !r->native) continue;
        gp_device_state *dev = gp_tr.devs[r->dev].state;
        gp_trace_queue *tq = gp_trace_track_locked(r->dev, r->tid);
        double a = 0, b = 0;
        bool ok = false;
        if (r->native && tq && tq->ref) {
            uint64_t s0 = 0, e0 = 0, s1 = 0, e1 = 0;
            if (!tq->ref_ns && dev->ops->command_times(dev, tq->ref->impl, &s0, &e0) == GP_OK)
                tq->ref_ns = e0 ? e0 : 1;
            if (tq->ref_ns && dev->ops->command_times(dev, r->native, &s1, &e1) == GP_OK &&
                e1 >= s1) {
                a = ((double)s1 - (double)tq->ref_ns) / 1e6;
                b = ((double)e1 - (double)tq->ref_ns) / 1e6;
                ok = true;
            }
        } else if (r->ev0 && tq && tq->ref) {
            ok = gp_event_elapsed_ms(tq->ref, r->ev0, &a) == GP_OK &&
                 gp_event_elapsed_ms(tq->ref, r->ev1, &b) == GP_OK && b >= a;
        }
        if (ok) {
            if (!rate) rate = gp_trace_rate_locked();
            r->begin = gp_trace_us(tq->ref_at, rate) + a * 1e3;
            r->end = gp_trace_us(tq->ref_at, rate) + b * 1e3;
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
    gp_tr.pending = 0;
}

void gp_trace_cmd_begin(gp_queue *q, gp_trace_span *s)
{
    memset(s, 0, sizeof s[0]);
    if (q->dev->info.backend != GP_BACKEND_CPU) {
        gp_mutex_lock(&gp_tr.lock);
        gp_trace_queue *tq = gp_trace_queue_locked(q);
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
        bool timed = tq && tq->ref;
        gp_mutex_unlock(&gp_tr.lock);
        if (timed && q->dev->ops->command_times) { /* the command's own event */
            s->own = true;
            gp_trace_capture = &s->native;
        } else if (timed && gp_event_record(q, &s->ev0) != GP_OK) { /* markers around it */
            s->ev0 = NULL;
        }
    }
    s->begin = gp_trace_clock();
}

void gp_trace_cmd_end(gp_queue *q, gp_trace_span *s, gp_status st, gp_trace_kind kind,
                      const char *name, uint64_t bytes, const uint32_t *grid, const uint32_t *group)
{
    uint64_t end = gp_trace_clock();
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
        /* the device time, where there is one, is read later: host time until then */
        r->clock = q->dev->info.backend == GP_BACKEND_CPU ? 0 : 2;
        r->cache = 0;
        r->dev = (uint16_t)tq->dev;
        r->tid = (uint16_t)tq->tid;
        r->name = gp_trace_name_locked(name);
        r->t0 = s->begin;
        r->t1 = end;
        r->ev0 = s->ev0;
        r->ev1 = ev1;
        r->native = s->native;
        gp_tr.pending += s->native || s->ev0;
        r->bytes = bytes;
        for (int d = 0; d < 3; d++) {
            r->grid[d] = grid ? grid[d] : 0;
            r->group[d] = group ? group[d] : 0;
        }
    }
    gp_mutex_unlock(&gp_tr.lock);
    if (!r) {
        gp_event_release(s->ev0);
        gp_event_release(ev1);
        if (s->native) q->dev->ops->command_release(q->dev, s->native);
    }
}

void gp_trace_host(gp_device_state *dev, gp_trace_kind kind, uint64_t begin, const char *name,
                   gp_trace_cache cache, bool resolve)
{
    uint64_t end = gp_trace_clock();
    gp_mutex_lock(&gp_tr.lock);
    uint32_t d = atomic_load_explicit(&gp_trace_on, memory_order_relaxed)
                     ? gp_trace_device_locked(dev)
                     : UINT32_MAX;
    gp_trace_rec *r = d != UINT32_MAX ? gp_trace_add_locked() : NULL;
    if (r) {
        memset(r, 0, sizeof *r);
        r->kind = (uint8_t)kind;
        r->dev = (uint16_t)d;
        r->name = gp_trace_name_locked(name);
        r->t0 = begin;
        r->t1 = end;
        r->cache = (uint8_t)cache;
    }
    /* a wait finished the device's queues: their records' device times can be read now */
    /* a wait for a device or a queue finished its commands: their device times are read here
     * once many are pending (else at the stop), keeping a launch loop's waits short */
    if (resolve && gp_tr.pending >= 16384) gp_trace_resolve_locked();
    gp_mutex_unlock(&gp_tr.lock);
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
        gp_strbuf_printf(sb, ",\"grid\":[%u,%u,%u],\"group\":[%u,%u,%u]", r->grid[0] * r->group[0],
                         r->grid[1] * r->group[1], r->grid[2] * r->group[2], r->group[0],
                         r->group[1], r->group[2]);
    } else if (r->kind != GP_TRACE_BUILD && r->kind != GP_TRACE_WAIT) {
        gp_strbuf_printf(sb, ",\"bytes\":%llu", (unsigned long long)r->bytes);
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

static gp_status gp_trace_write_locked(const char *path)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_puts(&sb, "{\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"producer\":\"gpuport ");
    gp_strbuf_puts(&sb, gp_version_string());
    gp_strbuf_printf(&sb,
                     "\",\"time_unit\":\"us since gp_trace_start (host monotonic clock)\","
                     "\"dropped_events\":%llu},\n\"traceEvents\":[\n",
                     (unsigned long long)gp_tr.dropped);
    gp_trace_meta_json(&sb);
    double rate = gp_trace_rate_locked();
    for (size_t i = 0; i < gp_tr.n; i++) {
        gp_trace_event_json(&sb, &gp_tr.recs[i], rate);
        gp_strbuf_puts(&sb, i + 1 < gp_tr.n ? ",\n" : "\n");
    }
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
        rows[k].bytes += r->bytes;
        rows[k].us += dur;
    }
    gp_strbuf_printf(sb, "gpuport trace: %zu events over %.3f ms%s\n", gp_tr.n,
                     gp_tr.n ? (last - first) / 1e3 : 0.0,
                     gp_tr.dropped ? " (some dropped: over the limit of records)" : "");
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
    for (size_t i = 0; i < gp_tr.n; i++) {
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
    for (uint32_t i = 0; i < gp_tr.nnames; i++)
        free(gp_tr.names[i]);
    free(gp_tr.names);
    gp_tr.names = NULL;
    gp_tr.nnames = gp_tr.capnames = gp_tr.last_name = 0;
    gp_tr.last_queue = NULL;
    free(gp_tr.recs);
    free(gp_tr.path);
    gp_tr.recs = NULL;
    gp_tr.path = NULL;
    gp_tr.n = gp_tr.cap = 0;
    gp_tr.dropped = 0;
    gp_tr.ndevs = gp_tr.nqueues = 0;
    gp_tr.pending = 0;
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
    atomic_store(&gp_trace_on, 1);
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
