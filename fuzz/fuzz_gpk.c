/* fuzz_gpk.c — the CPU backend's dialect front end (preprocessor, parser) and the checked
 * build's instrumentation over arbitrary source text: both read user kernel sources before any
 * compiler sees them. */
#include <stddef.h>
#include <stdint.h>

#include "runtime/cpu/check/instrument.h"
#include "runtime/cpu/gpk/gpk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *defs[] = {"REAL=float", "N", "TILE=16"};
    char err[600];
    gk_unit u;
    if (gk_parse(&u, (const char *)data, size, "fuzz.gpk", defs, 3, err, sizeof err) == 0) {
        gp_strbuf out = GP_STRBUF_INIT;
        (void)gp_ck_instrument(&u, &out, err, sizeof err);
        gp_strbuf_free(&out);
    }
    gk_unit_free(&u);
    return 0;
}
