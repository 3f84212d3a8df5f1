/* run.c — a checked launch. The launch's regions are laid out once (each buffer parameter, the
 * constant tables; racecheck's shadow for every buffer a GP_BUF parameter may write, as virtual
 * memory of which only the pages the kernel touches become real), then groups run on the pool as
 * in an unchecked launch, each thread with its own context: the group's shared arrays and dynamic
 * block in one arena with red zones between them, 16 bytes of shadow per shared word, and the
 * per-work-item notes (where each waits, where it ended). Work-items run as fibers when the
 * kernel reaches a barrier or SIMD-group operation; the fiber scheduler's observer turns barrier
 * divergence and SIMD-group faults into reports. Accesses outside every region are classified
 * here: into a red zone (an overrun of that region), onto the running work-item's stack (its
 * private variables), or nowhere (reported, not performed). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "runtime/cpu/check/check.h"
#include "runtime/cpu/fiber.h"
#include "runtime/cpu/pool.h"
#include "runtime/cpu/print.h"
#include "util/sys.h"
#include "util/thread.h"

#define GP_CK_SHARED_RZ 64 /* bytes between the shared arrays of the arena */
#define GP_CK_MAX_ITEMS GP_CPU_MAX_GROUP

typedef struct gp_ck_run {
    gp_kernel *k;
    const gp_launch *l;
    const gp_ck_kernel_impl *ki;
    gp_ck_region regs[GP_CK_MAX_REGIONS]; /* the launch's global regions */
    gp_ck_names names;
    void *argv[GP_MAX_KERNEL_ARGS];
    void *bufptr[GP_MAX_KERNEL_ARGS];
    int dyn_index;
    bool fibers;
    uint32_t checks;
    uint32_t group_items;
    size_t shared_off[GP_CK_MAX_SHARED];
    size_t dyn_off, arena_size;
    void *maps[GP_MAX_KERNEL_ARGS];  /* racecheck's global shadows */
    void *amaps[GP_MAX_KERNEL_ARGS]; /* ... of atomics */
    size_t maplen[GP_MAX_KERNEL_ARGS];
    uint32_t aseen[GP_MAX_KERNEL_ARGS]; /* an atomic touched the buffer */
    gp_ck_reports *rep;
    _Atomic int failed;
    gp_cpu_print print; /* gp_printf's output */
} gp_ck_run;

typedef struct gp_ck_thread {
    gp_ck_ctx ctx;
    gp_ck_run *run;
    gp_cpu_group *g;
    void *arena;
    size_t arena_cap;
    gp_ck_scell *cells;
    size_t cells_cap;
    void *big_sink; /* for accesses larger than the context's sink */
    size_t big_cap;
    uint32_t bad[GP_CK_MAX_ITEMS], at_site[GP_CK_MAX_ITEMS], end_site[GP_CK_MAX_ITEMS];
    uint32_t call_site[GP_CK_MAX_ITEMS];
    uint8_t simd_epoch[GP_CK_MAX_ITEMS], simd_since[GP_CK_MAX_ITEMS];
} gp_ck_thread;

static gp_tls_key gp_ck_key;
static gp_once gp_ck_once = GP_ONCE_INIT;

static void gp_ck_thread_free(void *p)
{
    gp_ck_thread *t = p;
    if (!t) return;
    gp_aligned_free(t->arena);
    free(t->cells);
    free(t->big_sink);
    gp_aligned_free(t);
}

static void gp_ck_key_make(void)
{
    gp_tls_create(&gp_ck_key, gp_ck_thread_free);
}

static gp_ck_thread *gp_ck_thread_get(void)
{
    gp_once_call(&gp_ck_once, gp_ck_key_make);
    gp_ck_thread *t = gp_tls_get(gp_ck_key);
    if (!t) {
        t = gp_aligned_alloc(sizeof *t, 64);
        if (!t) return NULL;
        memset(t, 0, sizeof *t);
        if (gp_tls_set(gp_ck_key, t) != 0) {
            gp_aligned_free(t);
            return NULL;
        }
    }
    return t;
}

