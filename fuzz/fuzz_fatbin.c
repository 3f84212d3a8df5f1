/* fuzz_fatbin.c — the fatbin walker and archcheck's inventory on arbitrary bytes: a bare
 * container walk, then the whole inventory (ELF sections, magic scan, cubin, PTX text) and a
 * verdict, as `gpuport archcheck` runs them. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "archcheck/archcheck.h"
#include "formats/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    gp_fatbin_container c;
    size_t off = 0;
    while ((off = gp_fatbin_find_magic(data, size, off)) < size) {
        if (gp_fatbin_container_read(data, size, off, &c, err, sizeof err) == 0) {
            size_t cur = 0;
            gp_fatbin_entry e;
            while (gp_fatbin_entry_next(data, &c, &cur, &e, err, sizeof err) == 1) {
            }
        }
        off++;
    }
    gp_ac_set set = {0};
    gp_ac_file *f = gp_ac_set_new_file(&set, "fuzz.bin", "fuzz.bin");
    if (f) {
        gp_ac_inventory_buffer(f, data, size, false);
        gp_ac_verdict v;
        gp_ac_judge(f, 86, &v);
        gp_ac_judge(f, 120, &v);
    }
    gp_ac_set_free(&set);
    return 0;
}
