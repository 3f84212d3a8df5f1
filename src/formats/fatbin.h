/* fatbin.h — the CUDA fat binary container: a walker over container and entry headers (as nvcc
 * and the CUDA libraries lay them out in .nv_fatbin, __nv_relfatbin and elsewhere), and a reader
 * for bare cubins (CUDA ELF files). It reads headers only, never decompresses or parses a
 * payload, and checks every offset against the buffer it was given. */
#ifndef GP_FORMATS_FATBIN_H
#define GP_FORMATS_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/elf.h"

#define GP_FATBIN_MAGIC            0xBA55ED50u
#define GP_FATBIN_HEADER_SIZE      16u
#define GP_FATBIN_ENTRY_MIN_HEADER 64u

enum gp_fatbin_kind { GP_FATBIN_KIND_PTX = 1, GP_FATBIN_KIND_ELF = 2, GP_FATBIN_KIND_LTOIR = 8 };

#define GP_FATBIN_FLAG_64BIT         0x1ull
#define GP_FATBIN_FLAG_DEBUG         0x2ull
#define GP_FATBIN_FLAG_LZ4           0x2000ull
#define GP_FATBIN_FLAG_ZSTD          0x8000ull
#define GP_FATBIN_FLAG_ARCH_SPECIFIC 0x100000ull /* "a": sm_90a, sm_100a */
#define GP_FATBIN_FLAG_FAMILY        0x200000ull /* "f": sm_100f, sm_120f */
#define GP_FATBIN_FLAG_COMPAT_BLOB   0x1000000ull

typedef struct gp_fatbin_container {
    size_t offset;         /* of the container header in the buffer */
    uint64_t entries_size; /* bytes of entries after the 16-byte header */
    size_t end;            /* offset just past the container */
} gp_fatbin_container;

typedef struct gp_fatbin_entry {
    size_t offset; /* of the entry header in the buffer */
    uint16_t kind; /* gp_fatbin_kind, or another value for kinds this reader does not know */
    uint32_t header_size;
    uint64_t payload_size; /* padded to 8: the stride to the next entry */
    uint32_t compressed_size;
    uint16_t version_major; /* PTX: the PTX ISA; ELF: 1 */
    uint16_t version_minor;
    uint32_t arch; /* 86, 90, 100, 120 ...; the virtual arch for PTX */
    uint64_t flags;
    uint64_t uncompressed_size;
    const char *name; /* inside the buffer, not NUL-terminated; NULL when unnamed */
    size_t name_len;
} gp_fatbin_entry;

/* True when a container magic starts at data + off (needs 4 bytes). */
bool gp_fatbin_is_container(const uint8_t *data, size_t size, size_t off);

/* The offset of the next container magic at or after `from`, or `size` when there is none. */
size_t gp_fatbin_find_magic(const uint8_t *data, size_t size, size_t from);

/* Reads the container header at `off`; the container must end within `limit` (<= size). 0, or
 * -1 with "offset 0xN: reason" in err. */
int gp_fatbin_container_read(const uint8_t *data, size_t limit, size_t off, gp_fatbin_container *c,
                             char *err, size_t errlen);

/* Steps through the entries of a container. Start with *cursor = 0. Returns 1 with the next
 * entry in *e, 0 after the last one, -1 with "offset 0xN: reason" when an entry header is
 * malformed (past the container's end, too small, a name outside its header). Always makes
 * progress, so a loop over it ends. */
int gp_fatbin_entry_next(const uint8_t *data, const gp_fatbin_container *c, size_t *cursor,
                         gp_fatbin_entry *e, char *err, size_t errlen);

/* The variant suffix of an entry: 'a', 'f' or 0. */
char gp_fatbin_entry_variant(const gp_fatbin_entry *e);
/* "none", "lz4", "zstd" (or "compressed" for an unknown method). */
const char *gp_fatbin_entry_compression(const gp_fatbin_entry *e);

/* What a bare cubin says about itself. */
typedef struct gp_cubin_info {
    uint32_t arch; /* 86, 90, 100 ... */
    char variant;  /* 'a', 'f' or 0, from the tool-info note ("-arch sm_90a") */
    uint8_t abi;   /* EI_ABIVERSION: 7 old (SM in e_flags bits 0-7), 8 new (bits 8-15) */
    bool debug;
} gp_cubin_info;

/* True when the ELF is a CUDA device ELF (e_machine EM_CUDA). */
bool gp_cubin_is_cubin(const gp_elf *elf);
/* Reads the architecture of a bare cubin. 0, or -1 with a reason in err. */
int gp_cubin_read(const gp_elf *elf, gp_cubin_info *info, char *err, size_t errlen);
/* Whether a cubin holds any code: a section ".text" or ".text.<name>" (each kernel and device
 * function has one). A cubin without is an empty stub (nvlink writes them: libcufftw's only
 * module is one), which asks nothing of a GPU. */
bool gp_cubin_has_code(const gp_elf *elf);

#endif