/* ---- the runtime's side of the hooks ----------------------------------------------------------
 */
static gp_ck_thread *gp_ck_thread_of(gp_ck_ctx *c)
{
    return (gp_ck_thread *)(void *)c; /* ctx is the first member */
}

static void gp_ck_event_cb(gp_ck_ctx *c, const gp_ck_event *ev)
{
    gp_ck_thread *t = gp_ck_thread_of(c);
    gp_ck_reports_event(t->run->rep, ev, t->g->group_id, c->reg);
}

/* A held-back plain read (see spec_code in prelude.h) that no compare-exchange validated: a race
 * after all. */
static void gp_ck_spec_flush(gp_ck_ctx *c)
{
    if (!c->spec_code) return;
    gp_ck_event ev = {c->spec_code,
                      c->spec_li,
                      c->spec_site,
                      c->spec_reg,
                      c->spec_kind,
                      4,
                      c->spec_addr,
                      0,
                      0,
                      c->spec_other_site,
                      c->spec_other,
                      2,
                      0};
    c->spec_code = 0;
    gp_ck_event_cb(c, &ev);
}

static void *gp_ck_sink(gp_ck_thread *t, uint32_t size, uint32_t kind)
{
    void *s = t->ctx.sink;
    if (size > sizeof t->ctx.sink) {
        if (size > t->big_cap) {
            void *m = realloc(t->big_sink, size);
            if (!m) return t->ctx.sink; /* never reached by dialect types */
            t->big_sink = m;
            t->big_cap = size;
        }
        s = t->big_sink;
    }
    if (kind & (GP_CK_READ | GP_CK_ATOMIC)) memset(s, 0, size);
    return s;
}

/* An access that left its region or lies in none: reported (and not performed) unless it is a
 * private variable of the running work-item. */
static __attribute__((noinline)) void *gp_ck_slow(gp_ck_ctx *c, uint32_t li, uint32_t site,
                                                  uint32_t reg, uint32_t kind, uintptr_t addr,
                                                  uint32_t size)
{
    gp_ck_thread *t = gp_ck_thread_of(c);
    /* every frame of the kernel lies above this one (the frame, not a local: with
     * AddressSanitizer a local may live on its heap-allocated fake stack) */
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    gp_ck_event ev = {GP_CK_EV_OOB, li, site, reg, kind, size, addr, 0, 0, 0xffffffffu, 0, 0, 0};
    if (reg == GP_CK_REG_SEARCH) {
        /* an overrun into a red zone belongs to the region next to it */
        uint32_t best = GP_CK_REG_SEARCH;
        uintptr_t best_gap = 0;
        for (uint32_t k = 0; k < c->nbound; k++) {
            const gp_ck_region *r = &c->reg[c->bound[k]];
            uintptr_t rz = (r->flags & GP_CK_R_SHARED) ? GP_CK_SHARED_RZ : GP_CK_RED_ZONE;
            uintptr_t gap;
            if (addr < r->base)
                gap = r->base - addr;
            else if (addr - r->base >= r->size)
                gap = addr - (r->base + r->size) + 1;
            else
                gap = 0; /* starts inside, runs past the end */
            if (gap <= rz && (best == GP_CK_REG_SEARCH || gap < best_gap)) {
                best = c->bound[k];
                best_gap = gap;
            }
        }
        if (best != GP_CK_REG_SEARCH) {
            ev.reg = best;
        } else if (addr >= sp && addr < c->stack_hi) {
            return (void *)addr; /* a private variable */
        } else {
            ev.code = GP_CK_EV_WILD;
        }
    } else if ((kind & (GP_CK_WRITE | GP_CK_ATOMIC)) && (c->reg[reg].flags & GP_CK_R_READONLY) &&
               addr - c->reg[reg].base < c->reg[reg].size) {
        ev.code = GP_CK_EV_READONLY;
    }
    c->event(c, &ev);
    return gp_ck_sink(t, size, kind);
}

