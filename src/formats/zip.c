/* zip.c — the in-memory ZIP reader declared in zip.h. Every offset read from the archive is
 * checked against its size before use; the central directory decides what the members are and
 * the local headers only say where each member's data starts. */
#include "formats/zip.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct gp_zip {
    const uint8_t *data;
    size_t size;
    gp_zip_entry *entries;
    size_t count;
};

struct gp_zip_reader {
    const uint8_t *src; /* member data in the archive */
    uint64_t src_len;
    uint64_t src_pos;
    uint64_t expect; /* declared uncompressed size */
    uint64_t produced;
    uint32_t crc;
    uint32_t expect_crc;
    bool deflated;
    bool stream_end;
    z_stream zs;
};

static int zip_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | ((uint64_t)rd32(p + 4) << 32);
}

/* True when [off, off+len) lies inside [0, size). */
static bool zip_in_bounds(size_t size, uint64_t off, uint64_t len)
{
    return off <= size && len <= size - off;
}

/* The end-of-central-directory record is within the last 65535 + 22 bytes (its comment is at
 * most 65535 bytes); searching further would let a crafted file cost a full scan. */
static int zip_find_eocd(const uint8_t *d, size_t size, size_t *pos)
{
    if (size < 22) return -1;
    size_t lo = size > 22 + 65535 ? size - 22 - 65535 : 0;
    for (size_t i = size - 22 + 1; i-- > lo;) {
        if (rd32(d + i) == 0x06054b50 && (size_t)rd16(d + i + 20) == size - i - 22) {
            *pos = i;
            return 0;
        }
    }
    /* Tolerate trailing bytes after the comment: accept any signature with a short comment. */
    for (size_t i = size - 22 + 1; i-- > lo;) {
        if (rd32(d + i) == 0x06054b50 && (size_t)rd16(d + i + 20) <= size - i - 22) {
            *pos = i;
            return 0;
        }
    }
    return -1;
}

static bool zip_name_valid(const char *n, size_t len)
{
    if (len == 0 || n[0] == '/') return false;
    for (size_t i = 0; i < len; i++)
        if (n[i] == '\0' || n[i] == '\\') return false;
    /* no ".." path component */
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || n[i] == '/') {
            if (i - start == 2 && n[start] == '.' && n[start + 1] == '.') return false;
            start = i + 1;
        }
    }
    return true;
}

/* Applies the zip64 extended information extra field (id 0x0001): its values appear only for
 * the fields whose 32-bit (16-bit for the disk) value is saturated, in a fixed order. */
static int zip_apply_zip64(const uint8_t *extra, size_t len, gp_zip_entry *e, bool need_usize,
                           bool need_csize, bool need_off, char *err, size_t errlen)
{
    size_t p = 0;
    while (p + 4 <= len) {
        uint16_t id = rd16(extra + p), sz = rd16(extra + p + 2);
        if (sz > len - p - 4)
            return zip_fail(err, errlen, "extra field of '%s' runs past its end", e->name);
        if (id == 0x0001) {
            const uint8_t *q = extra + p + 4;
            size_t left = sz;
            if (need_usize) {
                if (left < 8) goto short_field;
                e->uncompressed_size = rd64(q), q += 8, left -= 8;
            }
            if (need_csize) {
                if (left < 8) goto short_field;
                e->compressed_size = rd64(q), q += 8, left -= 8;
            }
            if (need_off) {
                if (left < 8) goto short_field;
                e->header_offset = rd64(q);
            }
            return 0;
        }
        p += 4 + (size_t)sz;
    }
    if (need_usize || need_csize || need_off)
        return zip_fail(err, errlen, "member '%s' needs a zip64 extra field and has none", e->name);
    return 0;
short_field:
    return zip_fail(err, errlen, "zip64 extra field of '%s' is too short", e->name);
}

typedef struct zip_dir {
    uint64_t count;
    uint64_t offset;
    uint64_t size;
} zip_dir;

