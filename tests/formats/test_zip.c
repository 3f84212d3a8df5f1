/* test_zip.c — the shared ZIP reader and the .npz reader on top of it: stored and deflated
 * members, zip64 records and extra fields, CRC checks, the inflate cap (zip bombs, members that
 * inflate past their declared size), unsafe or duplicate names, overlapping members and
 * truncated archives. Archives are written by a small builder in this file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "formats/npz.h"
#include "formats/zip.h"

typedef struct member {
    const char *name;
    const uint8_t *data;
    size_t len;
    int method;
    bool zip64;         /* sizes and offset through the zip64 extra field */
    uint64_t lie_usize; /* declare this uncompressed size instead (0 = the truth) */
    uint32_t lie_crc;   /* xor into the CRC */
    int same_offset_as; /* -1, or the member whose local header this entry points at */
} member;

static uint8_t *put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
    return p + 2;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
    return p + 4;
}

static uint8_t *put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
    return p + 8;
}

static size_t raw_deflate(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof(z));
    assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t got = cap - z.avail_out;
    deflateEnd(&z);
    return got;
}

/* Writes an archive of the members into out; returns its size. */
static size_t build_zip(uint8_t *out, member *m, int n, bool zip64_eocd)
{
    uint8_t *p = out;
    uint64_t offs[16], csizes[16];
    uint32_t crcs[16];
    static uint8_t comp[1 << 22];
    for (int i = 0; i < n; i++) {
        offs[i] = (uint64_t)(p - out);
        crcs[i] = (uint32_t)crc32(0, m[i].data, (uInt)m[i].len) ^ m[i].lie_crc;
        const uint8_t *body = m[i].data;
        size_t blen = m[i].len;
        if (m[i].method == 8) {
            blen = raw_deflate(m[i].data, m[i].len, comp, sizeof(comp));
            body = comp;
        }
        csizes[i] = blen;
        uint64_t us = m[i].lie_usize ? m[i].lie_usize : m[i].len;
        size_t nl = strlen(m[i].name);
        p = put32(p, 0x04034b50), p = put16(p, 45), p = put16(p, 0),
        p = put16(p, (unsigned)m[i].method);
        p = put32(p, 0), p = put32(p, crcs[i]);
        p = put32(p, m[i].zip64 ? 0xffffffffu : (uint32_t)blen);
        p = put32(p, m[i].zip64 ? 0xffffffffu : (uint32_t)us);
        p = put16(p, (unsigned)nl), p = put16(p, m[i].zip64 ? 20 : 0);
        memcpy(p, m[i].name, nl), p += nl;
        if (m[i].zip64) p = put16(p, 1), p = put16(p, 16), p = put64(p, us), p = put64(p, blen);
        memcpy(p, body, blen), p += blen;
    }
    uint64_t cd = (uint64_t)(p - out);
    for (int i = 0; i < n; i++) {
        int at = m[i].same_offset_as >= 0 ? m[i].same_offset_as : i;
        uint64_t us = m[i].lie_usize ? m[i].lie_usize : m[i].len;
        size_t nl = strlen(m[i].name);
        p = put32(p, 0x02014b50), p = put16(p, 45), p = put16(p, 45), p = put16(p, 0);
        p = put16(p, (unsigned)m[i].method), p = put32(p, 0), p = put32(p, crcs[i]);
        p = put32(p, m[i].zip64 ? 0xffffffffu : (uint32_t)csizes[at]);
        p = put32(p, m[i].zip64 ? 0xffffffffu : (uint32_t)us);
        p = put16(p, (unsigned)nl), p = put16(p, m[i].zip64 ? 28 : 0), p = put16(p, 0);
        p = put16(p, 0), p = put16(p, 0), p = put32(p, 0);
        p = put32(p, m[i].zip64 ? 0xffffffffu : (uint32_t)offs[at]);
        memcpy(p, m[i].name, nl), p += nl;
        if (m[i].zip64) {
            p = put16(p, 1), p = put16(p, 24);
            p = put64(p, us), p = put64(p, csizes[at]), p = put64(p, offs[at]);
        }
    }
    uint64_t cdsize = (uint64_t)(p - out) - cd;
    if (zip64_eocd) {
        uint64_t e64 = (uint64_t)(p - out);
        p = put32(p, 0x06064b50), p = put64(p, 44), p = put16(p, 45), p = put16(p, 45);
        p = put32(p, 0), p = put32(p, 0), p = put64(p, (uint64_t)n), p = put64(p, (uint64_t)n);
        p = put64(p, cdsize), p = put64(p, cd);
        p = put32(p, 0x07064b50), p = put32(p, 0), p = put64(p, e64), p = put32(p, 1);
    }
    p = put32(p, 0x06054b50), p = put16(p, 0), p = put16(p, 0);
    p = put16(p, zip64_eocd ? 0xffff : (unsigned)n),
    p = put16(p, zip64_eocd ? 0xffff : (unsigned)n);
    p = put32(p, zip64_eocd ? 0xffffffffu : (uint32_t)cdsize);
    p = put32(p, zip64_eocd ? 0xffffffffu : (uint32_t)cd), p = put16(p, 0);
    return (size_t)(p - out);
}

