/* compare.c — the compare run (compare.h): walks two directories in step (or takes two files),
 * opens each pair of files, pairs their tensors by name, and hands every pair to the metrics.
 * Only one pair of files is open at a time, so directories of any size fit in memory. */
#include "compare/compare.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/term.h"

#define GP_COMPARE_MAX_DEPTH 64

typedef struct name_list {
    char **v;
    size_t n, cap;
} name_list;

static int compare_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static gp_pair_result *result_add(gp_compare_result *r, const char *name, gp_pair_status st)
{
    if (r->count == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        gp_pair_result *n = realloc(r->items, cap * sizeof(*n));
        if (!n) return NULL;
        r->items = n;
        r->cap = cap;
    }
    gp_pair_result *p = &r->items[r->count];
    memset(p, 0, sizeof(*p));
    p->name = strdup(name);
    if (!p->name) return NULL;
    p->status = st;
    r->count++;
    return p;
}

static bool in_mapping(const gp_source *s, const gp_tensor_view *v)
{
    return s->map.data && v->data >= s->map.data && v->data <= s->map.data + s->map.size;
}

/* How many significant bits a float dtype has (its precision, the order of "narrower"). */
static int dtype_bits(gp_dtype t)
{
    switch (t) {
    case GP_DTYPE_BF16:
        return 8;
    case GP_DTYPE_F16:
        return 11;
    case GP_DTYPE_F32:
    case GP_DTYPE_C64:
        return 24;
    case GP_DTYPE_F64:
    case GP_DTYPE_C128:
        return 53;
    default:
        return 0;
    }
}

/* For a pair of float (or of complex) dtypes that differ: the narrower one, whose tolerance
 * applies, and the type both widen into (f16 and bf16 both fit in f32). False for any other
 * pair, which is not compared element by element. */
static bool mixed_floats(gp_dtype a, gp_dtype b, gp_dtype *narrow, gp_dtype *wide)
{
    bool real = gp_dtype_is_float(a) && gp_dtype_is_float(b);
    if (a == b || !(real || (gp_dtype_is_complex(a) && gp_dtype_is_complex(b)))) return false;
    *narrow = dtype_bits(a) <= dtype_bits(b) ? a : b;
    *wide = dtype_bits(a) > dtype_bits(b) ? a : b;
    if (dtype_bits(a) < 24 && dtype_bits(b) < 24) *wide = GP_DTYPE_F32;
    return true;
}

static int compare_pair(const char *name, const gp_source *rs, const gp_tensor_view *ref,
                        const gp_source *os, const gp_tensor_view *oth, const gp_compare_opts *o,
                        gp_compare_result *out, char *err, size_t errlen)
{
    gp_dtype narrow = GP_DTYPE_INVALID, wide = GP_DTYPE_INVALID;
    bool widen = !o->same_dtype && mixed_floats(ref->dtype, oth->dtype, &narrow, &wide);
    gp_pair_status st = ref->dtype != oth->dtype && !widen ? GP_PAIR_DTYPE_MISMATCH
                        : ref->ndim != oth->ndim ||
                                memcmp(ref->shape, oth->shape, sizeof(uint64_t) * (size_t)ref->ndim)
                            ? GP_PAIR_SHAPE_MISMATCH
                            : GP_PAIR_COMPARED;
    gp_pair_result *p = result_add(out, name, st);
    if (!p) return compare_fail(err, errlen, "out of memory");
    p->ref = *ref, p->other = *oth;
    p->ref.data = p->other.data = NULL;
    p->widened_to = widen ? wide : GP_DTYPE_INVALID;
    p->tol_dtype = widen ? narrow : GP_DTYPE_INVALID;
    gp_policy_resolve(o->policy, name, widen ? narrow : ref->dtype, &p->tol);
    if (st != GP_PAIR_COMPARED) return 0;
    gp_metrics_opts mo = {o->worst_k, o->threads, in_mapping(rs, ref) && in_mapping(os, oth), name,
                          widen ? narrow : GP_DTYPE_INVALID};
    char why[256];
    if (gp_metrics_compute(ref, oth, &p->tol, &mo, &p->m, why, sizeof(why)) != 0)
        return compare_fail(err, errlen, "%s: %s", name, why);
    p->pass = p->m.pass;
    return 0;
}

static int add_missing(gp_compare_result *out, const char *name, gp_pair_status st,
                       const gp_tensor_view *v)
{
    gp_pair_result *p = result_add(out, name, st);
    if (!p) return -1;
    if (v) {
        if (st == GP_PAIR_ONLY_IN_REF)
            p->ref = *v, p->ref.data = NULL;
        else
            p->other = *v, p->other.data = NULL;
    }
    return 0;
}

