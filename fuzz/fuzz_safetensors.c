/* fuzz_safetensors.c — libFuzzer target for the safetensors reader: headers and offsets of any
 * kind must parse or fail cleanly, and every view must lie inside the input. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "formats/safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    gp_tensor_list l = GP_TENSOR_LIST_INIT;
    if (gp_safetensors_parse(data, size, &l, err, sizeof(err)) == 0) {
        for (size_t i = 0; i < l.count; i++) {
            const gp_tensor_view *v = &l.items[i].view;
            if (v->nbytes && (v->data < data || v->nbytes > (uint64_t)(data + size - v->data)))
                abort();
        }
    }
    gp_tensor_list_free(&l);
    return 0;
}
