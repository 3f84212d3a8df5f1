/* report_json.c — `--json` (schema gpuport.audit/1, documented in docs/audit.md) and `--sarif`
 * (SARIF 2.1.0 for GitHub code scanning). Both stream: the small parts are cJSON objects, the
 * findings are read back from the spool one at a time and printed as they come. */
#include <stdlib.h>
#include <string.h>

#include "audit/state.h"
#include "gp_version.h"
#include "util/json.h"

#define SARIF_MAX_RESULTS 25000

void gp_audit_json_add_path(cJSON *o, const char *key, const char *path)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_audit_utf8_append(&sb, path);
    cJSON_AddStringToObject(o, key, gp_strbuf_cstr(&sb));
    gp_strbuf_free(&sb);
}

/* Prints `o` unformatted (then frees it); -1 on failure. */
static int put(FILE *out, cJSON *o)
{
    char *t = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!t) return -1;
    fputs(t, out);
    free(t);
    return 0;
}

static const char *role_id(gp_audit_role r)
{
    return r == GP_ROLE_CUDA_OPTIONAL ? "cuda-backend-optional"
           : r == GP_ROLE_SCRIPT      ? "program"
           : r == GP_ROLE_SUPPORT     ? "examples-and-tests"
                                      : NULL;
}

static cJSON *module_json(const gp_audit_state *st, const gp_audit_module *m)
{
    (void)st;
    cJSON *o = cJSON_CreateObject();
    gp_audit_json_add_path(o, "path", m->path);
    cJSON_AddStringToObject(o, "kind", gp_module_kind_name(m->kind));
    if (m->role)
        cJSON_AddStringToObject(o, "role", role_id(m->role));
    else
        cJSON_AddNullToObject(o, "role");
    cJSON_AddBoolToObject(o, "optional", m->role == GP_ROLE_CUDA_OPTIONAL);
    cJSON_AddBoolToObject(o, "in_verdict", !m->excluded);
    if (m->gate[0]) cJSON_AddStringToObject(o, "gate", m->gate);
    cJSON *rm = cJSON_AddArrayToObject(o, "remarks");
    if (m->remarks & GP_REMARK_NO_MPS)
        cJSON_AddItemToArray(rm, cJSON_CreateString("no MPS or Metal implementation: on a Mac "
                                                    "this part runs on the CPU"));
    if (m->remarks & GP_REMARK_WRAPS_EXT)
        cJSON_AddItemToArray(rm, cJSON_CreateString("imports the project's CUDA extension without "
                                                    "a fallback: it needs what the CUDA parts "
                                                    "need"));
    cJSON_AddStringToObject(o, "verdict", gp_audit_verdict_name(m->verdict));
    cJSON_AddStringToObject(o, "effort", m->effort);
    if (m->decided_by >= 0)
        cJSON_AddStringToObject(o, "decided_by", gp_audit_rule_get(m->decided_by)->id);
    else
        cJSON_AddNullToObject(o, "decided_by");
    cJSON_AddNumberToObject(o, "files", (double)m->files);
    cJSON_AddNumberToObject(o, "errors", (double)m->count[GP_SEV_ERROR]);
    cJSON_AddNumberToObject(o, "warnings", (double)m->count[GP_SEV_WARNING]);
    cJSON_AddNumberToObject(o, "notes", (double)m->count[GP_SEV_NOTE]);
    return o;
}

static void evidence_json(const gp_audit_state *st, cJSON *ev, const gp_audit_module *m,
                          const gp_stop_ev *arr, size_t count)
{
    size_t k = count < GP_STOP_EVIDENCE ? count : GP_STOP_EVIDENCE;
    for (size_t e = 0; e < k; e++) {
        cJSON *x = cJSON_CreateObject();
        gp_audit_json_add_path(x, "module", m->path);
        cJSON_AddStringToObject(x, "rule", gp_audit_rule_get(arr[e].rule)->id);
        gp_audit_json_add_path(x, "file", gp_audit_path(st, arr[e].file));
        if (arr[e].cell) cJSON_AddNumberToObject(x, "cell", arr[e].cell);
        cJSON_AddNumberToObject(x, "line", arr[e].line);
        cJSON_AddNumberToObject(x, "column", arr[e].col);
        cJSON_AddItemToArray(ev, x);
    }
}