static uint8_t arc[1 << 23];
static uint8_t big[1 << 22];
static char err[512];

static member mk(const char *name, const void *data, size_t len, int method)
{
    member m = {name, data, len, method, false, 0, 0, -1};
    return m;
}

static void reads_stored_and_deflated(void **state)
{
    (void)state;
    for (int variant = 0; variant < 2; variant++) {
        bool z64 = variant == 1;
        for (size_t i = 0; i < 100000; i++)
            big[i] = (uint8_t)(i * 7 % 251);
        member m[2] = {mk("a/stored.bin", "hello, zip", 10, 0), mk("deflated.bin", big, 100000, 8)};
        m[0].zip64 = m[1].zip64 = z64;
        size_t n = build_zip(arc, m, 2, z64);
        gp_zip *z;
        assert_int_equal(gp_zip_open(arc, n, &z, err, sizeof(err)), 0);
        assert_int_equal(gp_zip_count(z), 2);
        const gp_zip_entry *e = gp_zip_find(z, "a/stored.bin");
        assert_non_null(e);
        assert_int_equal(e->method, GP_ZIP_STORED);
        assert_int_equal(e->uncompressed_size, 10);
        const uint8_t *d = gp_zip_stored_data(z, e, err, sizeof(err));
        assert_non_null(d);
        assert_memory_equal(d, "hello, zip", 10);
        assert_int_equal(gp_zip_crc_check(z, e, err, sizeof(err)), 0);
        e = gp_zip_entry_at(z, 1);
        assert_string_equal(e->name, "deflated.bin");
        assert_int_equal(e->method, GP_ZIP_DEFLATED);
        assert_null(gp_zip_stored_data(z, e, err, sizeof(err)));
        /* streaming in small pieces */
        gp_zip_reader *r;
        assert_int_equal(gp_zip_reader_open(z, e, 100000, &r, err, sizeof(err)), 0);
        static uint8_t out[100000];
        size_t have = 0;
        for (;;) {
            ssize_t got = gp_zip_reader_read(r, out + have, 777, err, sizeof(err));
            assert_true(got >= 0);
            if (got == 0) break;
            have += (size_t)got;
        }
        gp_zip_reader_close(r);
        assert_int_equal(have, 100000);
        assert_memory_equal(out, big, 100000);
        size_t len;
        uint8_t *x = gp_zip_extract(z, e, UINT64_MAX, &len, err, sizeof(err));
        assert_non_null(x);
        assert_int_equal(len, 100000);
        assert_memory_equal(x, big, 100000);
        free(x);
        assert_null(gp_zip_find(z, "missing"));
        assert_null(gp_zip_entry_at(z, 2));
        gp_zip_close(z);
    }
}

