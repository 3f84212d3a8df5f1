/* csv.c — the CSV/TSV reader (csv.h). Two passes over the text: the first counts rows and
 * columns (so the value array is allocated once, exactly), the second converts the fields. */
#include "formats/csv.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct csv_line {
    const char *p;
    size_t len;
} csv_line;

static int csv_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Takes the next line from [*pos, size); false at the end. Strips "\r". */
static bool csv_next_line(const char *d, size_t size, size_t *pos, csv_line *l)
{
    if (*pos >= size) return false;
    const char *s = d + *pos;
    const char *nl = memchr(s, '\n', size - *pos);
    size_t len = nl ? (size_t)(nl - s) : size - *pos;
    *pos += len + (nl ? 1 : 0);
    if (len > 0 && s[len - 1] == '\r') len--;
    l->p = s;
    l->len = len;
    return true;
}

static bool csv_line_blank(const csv_line *l)
{
    for (size_t i = 0; i < l->len; i++)
        if (!isspace((unsigned char)l->p[i])) return l->p[i] == '#';
    return true;
}

/* Parses one field [p, p+n) as a number; whitespace around it is allowed. */
static bool csv_number(const char *p, size_t n, double *v)
{
    while (n > 0 && isspace((unsigned char)*p))
        p++, n--;
    while (n > 0 && isspace((unsigned char)p[n - 1]))
        n--;
    if (n == 0 || n >= 64) return false;
    char buf[64];
    memcpy(buf, p, n);
    buf[n] = '\0';
    char *end;
    *v = strtod(buf, &end);
    if (*end != '\0') return false;
    /* strtod accepts hex floats and "infinity"; accept them too, they are numbers. */
    return true;
}

/* Calls back per field; returns the number of fields, or -1 when a field is not a number
 * (with *bad set to its 1-based position). `vals` may be NULL (counting only). */
static long csv_fields(const csv_line *l, char sep, double *vals, long *bad)
{
    long k = 0;
    size_t start = 0;
    for (size_t i = 0; i <= l->len; i++) {
        if (i < l->len && l->p[i] != sep) continue;
        double v;
        if (!csv_number(l->p + start, i - start, &v)) {
            *bad = k + 1;
            return -1;
        }
        if (vals) vals[k] = v;
        k++;
        start = i + 1;
    }
    return k;
}

/* A header row names its columns: every field is non-empty text that is not a number. */
static bool csv_is_header(const csv_line *l, char sep)
{
    size_t start = 0;
    for (size_t i = 0; i <= l->len; i++) {
        if (i < l->len && l->p[i] != sep) continue;
        const char *f = l->p + start;
        size_t n = i - start;
        while (n > 0 && isspace((unsigned char)*f))
            f++, n--;
        double v;
        if (n == 0 || csv_number(f, n, &v)) return false;
        start = i + 1;
    }
    return true;
}

int gp_csv_parse(const uint8_t *data, size_t size, char sep, gp_tensor_view *out, void **owned,
                 char *err, size_t errlen)
{
    const char *d = (const char *)data;
    memset(out, 0, sizeof(*out));
    *owned = NULL;
    if (size == 0) return csv_fail(err, errlen, "file is empty");
    if (memchr(d, '\0', size)) return csv_fail(err, errlen, "file holds NUL bytes (not text)");
    size_t pos = 0, first_pos = 0;
    csv_line l;
    long cols = -1, bad = 0;
    uint64_t rows = 0, lineno = 0, header_line = 0;
    /* Pass 1: count, and find whether the first data line is a header of names. */
    while (csv_next_line(d, size, &pos, &l)) {
        lineno++;
        if (csv_line_blank(&l)) continue;
        long k = csv_fields(&l, sep, NULL, &bad);
        if (k < 0 && rows == 0 && header_line == 0 && csv_is_header(&l, sep)) {
            header_line = lineno;
            first_pos = pos;
            continue;
        }
        if (k < 0)
            return csv_fail(err, errlen, "line %llu, field %ld: not a number",
                            (unsigned long long)lineno, bad);
        if (cols >= 0 && k != cols)
            return csv_fail(err, errlen, "line %llu has %ld field%s, earlier lines have %ld",
                            (unsigned long long)lineno, k, k == 1 ? "" : "s", cols);
        cols = k;
        rows++;
    }
    if (rows == 0) return csv_fail(err, errlen, "no rows of numbers");
    if ((uint64_t)cols > UINT64_MAX / rows / sizeof(double) ||
        rows * (uint64_t)cols > SIZE_MAX / sizeof(double))
        return csv_fail(err, errlen, "too many values");
    double *vals = malloc((size_t)(rows * (uint64_t)cols) * sizeof(double));
    if (!vals) return csv_fail(err, errlen, "out of memory");
    /* Pass 2: convert (the text was fully validated by pass 1). */
    pos = header_line ? first_pos : 0;
    uint64_t r = 0;
    while (r < rows && csv_next_line(d, size, &pos, &l)) {
        if (csv_line_blank(&l)) continue;
        csv_fields(&l, sep, vals + r * (uint64_t)cols, &bad);
        r++;
    }
    out->dtype = GP_DTYPE_F64;
    out->ndim = cols == 1 ? 1 : 2;
    out->shape[0] = rows;
    out->shape[1] = (uint64_t)cols;
    gp_tensor_view_size(out);
    out->data = (const uint8_t *)vals;
    *owned = vals;
    return 0;
}