/* ---- the fiber scheduler's observer ---------------------------------------------------------- */
static void gp_ck_resume(void *ctx, uint32_t item, uintptr_t stack_hi)
{
    (void)item;
    ((gp_ck_thread *)ctx)->ctx.stack_hi = stack_hi;
}

static uint32_t gp_ck_item_site(void *ctx, uint32_t item)
{
    return ((gp_ck_thread *)ctx)->at_site[item];
}

static bool gp_ck_fell_off(void *ctx, uint32_t item)
{
    const gp_ck_thread *t = ctx;
    return t->end_site[item] && !(t->end_site[item] & GP_CK_END_RETURN);
}

/* "0..31, 40, 42..44": the items whose flag equals `want`, and their number in *count */
static void gp_ck_ranges(char *buf, size_t cap, const uint8_t *flag, uint32_t n, uint8_t want,
                         uint32_t *count)
{
    size_t o = 0;
    bool cut = false;
    *count = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < n;) {
        if (flag[i] != want) {
            i++;
            continue;
        }
        uint32_t j = i;
        while (j + 1 < n && flag[j + 1] == want)
            j++;
        *count += j - i + 1;
        char part[32];
        if (j > i)
            snprintf(part, sizeof part, "%u..%u", i, j);
        else
            snprintf(part, sizeof part, "%u", i);
        if (!cut && o + strlen(part) + 8 < cap) {
            o += (size_t)snprintf(buf + o, cap - o, "%s%s", o ? ", " : "", part);
        } else if (!cut && o + 6 < cap) {
            o += (size_t)snprintf(buf + o, cap - o, ", ...");
            cut = true;
        }
        i = j + 1;
    }
}

/* Where a synchronisation finding of work-item li at `site` is reported: the site itself in a
 * kernel's body; in a helper, the kernel's call that led there (the line that decides which
 * work-items get there), with `note` naming the helper's line. */
static uint32_t gp_ck_place(const gp_ck_thread *t, uint32_t li, uint32_t site, char *note,
                            size_t cap)
{
    note[0] = '\0';
    const gp_ck_program *pr = t->run->ki->prog;
    if (site >= pr->nsites || !pr->sites[site].helper || !t->call_site[li]) return site;
    const gp_ck_site *s = &pr->sites[site];
    snprintf(note, cap, " (the %s() at %s:%u:%u, in the function called here)", s->object,
             s->file < pr->nfiles ? pr->files[s->file] : "?", s->line, s->col);
    return t->call_site[li] - 1;
}

