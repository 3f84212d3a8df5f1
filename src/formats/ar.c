/* ar.c — the ar archive reader behind ar.h. Member headers are ASCII: name[16] date[12] uid[6]
 * gid[6] mode[8] size[10] "`\n"; data follow, padded to an even offset. Every size is parsed
 * strictly and checked against the archive before it is followed. */
#include "formats/ar.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define AR_MAGIC "!<arch>\n"
#define AR_HDR   60u

static int ar_fail(char *err, size_t errlen, size_t off, const char *fmt, ...)
{
    if (err && errlen) {
        int n = snprintf(err, errlen, "offset 0x%zx: ", off);
        if (n >= 0 && (size_t)n < errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

bool gp_ar_is_archive(const uint8_t *data, size_t size)
{
    return data && size >= 8 && memcmp(data, AR_MAGIC, 8) == 0;
}

void gp_ar_iter_init(gp_ar_iter *it, const uint8_t *data, size_t size)
{
    memset(it, 0, sizeof *it);
    it->data = data;
    it->size = size;
    it->pos = 8;
}

/* A decimal field of `n` ASCII bytes, space padded; -1 when it is not one. */
static int ar_decimal(const uint8_t *p, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0, digits = 0;
    for (; i < n && p[i] >= '0' && p[i] <= '9'; i++, digits++) {
        if (v > (UINT64_MAX - 9) / 10) return -1;
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    for (; i < n; i++)
        if (p[i] != ' ') return -1;
    if (!digits) return -1;
    *out = v;
    return 0;
}

static void ar_copy_name(char *dst, const char *src, size_t n)
{
    if (n > 255) n = 255;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Resolves the member's name; returns how many bytes of BSD name precede its data. */
static int ar_name(gp_ar_iter *it, const uint8_t *h, gp_ar_member *m, uint64_t size, uint64_t *skip,
                   char *err, size_t errlen)
{
    const char *raw = (const char *)h;
    size_t n = 16;
    while (n && raw[n - 1] == ' ')
        n--;
    *skip = 0;
    if (n >= 3 && memcmp(raw, "#1/", 3) == 0) { /* BSD: the name follows the header */
        uint64_t len;
        if (ar_decimal(h + 3, 13, &len) != 0 || len > size)
            return ar_fail(err, errlen, m->header_offset, "bad BSD member name length");
        ar_copy_name(m->name, (const char *)h + AR_HDR, (size_t)len); /* NUL padding ends it */
        *skip = len;
        return 0;
    }
    if (n >= 2 && raw[0] == '/' && raw[1] >= '0' && raw[1] <= '9') { /* GNU: "/offset" */
        uint64_t off;
        if (ar_decimal(h + 1, 15, &off) != 0 || !it->longnames || off >= it->longnames_len)
            return ar_fail(err, errlen, m->header_offset,
                           "member name points outside the "
                           "long-name table");
        const char *s = it->longnames + off;
        size_t left = it->longnames_len - (size_t)off, k = 0;
        while (k < left && s[k] != '\n' && !(s[k] == '/' && (k + 1 == left || s[k + 1] == '\n')))
            k++;
        ar_copy_name(m->name, s, k);
        return 0;
    }
    if (n && raw[n - 1] == '/') n--; /* GNU short names end in '/' */
    ar_copy_name(m->name, raw, n);
    return 0;
}

int gp_ar_next(gp_ar_iter *it, gp_ar_member *m, char *err, size_t errlen)
{
    for (;;) {
        if (it->pos % 2) it->pos++;
        if (it->pos >= it->size) return 0;
        if (it->size - it->pos < AR_HDR)
            return ar_fail(err, errlen, it->pos, "member header is truncated");
        const uint8_t *h = it->data + it->pos;
        if (h[58] != '`' || h[59] != '\n')
            return ar_fail(err, errlen, it->pos + 58, "member header lacks its end marker");
        uint64_t size;
        if (ar_decimal(h + 48, 10, &size) != 0)
            return ar_fail(err, errlen, it->pos + 48, "member size is not a number");
        size_t data = it->pos + AR_HDR;
        if (size > it->size - data)
            return ar_fail(err, errlen, it->pos + 48,
                           "member of %llu bytes runs past the end of "
                           "the archive",
                           (unsigned long long)size);
        memset(m, 0, sizeof *m);
        m->header_offset = it->pos;
        it->pos = data + (size_t)size;
        if (memcmp(h, "//              ", 16) == 0) { /* GNU long-name table */
            it->longnames = (const char *)it->data + data;
            it->longnames_len = (size_t)size;
            continue;
        }
        if (memcmp(h, "/               ", 16) == 0 || memcmp(h, "/SYM64/         ", 16) == 0)
            continue; /* symbol tables */
        uint64_t skip;
        if (ar_name(it, h, m, size, &skip, err, errlen) != 0) return -1;
        if (strcmp(m->name, "__.SYMDEF") == 0 || strcmp(m->name, "__.SYMDEF SORTED") == 0) continue;
        m->offset = data + (size_t)skip;
        m->size = (size_t)(size - skip);
        return 1;
    }
}
