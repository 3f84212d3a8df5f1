/* diff.c — what differs between two manifests, and whether it can change results. Both manifests
 * are flattened into sorted (area, key, value) rows and merged in one pass; data files are keyed
 * by path so that a changed hash shows as one row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "freeze/freeze.h"
#include "util/strbuf.h"

typedef struct row {
    char *area, *key, *value;
} row;

typedef struct rows {
    row *r;
    size_t n, cap;
} rows;

static void rows_add(rows *rs, const char *area, const char *key, const char *value)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 128;
        row *p = realloc(rs->r, cap * sizeof *p);
        if (!p) return;
        rs->r = p;
        rs->cap = cap;
    }
    rs->r[rs->n].area = strdup(area);
    rs->r[rs->n].key = strdup(key);
    rs->r[rs->n].value = strdup(value);
    rs->n++;
}

static char *scalar_text(const cJSON *v)
{
    if (cJSON_IsString(v)) return strdup(v->valuestring);
    if (cJSON_IsBool(v)) return strdup(cJSON_IsTrue(v) ? "true" : "false");
    if (cJSON_IsNull(v)) return strdup("null");
    if (cJSON_IsNumber(v)) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
        return strdup(buf);
    }
    return cJSON_PrintUnformatted(v); /* arrays of scalars: compared as a whole */
}

static void flatten(rows *rs, const char *area, const char *prefix, const cJSON *v)
{
    if (cJSON_IsObject(v)) {
        const cJSON *c;
        cJSON_ArrayForEach(c, v)
        {
            gp_strbuf k = GP_STRBUF_INIT;
            if (prefix[0]) gp_strbuf_printf(&k, "%s.", prefix);
            gp_strbuf_puts(&k, c->string ? c->string : "");
            flatten(rs, area, gp_strbuf_cstr(&k), c);
            gp_strbuf_free(&k);
        }
        return;
    }
    char *t = scalar_text(v);
    if (t) rows_add(rs, area, prefix[0] ? prefix : "(value)", t);
    free(t);
}

static int cmp_rows(const void *a, const void *b)
{
    const row *x = a, *y = b;
    int c = strcmp(x->area, y->area);
    return c ? c : strcmp(x->key, y->key);
}

static void manifest_rows(const cJSON *m, rows *rs)
{
    const cJSON *top;
    cJSON_ArrayForEach(top, m)
    {
        const char *area = top->string;
        if (!area || strcmp(area, "schema") == 0 || strcmp(area, "created") == 0) continue;
        if (strcmp(area, "data") == 0) {
            const cJSON *d;
            cJSON_ArrayForEach(d, top)
            {
                const cJSON *p = cJSON_GetObjectItemCaseSensitive(d, "path");
                const cJSON *h = cJSON_GetObjectItemCaseSensitive(d, "sha256");
                const cJSON *s = cJSON_GetObjectItemCaseSensitive(d, "size");
                if (!cJSON_IsString(p) || !cJSON_IsString(h) || !cJSON_IsNumber(s)) continue;
                char val[128];
                snprintf(val, sizeof val, "sha256 %s, %.0f bytes", h->valuestring, s->valuedouble);
                rows_add(rs, "data", p->valuestring, val);
            }
            continue;
        }
        flatten(rs, area, "", top);
    }
    if (rs->n) qsort(rs->r, rs->n, sizeof *rs->r, cmp_rows);
}

/* Rows that describe where or when, not what was computed. */
static bool row_matters(const char *area, const char *key)
{
    static const char *const info[][2] = {
        {"host", "hostname"},     {"host", "memory_bytes"}, {"host", "kernel_release"},
        {"gpuport", "(value)"},   {"git", "root"},          {"git", "changed_files"},
        {"python", "executable"}, {"python", "prefix"},     {"python", "path"},
        {"conda", "prefix"},      {"python", "reason"},     {"conda", "reason"},
        {"git", "reason"},
    };
    for (size_t i = 0; i < sizeof info / sizeof info[0]; i++)
        if (strcmp(area, info[i][0]) == 0 && strcmp(key, info[i][1]) == 0) return false;
    /* gpuport's own settings that only say where things are, not what is computed */
    static const char *const where[] = {"GPUPORT_CONFIG_DIR", "GPUPORT_SSH_CONFIG",
                                        "GPUPORT_BUILD_DIR",  "GPUPORT_CACHE_DIR",
                                        "GPUPORT_LOG",        "GPUPORT_SYSROOT"};
    if (strcmp(area, "environment") == 0)
        for (size_t i = 0; i < sizeof where / sizeof where[0]; i++)
            if (strcmp(key, where[i]) == 0) return false;
    return true;
}

