/* report.c — a checked launch's events as reports. Every event counts once against its site and
 * check (an atomic add, the only cost when a bug is hit a million times); the first event of a
 * site and check is put into words, under a lock, and merged with other sites at the same place:
 * one report per (check, file, line, column), with the count, the first work-item, the other side
 * of a race. At the end the reports go to the launching thread's list (gp_check_report_get). */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/check/check.h"
#include "util/strbuf.h"
#include "util/thread.h"

#define GP_CK_KEEP 100

struct gp_ck_reports {
    gp_mutex mu;
    const gp_ck_program *prog;
    gp_ck_geometry geo;
    gp_ck_names names;
    uint32_t nslots;
    _Atomic uint64_t *counts; /* per (site, check) */
    int32_t *entry;           /* per (site, check): its report, -1 none yet, -2 dropped */
    gp_check_report *list;
    uint32_t n;
    uint64_t omitted;
};

static uint32_t gp_ck_class(uint32_t code)
{
    switch (code) {
    case GP_CK_EV_RAW:
    case GP_CK_EV_WAR:
    case GP_CK_EV_WAW:
        return GP_CHECK_RACECHECK;
    case GP_CK_EV_UNINIT:
    case GP_CK_EV_PUNINIT:
        return GP_CHECK_INITCHECK;
    case GP_CK_EV_STRAY:
        return GP_CHECK_SYNCCHECK;
    default:
        return GP_CHECK_MEMCHECK;
    }
}

static uint32_t gp_ck_class_index(uint32_t check)
{
    return check == GP_CHECK_MEMCHECK    ? 0
           : check == GP_CHECK_RACECHECK ? 1
           : check == GP_CHECK_SYNCCHECK ? 2
                                         : 3;
}

gp_ck_reports *gp_ck_reports_new(const gp_ck_program *prog, const gp_ck_geometry *geo,
                                 const gp_ck_names *names)
{
    gp_ck_reports *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    gp_mutex_init(&r->mu);
    r->prog = prog;
    r->geo = *geo;
    r->names = *names;
    r->nslots = (prog->nsites + 1) * 4;
    r->counts = calloc(r->nslots, sizeof *r->counts);
    r->entry = malloc(r->nslots * sizeof *r->entry);
    r->list = calloc(GP_CK_KEEP, sizeof *r->list);
    if (!r->counts || !r->entry || !r->list) {
        free(r->counts), free(r->entry), free(r->list);
        gp_mutex_destroy(&r->mu);
        free(r);
        return NULL;
    }
    for (uint32_t i = 0; i < r->nslots; i++)
        r->entry[i] = -1;
    return r;
}

static const gp_ck_site *gp_ck_site_of(const gp_ck_reports *r, uint32_t site)
{
    return site < r->prog->nsites ? &r->prog->sites[site] : NULL;
}

static const char *gp_ck_file_of(const gp_ck_reports *r, const gp_ck_site *s)
{
    return s && s->file < r->prog->nfiles ? r->prog->files[s->file] : "";
}

static void gp_ck_local_of(const gp_ck_reports *r, uint32_t li, int32_t out[3])
{
    const uint32_t *ls = r->geo.local;
    out[0] = (int32_t)(li % ls[0]);
    out[1] = (int32_t)((li / ls[0]) % ls[1]);
    out[2] = (int32_t)(li / (ls[0] * ls[1]));
}

/* a global linear id + 1 into group and local ids */
static void gp_ck_item_of(const gp_ck_reports *r, uint64_t id1, int32_t g[3], int32_t l[3])
{
    uint64_t id = id1 - 1, grp = id / r->geo.group_items;
    gp_ck_local_of(r, (uint32_t)(id % r->geo.group_items), l);
    const uint32_t *ng = r->geo.groups;
    g[0] = (int32_t)(grp % ng[0]);
    g[1] = (int32_t)((grp / ng[0]) % ng[1]);
    g[2] = (int32_t)(grp / ((uint64_t)ng[0] * ng[1]));
}