static int zip_read_eocd(const uint8_t *d, size_t size, zip_dir *dir, char *err, size_t errlen)
{
    size_t eocd;
    if (zip_find_eocd(d, size, &eocd) != 0)
        return zip_fail(err, errlen, "not a zip archive (no end-of-central-directory record)");
    if (rd16(d + eocd + 4) != 0 || rd16(d + eocd + 6) != 0)
        return zip_fail(err, errlen, "multi-disk zip archives are not supported");
    dir->count = rd16(d + eocd + 10);
    dir->size = rd32(d + eocd + 12);
    dir->offset = rd32(d + eocd + 16);
    bool want64 = dir->count == 0xffff || dir->size == 0xffffffffu || dir->offset == 0xffffffffu;
    if (eocd >= 20 && rd32(d + eocd - 20) == 0x07064b50) {
        uint64_t off64 = rd64(d + eocd - 20 + 8);
        if (!zip_in_bounds(size, off64, 56) || rd32(d + off64) != 0x06064b50)
            return zip_fail(err, errlen, "zip64 locator points outside the archive");
        dir->count = rd64(d + off64 + 32);
        dir->size = rd64(d + off64 + 40);
        dir->offset = rd64(d + off64 + 48);
    } else if (want64) {
        return zip_fail(err, errlen, "zip64 end-of-central-directory locator is missing");
    }
    if (!zip_in_bounds(size, dir->offset, dir->size))
        return zip_fail(err, errlen,
                        "central directory (offset %llu, %llu bytes) runs past the end",
                        (unsigned long long)dir->offset, (unsigned long long)dir->size);
    if (dir->count > dir->size / 46)
        return zip_fail(err, errlen, "central directory claims %llu entries in %llu bytes",
                        (unsigned long long)dir->count, (unsigned long long)dir->size);
    return 0;
}

/* Reads one central directory entry at d[p..]; *next gets the offset of the following one. */
static int zip_read_entry(const gp_zip *z, uint64_t p, uint64_t end, gp_zip_entry *e,
                          uint64_t *next, char *err, size_t errlen)
{
    const uint8_t *d = z->data;
    if (p > end || end - p < 46 || rd32(d + p) != 0x02014b50)
        return zip_fail(err, errlen, "central directory entry at %llu is malformed",
                        (unsigned long long)p);
    size_t nlen = rd16(d + p + 28), xlen = rd16(d + p + 30), clen = rd16(d + p + 32);
    if (end - p - 46 < (uint64_t)nlen + xlen + clen)
        return zip_fail(err, errlen, "central directory entry at %llu runs past the directory",
                        (unsigned long long)p);
    char *name = malloc(nlen + 1);
    if (!name) return zip_fail(err, errlen, "out of memory");
    memcpy(name, d + p + 46, nlen);
    name[nlen] = '\0';
    e->name = name;
    e->name_len = nlen;
    if (!zip_name_valid(name, nlen))
        return zip_fail(err, errlen, "member name '%.200s' is not a safe relative path", name);
    e->flags = rd16(d + p + 8);
    e->method = rd16(d + p + 10);
    e->crc32 = rd32(d + p + 16);
    e->compressed_size = rd32(d + p + 20);
    e->uncompressed_size = rd32(d + p + 24);
    e->header_offset = rd32(d + p + 42);
    e->is_dir = name[nlen - 1] == '/';
    if (zip_apply_zip64(d + p + 46 + nlen, xlen, e, e->uncompressed_size == 0xffffffffu,
                        e->compressed_size == 0xffffffffu, e->header_offset == 0xffffffffu, err,
                        errlen) != 0)
        return -1;
    uint64_t h = e->header_offset;
    if (!zip_in_bounds(z->size, h, 30) || rd32(d + h) != 0x04034b50)
        return zip_fail(err, errlen, "local header of '%s' is missing or outside the archive",
                        name);
    uint64_t data_off = h + 30 + rd16(d + h + 26) + rd16(d + h + 28);
    if (!zip_in_bounds(z->size, data_off, e->compressed_size))
        return zip_fail(err, errlen, "data of '%s' (%llu bytes) runs past the end of the archive",
                        name, (unsigned long long)e->compressed_size);
    e->data_offset = data_off;
    *next = p + 46 + nlen + xlen + clen;
    return 0;
}

static int zip_cmp_offset(const void *a, const void *b)
{
    const gp_zip_entry *x = *(const gp_zip_entry *const *)a, *y = *(const gp_zip_entry *const *)b;
    return x->header_offset < y->header_offset ? -1 : x->header_offset > y->header_offset;
}

static int zip_cmp_name(const void *a, const void *b)
{
    const gp_zip_entry *x = *(const gp_zip_entry *const *)a, *y = *(const gp_zip_entry *const *)b;
    return strcmp(x->name, y->name);
}

/* Overlapping members are how "overlapped" zip bombs multiply their output; duplicate names are
 * ambiguous. Both are refused. */
static int zip_check_layout(gp_zip *z, char *err, size_t errlen)
{
    if (z->count < 2) return 0;
    const gp_zip_entry **v = malloc(z->count * sizeof(*v));
    if (!v) return zip_fail(err, errlen, "out of memory");
    for (size_t i = 0; i < z->count; i++)
        v[i] = &z->entries[i];
    int rc = 0;
    qsort(v, z->count, sizeof(*v), zip_cmp_name);
    for (size_t i = 1; i < z->count && rc == 0; i++)
        if (strcmp(v[i - 1]->name, v[i]->name) == 0)
            rc = zip_fail(err, errlen, "member name '%.200s' appears twice", v[i]->name);
    qsort(v, z->count, sizeof(*v), zip_cmp_offset);
    for (size_t i = 1; i < z->count && rc == 0; i++) {
        uint64_t prev_end = v[i - 1]->data_offset + v[i - 1]->compressed_size;
        if (v[i]->header_offset < prev_end)
            rc = zip_fail(err, errlen, "members '%.200s' and '%.200s' overlap", v[i - 1]->name,
                          v[i]->name);
    }
    free(v);
    return rc;
}

