/* print.h — the output of gp_printf during one CPU launch (plain or checked): kept per call,
 * ordered by group when the launch ends, bounded in lines, then handed to the print handler. */
#ifndef GP_RUNTIME_CPU_PRINT_H
#define GP_RUNTIME_CPU_PRINT_H

#include <stdatomic.h>

#include "runtime/backend.h"

typedef struct gp_cpu_print_rec {
    uint64_t group; /* linear group index: the output is sorted by it */
    uint64_t seq;   /* order of arrival, for calls of one group */
    size_t off;
    uint32_t len;
} gp_cpu_print_rec;

typedef struct gp_cpu_print {
    atomic_flag lock;
    uint32_t limit;
    uint64_t lines, dropped;
    char *text;
    size_t len, cap;
    gp_cpu_print_rec *recs;
    size_t n, rcap;
    bool oom;
} gp_cpu_print;

void gp_cpu_print_begin(gp_cpu_print *p);
/* The gp_cpu_group.print hook; g->print_ctx is the gp_cpu_print. */
void gp_cpu_print_hook(const gp_cpu_group *g, const char *text, uint32_t len);
/* Sorts and hands on the launch's output (nothing when it printed nothing), then frees. */
void gp_cpu_print_end(gp_cpu_print *p, const char *kernel);

#endif