static void gp_ck_release(void *ctx, const uint8_t *ended, uint32_t n)
{
    gp_ck_thread *t = ctx;
    gp_ck_ctx *c = &t->ctx;
    if (c->checks & GP_CK_SYNC) {
        uint32_t first_wait = UINT32_MAX, first_end = UINT32_MAX, other_wait = UINT32_MAX;
        for (uint32_t i = 0; i < n; i++) {
            if (ended[i]) {
                if (first_end == UINT32_MAX) first_end = i;
            } else if (first_wait == UINT32_MAX) {
                first_wait = i;
            } else if (other_wait == UINT32_MAX && t->at_site[i] != t->at_site[first_wait]) {
                other_wait = i;
            }
        }
        char waiting[160], rest[160], msg[1100];
        uint32_t nw = 0, ne = 0;
        if (first_wait != UINT32_MAX && first_end != UINT32_MAX) {
            gp_ck_ranges(waiting, sizeof waiting, ended, n, 0, &nw);
            gp_ck_ranges(rest, sizeof rest, ended, n, 1, &ne);
            char note[300];
            uint32_t at = gp_ck_place(t, first_wait, t->at_site[first_wait], note, sizeof note);
            snprintf(msg, sizeof msg,
                     "gp_barrier()%s reached by %u of the %u work-items of the group (linear "
                     "local ids %s); %s (%s) had already ended, so the barrier can never be "
                     "complete: every work-item must reach every barrier (guard the work, not "
                     "the barrier)",
                     note, nw, n, waiting, ne == 1 ? "the other" : "the others", rest);
            uint32_t es = t->end_site[first_end] & ~GP_CK_END_RETURN;
            gp_ck_reports_sync(t->run->rep, at, first_wait, t->g->group_id,
                               es ? es - 1 : 0xffffffffu, first_end, msg);
        }
        if (other_wait != UINT32_MAX) {
            uint8_t *same = malloc(n);
            if (same) {
                for (uint32_t i = 0; i < n; i++)
                    same[i] = !ended[i] && t->at_site[i] == t->at_site[first_wait];
                gp_ck_ranges(waiting, sizeof waiting, same, n, 1, &nw);
                for (uint32_t i = 0; i < n; i++)
                    same[i] = !ended[i] && t->at_site[i] != t->at_site[first_wait];
                gp_ck_ranges(rest, sizeof rest, same, n, 1, &ne);
                free(same);
            }
            char note[300];
            uint32_t at = gp_ck_place(t, first_wait, t->at_site[first_wait], note, sizeof note);
            snprintf(msg, sizeof msg,
                     "work-items of one group wait at different barriers: %u here%s (linear "
                     "local ids %s), %u at another (%s); a barrier inside a branch that depends "
                     "on the work-item deadlocks or misbehaves on GPUs",
                     nw, note, waiting, ne, rest);
            gp_ck_reports_sync(t->run->rep, at, first_wait, t->g->group_id, t->at_site[other_wait],
                               other_wait, msg);
        }
    }
    gp_ck_spec_flush(c);
    c->epoch++;
    memset(t->simd_since, 0, n);
}

static void gp_ck_simd_fault(void *ctx, const gp_fiber_simd_fault *f)
{
    gp_ck_thread *t = ctx;
    char msg[1100];
    uint32_t site = t->at_site[f->item], other_site = 0xffffffffu, other = UINT32_MAX;
    if (f->fault == GP_FIBER_SIMD_READ_EXITED) {
        uint32_t es = t->end_site[f->first + f->src] & ~GP_CK_END_RETURN;
        char note[300];
        uint32_t at = gp_ck_place(t, f->item, site, note, sizeof note);
        snprintf(msg, sizeof msg,
                 "a gp_simd_shuffle%s read lane %u of its SIMD group (linear local id %u), which "
                 "had already returned: GPUs give an undefined value; keep the lanes in the "
                 "kernel until their last shuffle (guard the work with `if (i < n)`, not the "
                 "return)",
                 note, f->src, f->first + f->src);
        gp_ck_reports_sync(t->run->rep, at, f->item, t->g->group_id, es ? es - 1 : 0xffffffffu,
                           f->first + f->src, msg);
        return;
    }
    uint8_t missing[32] = {0};
    const char *where = "";
    for (uint32_t l = 0; l < f->lanes && l < 32; l++) {
        uint32_t item = f->first + l;
        bool elsewhere = !(f->present >> l & 1u) || t->at_site[item] != site;
        if (!elsewhere) continue;
        missing[l] = 1;
        if (other != UINT32_MAX) continue;
        other = item;
        bool ended = f->ended >> l & 1u;
        uint32_t es = t->end_site[item] & ~GP_CK_END_RETURN;
        if (ended && !(t->end_site[item] & GP_CK_END_RETURN)) {
            where = "ran to the end of the kernel without it";
            other_site = es ? es - 1 : 0xffffffffu;
        } else if (ended) {
            where = "had returned";
            other_site = es ? es - 1 : 0xffffffffu;
        } else {
            where = "were at another barrier or SIMD-group operation";
            other_site = t->at_site[item];
        }
    }
    char lanes[160];
    uint32_t n = 0;
    gp_ck_ranges(lanes, sizeof lanes, missing, f->lanes < 32 ? f->lanes : 32, 1, &n);
    char note[300];
    uint32_t at = gp_ck_place(t, f->item, site, note, sizeof note);
    snprintf(msg, sizeof msg,
             "a SIMD-group operation%s without every lane of its SIMD group (linear local ids "
             "%u..%u): lane%s %s %s; every lane that has not returned must call the same "
             "operation (CUDA's full-mask rule), so it must not sit in a branch that depends on "
             "the lane",
             note, f->first, f->first + f->lanes - 1, n == 1 ? "" : "s", lanes, where);
    gp_ck_reports_sync(t->run->rep, at, f->item, t->g->group_id, other_site, other, msg);
}

