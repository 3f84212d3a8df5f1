/* wheel.c — the shared libraries inside a Python wheel (a zip archive), read without unpacking
 * the wheel. A stored member is read in place from the wheel's mapping; a deflated one is
 * inflated, streamed and capped, into an unlinked temporary file that is then mapped, so memory
 * stays bounded however large the library (the disk needs room for the largest one). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archcheck/archcheck.h"
#include "formats/zip.h"
#include "util/fs.h"

/* No library in a wheel is larger than this (the biggest CUDA ones are a few GB). */
#define AC_WHEEL_MEMBER_CAP ((uint64_t)16 << 30)
#define AC_INFLATE_CHUNK    ((size_t)1 << 20)

/* "lib/libfoo.so", "libfoo.so.12", "_C.cpython-312-x86_64-linux-gnu.so" */
static bool ac_is_shared_lib(const char *name)
{
    const char *b = strrchr(name, '/');
    b = b ? b + 1 : name;
    const char *so = strstr(b, ".so");
    while (so) {
        const char *p = so + 3;
        while (*p == '.' || (*p >= '0' && *p <= '9'))
            p++;
        if (*p == '\0') return true;
        so = strstr(so + 1, ".so");
    }
    return false;
}

static void ac_fail(gp_ac_file *f, const char *fmt, const char *a, const char *b)
{
    size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
    f->error = malloc(n);
    if (f->error) snprintf(f->error, n, fmt, a, b);
    f->status = GP_AC_MALFORMED;
}

/* Inflates a member into an unlinked temporary file; returns its descriptor or -1. */
static int ac_inflate_to_temp(const gp_zip *z, const gp_zip_entry *e, char *err, size_t errlen)
{
    const char *dir = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/gpuport-archcheck-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary file in %s: %s",
                 dir && *dir ? dir : "/tmp", strerror(errno));
        return -1;
    }
    unlink(tmpl);
    gp_zip_reader *r;
    if (gp_zip_reader_open(z, e, AC_WHEEL_MEMBER_CAP, &r, err, errlen) != 0) {
        close(fd);
        return -1;
    }
    uint8_t *buf = malloc(AC_INFLATE_CHUNK);
    ssize_t n = buf ? 1 : -1;
    if (!buf) snprintf(err, errlen, "out of memory");
    while (buf && (n = gp_zip_reader_read(r, buf, AC_INFLATE_CHUNK, err, errlen)) > 0) {
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(fd, buf + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) {
                snprintf(err, errlen, "cannot write the inflated library to a temporary file: %s",
                         w < 0 ? strerror(errno) : "short write");
                n = -1;
                break;
            }
            done += w;
        }
        if (n < 0) break;
    }
    free(buf);
    gp_zip_reader_close(r);
    if (n < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void ac_inventory_member(gp_ac_file *f, const gp_zip *z, const gp_zip_entry *e)
{
    char err[512];
    if (e->method == GP_ZIP_STORED && !(e->flags & 1)) {
        const uint8_t *p = gp_zip_stored_data(z, e, err, sizeof err);
        if (p)
            gp_ac_inventory_buffer(f, p, (size_t)e->uncompressed_size, true);
        else
            ac_fail(f, "%s%s", "cannot read the member: ", err);
        return;
    }
    int fd = ac_inflate_to_temp(z, e, err, sizeof err);
    if (fd < 0) {
        ac_fail(f, "%s%s", "cannot inflate the member: ", err);
        return;
    }
    size_t len = (size_t)e->uncompressed_size;
    void *m = len ? gp_map_fd(fd, len) : NULL;
    if (len && !m) {
        ac_fail(f, "%s%s", "cannot map the inflated member: ", strerror(errno));
    } else {
        gp_ac_inventory_buffer(f, m, len, true);
        gp_unmap(m, len);
    }
    close(fd);
}

size_t gp_ac_wheel_add(gp_ac_set *set, const char *path, const uint8_t *data, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    bool torch_wheel = strncmp(base, "torch-", 6) == 0;
    char err[512];
    gp_zip *z;
    if (gp_zip_open(data, size, &z, err, sizeof err) != 0) {
        gp_ac_file *f = gp_ac_set_new_file(set, path, base);
        if (f) ac_fail(f, "%s%s", "not a readable wheel: ", err);
        return f ? 1 : 0;
    }
    size_t added = 0;
    for (size_t i = 0; i < gp_zip_count(z); i++) {
        const gp_zip_entry *e = gp_zip_entry_at(z, i);
        if (e->is_dir || !ac_is_shared_lib(e->name)) continue;
        size_t n = strlen(path) + 1 + e->name_len + 1;
        char *shown = malloc(n);
        if (!shown) break;
        snprintf(shown, n, "%s!%s", path, e->name);
        const char *mb = strrchr(e->name, '/');
        gp_ac_file *f = gp_ac_set_new_file(set, shown, mb ? mb + 1 : e->name);
        free(shown);
        if (!f) break;
        f->in_torch = f->in_torch || torch_wheel || strncmp(e->name, "torch/", 6) == 0;
        ac_inventory_member(f, z, e);
        if (f->status == GP_AC_NO_CODE) {
            gp_ac_set_drop_last(set);
            set->skipped_without_code++;
            continue;
        }
        added++;
    }
    gp_zip_close(z);
    if (added == 0) {
        /* Say so for the wheel itself: "does not contain CUDA device code". */
        gp_ac_file *f = gp_ac_set_new_file(set, path, base);
        if (f) {
            f->status = GP_AC_NO_CODE;
            added = 1;
        }
    }
    return added;
}