static void caps_inflated_size(void **state)
{
    (void)state;
    memset(big, 0, sizeof(big));
    member m[1] = {mk("zeros.bin", big, sizeof(big), 8)};
    size_t n = build_zip(arc, m, 1, false);
    assert_true(n < 20000); /* 4 MiB of zeros deflate to a few KiB: a small bomb */
    gp_zip *z;
    assert_int_equal(gp_zip_open(arc, n, &z, err, sizeof(err)), 0);
    size_t len;
    assert_null(gp_zip_extract(z, gp_zip_entry_at(z, 0), 1 << 20, &len, err, sizeof(err)));
    assert_non_null(strstr(err, "more than the limit"));
    gp_zip_close(z);
    /* a member that declares little and inflates to much more */
    m[0].lie_usize = 1000;
    n = build_zip(arc, m, 1, false);
    assert_int_equal(gp_zip_open(arc, n, &z, err, sizeof(err)), 0);
    assert_null(gp_zip_extract(z, gp_zip_entry_at(z, 0), 1 << 20, &len, err, sizeof(err)));
    assert_non_null(strstr(err, "inflates past"));
    gp_zip_close(z);
    /* and one that declares more than it holds */
    m[0].lie_usize = sizeof(big) + 10;
    n = build_zip(arc, m, 1, false);
    assert_int_equal(gp_zip_open(arc, n, &z, err, sizeof(err)), 0);
    assert_null(gp_zip_extract(z, gp_zip_entry_at(z, 0), UINT64_MAX, &len, err, sizeof(err)));
    assert_non_null(strstr(err, "ends after"));
    gp_zip_close(z);
}

static void checks_crc(void **state)
{
    (void)state;
    member m[2] = {mk("s", "abcdef", 6, 0), mk("d", "abcdefabcdef", 12, 8)};
    m[0].lie_crc = m[1].lie_crc = 1;
    size_t n = build_zip(arc, m, 2, false);
    gp_zip *z;
    assert_int_equal(gp_zip_open(arc, n, &z, err, sizeof(err)), 0);
    assert_int_equal(gp_zip_crc_check(z, gp_zip_entry_at(z, 0), err, sizeof(err)), -1);
    assert_non_null(strstr(err, "CRC"));
    size_t len;
    assert_null(gp_zip_extract(z, gp_zip_entry_at(z, 1), 100, &len, err, sizeof(err)));
    assert_non_null(strstr(err, "CRC"));
    gp_zip_close(z);
}

static void expect_open_error(size_t n, const char *needle)
{
    gp_zip *z = NULL;
    err[0] = '\0';
    assert_int_equal(gp_zip_open(arc, n, &z, err, sizeof(err)), -1);
    assert_null(z);
    if (!strstr(err, needle)) fail_msg("error '%s' lacks '%s'", err, needle);
}

static void refuses_bad_archives(void **state)
{
    (void)state;
    const char *bad_names[] = {"../evil", "a/../../b", "/abs", "back\\slash"};
    for (size_t i = 0; i < 4; i++) {
        member m[1] = {mk(bad_names[i], "x", 1, 0)};
        expect_open_error(build_zip(arc, m, 1, false), "not a safe relative path");
    }
    member d[2] = {mk("same", "x", 1, 0), mk("same", "y", 1, 0)};
    expect_open_error(build_zip(arc, d, 2, false), "appears twice");
    member o[2] = {mk("one", "xyz", 3, 0), mk("two", "xyz", 3, 0)};
    o[1].same_offset_as = 0;
    expect_open_error(build_zip(arc, o, 2, false), "overlap");
    member ok[1] = {mk("f", "data", 4, 0)};
    size_t n = build_zip(arc, ok, 1, false);
    expect_open_error(n - 10, "not a zip archive");
    expect_open_error(10, "not a zip archive");
    /* a directory that claims more entries than it can hold */
    n = build_zip(arc, ok, 1, false);
    arc[n - 22 + 10] = 0xff, arc[n - 22 + 8] = 0xff;
    expect_open_error(n, "entries");
    /* a directory offset past the end */
    n = build_zip(arc, ok, 1, false);
    arc[n - 22 + 16 + 3] = 0x7f;
    expect_open_error(n, "runs past the end");
    /* a zip64 locator pointing nowhere */
    n = build_zip(arc, ok, 1, true);
    arc[n - 22 - 20 + 8 + 3] = 0x7f;
    expect_open_error(n, "zip64");
}

