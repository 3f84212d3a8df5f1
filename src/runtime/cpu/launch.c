/* launch.c — running a kernel on the CPU: work-groups are spread over the thread pool; a group's
 * work-items run as a plain loop (no barrier in the kernel) or as fibers on one thread (with
 * barriers). The launch runs when it is enqueued and returns when it is done. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/check/check.h"
#include "runtime/cpu/cpu.h"
#include "runtime/cpu/fiber.h"
#include "runtime/cpu/pool.h"
#include "runtime/cpu/print.h"
#include "util/sys.h"
#include "util/thread.h"

typedef struct gp_cpu_job {
    const gp_cpu_kernel_desc *d;
    const gp_launch *l;
    void *argv[GP_MAX_KERNEL_ARGS];
    void *bufptr[GP_MAX_KERNEL_ARGS];
    int dyn_index;
    bool fibers;
    _Atomic int failed;
    _Atomic int stray_barrier; /* gp_barrier() (1) or gp_simd_* (2) reached in a plain loop */
    _Atomic int simd_fault;    /* the first GP_FIBER_SIMD_* fault of any group */
    unsigned interrupts;       /* gp_interrupt_count() when the launch began */
    _Atomic int interrupted;
    gp_cpu_print print; /* gp_printf's output */
} gp_cpu_job;

static void gp_cpu_stray_barrier(void *ctx)
{
    atomic_store((_Atomic int *)ctx, 1);
}

static uint32_t gp_cpu_stray_simd(void *ctx, uint32_t op, uint32_t value, uint32_t arg)
{
    (void)op;
    (void)arg;
    atomic_store((_Atomic int *)ctx, 2);
    return value;
}

/* Each thread's dynamic shared block, grown on demand and freed with the thread. */
static gp_tls_key gp_dyn_key;
static gp_once gp_dyn_once = GP_ONCE_INIT;
typedef struct gp_dyn_block {
    size_t cap;
    void *mem;
} gp_dyn_block;

static void gp_dyn_free(void *p)
{
    gp_dyn_block *b = p;
    if (b) gp_aligned_free(b->mem);
    free(b);
}

static void gp_dyn_make(void)
{
    gp_tls_create(&gp_dyn_key, gp_dyn_free);
}

static void *gp_dyn_get(size_t n)
{
    gp_once_call(&gp_dyn_once, gp_dyn_make);
    gp_dyn_block *b = gp_tls_get(gp_dyn_key);
    if (!b) {
        b = calloc(1, sizeof *b);
        if (!b || gp_tls_set(gp_dyn_key, b) != 0) {
            free(b);
            return NULL;
        }
    }
    if (n > b->cap) {
        void *m = gp_aligned_alloc(n, 64);
        if (!m) return NULL;
        gp_aligned_free(b->mem);
        b->mem = m;
        b->cap = n;
    }
    return b->mem ? b->mem : (n == 0 ? (void *)b : NULL);
}

void gp_cpu_group_at(gp_cpu_group *g, const gp_launch *l, uint64_t i)
{
    uint64_t nx = l->num_groups[0], nxy = nx * l->num_groups[1];
    g->group_id[0] = (uint32_t)(i % nx);
    g->group_id[1] = (uint32_t)((i / nx) % l->num_groups[1]);
    g->group_id[2] = (uint32_t)(i / nxy);
    for (int d = 0; d < 3; d++)
        g->base[d] = g->group_id[d] * g->local_size[d];
}

static void gp_cpu_run_groups(void *ctx, uint64_t begin, uint64_t end)
{
    gp_cpu_job *j = ctx;
    const gp_launch *l = j->l;
    void *argv[GP_MAX_KERNEL_ARGS];
    memcpy(argv, j->argv, sizeof argv);
    void *dyn = NULL;
    if (j->dyn_index >= 0) {
        dyn = gp_dyn_get(l->dyn_shared_bytes);
        if (!dyn) {
            atomic_store(&j->failed, 1);
            return;
        }
        argv[j->dyn_index] = &dyn;
    }
    gp_cpu_group g;
    memset(&g, 0, sizeof g);
    for (int d = 0; d < 3; d++) {
        g.local_size[d] = l->group[d];
        g.num_groups[d] = l->num_groups[d];
    }
    /* replaced by the fiber scheduler when there are fibers */
    g.barrier = gp_cpu_stray_barrier;
    g.simd = gp_cpu_stray_simd;
    g.barrier_ctx = &j->stray_barrier;
    g.print = gp_cpu_print_hook;
    g.print_ctx = &j->print;
    for (uint64_t i = begin; i < end; i++) {
        if (gp_interrupt_count() != j->interrupts) { /* Ctrl-C: no more groups */
            atomic_store(&j->interrupted, 1);
            return;
        }
        gp_cpu_group_at(&g, l, i);
        if (!j->fibers) {
            j->d->run_group(argv, &g);
        } else {
            int fault = 0;
            gp_status st = gp_fiber_run_group(j->d->run_item, argv, &g, &fault, NULL);
            if (st == GP_ERR_LAUNCH) {
                int none = 0;
                atomic_compare_exchange_strong(&j->simd_fault, &none, fault);
            } else if (st != GP_OK) {
                atomic_store(&j->failed, 1);
                return;
            }
        }
    }
}