static void gp_ck_noop_barrier(void *ctx)
{
    (void)ctx;
}

static uint32_t gp_ck_noop_simd(void *ctx, uint32_t op, uint32_t value, uint32_t arg)
{
    (void)ctx, (void)op, (void)arg;
    return value;
}

/* ---- running the groups -----------------------------------------------------------------------
 */
static bool gp_ck_thread_prepare(gp_ck_thread *t, gp_ck_run *r)
{
    if (r->arena_size > t->arena_cap) {
        void *m = gp_aligned_alloc(r->arena_size, 64);
        if (!m) return false;
        gp_aligned_free(t->arena);
        t->arena = m;
        t->arena_cap = r->arena_size;
    }
    size_t ncells = r->arena_size / 4;
    if ((r->checks & (GP_CK_RACE | GP_CK_INIT)) && ncells > t->cells_cap) {
        gp_ck_scell *m = calloc(ncells, sizeof *m);
        if (!m) return false;
        free(t->cells);
        t->cells = m;
        t->cells_cap = ncells;
        t->ctx.cell_gen = 0; /* every cell is of generation 0 now */
    }
    gp_ck_ctx *c = &t->ctx;
    memcpy(c->reg, r->regs, sizeof c->reg);
    c->checks = r->checks;
    c->group_items = r->group_items;
    c->bad = t->bad;
    c->at_site = t->at_site;
    c->end_site = t->end_site;
    c->call_site = t->call_site;
    c->simd_epoch = t->simd_epoch;
    c->simd_since = t->simd_since;
    c->slow = gp_ck_slow;
    c->event = gp_ck_event_cb;
    c->rt = r;
    c->last_reg = 0;
    c->spec_code = 0;
    c->wval = NULL;
    t->run = r;
    char *arena = t->arena;
    bool cells = (r->checks & (GP_CK_RACE | GP_CK_INIT)) != 0;
    const gp_ck_kernel *kk = r->ki->ck;
    for (uint32_t s = 0; s < kk->nshared; s++) {
        c->shared[s] = arena + r->shared_off[s];
        gp_ck_region *g = &c->reg[GP_CK_REG_SHARED(s)];
        g->base = (uintptr_t)c->shared[s];
        g->size = kk->shared[s].size;
        g->flags = GP_CK_R_BOUND | GP_CK_R_SHARED;
        g->esize = kk->shared[s].esize;
        g->race = cells ? (uint64_t *)(void *)(t->cells + r->shared_off[s] / 4) : NULL;
    }
    if (r->dyn_index >= 0) {
        gp_ck_region *g = &c->reg[r->dyn_index];
        g->base = (uintptr_t)(arena + r->dyn_off);
        g->size = r->l->dyn_shared_bytes;
        g->flags = GP_CK_R_BOUND | GP_CK_R_SHARED;
        g->race = cells ? (uint64_t *)(void *)(t->cells + r->dyn_off / 4) : NULL;
    }
    c->nbound = 0;
    for (uint32_t i = 0; i < GP_CK_MAX_REGIONS; i++)
        if ((c->reg[i].flags & GP_CK_R_BOUND) && c->reg[i].size) c->bound[c->nbound++] = (uint8_t)i;
    return true;
}