/* A version-1 .npy of float32 values 0..count-1. */
static size_t make_npy_f32(uint8_t *buf, int count)
{
    char dict[128];
    snprintf(dict, sizeof(dict), "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }",
             count);
    size_t dl = strlen(dict), hlen = dl + 1;
    while ((10 + hlen) % 64)
        hlen++;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (uint8_t)hlen, buf[9] = (uint8_t)(hlen >> 8);
    memcpy(buf + 10, dict, dl);
    memset(buf + 10 + dl, ' ', hlen - dl - 1);
    buf[10 + hlen - 1] = '\n';
    for (int i = 0; i < count; i++) {
        float f = (float)i;
        memcpy(buf + 10 + hlen + 4 * (size_t)i, &f, 4);
    }
    return 10 + hlen + 4 * (size_t)count;
}

static void npz_members(void **state)
{
    (void)state;
    static uint8_t a[4096], b[65536];
    size_t na = make_npy_f32(a, 5), nb = make_npy_f32(b, 10000);
    member m[2] = {mk("x.npy", a, na, 0), mk("y.npy", b, nb, 8)};
    m[0].zip64 = m[1].zip64 = true; /* as numpy writes them */
    size_t n = build_zip(arc, m, 2, false);
    gp_tensor_list l = GP_TENSOR_LIST_INIT;
    assert_int_equal(
        gp_npz_parse(arc, n, GP_DTYPE_INVALID, &(uint64_t){UINT64_MAX}, &l, err, sizeof(err)), 0);
    assert_int_equal(l.count, 2);
    const gp_named_tensor *x = gp_tensor_list_find(&l, "x"), *y = gp_tensor_list_find(&l, "y");
    assert_non_null(x);
    assert_non_null(y);
    assert_int_equal(x->view.count, 5);
    assert_null(x->owned); /* stored: viewed in place */
    assert_true(x->view.data > arc && x->view.data < arc + n);
    assert_int_equal(y->view.count, 10000);
    assert_non_null(y->owned);
    float f;
    memcpy(&f, y->view.data + 4 * 9999, 4);
    assert_true(f == 9999.0f);
    gp_tensor_list_free(&l);
    /* one budget shared by two archives: the second gets what the first left */
    uint64_t left = nb + 1000;
    assert_int_equal(gp_npz_parse(arc, n, GP_DTYPE_INVALID, &left, &l, err, sizeof(err)), 0);
    assert_int_equal(left, 1000);
    gp_tensor_list l2 = GP_TENSOR_LIST_INIT;
    assert_int_equal(gp_npz_parse(arc, n, GP_DTYPE_INVALID, &left, &l2, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "over the limit of 1000 bytes left"));
    gp_tensor_list_free(&l2);
    gp_tensor_list_free(&l);
    /* the budget covers the whole archive */
    assert_int_equal(
        gp_npz_parse(arc, n, GP_DTYPE_INVALID, &(uint64_t){1000}, &l, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "member 'y.npy'"));
    assert_non_null(strstr(err, "limit"));
    gp_tensor_list_free(&l);
    member bad[1] = {mk("notes.txt", "hi", 2, 0)};
    n = build_zip(arc, bad, 1, false);
    assert_int_equal(
        gp_npz_parse(arc, n, GP_DTYPE_INVALID, &(uint64_t){UINT64_MAX}, &l, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "not a .npy"));
    gp_tensor_list_free(&l);
    member trunc[1] = {mk("t.npy", a, na - 4, 0)};
    n = build_zip(arc, trunc, 1, false);
    assert_int_equal(
        gp_npz_parse(arc, n, GP_DTYPE_INVALID, &(uint64_t){UINT64_MAX}, &l, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "member 't.npy': data is"));
    gp_tensor_list_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_stored_and_deflated),
        cmocka_unit_test(caps_inflated_size),
        cmocka_unit_test(checks_crc),
        cmocka_unit_test(refuses_bad_archives),
        cmocka_unit_test(npz_members),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
