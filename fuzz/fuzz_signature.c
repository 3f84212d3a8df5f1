/* fuzz_signature.c — the kernel signature reader over arbitrary source text (it parses user
 * kernel sources before any compiler sees them). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime/core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_kernel_sig *ks = NULL;
    uint32_t n = 0;
    gp_source_needs needs;
    const char *defs[] = {"REAL=float", "N"};
    if (gp_signature_parse((const char *)data, size, "fuzz.gpk", defs, 2, &ks, &n, &needs) == GP_OK)
        free(ks);
    free(gp_untranslated_scan((const char *)data, size));
    return 0;
}
