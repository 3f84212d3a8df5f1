/* report_human.c — the report for people, in the order a team reads it: the verdict, what
 * decided it and the first step (three lines), each component's verdict and effort (one line a
 * folder), the stop conditions with their evidence, the rules that fire most (one example each),
 * what to do first; then the findings, grouped by file (a line per file with its counts, then
 * one `file:line:col: severity RULE` line per finding with its code; at most GP_HUMAN_PER_RULE
 * findings of a rule unless --all), the explanation and fix of every rule that fired, and what
 * could not be read. */
#include <stdlib.h>
#include <string.h>

#include "audit/state.h"
#include "util/term.h"

#define GP_HUMAN_PER_RULE 5 /* findings of one rule listed without --all */
#define GP_HUMAN_PROBLEMS 10

/* A snippet as shown: where its line was cut, the partial word at the cut is left out and "..."
 * marks the cut (flags: the spool record's, GP_MARK_CUT_* << 2). */
static const char *snip_shown(const char *snip, unsigned flags, char *buf, size_t cap)
{
    bool before = flags & (GP_MARK_CUT_BEFORE << 2), after = flags & (GP_MARK_CUT_AFTER << 2);
    if (!before && !after) return snip;
    size_t a = 0, b = strlen(snip);
#define NAMECH(c)                                                                                  \
    ((c) == '_' || ((c) >= '0' && (c) <= '9') || (((c) | 0x20) >= 'a' && ((c) | 0x20) <= 'z') ||   \
     ((unsigned char)(c) >= 0x80))
    if (before) {
        size_t k = a;
        while (k < b && NAMECH(snip[k]))
            k++;
        if (k < b) a = k;
        while (a < b && snip[a] == ' ')
            a++;
    }
    if (after) {
        size_t k = b;
        while (k > a && NAMECH(snip[k - 1]))
            k--;
        if (k > a) b = k;
        while (b > a && snip[b - 1] == ' ')
            b--;
    }
#undef NAMECH
    snprintf(buf, cap, "%s%.*s%s", before ? "..." : "", (int)(b - a), snip + a,
             after ? " ..." : "");
    return buf;
}

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
    ob_puts(b, gp_term_safe(gp_audit_path(st, r->file), safe, sizeof safe));
    if (r->cell) put_num(b, ":cell ", r->cell);
    put_num(b, ":", r->line);
    put_num(b, ":", r->col);
}

static const char *lang_names[] = {
    "",      "python",    "setup.py",  "notebook",     "c/c++", "cuda",       "cmake",   "make",
    "shell", "pyproject", "setup.cfg", "requirements", "conda", "dockerfile", "compose", "metal"};

