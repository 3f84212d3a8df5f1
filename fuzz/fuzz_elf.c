/* fuzz_elf.c — the ELF header reader on arbitrary bytes: open, walk every section and its data,
 * read a cubin's architecture and whether it holds code. Any out-of-bounds read is a bug (ASan
 * stops it). */
#include <stddef.h>
#include <stdint.h>

#include "formats/elf.h"
#include "formats/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_elf e;
    char err[256];
    if (gp_elf_open(&e, data, size, err, sizeof err) != 0) return 0;
    volatile uint8_t sink = 0;
    for (size_t i = 0; i < e.section_count; i++) {
        size_t len;
        const uint8_t *d = gp_elf_section_data(&e, &e.sections[i], &len);
        if (d && len) sink ^= d[0] ^ d[len - 1];
        sink ^= (uint8_t)e.sections[i].name[0];
    }
    gp_cubin_info ci;
    if (gp_cubin_is_cubin(&e)) {
        gp_cubin_read(&e, &ci, err, sizeof err);
        sink ^= (uint8_t)gp_cubin_has_code(&e);
    }
    (void)sink;
    gp_elf_close(&e);
    return 0;
}
