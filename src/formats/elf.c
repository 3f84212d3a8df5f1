/* elf.c — the ELF header and section-table reader behind elf.h. Every offset taken from the file
 * is checked against the buffer before it is followed, with overflow-safe arithmetic, so a
 * truncated or hostile file ends in a message naming the offset, never in a wild read. */
#include "formats/elf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ELF_EHDR32 = 52, ELF_EHDR64 = 64, ELF_SHDR32 = 40, ELF_SHDR64 = 64 };
/* More sections than this is not a real file; it bounds the allocation. */
#define ELF_MAX_SECTIONS (1u << 20)

static int elf_fail(char *err, size_t errlen, uint64_t off, const char *fmt, ...)
{
    if (err && errlen) {
        int n = snprintf(err, errlen, "offset 0x%llx: ", (unsigned long long)off);
        if (n >= 0 && (size_t)n < errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

bool gp_elf_is_elf(const uint8_t *data, size_t size)
{
    return data && size >= 4 && memcmp(data, "\177ELF", 4) == 0;
}

uint16_t gp_elf_u16(const gp_elf *elf, const uint8_t *p)
{
    return elf->big_endian ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

uint32_t gp_elf_u32(const gp_elf *elf, const uint8_t *p)
{
    if (elf->big_endian)
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

uint64_t gp_elf_u64(const gp_elf *elf, const uint8_t *p)
{
    uint64_t a = gp_elf_u32(elf, p), b = gp_elf_u32(elf, p + 4);
    return elf->big_endian ? (a << 32 | b) : (b << 32 | a);
}

/* True when [off, off + len) lies inside a buffer of `size` bytes. */
static bool elf_in_bounds(uint64_t off, uint64_t len, size_t size)
{
    return off <= size && len <= size - off;
}

static void elf_read_shdr(const gp_elf *elf, const uint8_t *p, gp_elf_section *s, uint32_t *name)
{
    *name = gp_elf_u32(elf, p);
    s->type = gp_elf_u32(elf, p + 4);
    if (elf->is64) {
        s->flags = gp_elf_u64(elf, p + 8);
        s->addr = gp_elf_u64(elf, p + 16);
        s->offset = gp_elf_u64(elf, p + 24);
        s->size = gp_elf_u64(elf, p + 32);
    } else {
        s->flags = gp_elf_u32(elf, p + 8);
        s->addr = gp_elf_u32(elf, p + 12);
        s->offset = gp_elf_u32(elf, p + 16);
        s->size = gp_elf_u32(elf, p + 20);
    }
}

/* The field sh_link of the section header at p (used for the SHN_XINDEX escape). */
static uint32_t elf_shdr_link(const gp_elf *elf, const uint8_t *p)
{
    return gp_elf_u32(elf, p + (elf->is64 ? 40 : 24));
}

static int elf_read_ident(gp_elf *elf, const uint8_t *data, size_t size, char *err, size_t errlen)
{
    if (!gp_elf_is_elf(data, size)) return elf_fail(err, errlen, 0, "not an ELF file");
    if (size < 16) return elf_fail(err, errlen, size, "ELF identification is truncated");
    if (data[4] != 1 && data[4] != 2)
        return elf_fail(err, errlen, 4, "unknown ELF class %u", (unsigned)data[4]);
    if (data[5] != 1 && data[5] != 2)
        return elf_fail(err, errlen, 5, "unknown ELF byte order %u", (unsigned)data[5]);
    elf->is64 = data[4] == 2;
    elf->big_endian = data[5] == 2;
    elf->osabi = data[7];
    elf->abiversion = data[8];
    size_t ehdr = elf->is64 ? ELF_EHDR64 : ELF_EHDR32;
    if (size < ehdr)
        return elf_fail(err, errlen, size, "ELF header is truncated (%zu of %zu bytes)", size,
                        ehdr);
    return 0;
}

/* Resolves the section names against the section-name string table. */
static void elf_name_sections(gp_elf *elf, const uint32_t *names, uint32_t shstrndx)
{
    const gp_elf_section *st = shstrndx < elf->section_count ? &elf->sections[shstrndx] : NULL;
    bool usable =
        st && st->type != GP_ELF_SHT_NOBITS && elf_in_bounds(st->offset, st->size, elf->size);
    for (size_t i = 0; i < elf->section_count; i++) {
        elf->sections[i].name = "";
        if (!usable || names[i] >= st->size) continue;
        const char *s = (const char *)elf->data + st->offset + names[i];
        if (memchr(s, '\0', st->size - names[i])) elf->sections[i].name = s;
    }
}

int gp_elf_open(gp_elf *elf, const uint8_t *data, size_t size, char *err, size_t errlen)
{
    memset(elf, 0, sizeof *elf);
    elf->data = data;
    elf->size = size;
    if (elf_read_ident(elf, data, size, err, errlen) != 0) return -1;
    elf->type = gp_elf_u16(elf, data + 16);
    elf->machine = gp_elf_u16(elf, data + 18);
    uint64_t shoff;
    uint16_t shentsize, shnum16, shstrndx16;
    if (elf->is64) {
        shoff = gp_elf_u64(elf, data + 40);
        elf->flags = gp_elf_u32(elf, data + 48);
        shentsize = gp_elf_u16(elf, data + 58);
        shnum16 = gp_elf_u16(elf, data + 60);
        shstrndx16 = gp_elf_u16(elf, data + 62);
    } else {
        shoff = gp_elf_u32(elf, data + 32);
        elf->flags = gp_elf_u32(elf, data + 36);
        shentsize = gp_elf_u16(elf, data + 46);
        shnum16 = gp_elf_u16(elf, data + 48);
        shstrndx16 = gp_elf_u16(elf, data + 50);
    }
    if (shoff == 0) return 0; /* no section table: nothing more to read */
    size_t minent = elf->is64 ? ELF_SHDR64 : ELF_SHDR32;
    if (shentsize < minent)
        return elf_fail(err, errlen, elf->is64 ? 58 : 46,
                        "section header size %u is smaller than %zu", shentsize, minent);
    if (!elf_in_bounds(shoff, shentsize, size))
        return elf_fail(err, errlen, shoff,
                        "section header table lies past the end of the file "
                        "(%zu bytes)",
                        size);
    /* Section 0 carries the real count and string-table index when they do not fit 16 bits. */
    const uint8_t *sh0 = data + shoff;
    gp_elf_section s0;
    uint32_t ignored;
    elf_read_shdr(elf, sh0, &s0, &ignored);
    uint64_t shnum = shnum16 ? shnum16 : s0.size;
    uint32_t shstrndx = shstrndx16 == 0xffff ? elf_shdr_link(elf, sh0) : shstrndx16;
    if (shnum > ELF_MAX_SECTIONS)
        return elf_fail(err, errlen, shoff, "%llu sections is more than this reader accepts",
                        (unsigned long long)shnum);
    if (shnum > (size - shoff) / shentsize)
        return elf_fail(err, errlen, shoff,
                        "section header table (%llu entries of %u bytes) runs past the end of "
                        "the file (%zu bytes)",
                        (unsigned long long)shnum, shentsize, size);
    elf->sections = calloc(shnum ? shnum : 1, sizeof *elf->sections);
    uint32_t *names = calloc(shnum ? shnum : 1, sizeof *names);
    if (!elf->sections || !names) {
        free(names);
        gp_elf_close(elf);
        return elf_fail(err, errlen, shoff, "out of memory for %llu section headers",
                        (unsigned long long)shnum);
    }
    elf->section_count = shnum;
    for (size_t i = 0; i < shnum; i++) {
        uint64_t at = shoff + (uint64_t)i * shentsize;
        gp_elf_section *s = &elf->sections[i];
        elf_read_shdr(elf, data + at, s, &names[i]);
        if (s->type != GP_ELF_SHT_NOBITS && s->type != 0 &&
            !elf_in_bounds(s->offset, s->size, size)) {
            unsigned long long off = s->offset, len = s->size;
            free(names);
            gp_elf_close(elf);
            return elf_fail(err, errlen, at,
                            "section %zu (data at offset 0x%llx, 0x%llx bytes) runs past the end "
                            "of the file (0x%zx bytes)",
                            i, off, len, size);
        }
    }
    /* An index past the table is a malformed file, not one without names (SHN_UNDEF, 0, is
     * how a file says it has none; an unusable table there leaves the sections nameless). */
    if (shnum && shstrndx >= shnum) {
        free(names);
        gp_elf_close(elf);
        return elf_fail(err, errlen, elf->is64 ? 62 : 50,
                        "section-name table index %u is out of range (%llu sections)", shstrndx,
                        (unsigned long long)shnum);
    }
    elf_name_sections(elf, names, shstrndx);
    free(names);
    return 0;
}

void gp_elf_close(gp_elf *elf)
{
    free(elf->sections);
    elf->sections = NULL;
    elf->section_count = 0;
}

const gp_elf_section *gp_elf_section_by_name(const gp_elf *elf, const char *name)
{
    for (size_t i = 0; i < elf->section_count; i++)
        if (strcmp(elf->sections[i].name, name) == 0) return &elf->sections[i];
    return NULL;
}

const uint8_t *gp_elf_section_data(const gp_elf *elf, const gp_elf_section *s, size_t *len)
{
    if (s->type == GP_ELF_SHT_NOBITS || s->type == 0) {
        *len = 0;
        return NULL;
    }
    *len = (size_t)s->size;
    return elf->data + s->offset;
}