/* "3 errors, 1 warning" (the non-zero counts), or "no findings". */
static void counts_text(const size_t c[4], char *buf, size_t cap)
{
    static const char *const one[] = {"", "note", "warning", "error"};
    buf[0] = '\0';
    for (int s = GP_SEV_ERROR; s >= GP_SEV_NOTE; s--) {
        if (!c[s]) continue;
        size_t k = strlen(buf);
        snprintf(buf + k, cap - k, "%s%zu %s%s", k ? ", " : "", c[s], one[s], c[s] == 1 ? "" : "s");
    }
    if (!buf[0]) snprintf(buf, cap, "no findings");
}

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
    size_t all_n = 0, own_n = 0;
    for (int r = 0; r < GP_R_COUNT; r++) {
        all_n += st->rule_count[r].n;
        own_n += st->rule_count[r].own_n;
    }
    fprintf(out, "Verdict: %s%s%s (effort: %s)%s\n", b, gp_audit_verdict_name(st->verdict), rs,
            st->effort,
            all_n && !own_n ? "; every finding is outside the project's own code (examples, "
                              "tests, docs, benchmarks or vendored code)"
                            : "");
    char why[512], step[GP_NEXT_STEPS][400];
    gp_audit_decided(st, why, sizeof why);
    char safe0[GP_TERM_SAFE_MAX];
    fprintf(out, "Decided by: %s\n", gp_term_safe(why, safe0, sizeof safe0));
    if (gp_audit_next_steps(st, step, GP_NEXT_STEPS))
        fprintf(out, "First step: %s%s\n",
                gp_audit_steps_outside(st) ? "nothing in the project's own code; " : "",
                gp_term_safe(step[0], safe0, sizeof safe0));
    bool first_opt = true;
    char safe[GP_TERM_SAFE_MAX];
    for (size_t i = 0; i < st->nmods; i++) {
        if (st->mods[i].role != GP_ROLE_CUDA_OPTIONAL) continue;
        fprintf(out, "%s%s",
                first_opt ? "Optional CUDA parts, left out of the default build and "
                            "of the verdict: "
                          : ", ",
                gp_term_safe(st->mods[i].path, safe, sizeof safe));
        first_opt = false;
    }
    if (!first_opt) fputc('\n', out);
    bool first_sup = true;
    for (size_t i = 0; i < st->nmods; i++) {
        if (st->mods[i].role != GP_ROLE_SUPPORT || !st->mods[i].excluded) continue;
        fprintf(out, "%s%s (%s)",
                first_sup ? "Examples and tests, left out of the verdict: " : ", ",
                st->mods[i].path, gp_audit_verdict_name(st->mods[i].verdict));
        first_sup = false;
    }
    if (!first_sup) fputc('\n', out);
    bool no_mps = false;
    for (size_t i = 0; i < st->nmods; i++)
        no_mps |=
            (st->mods[i].remarks & GP_REMARK_NO_MPS) && st->mods[i].role != GP_ROLE_CUDA_OPTIONAL;
    if (no_mps)
        fputs("No MPS or Metal implementation: on a Mac the parts with a CUDA path run on the "
              "CPU.\n",
              out);
    size_t ne = st->count[GP_SEV_ERROR], nw = st->count[GP_SEV_WARNING],
           nn = st->count[GP_SEV_NOTE];
    fprintf(out, "Findings: %zu %s, %zu %s, %zu %s", ne, gp_plural(ne, "error", "errors"), nw,
            gp_plural(nw, "warning", "warnings"), nn, gp_plural(nn, "note", "notes"));
    if (st->optional_findings)
        fprintf(out, " (%zu of them in optional CUDA parts)", st->optional_findings);
    if (st->baselined) fprintf(out, " (%zu more in the baseline)", st->baselined);
    if (st->dropped) fprintf(out, " (%zu more not listed: over 20000 in one file)", st->dropped);
    fputc('\n', out);
}

/* Is component i's path that of an earlier component (printed with it)? */
static bool path_seen(const gp_audit_state *st, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (strcmp(st->mods[k].path, st->mods[i].path) == 0) return true;
    return false;
}

/* The names of component i's files when it shares its folder with another component. */
static void comp_files(gp_audit_state *st, FILE *out, size_t i)
{
    char safe[GP_TERM_SAFE_MAX];
    size_t listed = 0, n = 0;
    for (size_t f = 0; f < st->nfiles; f++) {
        if (st->files[f].comp != i) continue;
        if (listed < 3) {
            const char *p = gp_audit_path(st, (uint32_t)f), *b = strrchr(p, '/');
            fprintf(out, "%s%s", listed ? ", " : " (",
                    gp_term_safe(b ? b + 1 : p, safe, sizeof safe));
            listed++;
        }
        n++;
    }
    if (n > listed) fprintf(out, " and %zu more", n - listed);
    if (listed) fputc(')', out);
}

