/* transfer.c — host <-> device copies from 4 KiB to 512 MiB. Discrete devices: pageable (malloc'd
 * host memory through the blocking gp_buffer_write/read, host-timed, as bandwidthTest does) and
 * pinned (the mapped memory of a GP_BUFFER_PINNED buffer as the host side of
 * gp_buffer_write_async/read_async, a batch between two device events: on CUDA that is
 * cuMemcpyHtoDAsync/DtoHAsync from page-locked memory). Unified-memory devices (the CPU, Apple,
 * PoCL) have no link: that is said, and the copy into a GP_BUFFER_SHARED buffer is measured. Every
 * size's data is checked after its samples. */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "util/term.h"

#define GP_KIB ((size_t)1 << 10)
#define GP_MIB ((size_t)1 << 20)

static void gp_bench_pattern(unsigned char *p, size_t n, unsigned seed)
{
    uint32_t x = 0x9e3779b9u ^ seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (unsigned char)(x >> 24);
    }
}

static void gp_bench_size_name(char *out, size_t cap, size_t size)
{
    if (size >= GP_MIB)
        snprintf(out, cap, "%zuMiB", size / GP_MIB);
    else
        snprintf(out, cap, "%zuKiB", size / GP_KIB);
}

typedef struct gp_xfer {
    gp_device *dev;
    gp_bench_run *run;
    gp_buffer *target; /* DEVICE, or SHARED on unified memory */
    gp_buffer *pinned; /* PINNED (discrete only) */
    unsigned char *host, *back;
    size_t size;
    int reps, samples;
} gp_xfer;

/* One direction, one kind; returns 0, or -1 after reporting. */
static int gp_xfer_measure(gp_xfer *x, bool h2d, bool pinned, const char *kind)
{
    unsigned char *pin = NULL;
    char sz[32], name[96];
    gp_bench_size_name(sz, sizeof sz, x->size);
    snprintf(name, sizeof name, "transfer.%s.%s.%s", h2d ? "h2d" : "d2h", kind, sz);
    gp_term_progress("bench %s: %s", x->run->dev.info.spec, name);
    double gbs[16];
    gp_bench_pattern(x->host, x->size, (unsigned)x->size ^ (h2d ? 1u : 2u) ^ (pinned ? 4u : 0u));
    /* d2h: put the pattern on the device first; pinned: stage it in the pinned buffer */
    /* the destination starts as zeros, so a copy that did nothing cannot pass the check */
    uint32_t zero = 0;
    memset(x->back, 0, x->size);
    /* pinned: the pinned buffer stays mapped while its host memory is the source or the
     * destination of the async copies (the device never uses it as a buffer meanwhile) */
    if (pinned) {
        void *p;
        if (gp_buffer_map(x->pinned, &p) != GP_OK) goto err;
        pin = p;
        if (h2d)
            memcpy(pin, x->host, x->size);
        else
            memset(pin, 0, x->size);
    }
    if (h2d && gp_buffer_fill(x->target, 0, &zero, sizeof zero, x->size) != GP_OK) goto err;
    if (!h2d && gp_buffer_write(x->target, 0, x->host, x->size) != GP_OK) goto err;
    for (int s = -1; s < x->samples; s++) { /* s = -1: warm-up */
        gp_event *e0 = NULL, *e1 = NULL;
        double t0 = gp_bench_now();
        if (pinned && gp_event_record(x->run->queue, &e0) != GP_OK) goto err;
        for (int r = 0; r < x->reps; r++) {
            gp_status st;
            if (pinned)
                st = h2d ? gp_buffer_write_async(x->run->queue, x->target, 0, pin, x->size)
                         : gp_buffer_read_async(x->run->queue, x->target, 0, pin, x->size);
            else
                st = h2d ? gp_buffer_write(x->target, 0, x->host, x->size)
                         : gp_buffer_read(x->target, 0, x->back, x->size);
            if (st != GP_OK) {
                gp_event_release(e0);
                goto err;
            }
        }
        double ms = 0;
        if (pinned) {
            if (gp_event_record(x->run->queue, &e1) != GP_OK || gp_event_wait(e1) != GP_OK ||
                gp_event_elapsed_ms(e0, e1, &ms) != GP_OK || !(ms > 0))
                ms = (gp_bench_now() - t0) * 1e3;
            gp_event_release(e0);
            gp_event_release(e1);
        } else {
            ms = (gp_bench_now() - t0) * 1e3;
        }
        if (s >= 0) gbs[s] = (double)x->size * x->reps / (ms / 1e3) / 1e9;
    }
    /* verify: what arrived is what was sent */
    const unsigned char *got = x->back;
    if (h2d) {
        if (gp_buffer_read(x->target, 0, x->back, x->size) != GP_OK) goto err;
    } else if (pinned) {
        memcpy(x->back, pin, x->size);
    }
    if (pin) {
        pin = NULL;
        if (gp_buffer_unmap(x->pinned) != GP_OK) goto err;
    }
    if (memcmp(got, x->host, x->size) != 0) {
        size_t i = 0;
        while (got[i] == x->host[i])
            i++;
        gp_bench_fail(x->run, name, "byte %zu differs (0x%02x, expected 0x%02x)", i, got[i],
                      x->host[i]);
        return -1;
    }
    gp_bench_add(x->run, name, "GB/s", h2d ? GP_PEAK_H2D : GP_PEAK_D2H, gbs, (size_t)x->samples,
                 (double)x->size);
    return 0;
err:
    gp_bench_error(x->run, name, "copying");
    if (pin) gp_buffer_unmap(x->pinned);
    return -1;
}

