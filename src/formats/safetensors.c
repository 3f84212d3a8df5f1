/* safetensors.c — the safetensors reader (safetensors.h). The header is parsed with cJSON;
 * the byte ranges are then checked together (sorted by offset, each begins where the previous
 * ended) so that no tensor's bytes are shared with or hidden from another. */
#include "formats/safetensors.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

typedef struct st_range {
    uint64_t begin, end;
    const char *name;
} st_range;

static int st_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static bool st_utf8_valid(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t k = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 9;
        if (k == 9 || n - i - 1 < k) return false;
        if (k == 1 && c < 0xc2) return false; /* overlong */
        for (size_t j = 1; j <= k; j++)
            if ((s[i + j] & 0xc0) != 0x80) return false;
        i += k + 1;
    }
    return true;
}

static gp_dtype st_dtype(const char *s)
{
    static const struct {
        const char *name;
        gp_dtype t;
    } map[] = {{"BOOL", GP_DTYPE_BOOL}, {"U8", GP_DTYPE_U8},   {"I8", GP_DTYPE_I8},
               {"I16", GP_DTYPE_I16},   {"U16", GP_DTYPE_U16}, {"F16", GP_DTYPE_F16},
               {"BF16", GP_DTYPE_BF16}, {"I32", GP_DTYPE_I32}, {"U32", GP_DTYPE_U32},
               {"F32", GP_DTYPE_F32},   {"F64", GP_DTYPE_F64}, {"I64", GP_DTYPE_I64},
               {"U64", GP_DTYPE_U64},   {"C64", GP_DTYPE_C64}, {"C128", GP_DTYPE_C128}};
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(s, map[i].name) == 0) return map[i].t;
    return GP_DTYPE_INVALID;
}

/* A JSON number that is a non-negative integer exactly representable (< 2^53). */
static bool st_uint(const cJSON *j, uint64_t *v)
{
    if (!cJSON_IsNumber(j)) return false;
    double d = j->valuedouble;
    if (!(d >= 0) || d > 9007199254740992.0 || d != (double)(uint64_t)d) return false;
    *v = (uint64_t)d;
    return true;
}

static int st_tensor(const cJSON *t, uint64_t data_len, gp_tensor_view *v, st_range *r, char *err,
                     size_t errlen)
{
    const char *name = t->string;
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(t, "dtype");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(t, "shape");
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(t, "data_offsets");
    if (!cJSON_IsObject(t) || !cJSON_IsString(dt) || !cJSON_IsArray(shape) ||
        !cJSON_IsArray(offs) || cJSON_GetArraySize(offs) != 2)
        return st_fail(err, errlen, "tensor '%s' lacks dtype, shape or data_offsets", name);
    memset(v, 0, sizeof(*v));
    v->dtype = st_dtype(dt->valuestring);
    if (v->dtype == GP_DTYPE_INVALID)
        return st_fail(err, errlen, "tensor '%s' has unsupported dtype '%.40s'", name,
                       dt->valuestring);
    int nd = cJSON_GetArraySize(shape);
    if (nd > GP_TENSOR_MAX_DIMS)
        return st_fail(err, errlen, "tensor '%s' has more than %d dimensions", name,
                       GP_TENSOR_MAX_DIMS);
    v->ndim = nd;
    for (int i = 0; i < nd; i++)
        if (!st_uint(cJSON_GetArrayItem(shape, i), &v->shape[i]))
            return st_fail(err, errlen,
                           "tensor '%s' has a shape entry that is not a "
                           "non-negative integer",
                           name);
    if (gp_tensor_view_size(v) != 0)
        return st_fail(err, errlen, "tensor '%s': shape's size overflows 64 bits", name);
    if (!st_uint(cJSON_GetArrayItem(offs, 0), &r->begin) ||
        !st_uint(cJSON_GetArrayItem(offs, 1), &r->end))
        return st_fail(err, errlen,
                       "tensor '%s' has data_offsets that are not non-negative "
                       "integers",
                       name);
    if (r->end < r->begin)
        return st_fail(err, errlen, "tensor '%s' ends (%llu) before it begins (%llu)", name,
                       (unsigned long long)r->end, (unsigned long long)r->begin);
    if (r->end - r->begin != v->nbytes)
        return st_fail(err, errlen,
                       "tensor '%s' spans %llu bytes but its shape and dtype need "
                       "%llu",
                       name, (unsigned long long)(r->end - r->begin),
                       (unsigned long long)v->nbytes);
    if (r->end > data_len)
        return st_fail(err, errlen, "tensor '%s' runs past the end of the file", name);
    r->name = name;
    return 0;
}

