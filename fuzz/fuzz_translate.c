/* fuzz_translate.c — the translator's lexer, preprocessor, parser and lowering on arbitrary text
 * (no #include is resolved outside the input: a missing header is a clean error). */
#include <stddef.h>
#include <stdint.h>

#include "translate/translate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024) return 0;
    gp_translate_options o = {0};
    o.partial = size & 1;
    o.simd_width = size & 2 ? 32 : 0; /* warp intrinsics translated, or refused */
    o.line_directives = o.checked_run = (size & 4) != 0; /* as `gpuport run FILE.cu` */
    gp_translate_result r;
    gp_translate("/nonexistent/fuzz.cu", (const char *)data, size, &o, &r);
    gp_translate_result_free(&r);
    return 0;
}