static void rows_free(rows *rs)
{
    for (size_t i = 0; i < rs->n; i++) {
        free(rs->r[i].area);
        free(rs->r[i].key);
        free(rs->r[i].value);
    }
    free(rs->r);
}

static int add_change(gp_freeze_diff *d, size_t *cap, const row *ra, const row *rb)
{
    if (d->count == *cap) {
        size_t c = *cap ? *cap * 2 : 32;
        gp_freeze_change *p = realloc(d->changes, c * sizeof *p);
        if (!p) return -1;
        d->changes = p;
        *cap = c;
    }
    const row *r = ra ? ra : rb;
    gp_freeze_change *ch = &d->changes[d->count++];
    ch->area = strdup(r->area);
    ch->key = strdup(r->key);
    ch->a = ra ? strdup(ra->value) : NULL;
    ch->b = rb ? strdup(rb->value) : NULL;
    ch->matters = row_matters(r->area, r->key);
    return 0;
}

int gp_freeze_diff_compute(const cJSON *a, const cJSON *b, gp_freeze_diff *out)
{
    memset(out, 0, sizeof *out);
    rows ra = {0}, rb = {0};
    manifest_rows(a, &ra);
    manifest_rows(b, &rb);
    size_t i = 0, j = 0, cap = 0;
    int rc = 0;
    while ((i < ra.n || j < rb.n) && rc == 0) {
        int c = i >= ra.n ? 1 : j >= rb.n ? -1 : cmp_rows(&ra.r[i], &rb.r[j]);
        if (c < 0)
            rc = add_change(out, &cap, &ra.r[i++], NULL);
        else if (c > 0)
            rc = add_change(out, &cap, NULL, &rb.r[j++]);
        else {
            if (strcmp(ra.r[i].value, rb.r[j].value) != 0)
                rc = add_change(out, &cap, &ra.r[i], &rb.r[j]);
            i++, j++;
        }
    }
    rows_free(&ra);
    rows_free(&rb);
    return rc;
}

void gp_freeze_diff_free(gp_freeze_diff *d)
{
    for (size_t i = 0; i < d->count; i++) {
        free(d->changes[i].area);
        free(d->changes[i].key);
        free(d->changes[i].a);
        free(d->changes[i].b);
    }
    free(d->changes);
    d->changes = NULL;
    d->count = 0;
}

cJSON *gp_freeze_diff_json(const gp_freeze_diff *d, const char *path_a, const char *path_b)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", "gpuport.freeze-diff/1");
    cJSON_AddStringToObject(o, "a", path_a);
    cJSON_AddStringToObject(o, "b", path_b);
    size_t matters = 0;
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < d->count; i++) {
        const gp_freeze_change *c = &d->changes[i];
        matters += c->matters;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "area", c->area);
        cJSON_AddStringToObject(e, "key", c->key);
        if (c->a)
            cJSON_AddStringToObject(e, "a", c->a);
        else
            cJSON_AddNullToObject(e, "a");
        if (c->b)
            cJSON_AddStringToObject(e, "b", c->b);
        else
            cJSON_AddNullToObject(e, "b");
        cJSON_AddBoolToObject(e, "matters", c->matters);
        cJSON_AddItemToArray(arr, e);
    }
    cJSON_AddBoolToObject(o, "same", matters == 0);
    cJSON_AddNumberToObject(o, "differences_that_matter", (double)matters);
    cJSON_AddItemToObject(o, "changes", arr);
    return o;
}
