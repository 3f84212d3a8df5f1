/* ar.h — a bounds-checked reader of Unix ar archives (static libraries, `.a`): the members'
 * names (GNU long names and BSD "#1/len" names included) and where their bytes lie. It reads
 * the 60-byte member headers only; archcheck walks the members for CUDA device code. */
#ifndef GP_FORMATS_AR_H
#define GP_FORMATS_AR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gp_ar_member {
    char name[256];       /* NUL-terminated; longer names are cut */
    size_t header_offset; /* of the 60-byte member header */
    size_t offset;        /* of the member's bytes */
    size_t size;
} gp_ar_member;

typedef struct gp_ar_iter {
    const uint8_t *data;
    size_t size;
    size_t pos;
    const char *longnames; /* the GNU "//" table, once seen */
    size_t longnames_len;
} gp_ar_iter;

/* True when the buffer starts with "!<arch>\n". */
bool gp_ar_is_archive(const uint8_t *data, size_t size);
void gp_ar_iter_init(gp_ar_iter *it, const uint8_t *data, size_t size);
/* The next member, skipping the symbol tables ("/", "/SYM64/", "__.SYMDEF") and the long-name
 * table. 1 with *m set, 0 at the end, -1 with "offset 0xN: reason" in err. */
int gp_ar_next(gp_ar_iter *it, gp_ar_member *m, char *err, size_t errlen);

#endif