static void components(gp_audit_state *st, FILE *out)
{
    size_t distinct = 0;
    for (size_t i = 0; i < st->nmods; i++)
        distinct += !path_seen(st, i);
    fprintf(out, "\nComponents (%zu):\n", distinct);
    char safe[GP_TERM_SAFE_MAX];
    for (size_t i = 0; i < st->nmods; i++) {
        if (path_seen(st, i)) continue;
        /* one line a folder: the part the default build has decides it; the others (an optional
         * CUDA part beside it) are said below it */
        size_t prim = i;
        bool group = false;
        for (size_t k = i; k < st->nmods; k++) {
            if (k != i && strcmp(st->mods[k].path, st->mods[i].path) == 0) group = true;
            if (strcmp(st->mods[k].path, st->mods[i].path) == 0 &&
                st->mods[prim].role == GP_ROLE_CUDA_OPTIONAL &&
                st->mods[k].role != GP_ROLE_CUDA_OPTIONAL)
                prim = k;
        }
        const gp_audit_module *m = &st->mods[prim];
        fprintf(out, "  %-26s %-6s  %zuE %zuW %zuN  %s [%s]", gp_audit_verdict_name(m->verdict),
                m->effort, m->count[GP_SEV_ERROR], m->count[GP_SEV_WARNING], m->count[GP_SEV_NOTE],
                gp_term_safe(m->path, safe, sizeof safe),
                m->role ? gp_audit_role_name(m->role) : gp_module_kind_name(m->kind));
        if (m->decided_by >= 0)
            fprintf(out, " decided by %s", gp_audit_rule_get(m->decided_by)->id);
        fputc('\n', out);
        if (m->role == GP_ROLE_CUDA_OPTIONAL)
            fprintf(out,
                    "      %s: not in the project's verdict; its own verdict is what building it "
                    "would take\n",
                    m->gate);
        if ((m->remarks & GP_REMARK_NO_MPS) && m->role != GP_ROLE_CUDA_OPTIONAL)
            fputs("      no MPS or Metal implementation: on a Mac this part runs on the CPU\n",
                  out);
        if (m->remarks & GP_REMARK_WRAPS_EXT)
            fputs("      imports the project's CUDA extension without a fallback: it needs what "
                  "the CUDA parts need\n",
                  out);
        for (size_t k = i; group && k < st->nmods; k++) {
            if (k == prim || strcmp(st->mods[k].path, m->path) != 0) continue;
            const gp_audit_module *o = &st->mods[k];
            fprintf(out, "      + %s%s: %s (%s), %zuE %zuW %zuN",
                    o->role ? gp_audit_role_name(o->role) : gp_module_kind_name(o->kind),
                    o->role == GP_ROLE_CUDA_OPTIONAL ? " part" : "",
                    gp_audit_verdict_name(o->verdict), o->effort, o->count[GP_SEV_ERROR],
                    o->count[GP_SEV_WARNING], o->count[GP_SEV_NOTE]);
            if (o->decided_by >= 0)
                fprintf(out, ", decided by %s", gp_audit_rule_get(o->decided_by)->id);
            comp_files(st, out, k);
            if (o->role == GP_ROLE_CUDA_OPTIONAL)
                fprintf(out, "; %s: not in the project's verdict", o->gate);
            fputc('\n', out);
        }
    }
}

static void evidence(const gp_audit_state *st, FILE *out, const gp_audit_module *m,
                     const gp_stop_ev *ev, size_t count, gp_audit_stop s)
{
    char safe[GP_TERM_SAFE_MAX];
    fprintf(out, "    module %s: ", gp_term_safe(m->path, safe, sizeof safe));
    if (s == GP_STOP_CUSTOM_KERNELS && m->kernels)
        fprintf(out, "%zu %s (%zu %s), e.g.", m->kernels,
                gp_plural(m->kernels, "kernel", "kernels"), count,
                gp_plural(count, "finding", "findings"));
    else
        fprintf(out, "%zu %s, e.g.", count, gp_plural(count, "finding", "findings"));
    size_t k = count < GP_STOP_EVIDENCE ? count : GP_STOP_EVIDENCE;
    for (size_t e = 0; e < k; e++) {
        const gp_stop_ev *v = &ev[e];
        if (v->rule == 0 && v->file == 0 && v->line == 0) break; /* (deduplicated places) */
        fprintf(out, "%s %s:", e ? "," : "",
                gp_term_safe(gp_audit_path(st, v->file), safe, sizeof safe));
        if (v->cell) fprintf(out, "cell %u:", v->cell);
        fprintf(out, "%u (%s)", v->line, gp_audit_rule_get(v->rule)->id);
    }
    fputc('\n', out);
}

/* The modules with stop s (cond: conditional), the project's own before vendored ones. */
static void stop_modules(const gp_audit_state *st, FILE *out, int s, bool cond)
{
    const char *scope = NULL;
    bool one_scope = true;
    for (size_t i = 0; cond && i < st->nmods; i++) {
        const gp_audit_module *m = &st->mods[i];
        if (!m->cond_stop[s] || m->excluded) continue;
        const char *sc = gp_audit_cond_scope(m, (gp_audit_stop)s);
        if (scope && strcmp(scope, sc) != 0) one_scope = false;
        scope = sc;
    }
    if (cond && one_scope && scope) fprintf(out, "    %s\n", scope); /* the why, once */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < st->nmods; i++) {
            const gp_audit_module *m = &st->mods[i];
            if (!(cond ? m->cond_stop[s] : m->stop[s]) || m->excluded) continue;
            if (gp_audit_path_vendored(st, m->path) != (pass == 1)) continue;
            if (cond && !one_scope)
                fprintf(out, "    %s\n", gp_audit_cond_scope(m, (gp_audit_stop)s));
            if (cond)
                evidence(st, out, m, m->cond_ev[s], m->cond_count[s], (gp_audit_stop)s);
            else
                evidence(st, out, m, m->ev[s], m->stop_count[s], (gp_audit_stop)s);
        }
}

