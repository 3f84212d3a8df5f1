/* fatbin.c — the container and entry walker and the bare-cubin reader behind fatbin.h. The
 * layout (all little-endian): a 16-byte container header (magic, version, header size, bytes of
 * entries), then entries, each a header of at least 64 bytes followed by its padded payload. */
#include "formats/fatbin.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static uint16_t fb_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t fb_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t fb_u64(const uint8_t *p)
{
    return (uint64_t)fb_u32(p) | (uint64_t)fb_u32(p + 4) << 32;
}

static int fb_fail(char *err, size_t errlen, size_t off, const char *fmt, ...)
{
    if (err && errlen) {
        int n = snprintf(err, errlen, "offset 0x%zx: ", off);
        if (n >= 0 && (size_t)n < errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

bool gp_fatbin_is_container(const uint8_t *data, size_t size, size_t off)
{
    return off <= size && size - off >= 4 && fb_u32(data + off) == GP_FATBIN_MAGIC;
}

size_t gp_fatbin_find_magic(const uint8_t *data, size_t size, size_t from)
{
    static const uint8_t magic[4] = {0x50, 0xED, 0x55, 0xBA};
    while (from < size && size - from >= 4) {
        const uint8_t *p = memchr(data + from, magic[0], size - from - 3);
        if (!p) break;
        if (memcmp(p, magic, 4) == 0) return (size_t)(p - data);
        from = (size_t)(p - data) + 1;
    }
    return size;
}

int gp_fatbin_container_read(const uint8_t *data, size_t limit, size_t off, gp_fatbin_container *c,
                             char *err, size_t errlen)
{
    if (off > limit || limit - off < GP_FATBIN_HEADER_SIZE)
        return fb_fail(err, errlen, off, "fatbin container header is truncated");
    if (fb_u32(data + off) != GP_FATBIN_MAGIC)
        return fb_fail(err, errlen, off, "no fatbin container magic here");
    uint16_t version = fb_u16(data + off + 4), hsize = fb_u16(data + off + 6);
    if (version != 1)
        return fb_fail(err, errlen, off, "fatbin container version %u is not known", version);
    if (hsize != GP_FATBIN_HEADER_SIZE)
        return fb_fail(err, errlen, off, "fatbin container header size %u, expected 16", hsize);
    uint64_t n = fb_u64(data + off + 8);
    if (n > limit - off - GP_FATBIN_HEADER_SIZE)
        return fb_fail(err, errlen, off,
                       "fatbin container claims 0x%llx bytes of entries, past the end of its "
                       "region (0x%zx bytes left)",
                       (unsigned long long)n, limit - off - GP_FATBIN_HEADER_SIZE);
    c->offset = off;
    c->entries_size = n;
    c->end = off + GP_FATBIN_HEADER_SIZE + (size_t)n;
    return 0;
}

int gp_fatbin_entry_next(const uint8_t *data, const gp_fatbin_container *c, size_t *cursor,
                         gp_fatbin_entry *e, char *err, size_t errlen)
{
    size_t at = *cursor ? *cursor : c->offset + GP_FATBIN_HEADER_SIZE;
    if (at >= c->end) return 0;
    size_t left = c->end - at;
    if (left < GP_FATBIN_ENTRY_MIN_HEADER)
        return fb_fail(err, errlen, at,
                       "fatbin entry header is truncated (%zu bytes left in its "
                       "container)",
                       left);
    const uint8_t *p = data + at;
    memset(e, 0, sizeof *e);
    e->offset = at;
    e->kind = fb_u16(p);
    e->header_size = fb_u32(p + 4);
    e->payload_size = fb_u64(p + 8);
    e->compressed_size = fb_u32(p + 0x10);
    e->version_minor = fb_u16(p + 0x18);
    e->version_major = fb_u16(p + 0x1A);
    e->arch = fb_u32(p + 0x1C);
    uint32_t name_off = fb_u32(p + 0x20), name_len = fb_u32(p + 0x24);
    e->flags = fb_u64(p + 0x28);
    e->uncompressed_size = fb_u64(p + 0x38);
    if (e->header_size < GP_FATBIN_ENTRY_MIN_HEADER || e->header_size > left)
        return fb_fail(err, errlen, at + 4,
                       "fatbin entry header size 0x%x is out of range "
                       "(0x40 to 0x%zx)",
                       e->header_size, left);
    if (e->payload_size > left - e->header_size)
        return fb_fail(err, errlen, at + 8,
                       "fatbin entry payload of 0x%llx bytes runs past the end of its container "
                       "(0x%zx bytes left)",
                       (unsigned long long)e->payload_size, left - e->header_size);
    if (name_off != 0) {
        if (name_off > e->header_size || name_len > e->header_size - name_off)
            return fb_fail(err, errlen, at + 0x20,
                           "fatbin entry name (offset 0x%x, 0x%x bytes) "
                           "lies outside its header",
                           name_off, name_len);
        e->name = (const char *)p + name_off;
        e->name_len = name_len;
        /* The stored length may count a trailing NUL or padding. */
        while (e->name_len && (e->name[e->name_len - 1] == '\0'))
            e->name_len--;
    }
    *cursor = at + e->header_size + (size_t)e->payload_size;
    return 1;
}

char gp_fatbin_entry_variant(const gp_fatbin_entry *e)
{
    if (e->flags & GP_FATBIN_FLAG_ARCH_SPECIFIC) return 'a';
    if (e->flags & GP_FATBIN_FLAG_FAMILY) return 'f';
    return 0;
}

const char *gp_fatbin_entry_compression(const gp_fatbin_entry *e)
{
    if (e->flags & GP_FATBIN_FLAG_ZSTD) return "zstd";
    if (e->flags & GP_FATBIN_FLAG_LZ4) return "lz4";
    if (e->compressed_size) return "compressed";
    return "none";
}

bool gp_cubin_is_cubin(const gp_elf *elf)
{
    return elf->machine == GP_ELF_EM_CUDA;
}

/* Finds "-arch sm_NN[af]" in the tool-info note that ptxas writes, for the a/f variant that
 * e_flags does not carry. */
static char cubin_note_variant(const gp_elf *elf, uint32_t arch)
{
    const gp_elf_section *s = gp_elf_section_by_name(elf, ".note.nv.tkinfo");
    if (!s) return 0;
    size_t len;
    const uint8_t *d = gp_elf_section_data(elf, s, &len);
    static const char key[] = "-arch sm_";
    for (size_t i = 0; d && len >= sizeof key && i + sizeof key - 1 < len; i++) {
        if (memcmp(d + i, key, sizeof key - 1) != 0) continue;
        size_t j = i + sizeof key - 1;
        uint32_t v = 0;
        while (j < len && d[j] >= '0' && d[j] <= '9' && v < 100000)
            v = v * 10 + (d[j++] - '0');
        if (v == arch && j < len && (d[j] == 'a' || d[j] == 'f')) return (char)d[j];
        return 0;
    }
    return 0;
}

bool gp_cubin_has_code(const gp_elf *elf)
{
    for (size_t i = 0; i < elf->section_count; i++) {
        const char *n = elf->sections[i].name;
        if (strncmp(n, ".text", 5) == 0 && (n[5] == '\0' || n[5] == '.')) return true;
    }
    return false;
}

int gp_cubin_read(const gp_elf *elf, gp_cubin_info *info, char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    if (!gp_cubin_is_cubin(elf))
        return fb_fail(err, errlen, 18, "ELF machine %u is not a CUDA device (190)", elf->machine);
    info->abi = elf->abiversion;
    /* ABI 8 (all CUDA 13 output) moved the SM number from bits 0-7 to bits 8-15. */
    info->arch = elf->abiversion >= 8 ? (elf->flags >> 8) & 0xff : elf->flags & 0xff;
    if (info->arch == 0)
        return fb_fail(err, errlen, elf->is64 ? 48 : 36,
                       "cubin names no SM architecture in "
                       "e_flags (0x%x)",
                       elf->flags);
    info->variant = cubin_note_variant(elf, info->arch);
    info->debug = gp_elf_section_by_name(elf, ".debug_info") != NULL;
    return 0;
}
