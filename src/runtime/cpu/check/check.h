/* check.h — the CPU backend's checker, as the rest of the backend sees it: checked buffers (red
 * zones, initcheck bits), the checked build of a program (the source parsed, instrumented and put
 * behind both preludes), and the checked launch (regions, shadow memory, the observer of the
 * fiber scheduler, the reports). */
#ifndef GP_RUNTIME_CPU_CHECK_CHECK_H
#define GP_RUNTIME_CPU_CHECK_CHECK_H

#include "runtime/cpu/cpu.h"
#define GP_CK_ABI_ONLY
#include "runtime/cpu/check/prelude.h"
#undef GP_CK_ABI_ONLY

/* Bytes kept free before and after a checked buffer, so that an overrun through a computed
 * pointer lands in no other buffer (and is reported against the one it left). */
#define GP_CK_RED_ZONE ((size_t)4096)

/* The checking state of a buffer created on a checked device. */
typedef struct gp_ck_buffer {
    void *alloc;    /* the allocation: red zone, data, red zone */
    uint32_t *init; /* initcheck: bit w set when the 4-byte word w was written (NULL: untracked) */
    size_t words;
} gp_ck_buffer;

/* buf->checks is set: allocates with red zones (and, with initcheck, the written bits); sets
 * impl, host_ptr and check. */
gp_status gp_ck_buffer_create(gp_buffer *buf);
void gp_ck_buffer_release(gp_buffer *buf);
/* The host wrote bytes [off, off + n) (a write, copy, fill or map): they count as initialized. */
void gp_ck_buffer_written(gp_buffer *buf, size_t off, size_t n);

/* The text the C compiler builds for a checked program: the dialect prelude, the check prelude
 * and the instrumented source (heap, *len bytes). GP_ERR_BUILD for a source the front end cannot
 * read, with its file:line:col; the caller then builds the plain text to tell a compile error of
 * the source from a limit of the checker. */
gp_status gp_ck_program_text(const gp_build_request *req, char **text, size_t *len);
/* The prelude part of the core's assembled text (from the kernel.h #line to the #line in front of
 * the user's source), for the passes that print the source again. */
bool gp_ck_prelude_part(const gp_build_request *req, const char **from, size_t *n);

/* A kernel of a checked program. */
typedef struct gp_ck_kernel_impl {
    const gp_cpu_kernel_desc *desc;
    const gp_ck_kernel *ck;
    const gp_ck_program *prog;
} gp_ck_kernel_impl;

/* Runs a launch checked; GP_ERR_CHECK with the first reports in the message when it made any
 * (all of them go to the thread's report list). */
gp_status gp_ck_launch(gp_kernel *k, const gp_launch *l);

/* ---- reports (report.c) -------------------------------------------------------------------- */
/* The names and sizes of a launch's regions, for messages. */
typedef struct gp_ck_names {
    const char *name[GP_CK_MAX_REGIONS];
    const char *what[GP_CK_MAX_REGIONS]; /* "buffer", "shared array", "dynamic shared block" */
    uint32_t esize[GP_CK_MAX_REGIONS];
    uint64_t size[GP_CK_MAX_REGIONS];
    uintptr_t base[GP_CK_MAX_REGIONS]; /* global regions (shared ones move with the thread) */
} gp_ck_names;

typedef struct gp_ck_reports gp_ck_reports;

/* The launch's geometry and names, for turning events into reports. */
typedef struct gp_ck_geometry {
    const char *kernel;
    uint32_t local[3], groups[3];
    uint32_t group_items;
    uint32_t checks;
} gp_ck_geometry;

gp_ck_reports *gp_ck_reports_new(const gp_ck_program *prog, const gp_ck_geometry *geo,
                                 const gp_ck_names *names);
/* An event of a work-item of group `group_id` (thread-safe). `shared_base` is where that
 * thread's regions start, for the shared ones. */
void gp_ck_reports_event(gp_ck_reports *r, const gp_ck_event *ev, const uint32_t group_id[3],
                         const gp_ck_region *regs);
/* A synchronisation finding of one group, built by the launch (thread-safe): `li` the first
 * work-item concerned, `other_li` the first of the others (or UINT32_MAX). */
void gp_ck_reports_sync(gp_ck_reports *r, uint32_t site, uint32_t li, const uint32_t group_id[3],
                        uint32_t other_site, uint32_t other_li, const char *message);
/* Finishes: hands the reports to the thread's list and returns GP_OK or GP_ERR_CHECK (with the
 * first reports in the message), then frees r. */
gp_status gp_ck_reports_finish(gp_ck_reports *r);

/* The reports of an unchecked launch (a SIMD-group fault, an unexpected barrier): one report
 * without a line, handed to the thread's list, and GP_ERR_CHECK with `message`. */
gp_status gp_ck_report_unchecked(const gp_kernel *k, const char *message);

#endif