static const char *gp_ck_kind_word(uint32_t kind)
{
    if (kind == GP_CK_RMW) return "read-modify-write";
    if (kind & GP_CK_ATOMIC) return "atomic";
    return (kind & GP_CK_WRITE) ? "write" : "read";
}

/* "[17]" or " at byte 70 of" for the element an address is in */
static void gp_ck_index_text(char *buf, size_t cap, long long off, uint32_t esize)
{
    if (esize == 0) esize = 1;
    if (off % (long long)esize == 0)
        snprintf(buf, cap, "[%lld]", off / (long long)esize);
    else
        snprintf(buf, cap, " (byte %lld)", off);
}

static void gp_ck_ids(char *buf, size_t cap, const int32_t a[3])
{
    snprintf(buf, cap, "(%d,%d,%d)", a[0], a[1], a[2]);
}

/* The words of an event (the report's message) and its other side. */
static void gp_ck_describe(const gp_ck_reports *r, const gp_ck_event *ev, const gp_ck_region *regs,
                           const uint32_t group_id[3], gp_check_report *out)
{
    const gp_ck_site *s = gp_ck_site_of(r, ev->site);
    const char *object = s && s->object ? s->object : "?";
    /* an index fault is found before its access: the site says what the access was */
    const char *kw = gp_ck_kind_word(ev->kind                       ? ev->kind
                                     : s && s->kind <= GP_CK_ATOMIC ? s->kind
                                                                    : GP_CK_READ);
    gp_strbuf m = GP_STRBUF_INIT;
    uint32_t reg = ev->reg;
    bool have_reg = reg < GP_CK_MAX_REGIONS && r->names.name[reg];
    const char *name = have_reg ? r->names.name[reg] : object;
    const char *what = have_reg && r->names.what[reg] ? r->names.what[reg] : "memory";
    uint32_t esize = have_reg && r->names.esize[reg] ? r->names.esize[reg] : ev->size;
    long long off = have_reg ? (long long)(ev->addr - regs[reg].base) : 0;
    char idx[48];
    gp_ck_index_text(idx, sizeof idx, off, esize);
    bool shared = have_reg && (regs[reg].flags & GP_CK_R_SHARED);
    switch (ev->code) {
    case GP_CK_EV_OOB: {
        uint64_t size = have_reg ? regs[reg].size : 0;
        gp_strbuf_printf(&m, "%s of %u bytes at %s%s", kw, ev->size, name, idx);
        if (strcmp(object, name)) gp_strbuf_printf(&m, " (through '%s')", object);
        gp_strbuf_printf(&m, " is outside the %s '%s' (%" PRIu64 " bytes", what, name, size);
        if (esize > 1 && size % esize == 0)
            gp_strbuf_printf(&m, ": %" PRIu64 " elements of %u", size / esize, esize);
        gp_strbuf_printf(&m, "); not performed%s", (ev->kind & GP_CK_WRITE) ? "" : " (it read 0)");
        break;
    }
    case GP_CK_EV_WILD:
        gp_strbuf_printf(&m,
                         "%s of %u bytes through '%s' at address %#" PRIxPTR " is in no buffer, "
                         "shared array or private variable of this launch; not performed",
                         kw, ev->size, object, ev->addr);
        break;
    case GP_CK_EV_DIM:
        if (s && s->kind == GP_CK_SITE_INDEX)
            gp_strbuf_printf(&m,
                             "index %lld is outside dimension %u (size %lld) of the array '%s'; "
                             "the access went to element 0 instead",
                             ev->index, ev->dim, ev->extent, object);
        else
            gp_strbuf_printf(
                &m,
                "%s of the shared array '%s': index %lld is outside dimension %u (size "
                "%lld); not performed",
                kw, object, ev->index, ev->dim, ev->extent);
        break;
    case GP_CK_EV_READONLY:
        gp_strbuf_printf(&m, "%s of %u bytes at %s%s: the %s '%s' is read-only (%s); not performed",
                         kw, ev->size, object, idx, what, name,
                         reg < GP_MAX_KERNEL_ARGS ? "a GP_CBUF parameter" : "a constant table");
        break;
    case GP_CK_EV_RAW:
    case GP_CK_EV_WAR:
    case GP_CK_EV_WAW: {
        int32_t lme[3], lo[3], go[3];
        gp_ck_local_of(r, ev->li, lme);
        char me[32], them[32], gs[32];
        gp_ck_ids(me, sizeof me, lme);
        gp_strbuf_printf(&m, "%s of %s'%s'%s by work-item %s races with ", kw,
                         shared ? "shared " : "", name, idx, me);
        bool same_group = true, same_warp = false;
        if (ev->other) {
            gp_ck_item_of(r, ev->other, go, lo);
            same_group = go[0] == (int32_t)group_id[0] && go[1] == (int32_t)group_id[1] &&
                         go[2] == (int32_t)group_id[2];
            same_warp = same_group &&
                        ((uint32_t)((ev->other - 1) % r->geo.group_items) >> 5) == (ev->li >> 5);
            gp_ck_ids(them, sizeof them, lo);
            gp_strbuf_printf(&m, "%s by work-item %s",
                             (ev->other_many & 2)       ? "an atomic"
                             : ev->code == GP_CK_EV_WAR ? "a read"
                                                        : "the write",
                             them);
            if (!same_group) {
                gp_ck_ids(gs, sizeof gs, go);
                gp_strbuf_printf(&m, " of group %s", gs);
            }
        } else {
            gp_strbuf_printf(&m, "%s by other work-items",
                             (ev->other_many & 2)       ? "atomics"
                             : ev->code == GP_CK_EV_WAR ? "reads"
                                                        : "writes");
            same_group = false;
        }
        const gp_ck_site *os = gp_ck_site_of(r, ev->other_site);
        if (os) gp_strbuf_printf(&m, " at %s:%u:%u", gp_ck_file_of(r, os), os->line, os->col);
        if ((ev->other_many & 2) || (ev->kind & GP_CK_ATOMIC))
            gp_strbuf_printf(&m, ": an atomic and a plain access of one word%s",
                             !ev->other   ? " with nothing ordering them (atomics never race each "
                                            "other; a plain access does)"
                             : same_group ? " with no gp_barrier() between them"
                                          : " by work-items of different groups (which never "
                                            "wait for each other); make every access of the "
                                            "word atomic");
        else if (same_group)
            gp_strbuf_printf(&m, ": no gp_barrier() between them");
        else if (ev->other)
            gp_strbuf_printf(&m, ": work-items of different groups run in any order and never "
                                 "wait for each other; use an atomic, or give each word one "
                                 "writer");
        else
            gp_strbuf_printf(&m, " with no gp_barrier() between them (and not an atomic)");
        if (same_warp)
            gp_strbuf_printf(&m, " (they are lanes of one SIMD group, which do not run in "
                                 "lockstep on every GPU either)");
        break;
    }
    case GP_CK_EV_UNINIT:
        if (shared)
            gp_strbuf_printf(&m,
                             "%s of shared '%s'%s that no work-item of the group wrote in this "
                             "launch (shared memory starts undefined in every group)",
                             kw, name, idx);
        else
            gp_strbuf_printf(&m,
                             "%s of '%s'%s, which nothing wrote since the buffer was created "
                             "(neither the host nor a kernel): its bytes are undefined",
                             kw, name, idx);
        break;
    case GP_CK_EV_POOB: {
        const gp_ck_site *as = gp_ck_site_of(r, ev->dim);
        const char *arr = as && as->object ? as->object : "?";
        char at[48];
        gp_ck_index_text(at, sizeof at, ev->index, ev->size);
        gp_strbuf_printf(&m,
                         "%s of %u bytes at %s%s through '%s' is outside the private array '%s' "
                         "(%lld bytes); the access went to its first element instead",
                         kw, ev->size, arr, at, object, arr, ev->extent);
        break;
    }
    case GP_CK_EV_PUNINIT:
        gp_strbuf_printf(&m,
                         "read of the private variable '%s' (%u bytes) before anything was written "
                         "to it: its value is undefined (the checked run read 0)",
                         object, ev->size);
        break;
    case GP_CK_EV_DIV:
        gp_strbuf_printf(&m,
                         "integer division by zero (or of the smallest value by -1) with divisor "
                         "'%s': the result is 0 here; the CPU would stop the program, GPUs give "
                         "an undefined value",
                         object);
        break;
    case GP_CK_EV_STRAY:
        gp_strbuf_printf(&m,
                         "%s reached, but the runtime runs this kernel without barriers (it saw "
                         "none in its text), so it does not wait; spell the name out",
                         object);
        break;
    default:
        gp_strbuf_printf(&m, "event %u", ev->code);
        break;
    }
    gp_copy_str(out->message, sizeof out->message,
                m.failed ? "(out of memory)" : gp_strbuf_cstr(&m));
    gp_strbuf_free(&m);
    gp_ck_local_of(r, ev->li, out->local);
    for (int d = 0; d < 3; d++)
        out->other_group[d] = out->other_local[d] = -1;
    if (ev->other) gp_ck_item_of(r, ev->other, out->other_group, out->other_local);
    const gp_ck_site *os = gp_ck_site_of(r, ev->other_site);
    if (os) {
        out->other_line = os->line;
        out->other_column = os->col;
    }
}

