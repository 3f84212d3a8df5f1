/* notebook.c — Jupyter notebooks: the JSON (through cJSON, size-capped by the caller) is
 * parsed, each code cell's source is joined into one buffer and scanned as Python with the cell
 * number recorded, so findings point at cell N, line M. Shell and magic lines (`!`, `%`) are
 * blanked first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/scanners.h"
#include "util/json.h"
#include "util/strbuf.h"

static void append_source(gp_strbuf *sb, const cJSON *src)
{
    if (cJSON_IsString(src)) {
        gp_strbuf_puts(sb, src->valuestring);
        return;
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, src) if (cJSON_IsString(it)) gp_strbuf_puts(sb, it->valuestring);
}

/* IPython magics and shell escapes are not Python: blank them, keeping the line count. */
static void blank_magics(char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && (p[i] == ' ' || p[i] == '\t'))
            i++;
        bool magic = i < n && (p[i] == '!' || p[i] == '%');
        while (i < n && p[i] != '\n') {
            if (magic) p[i] = ' ';
            i++;
        }
        i++;
    }
}

/* Scans the code cells of one cell list; *k counts cells across lists (nbformat 3 has one per
 * worksheet). The source is "source" (nbformat 4) or "input" (nbformat 3). */
static void scan_cells(const cJSON *cells, uint32_t *k, gp_audit_result *r)
{
    const cJSON *cell;
    cJSON_ArrayForEach(cell, cells)
    {
        ++*k;
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(cell, "cell_type");
        if (!cJSON_IsString(type) || strcmp(type->valuestring, "code") != 0) continue;
        const cJSON *src = cJSON_GetObjectItemCaseSensitive(cell, "source");
        if (!src) src = cJSON_GetObjectItemCaseSensitive(cell, "input");
        gp_strbuf sb = GP_STRBUF_INIT;
        append_source(&sb, src);
        if (sb.failed || !sb.data) {
            gp_strbuf_free(&sb);
            continue;
        }
        blank_magics(sb.data, sb.len);
        gp_audit_source cs = {sb.data, sb.len, 0, false};
        r->cell = *k;
        gp_audit_scan_python(&cs, r, false, NULL);
        /* the snippets were copied; the cell text can go */
        gp_strbuf_free(&sb);
    }
}

void gp_audit_scan_notebook(gp_audit_source *s, gp_audit_result *r)
{
    char err[256];
    size_t bom = gp_audit_source_bom(s);
    cJSON *nb = gp_json_parse("notebook", s->data + bom, s->size - bom, err, sizeof err);
    if (!nb) {
        r->problem = "not a valid notebook (JSON)";
        snprintf(r->problem_detail, sizeof r->problem_detail, "%.150s", err);
        return;
    }
    const cJSON *cells = cJSON_GetObjectItemCaseSensitive(nb, "cells");
    const cJSON *sheets = cJSON_GetObjectItemCaseSensitive(nb, "worksheets");
    uint32_t k = 0;
    if (cJSON_IsArray(cells)) {
        scan_cells(cells, &k, r);
    } else if (cJSON_IsArray(sheets)) { /* nbformat 3 */
        const cJSON *ws;
        cJSON_ArrayForEach(ws, sheets)
            scan_cells(cJSON_GetObjectItemCaseSensitive(ws, "cells"), &k, r);
    } else {
        r->problem = "not a notebook: no cells";
        snprintf(r->problem_detail, sizeof r->problem_detail,
                 "neither a \"cells\" list (nbformat 4) nor \"worksheets\" (nbformat 3)");
    }
    r->cell = 0;
    cJSON_Delete(nb);
}
