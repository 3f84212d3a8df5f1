/* fuzz_audit_python.c — the Python tokenizer and scanner (lex_python.c, scan_python.c) on
 * arbitrary bytes, as a .py and as a setup.py. */
#include <stddef.h>
#include <stdint.h>

#include "audit/audit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *names[] = {"pkg/mod_cpu.py", "setup.py"};
    for (int i = 0; i < 2; i++) {
        gp_audit_result r;
        gp_audit_result_init(&r);
        gp_audit_scan_bytes(names[i], (const char *)data, size, &r);
        gp_audit_result_free(&r);
    }
    return 0;
}