gp_status gp_cpu_kernel_launch(gp_queue *q, gp_kernel *k, const gp_launch *l)
{
    (void)q;
    if (k->program->checks) return gp_ck_launch(k, l);
    gp_check_reports_set(NULL, 0, 0); /* a launch's reports replace the last one's */
    gp_cpu_job j;
    memset(&j, 0, sizeof j);
    j.d = k->impl;
    j.l = l;
    j.dyn_index = -1;
    /* a kernel in the work-group loops form has no item entry: one call runs its group */
    j.fibers = (k->sig->uses_barrier || k->sig->uses_simd) && j.d->run_item;
    for (uint32_t i = 0; i < l->num_args; i++) {
        const gp_arg *a = &l->args[i];
        if (a->kind == GP_ARG_DYN_SHARED) {
            j.dyn_index = (int)i;
        } else if (a->kind == GP_ARG_VALUE) {
            if (a->size != j.d->arg_sizes[i])
                return gp_error_set(
                    GP_ERR_INVALID_ARGUMENT,
                    "kernel '%s' argument %u '%s' is %s (%u bytes), the launch passed %zu bytes",
                    k->sig->name, i, k->sig->args[i].name, k->sig->args[i].type_name,
                    j.d->arg_sizes[i], a->size);
            j.argv[i] = (void *)a->value; /* the launch finishes before we return */
        } else {
            j.bufptr[i] = a->buffer ? a->buffer->impl : NULL; /* NULL: gp_arg_null() */
            j.argv[i] = &j.bufptr[i];
        }
    }
    uint64_t groups = (uint64_t)l->num_groups[0] * l->num_groups[1] * l->num_groups[2];
    j.interrupts = gp_interrupt_count();
    gp_cpu_print_begin(&j.print);
    gp_pool_run(groups, gp_cpu_run_groups, &j);
    gp_cpu_print_end(&j.print, k->sig->name);
    if (atomic_load(&j.interrupted))
        return gp_error_set(GP_ERR_INTERRUPTED,
                            "kernel '%s' was interrupted (gp_interrupt, Ctrl-C) before all its "
                            "work-groups ran: its results are incomplete",
                            k->sig->name);
    /* what only a checked run can place on a line is still a report here, without the line */
    if (atomic_load(&j.stray_barrier) == 2)
        return gp_ck_report_unchecked(
            k, "it reached a gp_simd_* operation the runtime did not see in it (in its body, or "
               "in a helper it calls by name), so it ran without SIMD groups and its results are "
               "not valid; spell out the gp_simd_* name and the helpers' names (no token "
               "pasting, no macro aliases)");
    int fault = atomic_load(&j.simd_fault);
    if (fault == GP_FIBER_SIMD_DIVERGED)
        return gp_ck_report_unchecked(
            k, "the lanes of a SIMD group did not all reach the same gp_simd_* operation (one "
               "waited at a barrier or took another branch to a different one); SIMD-group "
               "operations need every lane that has not returned, like CUDA's full-mask *_sync "
               "intrinsics, so the results are not valid (run it with GPUPORT_CHECK=synccheck "
               "for the line)");
    if (fault == GP_FIBER_SIMD_READ_EXITED)
        return gp_ck_report_unchecked(
            k, "a gp_simd_shuffle* read the value of a lane that had already returned, which "
               "GPUs leave undefined, so the results are not valid; keep the lanes in the kernel "
               "until their last shuffle (guard the work with `if (i < n)`, not the return; run "
               "it with GPUPORT_CHECK=synccheck for the line)");
    if (atomic_load(&j.stray_barrier))
        return gp_ck_report_unchecked(
            k, "it reached a gp_barrier() the runtime did not see in it (in its body, or in a "
               "helper it calls by name), so it ran without barriers and its results are not "
               "valid; spell out gp_barrier and the helpers' names (no token pasting, no macro "
               "aliases)");
    if (atomic_load(&j.failed))
        return gp_error_set(GP_ERR_OUT_OF_MEMORY,
                            "kernel '%s': no memory for fiber stacks or the dynamic shared block",
                            k->sig->name);
    return GP_OK;
}