static void gp_ck_run_groups(void *ctx, uint64_t begin, uint64_t end)
{
    gp_ck_run *r = ctx;
    const gp_launch *l = r->l;
    gp_ck_thread *t = gp_ck_thread_get();
    if (!t || !gp_ck_thread_prepare(t, r)) {
        atomic_store(&r->failed, 1);
        return;
    }
    void *argv[GP_MAX_KERNEL_ARGS];
    memcpy(argv, r->argv, sizeof argv);
    void *dyn = t->arena ? (char *)t->arena + r->dyn_off : NULL;
    if (r->dyn_index >= 0) argv[r->dyn_index] = &dyn;
    gp_cpu_group g;
    memset(&g, 0, sizeof g);
    for (int d = 0; d < 3; d++) {
        g.local_size[d] = l->group[d];
        g.num_groups[d] = l->num_groups[d];
    }
    g.check = &t->ctx;
    g.print = gp_cpu_print_hook;
    g.print_ctx = &r->print;
    t->g = &g;
    gp_ck_ctx *c = &t->ctx;
    c->group = &g;
    gp_fiber_observer obs = {
        t, gp_ck_resume, gp_ck_release, gp_ck_simd_fault, gp_ck_fell_off, gp_ck_item_site};
    uint32_t n = r->group_items;
    size_t cells = (r->checks & (GP_CK_RACE | GP_CK_INIT)) ? r->arena_size / 4 : 0;
    for (uint64_t i = begin; i < end; i++) {
        gp_cpu_group_at(&g, l, i);
        c->item0 = i * n;
        c->epoch = 0;
        memset(t->bad, 0, n * sizeof *t->bad);
        memset(t->at_site, 0, n * sizeof *t->at_site);
        memset(t->end_site, 0, n * sizeof *t->end_site);
        memset(t->call_site, 0, n * sizeof *t->call_site);
        memset(t->simd_epoch, 0, n);
        memset(t->simd_since, 0, n);
        /* a new generation of shared cells (they reset on first touch); a full clear only when
         * the 16-bit generation wraps */
        if (cells && ++c->cell_gen == 0) {
            memset(t->cells, 0, t->cells_cap * sizeof *t->cells);
            c->cell_gen = 1;
        }
        if (r->fibers) {
            c->loop_mode = 0;
            int fault = 0;
            gp_status st = gp_fiber_run_group(r->ki->desc->run_item, argv, &g, &fault, &obs);
            if (st != GP_OK && st != GP_ERR_LAUNCH) {
                atomic_store(&r->failed, 1);
                return;
            }
        } else {
            c->loop_mode = 1;
            c->stack_hi = (uintptr_t)__builtin_frame_address(0);
            g.barrier = gp_ck_noop_barrier;
            g.simd = gp_ck_noop_simd;
            g.barrier_ctx = NULL;
            r->ki->desc->run_group(argv, &g);
        }
        gp_ck_spec_flush(c);
    }
}

/* racecheck's shadow of a buffer: 8 bytes per 4-byte word, reserved, touched pages only real. */
static uint64_t *gp_ck_shadow_map(size_t bytes, size_t *len)
{
    size_t n = (bytes + 3) / 4 * sizeof(uint64_t);
    n = (n + 4095) & ~(size_t)4095;
    void *m = gp_pages_alloc(n);
    if (!m) return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* 2 MiB pages where the kernel allows them: a launch that writes a whole buffer first-touches
     * every shadow word, and 4 KiB pages cost a fault per 512 words */
    if (n >= ((size_t)4 << 20)) (void)madvise(m, n, MADV_HUGEPAGE);
#endif
    *len = n;
    return m;
}

