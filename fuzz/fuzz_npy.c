/* fuzz_npy.c — libFuzzer target for the .npy reader: any bytes must parse or fail cleanly, and
 * a parsed view must lie inside the input. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "formats/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_tensor_view v;
    char err[256];
    gp_dtype void_as = size > 0 && (data[size - 1] & 1) ? GP_DTYPE_BF16 : GP_DTYPE_INVALID;
    if (gp_npy_parse(data, size, void_as, &v, err, sizeof(err)) == 0) {
        if (v.data < data || v.nbytes > (uint64_t)(data + size - v.data)) abort();
    }
    return 0;
}
