/* diff.c — what differs between two manifests, and whether it can change results. The small areas
 * are flattened into sorted (area, key, value) rows and merged in one pass; the data lists (which
 * may hold hundreds of thousands of files) stay in their compact tables, are sorted by path and
 * merged the same way, so that a changed hash shows as one row and nothing is copied but the
 * changes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "freeze/collect.h"
#include "freeze/freeze.h"
#include "util/json.h"
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
        if (!area || strcmp(area, "schema") == 0 || strcmp(area, "created") == 0 ||
            strcmp(area, "data") == 0)
            continue;
        flatten(rs, area, "", top);
    }
    if (rs->n) qsort(rs->r, rs->n, sizeof *rs->r, cmp_rows);
}

/* Rows that describe where or when, not what was computed. */
static bool row_matters(const char *area, const char *key)
{
    static const char *const info[][2] = {
        {"host", "hostname"},
        {"host", "memory_bytes"},
        {"host", "kernel_release"},
        {"gpuport", "(value)"},
        {"git", "root"},
        {"git", "changed_files"},
        {"python", "executable"},
        {"python", "prefix"},
        {"python", "path"},
        {"conda", "prefix"},
        {"python", "reason"},
        {"conda", "reason"},
        {"git", "reason"},
        /* which Slurm job and node ran it: every rerun has a new job id */
        {"slurm", "job_id"},
        {"slurm", "step_id"},
        {"slurm", "job_name"},
        {"slurm", "node"},
        {"slurm", "nodelist"},
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

static gp_freeze_change *new_change(gp_freeze_diff *d, size_t *cap)
{
    if (d->count == *cap) {
        size_t c = *cap ? *cap * 2 : 32;
        gp_freeze_change *p = realloc(d->changes, c * sizeof *p);
        if (!p) return NULL;
        d->changes = p;
        *cap = c;
    }
    gp_freeze_change *ch = &d->changes[d->count++];
    memset(ch, 0, sizeof *ch);
    return ch;
}

static int add_change(gp_freeze_diff *d, size_t *cap, const row *ra, const row *rb)
{
    gp_freeze_change *ch = new_change(d, cap);
    if (!ch) return -1;
    const row *r = ra ? ra : rb;
    ch->area = strdup(r->area);
    ch->key = strdup(r->key);
    ch->a = ra ? strdup(ra->value) : NULL;
    ch->b = rb ? strdup(rb->value) : NULL;
    ch->matters = row_matters(r->area, r->key);
    return 0;
}

/* "sha256 <hex>, N bytes": how a data entry reads in a change. */
static char *file_value(const gp_freeze_file *f)
{
    static const char digits[] = "0123456789abcdef";
    char hex[65], buf[128];
    for (size_t i = 0; i < 32; i++) {
        hex[2 * i] = digits[f->sha256[i] >> 4];
        hex[2 * i + 1] = digits[f->sha256[i] & 15];
    }
    hex[64] = '\0';
    snprintf(buf, sizeof buf, "sha256 %s, %.0f bytes", hex, f->size);
    return strdup(buf);
}

static int add_file_change(gp_freeze_diff *d, size_t *cap, const gp_freeze_manifest *ma,
                           const gp_freeze_file *fa, const gp_freeze_manifest *mb,
                           const gp_freeze_file *fb)
{
    gp_freeze_change *ch = new_change(d, cap);
    if (!ch) return -1;
    ch->area = strdup("data");
    ch->key = strdup(fa ? ma->paths + fa->path : mb->paths + fb->path);
    ch->a = fa ? file_value(fa) : NULL;
    ch->b = fb ? file_value(fb) : NULL;
    ch->matters = true;
    return !ch->area || !ch->key || (fa && !ch->a) || (fb && !ch->b) ? -1 : 0;
}

typedef struct file_ref {
    const char *path;
    const gp_freeze_file *f;
} file_ref;

static int cmp_file(const void *x, const void *y)
{
    const file_ref *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    return c ? c : (a->f > b->f) - (a->f < b->f); /* ties in table order */
}

/* The files of m in path order (free() it). */
static file_ref *sorted_files(const gp_freeze_manifest *m)
{
    file_ref *o = malloc((m->nfiles ? m->nfiles : 1) * sizeof *o);
    if (!o) return NULL;
    bool sorted = true; /* a manifest of one data folder usually is */
    for (size_t i = 0; i < m->nfiles; i++) {
        o[i] = (file_ref){m->paths + m->files[i].path, &m->files[i]};
        if (i && sorted && cmp_file(&o[i - 1], &o[i]) > 0) sorted = false;
    }
    if (!sorted) qsort(o, m->nfiles, sizeof *o, cmp_file);
    return o;
}

static bool same_file(const gp_freeze_file *a, const gp_freeze_file *b)
{
    return a->size == b->size && memcmp(a->sha256, b->sha256, 32) == 0;
}

/* The data lists' changes, in path order, appended to d. */
static int diff_files(const gp_freeze_manifest *a, const gp_freeze_manifest *b, gp_freeze_diff *d,
                      size_t *cap)
{
    file_ref *oa = sorted_files(a), *ob = sorted_files(b);
    int rc = oa && ob ? 0 : -1;
    size_t i = 0, j = 0;
    while (rc == 0 && (i < a->nfiles || j < b->nfiles)) {
        const gp_freeze_file *fa = i < a->nfiles ? oa[i].f : NULL;
        const gp_freeze_file *fb = j < b->nfiles ? ob[j].f : NULL;
        int c = !fa ? 1 : !fb ? -1 : strcmp(oa[i].path, ob[j].path);
        if (c < 0) {
            rc = add_file_change(d, cap, a, fa, b, NULL);
            i++;
        } else if (c > 0) {
            rc = add_file_change(d, cap, a, NULL, b, fb);
            j++;
        } else {
            if (!same_file(fa, fb)) rc = add_file_change(d, cap, a, fa, b, fb);
            i++, j++;
        }
    }
    free(oa);
    free(ob);
    return rc;
}

int gp_freeze_diff_manifests(const gp_freeze_manifest *a, const gp_freeze_manifest *b,
                             gp_freeze_diff *out)
{
    memset(out, 0, sizeof *out);
    rows ra = {0}, rb = {0};
    manifest_rows(a->rest, &ra);
    manifest_rows(b->rest, &rb);
    size_t i = 0, j = 0, cap = 0;
    int rc = 0;
    bool data_done = false;
    while ((i < ra.n || j < rb.n || !data_done) && rc == 0) {
        /* the data area takes its place among the others, in area order */
        const char *next = i < ra.n && (j >= rb.n || cmp_rows(&ra.r[i], &rb.r[j]) <= 0)
                               ? ra.r[i].area
                           : j < rb.n ? rb.r[j].area
                                      : NULL;
        if (!data_done && (!next || strcmp("data", next) < 0)) {
            rc = diff_files(a, b, out, &cap);
            data_done = true;
            continue;
        }
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
    if (rc != 0) gp_freeze_diff_free(out);
    return rc;
}

/* A validated cJSON manifest as a gp_freeze_manifest: the data list copied into the table, the
 * rest referenced (not copied). */
static int manifest_of_json(const cJSON *j, gp_freeze_manifest *m)
{
    memset(m, 0, sizeof *m);
    if (!(m->rest = cJSON_CreateObject())) return -1;
    const cJSON *top;
    cJSON_ArrayForEach(top, j)
    {
        if (!top->string) continue;
        if (strcmp(top->string, "data") != 0) {
            if (!cJSON_AddItemReferenceToObject(m->rest, top->string, (cJSON *)top)) return -1;
            continue;
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, top)
        {
            const char *p = gp_json_str(d, "path", NULL), *h = gp_json_str(d, "sha256", NULL);
            const cJSON *s = cJSON_GetObjectItemCaseSensitive(d, "size");
            unsigned char sha[32];
            if (!p || !h || !cJSON_IsNumber(s) || !gp_freeze_sha256_from_hex(h, strlen(h), sha))
                continue;
            if (gp_freeze_add_file(m, p, strlen(p), s->valuedouble, sha) != 0) return -1;
        }
    }
    return 0;
}

int gp_freeze_diff_compute(const cJSON *a, const cJSON *b, gp_freeze_diff *out)
{
    gp_freeze_manifest ma, mb;
    int rc = manifest_of_json(a, &ma);
    if (manifest_of_json(b, &mb) != 0) rc = -1;
    if (rc == 0)
        rc = gp_freeze_diff_manifests(&ma, &mb, out);
    else
        memset(out, 0, sizeof *out);
    gp_freeze_manifest_free(&ma);
    gp_freeze_manifest_free(&mb);
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