static int st_cmp_range(const void *a, const void *b)
{
    const st_range *x = a, *y = b;
    if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

static int st_check_ranges(st_range *r, size_t n, uint64_t data_len, char *err, size_t errlen)
{
    qsort(r, n, sizeof(*r), st_cmp_range);
    uint64_t at = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i].begin < at)
            return st_fail(err, errlen, "tensors '%s' and '%s' overlap", r[i - 1].name, r[i].name);
        if (r[i].begin > at)
            return st_fail(err, errlen, "gap of %llu bytes before tensor '%s'",
                           (unsigned long long)(r[i].begin - at), r[i].name);
        at = r[i].end;
    }
    if (at != data_len)
        return st_fail(err, errlen, "data ends at %llu but the file has %llu bytes of data",
                       (unsigned long long)at, (unsigned long long)data_len);
    return 0;
}

static int st_walk(const cJSON *root, const uint8_t *base, uint64_t data_len, gp_tensor_list *out,
                   char *err, size_t errlen)
{
    size_t n = (size_t)cJSON_GetArraySize(root);
    st_range *ranges = calloc(n ? n : 1, sizeof(*ranges));
    if (!ranges) return st_fail(err, errlen, "out of memory");
    size_t k = 0;
    int rc = 0;
    for (const cJSON *t = root->child; t && rc == 0; t = t->next) {
        if (strcmp(t->string, "__metadata__") == 0) {
            if (!cJSON_IsObject(t)) rc = st_fail(err, errlen, "__metadata__ is not an object");
            continue;
        }
        gp_tensor_view v;
        rc = st_tensor(t, data_len, &v, &ranges[k], err, errlen);
        if (rc != 0) break;
        v.data = base + ranges[k].begin;
        k++;
        if (gp_tensor_list_add(out, t->string, &v, NULL) != 0)
            rc = st_fail(err, errlen, "out of memory");
    }
    if (rc == 0) rc = st_check_ranges(ranges, k, data_len, err, errlen);
    free(ranges);
    return rc;
}

int gp_safetensors_parse(const uint8_t *data, size_t size, gp_tensor_list *out, char *err,
                         size_t errlen)
{
    if (size < 8) return st_fail(err, errlen, "file is shorter than the 8-byte header length");
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--)
        n = (n << 8) | data[i];
    if (n > GP_SAFETENSORS_MAX_HEADER)
        return st_fail(err, errlen, "header length %llu is over the limit of %llu bytes",
                       (unsigned long long)n, GP_SAFETENSORS_MAX_HEADER);
    if (n > size - 8)
        return st_fail(err, errlen,
                       "header length %llu runs past the end of the file (%zu "
                       "bytes)",
                       (unsigned long long)n, size);
    if (!st_utf8_valid(data + 8, (size_t)n))
        return st_fail(err, errlen, "header is not valid UTF-8");
    char why[512];
    cJSON *root = gp_json_parse("header", (const char *)data + 8, (size_t)n, why, sizeof(why));
    if (!root) return st_fail(err, errlen, "%s", why);
    int rc = 0;
    const char *dup;
    if (!cJSON_IsObject(root))
        rc = st_fail(err, errlen, "header is not a JSON object");
    else if (gp_json_find_duplicate_key(root, &dup))
        rc = st_fail(err, errlen, "header has the key '%s' twice", dup);
    else
        rc = st_walk(root, data + 8 + n, size - 8 - n, out, err, errlen);
    cJSON_Delete(root);
    return rc;
}