/* The stop conditions, or (cond) the conditional ones: each with its evidence per module. */
static cJSON *stops_json(const gp_audit_state *st, bool cond)
{
    cJSON *arr = cJSON_CreateArray();
    for (int s = 1; s < GP_STOP_COUNT; s++) {
        if (!(cond ? st->cond_stop[s] : st->stop[s])) continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", gp_audit_stop_name((gp_audit_stop)s));
        cJSON_AddStringToObject(o, "title",
                                cond ? gp_audit_stop_title((gp_audit_stop)s)
                                     : gp_audit_stop_title_for(st, (gp_audit_stop)s));
        cJSON *scope = cond ? cJSON_AddArrayToObject(o, "scope") : NULL;
        cJSON *ev = cJSON_AddArrayToObject(o, "evidence");
        double total = 0;
        for (size_t i = 0; i < st->nmods; i++) {
            const gp_audit_module *m = &st->mods[i];
            if (!(cond ? m->cond_stop[s] : m->stop[s])) continue;
            if (m->excluded) continue; /* not the project's */
            if (cond) {
                cJSON *sc = cJSON_CreateObject();
                gp_audit_json_add_path(sc, "module", m->path);
                cJSON_AddStringToObject(sc, "why", gp_audit_cond_scope(m, (gp_audit_stop)s));
                cJSON_AddItemToArray(scope, sc);
            }
            evidence_json(st, ev, m, cond ? m->cond_ev[s] : m->ev[s],
                          cond ? m->cond_count[s] : m->stop_count[s]);
            total += (double)(cond ? m->cond_count[s] : m->stop_count[s]);
        }
        cJSON_AddNumberToObject(o, "findings", total);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *top_rules_json(gp_audit_state *st)
{
    cJSON *arr = cJSON_CreateArray();
    int top[GP_TOP_RULES];
    size_t n = gp_audit_top_rules(st, top, GP_TOP_RULES);
    for (size_t i = 0; i < n; i++) {
        const gp_rule_count *rc = &st->rule_count[top[i]];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "rule", gp_audit_rule_get(top[i])->id);
        cJSON_AddNumberToObject(o, "count", (double)rc->n);
        cJSON *ex = cJSON_AddObjectToObject(o, "example");
        gp_audit_json_add_path(ex, "file", gp_audit_path(st, rc->file));
        if (rc->cell) cJSON_AddNumberToObject(ex, "cell", rc->cell);
        cJSON_AddNumberToObject(ex, "line", rc->line);
        char snip[4096];
        if (gp_audit_rule_example(st, top[i], snip, sizeof snip, NULL))
            cJSON_AddStringToObject(ex, "code", snip);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *next_steps_json(const gp_audit_state *st)
{
    char lines[GP_NEXT_STEPS][400];
    size_t n = gp_audit_next_steps(st, lines, GP_NEXT_STEPS);
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) { /* (they name files: any bytes, made valid UTF-8) */
        gp_strbuf sb = GP_STRBUF_INIT;
        gp_audit_utf8_append(&sb, lines[i]);
        cJSON_AddItemToArray(arr, cJSON_CreateString(gp_strbuf_cstr(&sb)));
        gp_strbuf_free(&sb);
    }
    return arr;
}

static int report_json(gp_audit_state *st, FILE *out, gp_spool_reader *rd)
{
    fputs("{\"schema\":\"gpuport.audit/1\"", out);
    fprintf(out, ",\"verdict\":\"%s\",\"effort\":\"%s\"", gp_audit_verdict_name(st->verdict),
            st->effort);
    cJSON *sum = cJSON_CreateObject();
    cJSON_AddNumberToObject(sum, "files_scanned", (double)st->scanned);
    cJSON_AddNumberToObject(sum, "binary_skipped", (double)st->binary);
    cJSON_AddNumberToObject(sum, "not_scanned", (double)st->problems_total);
    cJSON_AddNumberToObject(sum, "errors", (double)st->count[GP_SEV_ERROR]);
    cJSON_AddNumberToObject(sum, "warnings", (double)st->count[GP_SEV_WARNING]);
    cJSON_AddNumberToObject(sum, "notes", (double)st->count[GP_SEV_NOTE]);
    cJSON_AddNumberToObject(sum, "optional", (double)st->optional_findings);
    cJSON_AddNumberToObject(sum, "baselined", (double)st->baselined);
    cJSON_AddNumberToObject(sum, "not_listed", (double)st->dropped);
    fputs(",\"summary\":", out);
    if (put(out, sum) != 0) return -1;
    fputs(",\n\"modules\":[", out);
    for (size_t i = 0; i < st->nmods; i++) {
        fputs(i ? ",\n " : "\n ", out);
        if (put(out, module_json(st, &st->mods[i])) != 0) return -1;
    }
    fputs("],\n\"stop_conditions\":", out);
    if (put(out, stops_json(st, false)) != 0) return -1;
    fputs(",\n\"conditional_stop_conditions\":", out);
    if (put(out, stops_json(st, true)) != 0) return -1;
    fputs(",\n\"top_rules\":", out);
    if (put(out, top_rules_json(st)) != 0) return -1;
    fputs(",\n\"next_steps\":", out);
    if (put(out, next_steps_json(st)) != 0) return -1;
    fputs(",\n\"findings\":[", out);
    if (gp_spool_begin(rd, st->spool) != 0) return -1;
    gp_spool_rec r;
    char snip[4096];
    bool first = true;
    for (size_t i = 0; i < st->nrec; i++) {
        if (gp_spool_next(rd, &r, snip, sizeof snip, NULL) != 0) return -1;
        gp_eff e;
        gp_audit_effective(st, &r, &e);
        if (e.severity == GP_SEV_NONE) continue;
        const gp_audit_rule *ru = gp_audit_rule_get(e.rule);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "rule", ru->id);
        gp_audit_json_add_path(o, "file", gp_audit_path(st, r.file));
        if (r.cell) cJSON_AddNumberToObject(o, "cell", r.cell);
        cJSON_AddNumberToObject(o, "line", r.line);
        cJSON_AddNumberToObject(o, "column", r.col);
        if (r.file_line) {
            cJSON_AddNumberToObject(o, "file_line", r.file_line);
            cJSON_AddNumberToObject(o, "file_column", r.file_col);
        }
        cJSON_AddStringToObject(o, "severity", gp_audit_sev_name((gp_audit_sev)e.severity));
        cJSON_AddBoolToObject(o, "guarded", e.guarded);
        cJSON_AddBoolToObject(o, "optional", e.optional);
        cJSON_AddStringToObject(o, "code", snip);
        cJSON_AddStringToObject(o, "message", ru->explanation);
        cJSON_AddStringToObject(o, "fix", ru->fix);
        cJSON_AddStringToObject(o, "fingerprint", r.fp);
        fputs(first ? "\n " : ",\n ", out);
        first = false;
        if (put(out, o) != 0) return -1;
    }
    fputs("],\n\"not_scanned\":[", out);
    for (size_t i = 0; i < st->nproblems; i++) {
        cJSON *o = cJSON_CreateObject();
        gp_audit_json_add_path(o, "path", st->problems[i].path ? st->problems[i].path : "");
        cJSON_AddStringToObject(o, "reason", st->problems[i].what ? st->problems[i].what : "");
        fputs(i ? ",\n " : "\n ", out);
        if (put(out, o) != 0) return -1;
    }
    fputs("]}\n", out);
    return ferror(out) ? -1 : 0;
}

/* ---- SARIF 2.1.0 ------------------------------------------------------------------------ */

static const char *sarif_level(int sev)
{
    return sev == GP_SEV_ERROR ? "error" : sev == GP_SEV_WARNING ? "warning" : "note";
}

static cJSON *sarif_rules(void)
{
    cJSON *arr = cJSON_CreateArray();
    for (int k = 0; k < GP_R_COUNT; k++) {
        const gp_audit_rule *ru = gp_audit_rule_get(k);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", ru->id);
        cJSON_AddStringToObject(o, "name", ru->name);
        cJSON *sd = cJSON_AddObjectToObject(o, "shortDescription");
        cJSON_AddStringToObject(sd, "text", ru->name);
        cJSON *fd = cJSON_AddObjectToObject(o, "fullDescription");
        cJSON_AddStringToObject(fd, "text", ru->explanation);
        cJSON *help = cJSON_AddObjectToObject(o, "help");
        char txt[1024];
        snprintf(txt, sizeof txt, "%s Fix: %s", ru->explanation, ru->fix);
        cJSON_AddStringToObject(help, "text", txt);
        cJSON *dc = cJSON_AddObjectToObject(o, "defaultConfiguration");
        cJSON_AddStringToObject(dc, "level", sarif_level(ru->severity));
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* A repository-relative URI: the path as displayed, with URI-reserved bytes escaped. */
static void uri_of(const char *path, char *out, size_t cap)
{
    size_t k = 0;
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    for (const unsigned char *p = (const unsigned char *)path; *p && k + 4 < cap; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("/-._~", *p))
            out[k++] = (char)*p;
        else
            k += (size_t)snprintf(out + k, cap - k, "%%%02X", *p);
    }
    out[k] = '\0';
}

/* An absolute display path made relative: to the current folder when it lies inside it, else
 * to the path argument it was found under (a file argument: its folder), which is the
 * repository being scanned. */
static const char *relative_to_root(const gp_audit_state *st, const char *path, const char *cwd)
{
    size_t cn = cwd ? strlen(cwd) : 0;
    if (cn > 1 && strncmp(path, cwd, cn) == 0 && path[cn] == '/') return path + cn + 1;
    const char *best = NULL;
    size_t best_n = 0;
    for (size_t i = 0; i < st->o->npaths; i++) {
        const char *a = st->o->paths[i];
        size_t an = strlen(a);
        while (an > 1 && a[an - 1] == '/')
            an--;
        if (strncmp(path, a, an) != 0) continue;
        if (path[an] == '\0') { /* a file argument: relative to its folder */
            const char *sl = strrchr(path, '/');
            return sl ? sl + 1 : path;
        }
        if (path[an] == '/' && an > best_n) {
            best = path + an + 1;
            best_n = an;
        }
    }
    return best ? best : path + 1;
}

static int report_sarif(gp_audit_state *st, FILE *out, gp_spool_reader *rd)
{
    fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
          "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"gpuport\","
          "\"semanticVersion\":\"" GP_VERSION_STRING "\","
          "\"rules\":",
          out);
    if (put(out, sarif_rules()) != 0) return -1;
    fputs("}},\"columnKind\":\"unicodeCodePoints\",\n\"results\":[", out);
    if (gp_spool_begin(rd, st->spool) != 0) return -1;
    gp_spool_rec r;
    char snip[4096], uri[2048];
    size_t n = 0, over = 0;
    char *cwd = realpath(".", NULL);
    for (size_t i = 0; i < st->nrec; i++) {
        if (gp_spool_next(rd, &r, snip, sizeof snip, NULL) != 0) {
            free(cwd);
            return -1;
        }
        gp_eff e;
        gp_audit_effective(st, &r, &e);
        if (e.severity == GP_SEV_NONE) continue;
        if (n == SARIF_MAX_RESULTS) {
            over++;
            continue;
        }
        const gp_audit_rule *ru = gp_audit_rule_get(e.rule);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "ruleId", ru->id);
        cJSON_AddNumberToObject(o, "ruleIndex", e.rule);
        cJSON_AddStringToObject(o, "level", sarif_level(e.severity));
        cJSON *msg = cJSON_AddObjectToObject(o, "message");
        char text[6000];
        if (r.cell)
            snprintf(text, sizeof text, "cell %u: %s: `%s`. %s Fix: %s", r.cell, ru->name, snip,
                     ru->explanation, ru->fix);
        else
            snprintf(text, sizeof text, "%s: `%s`. %s Fix: %s", ru->name, snip, ru->explanation,
                     ru->fix);
        cJSON_AddStringToObject(msg, "text", text);
        cJSON *locs = cJSON_AddArrayToObject(o, "locations");
        cJSON *loc = cJSON_CreateObject();
        cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
        cJSON *art = cJSON_AddObjectToObject(phys, "artifactLocation");
        const char *path = gp_audit_path(st, r.file);
        uri_of(path[0] == '/' ? relative_to_root(st, path, cwd) : path, uri, sizeof uri);
        cJSON_AddStringToObject(art, "uri", uri);
        cJSON_AddStringToObject(art, "uriBaseId", "%SRCROOT%");
        cJSON *reg = cJSON_AddObjectToObject(phys, "region");
        /* a notebook's finding points into the .ipynb file itself (the cell is in the message) */
        uint32_t line = r.file_line ? r.file_line : r.line, col = r.file_line ? r.file_col : r.col;
        cJSON_AddNumberToObject(reg, "startLine", line ? line : 1);
        if (col) cJSON_AddNumberToObject(reg, "startColumn", col);
        cJSON_AddItemToArray(locs, loc);
        cJSON *pf = cJSON_AddObjectToObject(o, "partialFingerprints");
        cJSON_AddStringToObject(pf, "gpuportFingerprint/v1", r.fp);
        /* under a guard the level is the rule's guarded one: say why it differs from the rule's */
        cJSON *props = cJSON_AddObjectToObject(o, "properties");
        cJSON_AddBoolToObject(props, "guarded", e.guarded);
        cJSON_AddBoolToObject(props, "optional", e.optional);
        fputs(n ? ",\n " : "\n ", out);
        n++;
        if (put(out, o) != 0) {
            free(cwd);
            return -1;
        }
    }
    free(cwd);
    fputs("]", out);
    if (over) {
        fprintf(out, ",\"properties\":{\"resultsNotListed\":%zu}", over);
        fprintf(stderr, "gpuport audit: SARIF holds at most %d results; %zu more not listed\n",
                SARIF_MAX_RESULTS, over);
    }
    fputs("}]}\n", out);
    return ferror(out) ? -1 : 0;
}

/* The spool reader's buffer is too large for the stack of a caller's thread. */
int gp_audit_report_json(gp_audit_state *st, FILE *out)
{
    gp_spool_reader *rd = malloc(sizeof *rd);
    int rc = rd ? report_json(st, out, rd) : -1;
    free(rd);
    return rc;
}

int gp_audit_report_sarif(gp_audit_state *st, FILE *out)
{
    gp_spool_reader *rd = malloc(sizeof *rd);
    int rc = rd ? report_sarif(st, out, rd) : -1;
    free(rd);
    return rc;
}