static gp_status gp_ck_layout(gp_ck_run *r)
{
    const gp_kernel *k = r->k;
    const gp_launch *l = r->l;
    const gp_ck_kernel_impl *ki = r->ki;
    const gp_kernel_sig *sig = k->sig;
    for (uint32_t i = 0; i < l->num_args; i++) {
        const gp_arg *a = &l->args[i];
        r->names.name[i] = sig->args[i].name;
        r->names.esize[i] = sig->args[i].size;
        if (a->kind == GP_ARG_DYN_SHARED) {
            r->dyn_index = (int)i;
            r->names.what[i] = "dynamic shared block";
            r->names.size[i] = l->dyn_shared_bytes;
            r->regs[i].esize = sig->args[i].size;
        } else if (a->kind == GP_ARG_VALUE) {
            if (a->size != ki->desc->arg_sizes[i])
                return gp_error_set(
                    GP_ERR_INVALID_ARGUMENT,
                    "kernel '%s' argument %u '%s' is %s (%u bytes), the launch passed %zu bytes",
                    sig->name, i, sig->args[i].name, sig->args[i].type_name, ki->desc->arg_sizes[i],
                    a->size);
            r->argv[i] = (void *)a->value;
        } else if (!a->buffer) { /* gp_arg_null(): a region of 0 bytes at 0, so every access
                                     through it is reported and not performed */
            r->bufptr[i] = NULL;
            r->argv[i] = &r->bufptr[i];
            r->regs[i].flags =
                GP_CK_R_BOUND | (sig->args[i].kind == GP_ARG_CONST_BUFFER ? GP_CK_R_READONLY : 0);
            r->regs[i].esize = sig->args[i].size;
            r->names.what[i] = "null buffer (None / gp_arg_null())";
        } else {
            gp_buffer *b = a->buffer;
            if (!b) { /* gp_arg_null(): every access through it is outside */
                r->bufptr[i] = NULL;
                r->argv[i] = &r->bufptr[i];
                r->regs[i].flags = GP_CK_R_BOUND;
                r->regs[i].esize = sig->args[i].size;
                r->names.what[i] = "null buffer";
                continue;
            }
            r->bufptr[i] = b->impl;
            r->argv[i] = &r->bufptr[i];
            gp_ck_region *g = &r->regs[i];
            g->base = (uintptr_t)b->impl;
            g->size = b->size;
            g->flags =
                GP_CK_R_BOUND | (sig->args[i].kind == GP_ARG_CONST_BUFFER ? GP_CK_R_READONLY : 0);
            g->esize = sig->args[i].size;
            const gp_ck_buffer *cb = b->check;
            if ((r->checks & GP_CK_INIT) && cb) g->init = cb->init;
            r->names.what[i] = "buffer";
            r->names.size[i] = b->size;
            r->names.base[i] = g->base;
        }
    }
    /* racecheck: one shadow per buffer that some GP_BUF parameter binds, shared by every
     * parameter bound to it (GP_CBUF aliases included) */
    uint64_t items = (uint64_t)l->group[0] * l->group[1] * l->group[2] *
                     ((uint64_t)l->num_groups[0] * l->num_groups[1] * l->num_groups[2]);
    if ((r->checks & GP_CK_RACE) && items < (1ull << 33) - 2) {
        for (uint32_t i = 0; i < l->num_args; i++) {
            if (sig->args[i].kind != GP_ARG_BUFFER || r->regs[i].race || !l->args[i].buffer)
                continue;
            size_t len = 0;
            uint64_t *m = gp_ck_shadow_map(l->args[i].buffer->size, &len);
            uint64_t *am = m ? gp_ck_shadow_map(l->args[i].buffer->size, &len) : NULL;
            if (m && !am) gp_pages_free(m, len);
            if (!am)
                return gp_error_set(GP_ERR_OUT_OF_MEMORY,
                                    "racecheck: cannot reserve the shadow of buffer '%s' (%zu "
                                    "bytes of address space)",
                                    sig->args[i].name, len);
            r->maps[i] = m;
            r->amaps[i] = am;
            r->maplen[i] = len;
            for (uint32_t j = 0; j < l->num_args; j++)
                if (r->regs[j].base == r->regs[i].base && (r->regs[j].flags & GP_CK_R_BOUND) &&
                    l->args[j].kind != GP_ARG_DYN_SHARED && l->args[j].kind != GP_ARG_VALUE) {
                    r->regs[j].race = m;
                    r->regs[j].arace = am;
                    r->regs[j].aseen = &r->aseen[i];
                }
        }
    }
    for (uint32_t i = 0; i < ki->prog->nconst && i < GP_CK_MAX_CONST; i++) {
        gp_ck_region *g = &r->regs[GP_CK_REG_CONST0 + i];
        g->base = (uintptr_t)ki->prog->const_addr[i];
        g->size = ki->prog->const_size[i];
        g->flags = GP_CK_R_BOUND | GP_CK_R_READONLY;
        g->esize = 0;
        r->names.name[GP_CK_REG_CONST0 + i] = ki->prog->const_name[i];
        r->names.what[GP_CK_REG_CONST0 + i] = "constant table";
        r->names.size[GP_CK_REG_CONST0 + i] = g->size;
        r->names.base[GP_CK_REG_CONST0 + i] = g->base;
    }
    /* the arena of each thread: red zone, shared arrays, the dynamic block, each behind one */
    size_t off = GP_CK_SHARED_RZ;
    const gp_ck_kernel *kk = ki->ck;
    if (kk->nshared > GP_CK_MAX_SHARED)
        return gp_error_set(GP_ERR_INTERNAL, "kernel '%s': %u shared arrays", sig->name,
                            kk->nshared);
    for (uint32_t s = 0; s < kk->nshared; s++) {
        size_t al = kk->shared[s].align < 16 ? 16 : kk->shared[s].align;
        off = (off + al - 1) / al * al;
        r->shared_off[s] = off;
        off += kk->shared[s].size + GP_CK_SHARED_RZ;
        r->names.name[GP_CK_REG_SHARED(s)] = kk->shared[s].name;
        r->names.what[GP_CK_REG_SHARED(s)] = "shared array";
        r->names.esize[GP_CK_REG_SHARED(s)] = kk->shared[s].esize;
        r->names.size[GP_CK_REG_SHARED(s)] = kk->shared[s].size;
    }
    off = (off + 63) & ~(size_t)63;
    r->dyn_off = off;
    off += l->dyn_shared_bytes + GP_CK_SHARED_RZ;
    r->arena_size = (off + 63) & ~(size_t)63;
    return GP_OK;
}