/* Counts the event; the first of its site and check becomes (or joins) a report. */
static void gp_ck_add(gp_ck_reports *r, uint32_t check, uint32_t site, const uint32_t group_id[3],
                      void (*fill)(const gp_ck_reports *, const void *, gp_check_report *),
                      const void *arg)
{
    uint32_t slot =
        (site < r->prog->nsites ? site : r->prog->nsites) * 4 + gp_ck_class_index(check);
    if (atomic_fetch_add_explicit(&r->counts[slot], 1, memory_order_relaxed) != 0) return;
    gp_check_report rep;
    memset(&rep, 0, sizeof rep);
    rep.check = check;
    const gp_ck_site *s = gp_ck_site_of(r, site);
    if (s) {
        rep.line = s->line;
        rep.column = s->col;
        gp_copy_str(rep.file, sizeof rep.file, gp_ck_file_of(r, s));
    }
    gp_copy_str(rep.kernel, sizeof rep.kernel, r->geo.kernel);
    for (int d = 0; d < 3; d++)
        rep.group[d] = (int32_t)group_id[d];
    fill(r, arg, &rep);
    gp_mutex_lock(&r->mu);
    int32_t e = -1;
    for (uint32_t i = 0; i < r->n; i++)
        if (r->list[i].check == check && r->list[i].line == rep.line &&
            r->list[i].column == rep.column && !strcmp(r->list[i].file, rep.file))
            e = (int32_t)i;
    if (e < 0 && r->n < GP_CK_KEEP) {
        e = (int32_t)r->n;
        r->list[r->n++] = rep;
    } else if (e < 0) {
        r->omitted++;
        e = -2;
    }
    r->entry[slot] = e;
    gp_mutex_unlock(&r->mu);
}

