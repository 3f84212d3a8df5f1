/* notebook.c — Jupyter notebooks: the JSON (through cJSON, size-capped by the caller) is
 * parsed, each code cell's source is joined into one buffer and scanned as Python with the cell
 * number recorded, so findings point at cell N, line M. Shell and magic lines (`!`, `%`) are
 * blanked first. Each finding also gets its place in the .ipynb file itself (for SARIF, whose
 * viewers open the file): a second, position-keeping walk over the JSON text finds the cell's
 * source strings and follows their escapes to the finding's line and column. */
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

/* ---- places in the JSON text ---------------------------------------------------------------
 * The text was accepted by cJSON, so the walk may assume its shape; it still never reads out of
 * bounds. Offsets are into d[0, n). */

typedef struct nb_text {
    const char *d;
    size_t n;
} nb_text;

static size_t nb_ws(const nb_text *t, size_t p)
{
    while (p < t->n && (t->d[p] == ' ' || t->d[p] == '\t' || t->d[p] == '\n' || t->d[p] == '\r'))
        p++;
    return p;
}

/* At a '"': the offset after the closing quote. */
static size_t nb_string_end(const nb_text *t, size_t p)
{
    for (p++; p < t->n && t->d[p] != '"'; p++)
        if (t->d[p] == '\\') p++;
    return p < t->n ? p + 1 : t->n;
}

/* The offset after the value at p (string, number, literal, object or array). */
static size_t nb_value_end(const nb_text *t, size_t p)
{
    if (p >= t->n) return t->n;
    if (t->d[p] == '"') return nb_string_end(t, p);
    if (t->d[p] != '{' && t->d[p] != '[') {
        while (p < t->n && !strchr(",}] \t\r\n", t->d[p]))
            p++;
        return p;
    }
    int depth = 0;
    while (p < t->n) {
        char c = t->d[p];
        if (c == '"') {
            p = nb_string_end(t, p);
            continue;
        }
        if (c == '{' || c == '[') depth++;
        if ((c == '}' || c == ']') && --depth == 0) return p + 1;
        p++;
    }
    return t->n;
}

/* In the object at p: the offset of the value of its first member named `key`, or 0. */
static size_t nb_member(const nb_text *t, size_t p, const char *key)
{
    size_t k = strlen(key);
    p = nb_ws(t, p);
    if (p >= t->n || t->d[p] != '{') return 0;
    p = nb_ws(t, p + 1);
    while (p < t->n && t->d[p] == '"') {
        size_t e = nb_string_end(t, p);
        bool hit = e - p - 2 == k && memcmp(t->d + p + 1, key, k) == 0;
        p = nb_ws(t, e);
        if (p >= t->n || t->d[p] != ':') return 0;
        p = nb_ws(t, p + 1);
        if (hit) return p;
        p = nb_ws(t, nb_value_end(t, p));
        if (p < t->n && t->d[p] == ',') p = nb_ws(t, p + 1);
    }
    return 0;
}

/* The source values of the cells, indexed by cell number as scan_cells counts them (0: none):
 * *out is allocated, *count set. */
static size_t *nb_cell_sources(const nb_text *t, size_t top, uint32_t *count)
{
    size_t lists[64];
    size_t nl = 0;
    *count = 0;
    size_t cells = nb_member(t, top, "cells");
    if (cells && t->d[cells] == '[') {
        lists[nl++] = cells;
    } else {
        size_t ws = nb_member(t, top, "worksheets");
        if (!ws || t->d[ws] != '[') return NULL;
        for (size_t p = nb_ws(t, ws + 1); p < t->n && t->d[p] != ']' && nl < 64;) {
            size_t c = nb_member(t, p, "cells");
            if (c && t->d[c] == '[') lists[nl++] = c;
            size_t e = nb_value_end(t, p);
            if (e <= p) break; /* a stray '}' where a value belongs: the rest is not read */
            p = nb_ws(t, e);
            if (p < t->n && t->d[p] == ',') p = nb_ws(t, p + 1);
        }
    }
    size_t cap = 16, n = 1;
    size_t *out = calloc(cap, sizeof *out);
    for (size_t l = 0; l < nl && out; l++)
        for (size_t p = nb_ws(t, lists[l] + 1); p < t->n && t->d[p] != ']';) {
            if (n == cap) {
                size_t *no = realloc(out, cap * 2 * sizeof *no);
                if (!no) {
                    free(out);
                    return NULL;
                }
                out = no;
                cap *= 2;
            }
            size_t e = nb_value_end(t, p);
            if (e <= p) break; /* a stray '}' where a cell belongs: the rest is not read */
            size_t src = nb_member(t, p, "source");
            out[n++] = src ? src : nb_member(t, p, "input");
            p = nb_ws(t, e);
            if (p < t->n && t->d[p] == ',') p = nb_ws(t, p + 1);
        }
    *count = out ? (uint32_t)(n - 1) : 0;
    return out;
}

