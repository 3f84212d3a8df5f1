/* fuzz_csv.c — libFuzzer target for the CSV/TSV reader: any text must parse or fail cleanly,
 * and a parsed table must hold exactly rows x columns values. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "formats/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    gp_tensor_view v;
    void *owned = NULL;
    char sep = size > 0 && (data[0] & 1) ? '\t' : ',';
    if (gp_csv_parse(data, size, sep, &v, &owned, err, sizeof(err)) == 0) {
        volatile double sum = 0;
        const double *d = owned;
        for (uint64_t i = 0; i < v.count; i++)
            sum += d[i]; /* ASan checks the extent */
        (void)sum;
    }
    free(owned);
    return 0;
}