gp_status gp_ck_launch(gp_kernel *k, const gp_launch *l)
{
    gp_ck_run *r = calloc(1, sizeof *r);
    if (!r) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    r->k = k;
    r->l = l;
    r->ki = k->impl;
    r->dyn_index = -1;
    r->checks = k->program->checks | GP_CHECK_MEMCHECK;
    r->group_items = l->group[0] * l->group[1] * l->group[2];
    r->fibers = k->sig->uses_barrier || k->sig->uses_simd || (r->ki->ck->flags & GP_CK_K_FIBERS);
    gp_status st = gp_ck_layout(r);
    if (st == GP_OK) {
        gp_ck_geometry geo = {k->sig->name,
                              {l->group[0], l->group[1], l->group[2]},
                              {l->num_groups[0], l->num_groups[1], l->num_groups[2]},
                              r->group_items,
                              r->checks};
        r->rep = gp_ck_reports_new(r->ki->prog, &geo, &r->names);
        if (!r->rep) st = gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory for reports");
    }
    if (st == GP_OK) {
        uint64_t groups = (uint64_t)l->num_groups[0] * l->num_groups[1] * l->num_groups[2];
        gp_cpu_print_begin(&r->print);
        gp_pool_run(groups, gp_ck_run_groups, r);
        gp_cpu_print_end(&r->print, k->sig->name);
        if (atomic_load(&r->failed))
            st = gp_error_set(GP_ERR_OUT_OF_MEMORY,
                              "kernel '%s': no memory for fiber stacks or the checker's state",
                              k->sig->name);
        gp_status rs = gp_ck_reports_finish(r->rep);
        if (st == GP_OK) st = rs;
    }
    for (uint32_t i = 0; i < GP_MAX_KERNEL_ARGS; i++)
        if (r->maps[i]) gp_pages_free(r->maps[i], r->maplen[i]);
    for (uint32_t i = 0; i < GP_MAX_KERNEL_ARGS; i++)
        if (r->amaps[i]) gp_pages_free(r->amaps[i], r->maplen[i]);
    free(r);
    return st;
}
