/*
 * print.c — gp_printf on the CPU backend. The prelude formats each call on the work-item's own
 * stack and hands the text here; groups run in parallel, so records are appended under a small
 * lock with their group's index and sorted when the launch ends: the output reads group by group
 * whatever the thread pool did, and no call is ever cut by another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/print.h"

void gp_cpu_print_begin(gp_cpu_print *p)
{
    memset(p, 0, sizeof *p);
    atomic_flag_clear(&p->lock);
    p->limit = 0; /* read on the first call: launches that print nothing never ask */
}

static uint32_t gp_cpu_print_lines(const char *t, uint32_t len)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < len; i++)
        n += t[i] == '\n';
    return n + (len && t[len - 1] != '\n');
}

static bool gp_cpu_print_grow(gp_cpu_print *p, uint32_t len)
{
    if (p->len + len > p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 4096;
        while (cap < p->len + len)
            cap *= 2;
        char *t = realloc(p->text, cap);
        if (!t) return false;
        p->text = t;
        p->cap = cap;
    }
    if (p->n == p->rcap) {
        size_t cap = p->rcap ? p->rcap * 2 : 64;
        gp_cpu_print_rec *r = realloc(p->recs, cap * sizeof *r);
        if (!r) return false;
        p->recs = r;
        p->rcap = cap;
    }
    return true;
}

void gp_cpu_print_hook(const gp_cpu_group *g, const char *text, uint32_t len)
{
    gp_cpu_print *p = g->print_ctx;
    if (!p || !len) return;
    uint64_t group =
        g->group_id[0] +
        (uint64_t)g->num_groups[0] * (g->group_id[1] + (uint64_t)g->num_groups[1] * g->group_id[2]);
    uint32_t lines = gp_cpu_print_lines(text, len);
    while (atomic_flag_test_and_set_explicit(&p->lock, memory_order_acquire)) {
    }
    if (!p->limit) p->limit = gp_print_limit();
    if (p->lines + lines > p->limit || p->oom || !gp_cpu_print_grow(p, len)) {
        p->dropped += lines;
        if (p->lines + lines <= p->limit) p->oom = true;
    } else {
        memcpy(p->text + p->len, text, len);
        p->recs[p->n] = (gp_cpu_print_rec){group, p->n, p->len, len};
        p->n++;
        p->len += len;
        p->lines += lines;
    }
    atomic_flag_clear_explicit(&p->lock, memory_order_release);
}

static int gp_cpu_print_cmp(const void *a, const void *b)
{
    const gp_cpu_print_rec *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

void gp_cpu_print_end(gp_cpu_print *p, const char *kernel)
{
    if (p->n || p->dropped) {
        qsort(p->recs, p->n, sizeof *p->recs, gp_cpu_print_cmp);
        char note[400] = "";
        int nl = 0;
        if (p->dropped)
            nl = snprintf(note, sizeof note,
                          "gpuport: kernel '%s': %llu line%s of gp_printf output dropped (%s%u "
                          "lines per launch; gp_print_set_limit or GPUPORT_PRINT_LIMIT)\n",
                          kernel, (unsigned long long)p->dropped, p->dropped == 1 ? "" : "s",
                          p->oom ? "out of host memory before the limit of " : "the limit is ",
                          p->limit);
        if (nl < 0) nl = 0;
        if ((size_t)nl >= sizeof note) nl = (int)sizeof note - 1;
        /* one block for the handler: the records in order, a newline after a last call that
         * left its line open (so the note starts a line), then the note */
        size_t total = p->len + 1 + (size_t)nl;
        char *out = malloc(total);
        if (out) {
            size_t o = 0;
            for (size_t i = 0; i < p->n; i++) {
                memcpy(out + o, p->text + p->recs[i].off, p->recs[i].len);
                o += p->recs[i].len;
            }
            if (nl && o && out[o - 1] != '\n') out[o++] = '\n';
            memcpy(out + o, note, (size_t)nl);
            o += (size_t)nl;
            gp_print_emit(out, o);
            free(out);
        } else {
            for (size_t i = 0; i < p->n; i++)
                gp_print_emit(p->text + p->recs[i].off, p->recs[i].len);
            gp_print_emit(note, (size_t)nl);
        }
    }
    free(p->text);
    free(p->recs);
    p->text = NULL;
    p->recs = NULL;
}
