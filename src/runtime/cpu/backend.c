/* backend.c — the CPU backend's table: buffers are host memory (every kind is zero-copy), queues
 * run each command when it is enqueued, events are timestamps; programs and launches live in
 * program.c and launch.c. Always available: the correctness fallback of `auto`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/cpu/check/check.h"
#include "runtime/cpu/compiler.h"
#include "runtime/cpu/cpu.h"
#include "runtime/cpu/fiber.h"
#include "runtime/cpu/pool.h"
#include "util/sys.h"

static gp_status gp_cpu_probe(gp_selection_entry *out)
{
    char cc[256];
    gp_cpu_compiler_id(cc, sizeof cc);
    out->outcome = GP_SELECT_AVAILABLE;
    out->device_count = 1;
    snprintf(out->detail, sizeof out->detail, "%u threads, fibers: %s, C compiler: %s",
             gp_pool_threads(), gp_fiber_switch_kind(),
             strcmp(cc, "none") ? "found" : "none (built-in programs only)");
    return GP_OK;
}

static gp_status gp_cpu_device_open(gp_device_state *dev)
{
    dev->impl = NULL;
    return GP_OK;
}

static void gp_cpu_device_close(gp_device_state *dev)
{
    (void)dev;
}

static gp_status gp_cpu_compiler(gp_device_state *dev, char *buf, size_t cap)
{
    (void)dev;
    gp_cpu_compiler_id(buf, cap);
    return GP_OK;
}

static gp_status gp_cpu_buffer_create(gp_buffer *b)
{
    if (b->checks) return gp_ck_buffer_create(b);
    size_t align = b->size >= ((size_t)1 << 20) ? 4096 : 64;
    void *m = gp_aligned_alloc(b->size, align);
    if (!m)
        return gp_error_set(GP_ERR_OUT_OF_MEMORY,
                            "cannot allocate a %zu-byte buffer in host memory", b->size);
    b->impl = m;
    b->host_ptr = m;
    return GP_OK;
}

static void gp_cpu_buffer_release(gp_buffer *b)
{
    if (b->check)
        gp_ck_buffer_release(b);
    else
        gp_aligned_free(b->impl);
}

/* Host memory of another library: used as it is (host and native memory are one here). */
static gp_status gp_cpu_buffer_wrap(gp_buffer *b, gp_memory_kind kind, void *memory, size_t offset)
{
    (void)kind;
    b->kind = GP_BUFFER_SHARED;
    b->impl = (char *)memory + offset;
    b->host_ptr = b->impl;
    return GP_OK;
}

static gp_status gp_cpu_buffer_map(gp_buffer *b, void **p)
{
    *p = b->impl;
    gp_ck_buffer_written(b, 0, b->size); /* the host may write any of it */
    return GP_OK;
}

static gp_status gp_cpu_buffer_unmap(gp_buffer *b)
{
    (void)b;
    return GP_OK;
}

static gp_status gp_cpu_write(gp_queue *q, gp_buffer *dst, size_t off, const void *src, size_t n,
                              bool blocking)
{
    (void)q, (void)blocking;
    memcpy((char *)dst->impl + off, src, n);
    gp_ck_buffer_written(dst, off, n);
    return GP_OK;
}

static gp_status gp_cpu_read(gp_queue *q, gp_buffer *src, size_t off, void *dst, size_t n,
                             bool blocking)
{
    (void)q, (void)blocking;
    memcpy(dst, (char *)src->impl + off, n);
    return GP_OK;
}

static gp_status gp_cpu_copy(gp_queue *q, gp_buffer *dst, size_t doff, gp_buffer *src, size_t soff,
                             size_t n, bool blocking)
{
    (void)q, (void)blocking;
    memcpy((char *)dst->impl + doff, (char *)src->impl + soff, n);
    gp_ck_buffer_written(dst, doff, n);
    return GP_OK;
}

static gp_status gp_cpu_fill(gp_queue *q, gp_buffer *dst, size_t off, const void *pat, size_t psz,
                             size_t n, bool blocking)
{
    (void)q, (void)blocking;
    char *p = (char *)dst->impl + off;
    gp_ck_buffer_written(dst, off, n);
    if (psz == 1) {
        memset(p, *(const unsigned char *)pat, n);
        return GP_OK;
    }
    for (size_t i = 0; i < n; i += psz)
        memcpy(p + i, pat, psz);
    return GP_OK;
}

static gp_status gp_cpu_queue_create(gp_queue *q)
{
    q->impl = NULL;
    return GP_OK;
}

static void gp_cpu_queue_release(gp_queue *q)
{
    (void)q;
}

static gp_status gp_cpu_queue_finish(gp_queue *q)
{
    (void)q; /* commands ran when they were enqueued */
    return GP_OK;
}

static gp_status gp_cpu_event_record(gp_queue *q, gp_event *e)
{
    (void)q;
    double *t = malloc(sizeof *t);
    if (!t) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    *t = gp_monotonic_s() * 1e3;
    e->impl = t;
    return GP_OK;
}

static gp_status gp_cpu_event_wait(gp_event *e)
{
    (void)e;
    return GP_OK;
}

static gp_status gp_cpu_queue_wait_event(gp_queue *q, gp_event *e)
{
    (void)q, (void)e;
    return GP_OK;
}

static gp_status gp_cpu_event_elapsed(gp_event *a, gp_event *b, double *ms)
{
    *ms = *(double *)b->impl - *(double *)a->impl;
    return GP_OK;
}

static void gp_cpu_event_release(gp_event *e)
{
    free(e->impl);
}

static gp_status gp_cpu_synchronize(gp_device_state *dev)
{
    (void)dev;
    return GP_OK;
}

const gp_backend_ops gp_backend_cpu_ops = {
    .id = GP_BACKEND_CPU,
    .name = "cpu",
    .probe = gp_cpu_probe,
    .device_info = gp_cpu_device_info,
    .device_open = gp_cpu_device_open,
    .device_close = gp_cpu_device_close,
    .compiler_id = gp_cpu_compiler,
    .buffer_create = gp_cpu_buffer_create,
    .buffer_release = gp_cpu_buffer_release,
    .buffer_wrap = gp_cpu_buffer_wrap,
    .buffer_map = gp_cpu_buffer_map,
    .buffer_unmap = gp_cpu_buffer_unmap,
    .buffer_write = gp_cpu_write,
    .buffer_read = gp_cpu_read,
    .buffer_copy = gp_cpu_copy,
    .buffer_fill = gp_cpu_fill,
    .program_build = gp_cpu_program_build,
    .program_release = gp_cpu_program_release,
    .kernel_create = gp_cpu_kernel_create,
    .kernel_release = gp_cpu_kernel_release,
    .kernel_launch = gp_cpu_kernel_launch,
    .queue_create = gp_cpu_queue_create,
    .queue_release = gp_cpu_queue_release,
    .queue_finish = gp_cpu_queue_finish,
    .event_record = gp_cpu_event_record,
    .event_wait = gp_cpu_event_wait,
    .queue_wait_event = gp_cpu_queue_wait_event,
    .event_elapsed_ms = gp_cpu_event_elapsed,
    .event_release = gp_cpu_event_release,
    .device_synchronize = gp_cpu_synchronize,
};
