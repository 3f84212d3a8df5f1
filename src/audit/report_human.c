/* report_human.c — the report for people: summary and stop conditions first, then modules, then
 * findings by file (one `file:line:col: severity RULE` line each, the code under it), then the
 * explanation and fix of every rule that fired, then what could not be read. */
#include <stdlib.h>
#include <string.h>

#include "audit/state.h"
#include "util/term.h"

static const char *sev_color(FILE *out, int sev)
{
    return gp_term_color(out, sev == GP_SEV_ERROR     ? GP_COLOR_RED
                              : sev == GP_SEV_WARNING ? GP_COLOR_YELLOW
                                                      : GP_COLOR_BLUE);
}

/* The findings' lines are built in memory and written in large pieces (one line per finding:
 * this is the report's hot loop). A line longer than the buffer goes out in several pieces. */
typedef struct out_buf {
    FILE *out;
    size_t len;
    bool failed;
    char data[64u << 10];
} out_buf;

static void ob_flush(out_buf *b)
{
    if (b->len && fwrite(b->data, 1, b->len, b->out) != b->len) b->failed = true;
    b->len = 0;
}

static void ob_put(out_buf *b, const char *s, size_t n)
{
    while (n > sizeof b->data - b->len) {
        size_t k = sizeof b->data - b->len;
        memcpy(b->data + b->len, s, k);
        b->len += k;
        s += k;
        n -= k;
        ob_flush(b);
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static void ob_puts(out_buf *b, const char *s)
{
    ob_put(b, s, strlen(s));
}

/* ":N" for a number, without printf. */
static void put_num(out_buf *b, const char *pre, uint32_t v)
{
    char d[16];
    size_t k = sizeof d;
    do {
        d[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    ob_puts(b, pre);
    ob_put(b, d + k, sizeof d - k);
}

static void put_loc(out_buf *b, const gp_audit_state *st, const gp_spool_rec *r)
{
    char safe[GP_TERM_SAFE_MAX]; /* names and code are outside text: no escape sequence passes */
    ob_puts(b, gp_term_safe(st->files[r->file], safe, sizeof safe));
    if (r->cell) put_num(b, ":cell ", r->cell);
    put_num(b, ":", r->line);
    put_num(b, ":", r->col);
}

static const char *lang_names[] = {
    "",      "python",    "setup.py",  "notebook",     "c/c++", "cuda",       "cmake",   "make",
    "shell", "pyproject", "setup.cfg", "requirements", "conda", "dockerfile", "compose", "metal"};

static void summary(gp_audit_state *st, FILE *out)
{
    const char *b = gp_term_color(out, GP_COLOR_BOLD), *rs = gp_term_color(out, GP_COLOR_RESET);
    fprintf(out, "%sgpuport audit%s: %zu %s scanned", b, rs, st->scanned,
            gp_plural(st->scanned, "file", "files"));
    bool first = true;
    for (int l = 1; l <= GP_AL_METAL; l++) {
        if (!st->by_lang[l]) continue;
        fprintf(out, "%s%s %zu", first ? " (" : ", ", lang_names[l], st->by_lang[l]);
        first = false;
    }
    fprintf(out, "%s", first ? "" : ")");
    if (st->binary) fprintf(out, ", %zu binary skipped", st->binary);
    if (st->problems_total) fprintf(out, ", %zu not readable or not followed", st->problems_total);
    fputc('\n', out);
    fprintf(out, "Verdict: %s%s%s (effort: %s)\n", b, gp_audit_verdict_name(st->verdict), rs,
            st->effort);
    size_t ne = st->count[GP_SEV_ERROR], nw = st->count[GP_SEV_WARNING],
           nn = st->count[GP_SEV_NOTE];
    fprintf(out, "Findings: %zu %s, %zu %s, %zu %s", ne, gp_plural(ne, "error", "errors"), nw,
            gp_plural(nw, "warning", "warnings"), nn, gp_plural(nn, "note", "notes"));
    if (st->baselined) fprintf(out, " (%zu more in the baseline)", st->baselined);
    if (st->dropped) fprintf(out, " (%zu more not listed: over 20000 in one file)", st->dropped);
    fputc('\n', out);
}

static void stops(gp_audit_state *st, FILE *out)
{
    bool any = false;
    for (int s = 1; s < GP_STOP_COUNT; s++)
        any |= st->stop[s];
    if (!any) {
        fputs("\nStop conditions: none\n", out);
        return;
    }
    fprintf(out, "\n%sStop conditions%s (do not force a move off CUDA):\n",
            gp_term_color(out, GP_COLOR_RED), gp_term_color(out, GP_COLOR_RESET));
    for (int s = 1; s < GP_STOP_COUNT; s++) {
        if (!st->stop[s]) continue;
        fprintf(out, "  %s: %s\n", gp_audit_stop_name((gp_audit_stop)s),
                gp_audit_stop_title((gp_audit_stop)s));
        for (size_t i = 0; i < st->nmods; i++) {
            const gp_audit_module *m = &st->mods[i];
            if (!m->stop[s]) continue;
            char safe[GP_TERM_SAFE_MAX];
            fprintf(out, "    module %s: %zu finding%s, e.g.",
                    gp_term_safe(m->path, safe, sizeof safe), m->stop_count[s],
                    m->stop_count[s] == 1 ? "" : "s");
            size_t k = m->stop_count[s] < GP_STOP_EVIDENCE ? m->stop_count[s] : GP_STOP_EVIDENCE;
            for (size_t e = 0; e < k; e++) {
                const gp_stop_ev *v = &m->ev[s][e];
                fprintf(out, "%s %s:", e ? "," : "",
                        gp_term_safe(st->files[v->file], safe, sizeof safe));
                if (v->cell) fprintf(out, "cell %u:", v->cell);
                fprintf(out, "%u (%s)", v->line, gp_audit_rule_get(v->rule)->id);
            }
            fputc('\n', out);
        }
    }
}

static void modules(gp_audit_state *st, FILE *out)
{
    fprintf(out, "\nModules (%zu):\n", st->nmods);
    for (size_t i = 0; i < st->nmods; i++) {
        const gp_audit_module *m = &st->mods[i];
        char safe[GP_TERM_SAFE_MAX];
        fprintf(out, "  %-26s %-6s  %zuE %zuW %zuN  %s [%s]", gp_audit_verdict_name(m->verdict),
                m->effort, m->count[GP_SEV_ERROR], m->count[GP_SEV_WARNING], m->count[GP_SEV_NOTE],
                gp_term_safe(m->path, safe, sizeof safe), gp_module_kind_name(m->kind));
        if (m->decided_by >= 0)
            fprintf(out, " decided by %s", gp_audit_rule_get(m->decided_by)->id);
        fputc('\n', out);
    }
}

int gp_audit_report_human(gp_audit_state *st, FILE *out)
{
    summary(st, out);
    stops(st, out);
    modules(st, out);
    bool fired[GP_R_COUNT] = {false};
    if (st->count[1] + st->count[2] + st->count[3]) fputs("\nFindings:\n", out);
    if (fseek(st->spool, 0, SEEK_SET) != 0) return -1;
    gp_spool_rec r;
    char snip[4096];
    const char *rs = gp_term_color(out, GP_COLOR_RESET), *dim = gp_term_color(out, GP_COLOR_DIM);
    const char *sc[4] = {"", sev_color(out, 1), sev_color(out, 2), sev_color(out, 3)};
    out_buf *b = malloc(sizeof *b);
    if (!b) return -1;
    b->out = out;
    b->len = 0;
    b->failed = false;
    for (size_t i = 0; i < st->nrec && !b->failed; i++) {
        if (gp_spool_read(st->spool, &r, snip, sizeof snip) != 0) {
            b->failed = true;
            break;
        }
        if (r.flags & 2) continue;
        const gp_audit_rule *ru = gp_audit_rule_get(r.rule);
        fired[r.rule] = true;
        put_loc(b, st, &r);
        /* the same text as ": %s%s%s %s: %s%s\n" and "    %s%s%s\n", without printf */
        ob_put(b, ": ", 2);
        ob_puts(b, sc[r.severity & 3]);
        ob_puts(b, gp_audit_sev_name((gp_audit_sev)r.severity));
        ob_puts(b, rs);
        ob_put(b, " ", 1);
        ob_puts(b, ru->id);
        ob_put(b, ": ", 2);
        ob_puts(b, ru->name);
        if (r.flags & 1) ob_puts(b, " (guarded)");
        ob_put(b, "\n    ", 5);
        ob_puts(b, dim);
        char safe[GP_TERM_SAFE_MAX];
        ob_puts(b, gp_term_safe(snip, safe, sizeof safe));
        ob_puts(b, rs);
        ob_put(b, "\n", 1);
    }
    ob_flush(b);
    bool failed = b->failed;
    free(b);
    if (failed) return -1;
    bool any = false;
    for (int k = 0; k < GP_R_COUNT; k++) {
        if (!fired[k]) continue;
        if (!any) fputs("\nRules that fired:\n", out);
        any = true;
        const gp_audit_rule *ru = gp_audit_rule_get(k);
        fprintf(out, "  %s %s: %s\n    fix: %s\n", ru->id, ru->name, ru->explanation, ru->fix);
    }
    if (st->problems_total) {
        fprintf(out, "\nNot scanned (%zu):\n", st->problems_total);
        for (size_t i = 0; i < st->nproblems; i++) {
            char safe[GP_TERM_SAFE_MAX];
            fprintf(out, "  %s: %s\n", gp_term_safe(st->problems[i].path, safe, sizeof safe),
                    st->problems[i].what);
        }
        if (st->problems_total > st->nproblems)
            fprintf(out, "  ... and %zu more\n", st->problems_total - st->nproblems);
    }
    return ferror(out) ? -1 : 0;
}
