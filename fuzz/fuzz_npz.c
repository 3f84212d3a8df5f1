/* fuzz_npz.c — libFuzzer target for the .npz reader and the zip reader under it: archives of
 * any shape must parse or fail cleanly, with inflation capped, and every view must lie inside
 * the input or inside the inflated buffer that owns it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "formats/npz.h"
#include "formats/zip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    gp_tensor_list l = GP_TENSOR_LIST_INIT;
    if (gp_npz_parse(data, size, GP_DTYPE_INVALID, &(uint64_t){1 << 20}, &l, err, sizeof(err)) ==
        0) {
        for (size_t i = 0; i < l.count; i++) {
            const gp_tensor_view *v = &l.items[i].view;
            if (!l.items[i].owned &&
                (v->data < data || v->nbytes > (uint64_t)(data + size - v->data)))
                abort();
        }
    }
    gp_tensor_list_free(&l);
    /* the raw zip API: stream every member through a small buffer */
    gp_zip *z;
    if (gp_zip_open(data, size, &z, err, sizeof(err)) == 0) {
        for (size_t i = 0; i < gp_zip_count(z); i++) {
            gp_zip_reader *r;
            if (gp_zip_reader_open(z, gp_zip_entry_at(z, i), 1 << 20, &r, err, sizeof(err)) != 0)
                continue;
            uint8_t buf[4096];
            while (gp_zip_reader_read(r, buf, sizeof(buf), err, sizeof(err)) > 0)
                continue;
            gp_zip_reader_close(r);
        }
        gp_zip_close(z);
    }
    return 0;
}
