/*
 * fuzz_cl_build_log.c — the OpenCL build-log mapper (src/runtime/opencl/program.c) over
 * arbitrary driver output: it must stay within the bytes it is given, never crash, and cap
 * its result; and the scan for barriers under a condition (PoCL 3's workaround) over arbitrary
 * kernel source, within the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/opencl/program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *mapped = gp_cl_build_log_map((const char *)data, size, "user.gpk", NULL);
    if (mapped) {
        if (strlen(mapped) > GP_CL_LOG_CAP + 256) abort();
        free(mapped);
    }
    /* a compiler that ignores #line: locations placed by line (huge line numbers too) */
    gp_cl_lines lines = {3, 900};
    mapped = gp_cl_build_log_map_lines((const char *)data, size, "user.gpk", NULL, &lines);
    if (mapped) {
        if (strlen(mapped) > GP_CL_LOG_CAP + 256) abort();
        free(mapped);
    }
    (void)gp_cl_has_conditional_barrier((const char *)data, size);
    return 0;
}