typedef struct gp_ck_event_arg {
    const gp_ck_event *ev;
    const gp_ck_region *regs;
    const uint32_t *group_id;
} gp_ck_event_arg;

static void gp_ck_fill_event(const gp_ck_reports *r, const void *arg, gp_check_report *rep)
{
    const gp_ck_event_arg *a = arg;
    gp_ck_describe(r, a->ev, a->regs, a->group_id, rep);
}

void gp_ck_reports_event(gp_ck_reports *r, const gp_ck_event *ev, const uint32_t group_id[3],
                         const gp_ck_region *regs)
{
    uint32_t check = gp_ck_class(ev->code);
    if (check != GP_CHECK_MEMCHECK && check != GP_CHECK_SYNCCHECK && !(r->geo.checks & check))
        return;
    gp_ck_event_arg a = {ev, regs, group_id};
    gp_ck_add(r, check, ev->site, group_id, gp_ck_fill_event, &a);
}

typedef struct gp_ck_sync_arg {
    uint32_t li, other_site, other_li;
    const char *message;
} gp_ck_sync_arg;

static void gp_ck_fill_sync(const gp_ck_reports *r, const void *arg, gp_check_report *rep)
{
    const gp_ck_sync_arg *a = arg;
    gp_copy_str(rep->message, sizeof rep->message, a->message);
    gp_ck_local_of(r, a->li, rep->local);
    for (int d = 0; d < 3; d++)
        rep->other_group[d] = rep->other_local[d] = -1;
    if (a->other_li != UINT32_MAX) {
        gp_ck_local_of(r, a->other_li, rep->other_local);
        for (int d = 0; d < 3; d++)
            rep->other_group[d] = rep->group[d];
    }
    const gp_ck_site *os = gp_ck_site_of(r, a->other_site);
    if (os) {
        rep->other_line = os->line;
        rep->other_column = os->col;
    }
}

