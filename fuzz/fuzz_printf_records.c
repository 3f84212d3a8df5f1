/* fuzz_printf_records.c — the print buffer path of gp_printf over arbitrary bytes: the source
 * rewrite (the format and %s literals decoded, every call's edit) and then the host's reading of
 * a print buffer, the same bytes taken as its words (a kernel that wrote garbage, a cursor past
 * the end, unknown ids and types). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_printf_table *t = NULL;
    char *out = NULL;
    size_t len = 0;
    /* the first byte's low bit picks the rewrite: overloaded (Metal) or typed (OpenCL C) */
    bool typed = size > 0 && (data[0] & 1);
    if (gp_printf_records_source((const char *)data, size, "fuzz.gpk", typed, &t, &out, &len) !=
        GP_OK)
        return 0;
    size_t nwords = size / 4;
    uint32_t *words = malloc(nwords ? nwords * 4 : 4);
    if (words) {
        memcpy(words, data, nwords * 4);
        size_t tl = 0;
        free(gp_printf_records_format(t, "fuzz", words, nwords, 64, &tl));
        free(words);
    }
    free(out);
    gp_printf_table_release(t);
    return 0;
}