int gp_zip_open(const uint8_t *data, size_t size, gp_zip **out, char *err, size_t errlen)
{
    *out = NULL;
    zip_dir dir = {0, 0, 0};
    if (zip_read_eocd(data, size, &dir, err, errlen) != 0) return -1;
    gp_zip *z = calloc(1, sizeof(*z));
    if (!z) return zip_fail(err, errlen, "out of memory");
    z->data = data;
    z->size = size;
    z->entries = calloc(dir.count ? dir.count : 1, sizeof(gp_zip_entry));
    if (!z->entries) {
        free(z);
        return zip_fail(err, errlen, "out of memory");
    }
    uint64_t p = dir.offset, end = dir.offset + dir.size;
    for (uint64_t i = 0; i < dir.count; i++) {
        z->count = i + 1; /* so that close frees a partly read entry's name */
        if (zip_read_entry(z, p, end, &z->entries[i], &p, err, errlen) != 0) {
            gp_zip_close(z);
            return -1;
        }
    }
    if (zip_check_layout(z, err, errlen) != 0) {
        gp_zip_close(z);
        return -1;
    }
    *out = z;
    return 0;
}

void gp_zip_close(gp_zip *z)
{
    if (!z) return;
    for (size_t i = 0; i < z->count; i++)
        free((char *)z->entries[i].name);
    free(z->entries);
    free(z);
}

size_t gp_zip_count(const gp_zip *z)
{
    return z->count;
}

const gp_zip_entry *gp_zip_entry_at(const gp_zip *z, size_t index)
{
    return index < z->count ? &z->entries[index] : NULL;
}

const gp_zip_entry *gp_zip_find(const gp_zip *z, const char *name)
{
    for (size_t i = 0; i < z->count; i++)
        if (strcmp(z->entries[i].name, name) == 0) return &z->entries[i];
    return NULL;
}

const uint8_t *gp_zip_stored_data(const gp_zip *z, const gp_zip_entry *e, char *err, size_t errlen)
{
    if (e->flags & 1) {
        zip_fail(err, errlen, "member '%s' is encrypted", e->name);
        return NULL;
    }
    if (e->method != GP_ZIP_STORED) {
        zip_fail(err, errlen, "member '%s' is compressed (method %u), not stored", e->name,
                 e->method);
        return NULL;
    }
    if (e->compressed_size != e->uncompressed_size) {
        zip_fail(err, errlen, "stored member '%s' has different compressed and uncompressed sizes",
                 e->name);
        return NULL;
    }
    return z->data + e->data_offset;
}

static uint32_t zip_crc(uint32_t crc, const uint8_t *p, uint64_t n)
{
    while (n > 0) {
        uInt step = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = (uint32_t)crc32(crc, p, step);
        p += step;
        n -= step;
    }
    return crc;
}

int gp_zip_crc_check(const gp_zip *z, const gp_zip_entry *e, char *err, size_t errlen)
{
    const uint8_t *p = gp_zip_stored_data(z, e, err, errlen);
    if (!p) return -1;
    uint32_t crc = zip_crc((uint32_t)crc32(0, Z_NULL, 0), p, e->compressed_size);
    if (crc != e->crc32) return zip_fail(err, errlen, "CRC-32 mismatch in member '%s'", e->name);
    return 0;
}

int gp_zip_reader_open(const gp_zip *z, const gp_zip_entry *e, uint64_t cap, gp_zip_reader **out,
                       char *err, size_t errlen)
{
    *out = NULL;
    if (e->flags & 1) return zip_fail(err, errlen, "member '%s' is encrypted", e->name);
    if (e->method != GP_ZIP_STORED && e->method != GP_ZIP_DEFLATED)
        return zip_fail(err, errlen,
                        "member '%s' uses compression method %u (only stored and "
                        "deflate are supported)",
                        e->name, e->method);
    if (e->uncompressed_size > cap)
        return zip_fail(err, errlen, "member '%s' declares %llu bytes, more than the limit of %llu",
                        e->name, (unsigned long long)e->uncompressed_size, (unsigned long long)cap);
    if (e->method == GP_ZIP_STORED && e->compressed_size != e->uncompressed_size)
        return zip_fail(err, errlen,
                        "stored member '%s' has different compressed and "
                        "uncompressed sizes",
                        e->name);
    gp_zip_reader *r = calloc(1, sizeof(*r));
    if (!r) return zip_fail(err, errlen, "out of memory");
    r->src = z->data + e->data_offset;
    r->src_len = e->compressed_size;
    r->expect = e->uncompressed_size;
    r->expect_crc = e->crc32;
    r->crc = (uint32_t)crc32(0, Z_NULL, 0);
    r->deflated = e->method == GP_ZIP_DEFLATED;
    if (r->deflated && inflateInit2(&r->zs, -MAX_WBITS) != Z_OK) {
        free(r);
        return zip_fail(err, errlen, "cannot start inflating '%s'", e->name);
    }
    *out = r;
    return 0;
}

