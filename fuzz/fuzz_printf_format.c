/* fuzz_printf_format.c — the gp_printf format check over arbitrary source text (it reads every
 * kernel source before any compiler sees it). */
#include <stddef.h>
#include <stdint.h>

#include "runtime/core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t uses = 0;
    (void)gp_printf_scan((const char *)data, size, "fuzz.gpk", &uses);
    return 0;
}
