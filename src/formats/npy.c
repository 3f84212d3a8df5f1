/* npy.c — parses the .npy header (npy.h): magic, version, header length, and the dict literal
 * {'descr': ..., 'fortran_order': ..., 'shape': (...)}; then checks that the data that follows
 * is exactly as long as the shape and element type say. */
#include "formats/npy.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct npy_cursor {
    const char *p;
    const char *end;
} npy_cursor;

static int npy_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static void npy_skip_space(npy_cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static bool npy_accept(npy_cursor *c, char ch)
{
    npy_skip_space(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* A quoted Python string without escapes (all that numpy writes for these keys and descrs). */
static bool npy_string(npy_cursor *c, char *out, size_t outlen)
{
    npy_skip_space(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return false;
    char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || n + 1 >= outlen) return false;
        out[n++] = *c->p++;
    }
    if (c->p >= c->end) return false;
    c->p++;
    out[n] = '\0';
    return true;
}

static bool npy_word(npy_cursor *c, const char *w)
{
    npy_skip_space(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
        c->p += n;
        return true;
    }
    return false;
}

static bool npy_uint(npy_cursor *c, uint64_t *v)
{
    npy_skip_space(c);
    if (c->p >= c->end || *c->p < '0' || *c->p > '9') return false;
    uint64_t x = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        unsigned d = (unsigned)(*c->p++ - '0');
        if (x > (UINT64_MAX - d) / 10) return false;
        x = x * 10 + d;
    }
    if (c->p < c->end && *c->p == 'L') c->p++; /* Python 2 longs */
    *v = x;
    return true;
}

static int npy_shape(npy_cursor *c, gp_tensor_view *v, char *err, size_t errlen)
{
    if (!npy_accept(c, '(')) return npy_fail(err, errlen, "'shape' is not a tuple");
    v->ndim = 0;
    while (!npy_accept(c, ')')) {
        if (v->ndim == GP_TENSOR_MAX_DIMS)
            return npy_fail(err, errlen, "more than %d dimensions", GP_TENSOR_MAX_DIMS);
        if (!npy_uint(c, &v->shape[v->ndim]))
            return npy_fail(err, errlen,
                            "'shape' holds something other than a non-negative "
                            "integer");
        v->ndim++;
        if (!npy_accept(c, ',')) {
            if (!npy_accept(c, ')')) return npy_fail(err, errlen, "'shape' tuple is malformed");
            break;
        }
    }
    return 0;
}

/* descr: byte order, kind, size: '<f4', '>i8', '|b1', '<c16', '<V2'. */
static int npy_descr(const char *d, gp_dtype void_as, gp_tensor_view *v, char *err, size_t errlen)
{
    char order = d[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        return npy_fail(err, errlen, "descr '%s' is not a simple numeric type", d);
    char kind = d[1];
    unsigned size = 0;
    const char *s = d + 2;
    if (*s == '\0') return npy_fail(err, errlen, "descr '%s' has no size", d);
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || size > 1000)
            return npy_fail(err, errlen, "descr '%s' is malformed", d);
        size = size * 10 + (unsigned)(*s - '0');
    }
    gp_dtype t = GP_DTYPE_INVALID;
    switch (kind) {
    case 'b':
        t = size == 1 ? GP_DTYPE_BOOL : t;
        break;
    case 'i':
        t = size == 1   ? GP_DTYPE_I8
            : size == 2 ? GP_DTYPE_I16
            : size == 4 ? GP_DTYPE_I32
            : size == 8 ? GP_DTYPE_I64
                        : t;
        break;
    case 'u':
        t = size == 1   ? GP_DTYPE_U8
            : size == 2 ? GP_DTYPE_U16
            : size == 4 ? GP_DTYPE_U32
            : size == 8 ? GP_DTYPE_U64
                        : t;
        break;
    case 'f':
        t = size == 2 ? GP_DTYPE_F16 : size == 4 ? GP_DTYPE_F32 : size == 8 ? GP_DTYPE_F64 : t;
        break;
    case 'c':
        t = size == 8 ? GP_DTYPE_C64 : size == 16 ? GP_DTYPE_C128 : t;
        break;
    case 'O':
        return npy_fail(err, errlen,
                        "object arrays are refused (reading them would unpickle "
                        "Python objects)");
    case 'V':
        if (void_as == GP_DTYPE_INVALID)
            return npy_fail(err, errlen,
                            "descr '%s' is raw bytes; say what they hold with "
                            "--dtype (bf16 for ml_dtypes bfloat16)",
                            d);
        if (gp_dtype_size(void_as) != size)
            return npy_fail(err, errlen, "descr '%s' has %u-byte elements, but %s has %zu", d, size,
                            gp_dtype_name(void_as), gp_dtype_size(void_as));
        t = void_as;
        break;
    default:
        break;
    }
    if (t == GP_DTYPE_INVALID)
        return npy_fail(err, errlen, "descr '%s' is not a supported numeric type", d);
    v->dtype = t;
    v->big_endian = order == '>' && size > 1;
    return 0;
}