static void stops(gp_audit_state *st, FILE *out)
{
    bool any = false, cond = false;
    for (int s = 1; s < GP_STOP_COUNT; s++) {
        any |= st->stop[s];
        cond |= st->cond_stop[s];
    }
    if (!any) {
        fputs("\nStop conditions: none\n", out);
    } else {
        fprintf(out, "\n%sStop conditions%s (do not force a move off CUDA):\n",
                gp_term_color(out, GP_COLOR_RED), gp_term_color(out, GP_COLOR_RESET));
        for (int s = 1; s < GP_STOP_COUNT; s++) {
            if (!st->stop[s]) continue;
            fprintf(out, "  %s: %s\n", gp_audit_stop_name((gp_audit_stop)s),
                    gp_audit_stop_title_for(st, (gp_audit_stop)s));
            stop_modules(st, out, s, false);
        }
    }
    if (!cond) return;
    fputs("\nConditional stop conditions (for one path only; the rest of the project moves):\n",
          out);
    for (int s = 1; s < GP_STOP_COUNT; s++) {
        if (!st->cond_stop[s]) continue;
        fprintf(out, "  %s: %s\n", gp_audit_stop_name((gp_audit_stop)s),
                gp_audit_stop_title((gp_audit_stop)s));
        stop_modules(st, out, s, true);
    }
}

static void top_rules(gp_audit_state *st, FILE *out)
{
    int top[GP_TOP_RULES];
    size_t n = gp_audit_top_rules(st, top, GP_TOP_RULES);
    if (!n) return;
    fputs("\nTop rules:\n", out);
    for (size_t i = 0; i < n; i++) {
        const gp_rule_count *rc = &st->rule_count[top[i]];
        const gp_audit_rule *ru = gp_audit_rule_get(top[i]);
        char safe[GP_TERM_SAFE_MAX];
        char kern[48] = "";
        if (top[i] == GP_R_C_KERN_001 && st->kernels)
            snprintf(kern, sizeof kern, " (%zu %s)", st->kernels,
                     gp_plural(st->kernels, "kernel", "kernels"));
        fprintf(out, "  %6zu  %-14s %s%s, e.g. %s:", rc->n, ru->id, ru->name, kern,
                gp_term_safe(gp_audit_path(st, rc->file), safe, sizeof safe));
        if (rc->cell) fprintf(out, "cell %u:", rc->cell);
        fprintf(out, "%u\n", rc->line);
        char snip[4096], shown[4200];
        unsigned fl = 0;
        if (gp_audit_rule_example(st, top[i], snip, sizeof snip, &fl))
            fprintf(out, "          %s\n",
                    gp_term_safe(snip_shown(snip, fl, shown, sizeof shown), safe, sizeof safe));
    }
}

static void next_steps(gp_audit_state *st, FILE *out)
{
    char lines[GP_NEXT_STEPS][400];
    size_t n = gp_audit_next_steps(st, lines, GP_NEXT_STEPS);
    fputs("\nWhat to do first:\n", out);
    for (size_t i = 0; i < n; i++) {
        char safe[GP_TERM_SAFE_MAX]; /* a step names a file */
        fprintf(out, "  %zu. %s\n", i + 1, gp_term_safe(lines[i], safe, sizeof safe));
    }
}