/* "prefix:tensor", "prefix", or "tensor" */
static char *pair_name(const char *prefix, const char *tensor)
{
    size_t n = strlen(prefix) + strlen(tensor) + 2;
    char *s = malloc(n);
    if (!s) return NULL;
    if (*prefix && *tensor)
        snprintf(s, n, "%s:%s", prefix, tensor);
    else
        snprintf(s, n, "%s", *prefix ? prefix : tensor);
    return s;
}

/* Pairs the tensors of two open files. A single pair is named `single`; pairs by tensor name
 * are named "prefix:tensor" (or "tensor" when prefix is empty). */
static int compare_sources(const char *prefix, const char *single, const gp_source *rs,
                           const gp_source *os, const gp_compare_opts *o, gp_compare_result *out,
                           char *err, size_t errlen)
{
    const gp_tensor_list *rl = &rs->tensors, *ol = &os->tensors;
    /* A single array on either side pairs with a single array on the other, whatever names. */
    if ((!rs->multi || !os->multi) && rl->count == 1 && ol->count == 1) {
        return compare_pair(single, rs, &rl->items[0].view, os, &ol->items[0].view, o, out, err,
                            errlen);
    }
    int rc = 0;
    for (size_t i = 0; i < rl->count && rc == 0; i++) {
        char *name = pair_name(prefix, rl->items[i].name);
        if (!name) return compare_fail(err, errlen, "out of memory");
        const gp_named_tensor *t = gp_tensor_list_find(ol, rl->items[i].name);
        if (t)
            rc = compare_pair(name, rs, &rl->items[i].view, os, &t->view, o, out, err, errlen);
        else if (add_missing(out, name, GP_PAIR_ONLY_IN_REF, &rl->items[i].view) != 0)
            rc = compare_fail(err, errlen, "out of memory");
        free(name);
    }
    for (size_t i = 0; i < ol->count && rc == 0; i++) {
        if (gp_tensor_list_find(rl, ol->items[i].name)) continue;
        char *name = pair_name(prefix, ol->items[i].name);
        if (!name || add_missing(out, name, GP_PAIR_ONLY_IN_OTHER, &ol->items[i].view) != 0)
            rc = compare_fail(err, errlen, "out of memory");
        free(name);
    }
    return rc;
}

static int compare_files(const char *pa, const char *pb, const char *prefix, const char *single,
                         const gp_compare_opts *o, gp_compare_result *out, char *err, size_t errlen)
{
    gp_source sa, sb;
    if (gp_source_open(pa, &o->source, &sa, err, errlen) != 0) return -1;
    if (gp_source_open(pb, &o->source, &sb, err, errlen) != 0) {
        gp_source_close(&sa);
        return -1;
    }
    const gp_source *rs = o->reference_is_b ? &sb : &sa, *os = o->reference_is_b ? &sa : &sb;
    int rc = compare_sources(prefix, single, rs, os, o, out, err, errlen);
    gp_source_close(&sa);
    gp_source_close(&sb);
    return rc;
}

/* --- directories ------------------------------------------------------------------------- */

static int names_add(name_list *l, const char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char **v = realloc(l->v, cap * sizeof(*v));
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    if (!(l->v[l->n] = strdup(s))) return -1;
    l->n++;
    return 0;
}