static int npy_dict(npy_cursor *c, gp_dtype void_as, gp_tensor_view *v, char *err, size_t errlen)
{
    bool have_descr = false, have_order = false, have_shape = false;
    if (!npy_accept(c, '{')) return npy_fail(err, errlen, "header is not a dict literal");
    while (!npy_accept(c, '}')) {
        char key[32], val[64];
        if (!npy_string(c, key, sizeof(key)) || !npy_accept(c, ':'))
            return npy_fail(err, errlen, "header dict is malformed");
        if (strcmp(key, "descr") == 0 && !have_descr) {
            npy_skip_space(c);
            if (c->p < c->end && *c->p == '[')
                return npy_fail(err, errlen, "structured dtypes are not supported");
            if (!npy_string(c, val, sizeof(val)))
                return npy_fail(err, errlen, "'descr' is not a string");
            if (npy_descr(val, void_as, v, err, errlen) != 0) return -1;
            have_descr = true;
        } else if (strcmp(key, "fortran_order") == 0 && !have_order) {
            if (npy_word(c, "True"))
                v->fortran = true;
            else if (npy_word(c, "False"))
                v->fortran = false;
            else
                return npy_fail(err, errlen, "'fortran_order' is not True or False");
            have_order = true;
        } else if (strcmp(key, "shape") == 0 && !have_shape) {
            if (npy_shape(c, v, err, errlen) != 0) return -1;
            have_shape = true;
        } else {
            return npy_fail(err, errlen, "header has an unexpected or repeated key '%s'", key);
        }
        if (!npy_accept(c, ',')) {
            if (!npy_accept(c, '}')) return npy_fail(err, errlen, "header dict is malformed");
            break;
        }
    }
    npy_skip_space(c);
    if (c->p != c->end) return npy_fail(err, errlen, "header has bytes after the dict");
    if (!have_descr || !have_order || !have_shape)
        return npy_fail(err, errlen, "header lacks '%s'",
                        !have_descr   ? "descr"
                        : !have_order ? "fortran_order"
                                      : "shape");
    return 0;
}

int gp_npy_parse(const uint8_t *data, size_t size, gp_dtype void_as, gp_tensor_view *out, char *err,
                 size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (size < 10 || memcmp(data, "\x93NUMPY", 6) != 0)
        return npy_fail(err, errlen, "not a .npy file (no \\x93NUMPY magic)");
    unsigned major = data[6];
    size_t hlen, start;
    if (major == 1) {
        hlen = (size_t)data[8] | ((size_t)data[9] << 8);
        start = 10;
    } else if (major == 2 || major == 3) {
        if (size < 12) return npy_fail(err, errlen, "file is truncated in its preamble");
        hlen = (size_t)data[8] | ((size_t)data[9] << 8) | ((size_t)data[10] << 16) |
               ((size_t)data[11] << 24);
        start = 12;
    } else {
        return npy_fail(err, errlen, "unsupported .npy version %u.%u", major, data[7]);
    }
    if (hlen > GP_NPY_MAX_HEADER)
        return npy_fail(err, errlen, "header length %zu is over the limit of %d bytes", hlen,
                        GP_NPY_MAX_HEADER);
    if (hlen > size - start)
        return npy_fail(err, errlen,
                        "header length %zu runs past the end of the file (%zu "
                        "bytes)",
                        hlen, size);
    npy_cursor c = {(const char *)data + start, (const char *)data + start + hlen};
    if (npy_dict(&c, void_as, out, err, errlen) != 0) return -1;
    if (gp_tensor_view_size(out) != 0)
        return npy_fail(err, errlen, "shape's element count overflows 64 bits");
    uint64_t have = size - start - hlen;
    if (have != out->nbytes)
        return npy_fail(err, errlen, "data is %llu bytes but the shape needs %llu (%s)",
                        (unsigned long long)have, (unsigned long long)out->nbytes,
                        have < out->nbytes ? "truncated" : "trailing bytes");
    out->data = data + start + hlen;
    if (out->ndim <= 1) out->fortran = false;
    return 0;
}
