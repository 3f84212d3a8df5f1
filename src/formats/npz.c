/* npz.c — the .npz reader (npz.h): walks the zip's central directory and hands each .npy
 * member to the npy reader, in place when stored, after a capped inflate when deflated. */
#include "formats/npz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/npy.h"
#include "formats/zip.h"

static int npz_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int npz_member(const gp_zip *z, const gp_zip_entry *e, gp_dtype void_as, uint64_t *budget,
                      gp_tensor_list *out, char *err, size_t errlen)
{
    char why[512];
    size_t n = e->name_len;
    if (n < 5 || strcmp(e->name + n - 4, ".npy") != 0)
        return npz_fail(err, errlen, "member '%s' is not a .npy array", e->name);
    const uint8_t *bytes;
    size_t len;
    void *owned = NULL;
    if (e->method == GP_ZIP_STORED) {
        bytes = gp_zip_stored_data(z, e, why, sizeof(why));
        len = (size_t)e->uncompressed_size;
    } else {
        owned = gp_zip_extract(z, e, *budget, &len, why, sizeof(why));
        bytes = owned;
        if (owned)
            *budget -= len;
        else if (e->uncompressed_size > *budget)
            snprintf(why, sizeof(why),
                     "inflates to %llu bytes, over the limit of %llu bytes left "
                     "(zip bomb?)",
                     (unsigned long long)e->uncompressed_size, (unsigned long long)*budget);
    }
    if (!bytes) return npz_fail(err, errlen, "member '%s': %s", e->name, why);
    gp_tensor_view v;
    if (gp_npy_parse(bytes, len, void_as, &v, why, sizeof(why)) != 0) {
        if (owned) *budget += len; /* handed back: it is freed here */
        free(owned);
        return npz_fail(err, errlen, "member '%s': %s", e->name, why);
    }
    char name[4096];
    snprintf(name, sizeof(name), "%.*s", (int)(n - 4), e->name);
    if (gp_tensor_list_add(out, name, &v, owned) != 0)
        return npz_fail(err, errlen, "out of memory");
    return 0;
}

int gp_npz_parse(const uint8_t *data, size_t size, gp_dtype void_as, uint64_t *inflate_left,
                 gp_tensor_list *out, char *err, size_t errlen)
{
    char why[512];
    gp_zip *z;
    if (gp_zip_open(data, size, &z, why, sizeof(why)) != 0) return npz_fail(err, errlen, "%s", why);
    int rc = 0;
    for (size_t i = 0; i < gp_zip_count(z) && rc == 0; i++) {
        const gp_zip_entry *e = gp_zip_entry_at(z, i);
        if (e->is_dir) continue;
        rc = npz_member(z, e, void_as, inflate_left, out, err, errlen);
    }
    gp_zip_close(z);
    return rc;
}