int gp_audit_report_human(gp_audit_state *st, FILE *out)
{
    summary(st, out);
    components(st, out);
    stops(st, out);
    top_rules(st, out);
    next_steps(st, out);
    bool fired[GP_R_COUNT] = {false};
    if (st->count[1] + st->count[2] + st->count[3]) fputs("\nFindings by file:\n", out);
    gp_spool_reader *rd = malloc(sizeof *rd);
    if (ferror(out) || !rd || gp_spool_begin(rd, st->spool) != 0) {
        free(rd);
        return -1;
    }
    gp_spool_rec r;
    char snip[4096];
    const char *rs = gp_term_color(out, GP_COLOR_RESET), *dim = gp_term_color(out, GP_COLOR_DIM);
    const char *bold = gp_term_color(out, GP_COLOR_BOLD);
    const char *sc[4] = {"", sev_color(out, 1), sev_color(out, 2), sev_color(out, 3)};
    out_buf *b = malloc(sizeof *b);
    if (!b) {
        free(rd);
        return -1;
    }
    b->out = out;
    b->len = 0;
    b->failed = false;
    uint32_t cur_file = UINT32_MAX;
    /* A large project's report stays a few screens long: at most GP_HUMAN_PER_RULE findings of
     * a rule, the most severe first (a first pass counts them by severity), listed in file
     * order. */
    size_t allow[GP_R_COUNT][4] = {{0}}, not_shown = 0;
    if (!st->o->all) {
        size_t cnt[GP_R_COUNT][4] = {{0}};
        for (size_t i = 0; i < st->nrec; i++) {
            if (gp_spool_next(rd, &r, snip, sizeof snip, NULL) != 0) {
                b->failed = true;
                break;
            }
            gp_eff e;
            gp_audit_effective(st, &r, &e);
            if (e.severity != GP_SEV_NONE) cnt[e.rule][e.severity & 3]++;
        }
        for (int k = 0; k < GP_R_COUNT; k++) {
            size_t quota = GP_HUMAN_PER_RULE;
            for (int sv = 3; sv >= 1; sv--) {
                allow[k][sv] = cnt[k][sv] < quota ? cnt[k][sv] : quota;
                quota -= allow[k][sv];
            }
        }
        if (!b->failed && gp_spool_begin(rd, st->spool) != 0) b->failed = true;
    }
    for (size_t i = 0; i < st->nrec && !b->failed; i++) {
        if (gp_spool_next(rd, &r, snip, sizeof snip, NULL) != 0) {
            b->failed = true;
            break;
        }
        gp_eff e;
        gp_audit_effective(st, &r, &e);
        if (e.severity == GP_SEV_NONE) continue;
        fired[e.rule] = true;
        if (!st->o->all && allow[e.rule][e.severity & 3] == 0) {
            not_shown++;
            continue;
        }
        if (!st->o->all) allow[e.rule][e.severity & 3]--;
        if (r.file != cur_file) { /* a file's heading, once, before its first finding */
            cur_file = r.file;
            const gp_audit_file *fi = &st->files[r.file];
            size_t c[4] = {0, fi->count[1], fi->count[2], fi->count[3]};
            char ct[96];
            counts_text(c, ct, sizeof ct);
            ob_puts(b, "\n");
            ob_puts(b, bold);
            char safe[GP_TERM_SAFE_MAX];
            ob_puts(b, gp_term_safe(gp_audit_path(st, r.file), safe, sizeof safe));
            ob_puts(b, rs);
            ob_puts(b, " (");
            ob_puts(b, ct);
            if (fi->flags & GP_FF_OPTIONAL) ob_puts(b, "; optional CUDA part");
            if (fi->flags & GP_FF_IMPORT_GUARDED) ob_puts(b, "; imported only behind a CUDA check");
            ob_puts(b, ")\n");
        }
        const gp_audit_rule *ru = gp_audit_rule_get(e.rule);
        put_loc(b, st, &r);
        /* the same text as ": %s%s%s %s: %s%s\n" and "    %s%s%s\n", without printf */
        ob_put(b, ": ", 2);
        ob_puts(b, sc[e.severity & 3]);
        ob_puts(b, gp_audit_sev_name((gp_audit_sev)e.severity));
        ob_puts(b, rs);
        ob_put(b, " ", 1);
        ob_puts(b, ru->id);
        ob_put(b, ": ", 2);
        ob_puts(b, ru->name);
        if (e.optional)
            ob_puts(b, " (optional CUDA part)");
        else if (e.guarded)
            ob_puts(b, " (guarded)");
        ob_put(b, "\n    ", 5);
        ob_puts(b, dim);
        char safe[GP_TERM_SAFE_MAX], shown[sizeof snip + 16];
        ob_puts(b, gp_term_safe(snip_shown(snip, r.flags, shown, sizeof shown), safe, sizeof safe));
        ob_puts(b, rs);
        ob_put(b, "\n", 1);
    }
    if (not_shown) {
        char line[200];
        snprintf(line, sizeof line,
                 "\n%zu more %s not listed (at most %d of a rule here, the most severe first): "
                 "--all lists every one; "
                 "--json and --sarif hold them all\n",
                 not_shown, not_shown == 1 ? "finding" : "findings", GP_HUMAN_PER_RULE);
        ob_puts(b, line);
    }
    ob_flush(b);
    bool failed = b->failed;
    free(b);
    free(rd);
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
        size_t listed =
            st->o->all || st->nproblems < GP_HUMAN_PROBLEMS ? st->nproblems : GP_HUMAN_PROBLEMS;
        for (size_t i = 0; i < listed; i++) {
            char safe[GP_TERM_SAFE_MAX];
            fprintf(out, "  %s: %s\n", gp_term_safe(st->problems[i].path, safe, sizeof safe),
                    st->problems[i].what);
        }
        if (st->problems_total > listed)
            fprintf(out, "  ... and %zu more%s\n", st->problems_total - listed,
                    listed < st->nproblems ? " (--all lists them)" : "");
    }
    return ferror(out) ? -1 : 0;
}
