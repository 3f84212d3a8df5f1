/* fuzz_audit_cmake.c — the CMake tokenizer and scanner (scan_cmake.c) on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "audit/audit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"CMakeLists.txt"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        gp_audit_result r;
        gp_audit_result_init(&r);
        gp_audit_scan_bytes(names[i], (const char *)data, size, &r);
        gp_audit_result_free(&r);
    }
    return 0;
}
