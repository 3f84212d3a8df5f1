/* report_human.c — the report for people: summary and stop conditions first, then modules, then
 * findings by file (one `file:line:col: severity RULE` line each, the code under it), then the
 * explanation and fix of every rule that fired, then what could not be read. */
#include <string.h>

#include "audit/state.h"
#include "util/term.h"

static const char *sev_color(FILE *out, int sev)
{
    return gp_term_color(out, sev == GP_SEV_ERROR     ? GP_COLOR_RED
                              : sev == GP_SEV_WARNING ? GP_COLOR_YELLOW
                                                      : GP_COLOR_BLUE);
}

/* ":N" for a number, without printf (one line per finding: this is the report's hot loop). */
static void put_num(FILE *out, const char *pre, uint32_t v)
{
    char b[16];
    size_t k = sizeof b;
    do {
        b[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    fputs(pre, out);
    fwrite(b + k, 1, sizeof b - k, out);
}

static void print_loc(FILE *out, const gp_audit_state *st, const gp_spool_rec *r)
{
    fputs(st->files[r->file], out);
    if (r->cell) put_num(out, ":cell ", r->cell);
    put_num(out, ":", r->line);
    put_num(out, ":", r->col);
}

static const char *lang_names[] = {
    "",      "python",    "setup.py",  "notebook",     "c/c++", "cuda",       "cmake",   "make",
    "shell", "pyproject", "setup.cfg", "requirements", "conda", "dockerfile", "compose", "metal"};

static void summary(gp_audit_state *st, FILE *out)
{
    const char *b = gp_term_color(out, GP_COLOR_BOLD), *rs = gp_term_color(out, GP_COLOR_RESET);
    fprintf(out, "%sgpuport audit%s: %zu files scanned", b, rs, st->scanned);
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
    fprintf(out, "Findings: %zu errors, %zu warnings, %zu notes", st->count[GP_SEV_ERROR],
            st->count[GP_SEV_WARNING], st->count[GP_SEV_NOTE]);
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
            fprintf(out, "    module %s: %zu finding%s, e.g.", m->path, m->stop_count[s],
                    m->stop_count[s] == 1 ? "" : "s");
            size_t k = m->stop_count[s] < GP_STOP_EVIDENCE ? m->stop_count[s] : GP_STOP_EVIDENCE;
            for (size_t e = 0; e < k; e++)
                fprintf(out, "%s %s:%u (%s)", e ? "," : "", st->files[m->ev[s][e].file],
                        m->ev[s][e].line, gp_audit_rule_get(m->ev[s][e].rule)->id);
            fputc('\n', out);
        }
    }
}

static void modules(gp_audit_state *st, FILE *out)
{
    fprintf(out, "\nModules (%zu):\n", st->nmods);
    for (size_t i = 0; i < st->nmods; i++) {
        const gp_audit_module *m = &st->mods[i];
        fprintf(out, "  %-26s %-6s  %zuE %zuW %zuN  %s [%s]", gp_audit_verdict_name(m->verdict),
                m->effort, m->count[GP_SEV_ERROR], m->count[GP_SEV_WARNING], m->count[GP_SEV_NOTE],
                m->path, gp_module_kind_name(m->kind));
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
    for (size_t i = 0; i < st->nrec; i++) {
        if (gp_spool_read(st->spool, &r, snip, sizeof snip) != 0) return -1;
        if (r.flags & 2) continue;
        const gp_audit_rule *ru = gp_audit_rule_get(r.rule);
        fired[r.rule] = true;
        print_loc(out, st, &r);
        /* the same text as ": %s%s%s %s: %s%s\n" and "    %s%s%s\n", without printf */
        fputs(": ", out);
        fputs(sc[r.severity & 3], out);
        fputs(gp_audit_sev_name((gp_audit_sev)r.severity), out);
        fputs(rs, out);
        fputc(' ', out);
        fputs(ru->id, out);
        fputs(": ", out);
        fputs(ru->name, out);
        if (r.flags & 1) fputs(" (guarded)", out);
        fputs("\n    ", out);
        fputs(dim, out);
        fputs(snip, out);
        fputs(rs, out);
        fputc('\n', out);
    }
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
        for (size_t i = 0; i < st->nproblems; i++)
            fprintf(out, "  %s: %s\n", st->problems[i].path, st->problems[i].what);
        if (st->problems_total > st->nproblems)
            fprintf(out, "  ... and %zu more\n", st->problems_total - st->nproblems);
    }
    return ferror(out) ? -1 : 0;
}
