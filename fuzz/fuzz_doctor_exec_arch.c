/* fuzz_doctor_exec_arch.c — the executable-header reader doctor uses to tell an x86_64 Python
 * from an arm64 one (ELF, Mach-O, universal binaries with their entry tables). */
#include <stddef.h>
#include <stdint.h>

#include "doctor/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char arch[48];
    bool arm, x86;
    gp_parse_exec_arch(data, size, arch, sizeof arch, &arm, &x86);
    return 0;
}
