/* elf.h — a bounds-checked reader of ELF headers (ELF32 and ELF64, either byte order): the file
 * header, the section header table and the section names. It reads headers only and knows
 * nothing of what the sections hold; the fatbin reader and archcheck build on it. Every section
 * it returns lies wholly inside the buffer. */
#ifndef GP_FORMATS_ELF_H
#define GP_FORMATS_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GP_ELF_SHT_NOBITS    8u
#define GP_ELF_SHF_ALLOC     0x2u
#define GP_ELF_SHF_EXECINSTR 0x4u
#define GP_ELF_EM_CUDA       190u

typedef struct gp_elf_section {
    const char *name; /* NUL-terminated, inside the buffer; "" when the name is out of bounds */
    uint32_t type;
    uint64_t flags;
    uint64_t addr;
    uint64_t offset; /* file offset; offset + size <= the buffer size unless type is NOBITS */
    uint64_t size;
} gp_elf_section;

typedef struct gp_elf {
    const uint8_t *data;
    size_t size;
    bool is64;
    bool big_endian;
    uint16_t type; /* ET_REL 1, ET_EXEC 2, ET_DYN 3 */
    uint16_t machine;
    uint8_t osabi;
    uint8_t abiversion;
    uint32_t flags;
    size_t section_count;
    gp_elf_section *sections; /* heap; section_count entries */
} gp_elf;

/* True when the buffer starts with the ELF magic. */
bool gp_elf_is_elf(const uint8_t *data, size_t size);

/* Reads the headers of the ELF file in data[0..size). 0 on success (release with
 * gp_elf_close); -1 with "offset 0xN: reason" in err when the file is truncated or malformed.
 * The buffer must outlive the gp_elf. */
int gp_elf_open(gp_elf *elf, const uint8_t *data, size_t size, char *err, size_t errlen);
void gp_elf_close(gp_elf *elf);

/* The first section named `name`, or NULL. */
const gp_elf_section *gp_elf_section_by_name(const gp_elf *elf, const char *name);

/* The bytes of a section (NULL with *len 0 for NOBITS). */
const uint8_t *gp_elf_section_data(const gp_elf *elf, const gp_elf_section *s, size_t *len);

/* Little- or big-endian loads as the file's byte order says. */
uint16_t gp_elf_u16(const gp_elf *elf, const uint8_t *p);
uint32_t gp_elf_u32(const gp_elf *elf, const uint8_t *p);
uint64_t gp_elf_u64(const gp_elf *elf, const uint8_t *p);

#endif
