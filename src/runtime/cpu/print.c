/*
 * print.c — gp_printf on the CPU backend. The prelude formats each call on the work-item's own
 * stack and hands the text here; groups run in parallel, so records are kept under a small lock
 * with their group's index and sorted when the launch ends: the output reads group by group
 * whatever the thread pool did, and no call is ever cut by another. Over the line limit, the
 * calls kept are the first in that order (a max-heap evicts the last one kept when an earlier one
 * arrives), so what an overflowing launch shows is the same on every run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/print.h"

void gp_cpu_print_begin(gp_cpu_print *p)
{
    memset(p, 0, sizeof *p);
    atomic_flag_clear(&p->lock);
}

static uint32_t gp_cpu_print_lines(const char *t, uint32_t len)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < len; i++)
        n += t[i] == '\n';
    return n + (len && t[len - 1] != '\n');
}

static int gp_cpu_print_cmp(const void *a, const void *b)
{
    const gp_cpu_print_rec *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

static void gp_cpu_print_sift_down(gp_cpu_print *p, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < p->n && gp_cpu_print_cmp(&p->recs[l], &p->recs[m]) > 0) m = l;
        if (r < p->n && gp_cpu_print_cmp(&p->recs[r], &p->recs[m]) > 0) m = r;
        if (m == i) return;
        gp_cpu_print_rec t = p->recs[i];
        p->recs[i] = p->recs[m];
        p->recs[m] = t;
        i = m;
    }
}

static void gp_cpu_print_sift_up(gp_cpu_print *p, size_t i)
{
    while (i > 0 && gp_cpu_print_cmp(&p->recs[(i - 1) / 2], &p->recs[i]) < 0) {
        gp_cpu_print_rec t = p->recs[i];
        p->recs[i] = p->recs[(i - 1) / 2];
        p->recs[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

/* Keeps r when it is among the first `limit` lines in (group, seq) order; the caller holds the
 * lock. */
static void gp_cpu_print_keep(gp_cpu_print *p, gp_cpu_print_rec *r, const char *text)
{
    while (p->lines + r->lines > p->limit) {
        if (!p->heap) {
            for (size_t i = p->n / 2; i-- > 0;)
                gp_cpu_print_sift_down(p, i);
            p->heap = true;
        }
        if (p->n == 0 || gp_cpu_print_cmp(&p->recs[0], r) < 0) {
            p->dropped += r->lines; /* later than everything kept */
            return;
        }
        p->dropped += p->recs[0].lines;
        p->lines -= p->recs[0].lines;
        free(p->recs[0].text);
        p->recs[0] = p->recs[--p->n];
        gp_cpu_print_sift_down(p, 0);
    }
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        gp_cpu_print_rec *n = realloc(p->recs, cap * sizeof *n);
        if (!n) {
            p->dropped += r->lines;
            p->oom = true;
            return;
        }
        p->recs = n;
        p->cap = cap;
    }
    r->text = malloc(r->len);
    if (!r->text) {
        p->dropped += r->lines;
        p->oom = true;
        return;
    }
    memcpy(r->text, text, r->len);
    p->recs[p->n++] = *r;
    p->lines += r->lines;
    if (p->heap) gp_cpu_print_sift_up(p, p->n - 1);
}

void gp_cpu_print_hook(const gp_cpu_group *g, const char *text, uint32_t len)
{
    gp_cpu_print *p = g->print_ctx;
    if (!p || !len) return;
    gp_cpu_print_rec r = {0};
    r.group = g->group_id[0] + (uint64_t)g->num_groups[0] *
                                   (g->group_id[1] + (uint64_t)g->num_groups[1] * g->group_id[2]);
    r.len = len;
    r.lines = gp_cpu_print_lines(text, len);
    while (atomic_flag_test_and_set_explicit(&p->lock, memory_order_acquire)) {
    }
    if (!p->limit) p->limit = gp_print_limit();
    r.seq = p->seq++;
    gp_cpu_print_keep(p, &r, text);
    atomic_flag_clear_explicit(&p->lock, memory_order_release);
}

void gp_cpu_print_end(gp_cpu_print *p, const char *kernel)
{
    if (p->n || p->dropped) {
        if (p->n) qsort(p->recs, p->n, sizeof *p->recs, gp_cpu_print_cmp);
        char note[400] = "";
        int nl = 0;
        if (p->dropped)
            nl = snprintf(note, sizeof note,
                          "gpuport: kernel '%s': %llu line%s of gp_printf output dropped (%s%u "
                          "lines per launch; gp_print_set_limit or GPUPORT_PRINT_LIMIT)\n",
                          kernel, (unsigned long long)p->dropped, p->dropped == 1 ? "" : "s",
                          p->oom ? "out of host memory; the limit is " : "the limit is ", p->limit);
        if (nl < 0) nl = 0;
        if ((size_t)nl >= sizeof note) nl = (int)sizeof note - 1;
        /* one block for the handler: the records in order, a newline after a last call that
         * left its line open (so the note starts a line), then the note */
        size_t total = 1 + (size_t)nl;
        for (size_t i = 0; i < p->n; i++)
            total += p->recs[i].len;
        char *out = malloc(total);
        if (out) {
            size_t o = 0;
            for (size_t i = 0; i < p->n; i++) {
                memcpy(out + o, p->recs[i].text, p->recs[i].len);
                o += p->recs[i].len;
            }
            if (nl && o && out[o - 1] != '\n') out[o++] = '\n';
            memcpy(out + o, note, (size_t)nl);
            o += (size_t)nl;
            gp_print_emit(out, o);
            free(out);
        } else {
            for (size_t i = 0; i < p->n; i++)
                gp_print_emit(p->recs[i].text, p->recs[i].len);
            gp_print_emit(note, (size_t)nl);
        }
    }
    for (size_t i = 0; i < p->n; i++)
        free(p->recs[i].text);
    free(p->recs);
    p->recs = NULL;
    p->n = p->cap = 0;
}