int gp_bench_transfer(gp_device *dev, const gp_bench_options *opt, gp_bench_run *run)
{
    static const size_t full[] = {4 * GP_KIB, 16 * GP_KIB, 64 * GP_KIB, 256 * GP_KIB, 1 * GP_MIB,
                                  4 * GP_MIB, 16 * GP_MIB, 64 * GP_MIB, 256 * GP_MIB, 512 * GP_MIB};
    static const size_t quick[] = {4 * GP_KIB, 64 * GP_KIB, 1 * GP_MIB, 4 * GP_MIB};
    const size_t *sizes = opt->quick ? quick : full;
    size_t nsizes = opt->quick ? sizeof quick / sizeof *quick : sizeof full / sizeof *full;
    bool unified = run->dev.info.unified_memory != 0;
    size_t target = opt->quick ? 8 * GP_MIB : 256 * GP_MIB; /* bytes moved per sample */
    int rc = 0;
    for (size_t i = 0; i < nsizes; i++) {
        size_t size = sizes[i];
        if ((run->dev.info.max_buffer_size && size > run->dev.info.max_buffer_size) ||
            (run->dev.info.total_memory && size > run->dev.info.total_memory / 4))
            break;
        gp_xfer x = {dev, run, NULL, NULL, malloc(size), malloc(size), size, 0, opt->quick ? 3 : 5};
        size_t reps = target / size;
        x.reps = reps < 1 ? 1 : reps > 1000 ? 1000 : (int)reps;
        if (!x.host || !x.back) {
            gp_bench_error(run, "transfer", "no host memory");
            rc = -1;
        } else if (gp_buffer_create(dev, unified ? GP_BUFFER_SHARED : GP_BUFFER_DEVICE, size,
                                    &x.target) != GP_OK ||
                   (!unified &&
                    gp_buffer_create(dev, GP_BUFFER_PINNED, size, &x.pinned) != GP_OK)) {
            gp_bench_error(run, "transfer", "allocating the buffers");
            rc = -1;
        } else if (unified) {
            if (gp_xfer_measure(&x, true, false, "shared") ||
                gp_xfer_measure(&x, false, false, "shared"))
                rc = -1;
        } else {
            if (gp_xfer_measure(&x, true, false, "pageable") ||
                gp_xfer_measure(&x, true, true, "pinned") ||
                gp_xfer_measure(&x, false, false, "pageable") ||
                gp_xfer_measure(&x, false, true, "pinned"))
                rc = -1;
        }
        gp_device_synchronize(dev);
        gp_buffer_release(x.target);
        gp_buffer_release(x.pinned);
        free(x.host);
        free(x.back);
        if (rc) break;
    }
    return rc;
}