/* One code point of a JSON string's text at p (an escape or a UTF-8 sequence): its length in
 * the JSON text; *nl: it is a newline. */
static size_t nb_char(const nb_text *t, size_t p, bool *nl)
{
    *nl = false;
    const char *d = t->d;
    if (d[p] != '\\') {
        size_t k = gp_audit_utf8_len((const unsigned char *)d + p, t->n - p);
        return k ? k : 1;
    }
    if (p + 1 >= t->n) return 1;
    if (d[p + 1] == 'n') *nl = true;
    if (d[p + 1] != 'u') return 2;
    /* \uXXXX, a surrogate pair \uD8xx\uDCxx being one code point */
    if (p + 11 < t->n && (d[p + 2] | 0x20) == 'd' && strchr("89abAB", d[p + 3]) &&
        d[p + 6] == '\\' && d[p + 7] == 'u')
        return 12;
    return p + 6 <= t->n ? 6 : t->n - p;
}

/* A walk through one cell's source strings: where it is in the JSON text and in the source. */
typedef struct nb_cursor {
    size_t p;       /* the next byte of the JSON text (inside a string, or between elements) */
    size_t str_end; /* the closing quote of the string p is in, or 0 between strings */
    bool array;     /* the source is a list of strings */
    uint32_t line, col;
} nb_cursor;

static void nb_cursor_start(const nb_text *t, size_t v, nb_cursor *c)
{
    c->array = t->d[v] == '[';
    c->p = c->array ? nb_ws(t, v + 1) : v;
    c->str_end = 0;
    c->line = c->col = 1;
}

/* Moves the cursor to (line, col) of the source; false when the source ends first. */
static bool nb_cursor_seek(const nb_text *t, nb_cursor *c, uint32_t line, uint32_t col)
{
    while (c->p < t->n) {
        if (!c->str_end) { /* between elements: to the next string */
            if (t->d[c->p] == ']') return false;
            if (t->d[c->p] != '"') {
                size_t e = nb_value_end(t, c->p); /* not part of the source */
                if (e <= c->p) return false;      /* a stray '}': the source ends there */
                c->p = e;
            } else {
                c->str_end = nb_string_end(t, c->p) - 1;
                c->p++;
                continue;
            }
        } else {
            if (c->line == line && c->col == col) return true;
            if (c->p < c->str_end) {
                bool nl;
                c->p += nb_char(t, c->p, &nl);
                if (nl) {
                    c->line++;
                    c->col = 1;
                } else {
                    c->col++;
                }
                continue;
            }
            c->p = c->str_end + 1;
            c->str_end = 0;
        }
        if (!c->array) return false;
        c->p = nb_ws(t, c->p);
        if (c->p < t->n && t->d[c->p] == ',') c->p = nb_ws(t, c->p + 1);
    }
    return false;
}

/* The line and column (code points from 1) of offset p in the file. */
static void nb_file_place(const nb_text *t, size_t p, uint32_t *line, uint32_t *col)
{
    uint32_t l = 1;
    size_t ls = 0;
    for (const char *q = t->d; (q = memchr(q, '\n', (size_t)(t->d + p - q))) != NULL; q++) {
        l++;
        ls = (size_t)(q - t->d) + 1;
    }
    uint32_t c = 1;
    for (size_t q = ls; q < p; q++)
        if (((unsigned char)t->d[q] & 0xc0) != 0x80) c++;
    *line = l;
    *col = c;
}

/* Gives the findings from nf0 on their places in the file (findings come in order within a
 * cell, so each cell is walked once unless one goes back). */
static void nb_places(const nb_text *t, gp_audit_result *r, size_t nf0)
{
    uint32_t ncells;
    size_t *src = nb_cell_sources(t, nb_ws(t, 0), &ncells);
    if (!src) return;
    nb_cursor c = {0, 0, false, 0, 0};
    uint32_t cur_cell = 0;
    for (size_t i = nf0; i < r->nf; i++) {
        gp_audit_finding *f = &r->f[i];
        if (!f->cell || f->cell > ncells || !src[f->cell]) continue;
        if (f->cell != cur_cell || f->line < c.line || (f->line == c.line && f->col < c.col)) {
            nb_cursor_start(t, src[f->cell], &c);
            cur_cell = f->cell;
        }
        if (nb_cursor_seek(t, &c, f->line, f->col))
            nb_file_place(t, c.p, &f->file_line, &f->file_col);
        else
            cur_cell = 0;
    }
    free(src);
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
    size_t nf0 = r->nf;
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
    nb_text t = {s->data + bom, s->size - bom};
    nb_places(&t, r, nf0);
}