static void names_free(name_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects the regular files under root/rel (relative names); symlinked folders are not
 * followed, so a link cycle cannot loop. */
static int walk(const char *root, const char *rel, int depth, name_list *out, char *err,
                size_t errlen)
{
    if (depth > GP_COMPARE_MAX_DEPTH)
        return compare_fail(err, errlen, "%s/%s: folders nested too deeply", root, rel);
    char *dir = *rel ? gp_path_join(root, rel) : strdup(root);
    if (!dir) return compare_fail(err, errlen, "out of memory");
    char **names, why[512];
    size_t n;
    if (gp_dir_names(dir, &names, &n, why, sizeof why) != 0) {
        compare_fail(err, errlen, "%s", why);
        free(dir);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        char *r = *rel ? gp_path_join(rel, names[i]) : strdup(names[i]);
        char *full = r ? gp_path_join(root, r) : NULL;
        struct stat st;
        if (!r || !full)
            rc = compare_fail(err, errlen, "out of memory");
        else if (lstat(full, &st) != 0)
            rc = compare_fail(err, errlen, "%s: cannot stat", full);
        else if (S_ISDIR(st.st_mode))
            rc = walk(root, r, depth + 1, out, err, errlen);
        else if ((S_ISREG(st.st_mode) || (S_ISLNK(st.st_mode) && gp_path_is_file(full))) &&
                 names_add(out, r) != 0)
            rc = compare_fail(err, errlen, "out of memory");
        free(r);
        free(full);
    }
    gp_dir_names_free(names, n);
    free(dir);
    return rc;
}

static int compare_dirs(const char *a, const char *b, const gp_compare_opts *o,
                        gp_compare_result *out, char *err, size_t errlen)
{
    const char *ref = o->reference_is_b ? b : a, *oth = o->reference_is_b ? a : b;
    name_list rl = {0}, ol = {0};
    int rc = walk(ref, "", 0, &rl, err, errlen);
    if (rc == 0) rc = walk(oth, "", 0, &ol, err, errlen);
    if (rc == 0) {
        if (rl.n) qsort(rl.v, rl.n, sizeof(char *), cmp_str);
        if (ol.n) qsort(ol.v, ol.n, sizeof(char *), cmp_str);
    }
    for (size_t i = 0; rc == 0 && i < rl.n; i++) {
        if (gp_source_kind_of(rl.v[i], &o->source) == GP_SOURCE_UNKNOWN) {
            out->skipped_files++;
            continue;
        }
        if (!bsearch(&rl.v[i], ol.v, ol.n, sizeof(char *), cmp_str)) {
            if (add_missing(out, rl.v[i], GP_PAIR_ONLY_IN_REF, NULL) != 0)
                rc = compare_fail(err, errlen, "out of memory");
            continue;
        }
        gp_term_progress("compare: %zu/%zu %s", i + 1, rl.n, rl.v[i]);
        char *pa = gp_path_join(a, rl.v[i]), *pb = gp_path_join(b, rl.v[i]);
        if (!pa || !pb)
            rc = compare_fail(err, errlen, "out of memory");
        else
            rc = compare_files(pa, pb, rl.v[i], rl.v[i], o, out, err, errlen);
        free(pa);
        free(pb);
    }
    for (size_t i = 0; rc == 0 && i < ol.n; i++) {
        if (bsearch(&ol.v[i], rl.v, rl.n, sizeof(char *), cmp_str)) continue;
        if (gp_source_kind_of(ol.v[i], &o->source) == GP_SOURCE_UNKNOWN)
            out->skipped_files++;
        else if (add_missing(out, ol.v[i], GP_PAIR_ONLY_IN_OTHER, NULL) != 0)
            rc = compare_fail(err, errlen, "out of memory");
    }
    gp_term_progress_done();
    if (rc == 0 && out->count == 0)
        rc = compare_fail(err, errlen,
                          "%s and %s: no file of a known format in either folder, nothing to "
                          "compare (%zu other file%s skipped)",
                          a, b, out->skipped_files, out->skipped_files == 1 ? "" : "s");
    names_free(&rl);
    names_free(&ol);
    return rc;
}

int gp_compare_run(const char *a, const char *b, const gp_compare_opts *o_in,
                   gp_compare_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    /* One inflate budget for the run: both files of a pair draw on it (one pair is open at a
     * time), so --max-inflate bounds the memory of the whole run, not of each archive. */
    gp_compare_opts run = *o_in;
    uint64_t left = run.source.inflate_cap;
    if (!run.source.inflate_left) run.source.inflate_left = &left;
    const gp_compare_opts *o = &run;
    bool da = gp_path_is_dir(a), db = gp_path_is_dir(b);
    int rc;
    if (da != db)
        rc = compare_fail(err, errlen, "%s: is %s but %s is %s", da ? a : b, "a folder", da ? b : a,
                          "a file");
    else if (da)
        rc = compare_dirs(a, b, o, out, err, errlen);
    else {
        const char *ref = o->reference_is_b ? b : a;
        const char *base = strrchr(ref, '/');
        rc = compare_files(a, b, "", base ? base + 1 : ref, o, out, err, errlen);
    }
    out->pass = rc == 0;
    for (size_t i = 0; i < out->count; i++)
        if (!out->items[i].pass) out->pass = false;
    return rc;
}

void gp_compare_result_free(gp_compare_result *r)
{
    for (size_t i = 0; i < r->count; i++) {
        free(r->items[i].name);
        gp_metrics_free(&r->items[i].m);
    }
    free(r->items);
    memset(r, 0, sizeof(*r));
}
