/* fuzz_ar.c — the ar archive reader on arbitrary bytes: every member's name and bytes are
 * visited; any read outside the buffer is a bug (ASan stops it). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "formats/ar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!gp_ar_is_archive(data, size)) return 0;
    gp_ar_iter it;
    gp_ar_member m;
    char err[256];
    volatile uint8_t sink = 0;
    gp_ar_iter_init(&it, data, size);
    while (gp_ar_next(&it, &m, err, sizeof err) == 1) {
        sink ^= (uint8_t)strlen(m.name);
        if (m.size) sink ^= data[m.offset] ^ data[m.offset + m.size - 1];
    }
    (void)sink;
    return 0;
}
