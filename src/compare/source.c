/* source.c — opens one compare input (source.h): maps the file, picks the reader from the name
 * (or the npy/zip magic), and hands back named tensor views. Single-array files get the name
 * "" and are paired with whatever single array the other side holds. */
#include "compare/source.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/csv.h"
#include "formats/npy.h"
#include "formats/npz.h"
#include "formats/safetensors.h"

static int source_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

gp_source_kind gp_source_kind_of(const char *path, const gp_source_opts *o)
{
    if (ends_with(path, ".npy")) return GP_SOURCE_NPY;
    if (ends_with(path, ".npz")) return GP_SOURCE_NPZ;
    if (ends_with(path, ".safetensors")) return GP_SOURCE_SAFETENSORS;
    if (ends_with(path, ".csv")) return GP_SOURCE_CSV;
    if (ends_with(path, ".tsv") || ends_with(path, ".tab")) return GP_SOURCE_TSV;
    if (o->dtype != GP_DTYPE_INVALID) return GP_SOURCE_RAW;
    return GP_SOURCE_UNKNOWN;
}

static int source_raw(const gp_source_opts *o, const gp_mapped_file *m, gp_tensor_view *v,
                      char *err, size_t errlen)
{
    memset(v, 0, sizeof(*v));
    v->dtype = o->dtype;
    size_t es = gp_dtype_size(o->dtype);
    if (o->ndim < 0) {
        if (m->size % es != 0)
            return source_fail(err, errlen, "%zu bytes is not a whole number of %s elements",
                               m->size, gp_dtype_name(o->dtype));
        v->ndim = 1;
        v->shape[0] = m->size / es;
    } else {
        v->ndim = o->ndim;
        memcpy(v->shape, o->shape, sizeof(v->shape));
    }
    if (gp_tensor_view_size(v) != 0) return source_fail(err, errlen, "--shape overflows 64 bits");
    if (v->nbytes != m->size)
        return source_fail(err, errlen, "file has %zu bytes but --shape and --dtype need %llu",
                           m->size, (unsigned long long)v->nbytes);
    v->data = m->data;
    return 0;
}

static int source_parse(gp_source *s, const gp_source_opts *o, char *err, size_t errlen)
{
    const uint8_t *d = s->map.data;
    size_t n = s->map.size;
    gp_tensor_view v;
    void *owned = NULL;
    switch (s->kind) {
    case GP_SOURCE_NPY:
        if (gp_npy_parse(d, n, o->dtype, &v, err, errlen) != 0) return -1;
        break;
    case GP_SOURCE_NPZ: {
        s->multi = true;
        uint64_t own = o->inflate_cap, *left = o->inflate_left ? o->inflate_left : &own;
        uint64_t before = *left;
        int rc = gp_npz_parse(d, n, o->dtype, left, &s->tensors, err, errlen);
        s->inflated = before - *left;
        s->inflate_left = o->inflate_left;
        if (rc != 0 && o->inflate_left && before < o->inflate_cap) {
            size_t l = strlen(err);
            snprintf(err + l, errlen - l,
                     "; --max-inflate (%llu bytes) holds for the whole run, and the other file of "
                     "this pair holds %llu of them",
                     (unsigned long long)o->inflate_cap,
                     (unsigned long long)(o->inflate_cap - before));
        }
        return rc;
    }
    case GP_SOURCE_SAFETENSORS:
        s->multi = true;
        return gp_safetensors_parse(d, n, &s->tensors, err, errlen);
    case GP_SOURCE_CSV:
    case GP_SOURCE_TSV:
        if (gp_csv_parse(d, n, s->kind == GP_SOURCE_CSV ? ',' : '\t', &v, &owned, err, errlen) != 0)
            return -1;
        break;
    case GP_SOURCE_RAW:
        if (source_raw(o, &s->map, &v, err, errlen) != 0) return -1;
        break;
    default:
        return source_fail(err, errlen, "unknown file type");
    }
    if (gp_tensor_list_add(&s->tensors, "", &v, owned) != 0)
        return source_fail(err, errlen, "out of memory");
    return 0;
}

int gp_source_open(const char *path, const gp_source_opts *o, gp_source *out, char *err,
                   size_t errlen)
{
    memset(out, 0, sizeof(*out));
    out->map.fd = -1;
    char why[1024];
    if (gp_map_file(path, &out->map, why, sizeof(why)) != 0)
        return source_fail(err, errlen, "%s", why);
    out->kind = gp_source_kind_of(path, o);
    if (out->kind == GP_SOURCE_UNKNOWN || out->kind == GP_SOURCE_RAW) {
        /* The content may still say what it is. */
        if (out->map.size >= 6 && memcmp(out->map.data, "\x93NUMPY", 6) == 0)
            out->kind = GP_SOURCE_NPY;
        else if (out->map.size >= 4 && memcmp(out->map.data, "PK\x03\x04", 4) == 0)
            out->kind = GP_SOURCE_NPZ;
    }
    if (out->kind == GP_SOURCE_UNKNOWN) {
        gp_source_close(out);
        return source_fail(err, errlen,
                           "%s: unknown file type (not .npy, .npz, .safetensors, "
                           ".csv or .tsv; give --dtype and --shape for raw binary)",
                           path);
    }
    if (source_parse(out, o, why, sizeof(why)) != 0) {
        gp_source_close(out);
        return source_fail(err, errlen, "%s: %s", path, why);
    }
    return 0;
}

void gp_source_close(gp_source *s)
{
    if (s->inflate_left) *s->inflate_left += s->inflated;
    gp_tensor_list_free(&s->tensors);
    if (s->map.data || s->map.fd >= 0) gp_unmap_file(&s->map);
    memset(s, 0, sizeof(*s));
    s->map.fd = -1;
}