static ssize_t zip_reader_inflate(gp_zip_reader *r, uint8_t *buf, size_t n, char *err,
                                  size_t errlen)
{
    r->zs.next_out = buf;
    r->zs.avail_out = (uInt)n;
    while (r->zs.avail_out > 0 && !r->stream_end) {
        if (r->zs.avail_in == 0) {
            uint64_t left = r->src_len - r->src_pos;
            if (left == 0) return zip_fail(err, errlen, "deflate stream is truncated");
            uInt step = left > (1u << 30) ? (1u << 30) : (uInt)left;
            r->zs.next_in = (Bytef *)(uintptr_t)(r->src + r->src_pos);
            r->zs.avail_in = step;
            r->src_pos += step;
        }
        int zrc = inflate(&r->zs, Z_NO_FLUSH);
        if (zrc == Z_STREAM_END)
            r->stream_end = true;
        else if (zrc != Z_OK)
            return zip_fail(err, errlen, "deflate data is corrupt (%s)",
                            r->zs.msg ? r->zs.msg : "zlib error");
    }
    return (ssize_t)(n - r->zs.avail_out);
}

ssize_t gp_zip_reader_read(gp_zip_reader *r, void *buf, size_t n, char *err, size_t errlen)
{
    if (n == 0) return zip_fail(err, errlen, "read of zero bytes");
    if (n > (1u << 30)) n = 1u << 30;
    /* One byte beyond the declared size is enough to see that a member inflates past it. */
    uint64_t room = r->expect - r->produced + 1;
    if (n > room) n = (size_t)room;
    ssize_t got;
    if (r->deflated) {
        got = zip_reader_inflate(r, buf, n, err, errlen);
        if (got < 0) return -1;
    } else {
        uint64_t left = r->src_len - r->src_pos;
        got = (ssize_t)(n < left ? n : left);
        memcpy(buf, r->src + r->src_pos, (size_t)got);
        r->src_pos += (uint64_t)got;
    }
    r->produced += (uint64_t)got;
    if (r->produced > r->expect)
        return zip_fail(err, errlen, "member inflates past its declared %llu bytes",
                        (unsigned long long)r->expect);
    r->crc = zip_crc(r->crc, buf, (uint64_t)got);
    if (got > 0) return got;
    bool at_end = r->deflated ? r->stream_end : r->src_pos == r->src_len;
    if (r->produced != r->expect || !at_end)
        return zip_fail(err, errlen, "member ends after %llu of its declared %llu bytes",
                        (unsigned long long)r->produced, (unsigned long long)r->expect);
    if (r->crc != r->expect_crc) return zip_fail(err, errlen, "CRC-32 mismatch");
    return 0;
}

void gp_zip_reader_close(gp_zip_reader *r)
{
    if (!r) return;
    if (r->deflated) inflateEnd(&r->zs);
    free(r);
}

uint8_t *gp_zip_extract(const gp_zip *z, const gp_zip_entry *e, uint64_t cap, size_t *len,
                        char *err, size_t errlen)
{
    gp_zip_reader *r;
    if (gp_zip_reader_open(z, e, cap, &r, err, errlen) != 0) return NULL;
    if (e->uncompressed_size > SIZE_MAX - 1) {
        gp_zip_reader_close(r);
        zip_fail(err, errlen, "member '%s' is too large", e->name);
        return NULL;
    }
    size_t want = (size_t)e->uncompressed_size;
    uint8_t *buf = malloc(want + 1); /* +1: room to detect inflating past the declared size */
    if (!buf) {
        gp_zip_reader_close(r);
        zip_fail(err, errlen, "out of memory for member '%s' (%zu bytes)", e->name, want);
        return NULL;
    }
    size_t have = 0;
    for (;;) {
        ssize_t got = gp_zip_reader_read(r, buf + have, want + 1 - have, err, errlen);
        if (got < 0) {
            free(buf);
            gp_zip_reader_close(r);
            return NULL;
        }
        if (got == 0) break;
        have += (size_t)got;
    }
    gp_zip_reader_close(r);
    *len = have;
    return buf;
}