void gp_ck_reports_sync(gp_ck_reports *r, uint32_t site, uint32_t li, const uint32_t group_id[3],
                        uint32_t other_site, uint32_t other_li, const char *message)
{
    gp_ck_sync_arg a = {li, other_site, other_li, message};
    gp_ck_add(r, GP_CHECK_SYNCCHECK, site, group_id, gp_ck_fill_sync, &a);
}

/* the reports into the thread's list; GP_ERR_CHECK with the first of them when there are any */
static gp_status gp_ck_publish(const char *kernel, gp_check_report *list, uint32_t n,
                               uint64_t omitted)
{
    gp_check_reports_set(list, n, omitted);
    if (!n) return GP_OK;
    gp_strbuf sb = GP_STRBUF_INIT;
    uint64_t total = omitted + n;
    gp_strbuf_printf(&sb,
                     "kernel '%s': checking made %llu report(s) (gp_check_report_get "
                     "lists them):",
                     kernel, (unsigned long long)total);
    for (uint32_t i = 0; i < n && sb.len < 3000; i++) {
        char line[1500];
        gp_check_report_format(&list[i], line, sizeof line, NULL);
        gp_strbuf_printf(&sb, "\n%s", line);
    }
    gp_status st =
        gp_error_set(GP_ERR_CHECK, "%s", sb.failed ? "checking made reports" : gp_strbuf_cstr(&sb));
    gp_strbuf_free(&sb);
    return st;
}

gp_status gp_ck_reports_finish(gp_ck_reports *r)
{
    for (uint32_t slot = 0; slot < r->nslots; slot++) {
        uint64_t c = atomic_load_explicit(&r->counts[slot], memory_order_relaxed);
        if (c && r->entry[slot] >= 0) r->list[r->entry[slot]].count += c;
    }
    gp_status st = gp_ck_publish(r->geo.kernel, r->list, r->n, r->omitted);
    free(r->counts);
    free(r->entry);
    free(r->list);
    gp_mutex_destroy(&r->mu);
    free(r);
    return st;
}

gp_status gp_ck_report_unchecked(const gp_kernel *k, const char *message)
{
    gp_check_report rep;
    memset(&rep, 0, sizeof rep);
    rep.check = GP_CHECK_SYNCCHECK;
    rep.count = 1;
    gp_copy_str(rep.file, sizeof rep.file, k->program->source_name);
    gp_copy_str(rep.kernel, sizeof rep.kernel, k->sig->name);
    gp_copy_str(rep.message, sizeof rep.message, message);
    for (int d = 0; d < 3; d++)
        rep.group[d] = rep.local[d] = rep.other_group[d] = rep.other_local[d] = -1;
    gp_check_reports_set(&rep, 1, 0);
    return gp_error_set(GP_ERR_CHECK, "kernel '%s': %s", k->sig->name, message);
}
