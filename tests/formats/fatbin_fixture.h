/* fatbin_fixture.h — builds small ELF files and fatbin containers in memory for the reader
 * tests, so that each malformed case is one changed field of a known-good file. */
#ifndef GP_TESTS_FATBIN_FIXTURE_H
#define GP_TESTS_FATBIN_FIXTURE_H

#include <stdint.h>
#include <string.h>

static inline void fx_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void fx_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void fx_put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Writes an entry header (64 bytes) + payload of `psize` zero bytes at p; returns its length. */
static inline size_t fx_entry(uint8_t *p, uint16_t kind, uint32_t arch, uint64_t psize,
                              uint64_t flags, uint16_t major, uint16_t minor)
{
    memset(p, 0, 64 + psize);
    fx_put16(p, kind);
    fx_put16(p + 2, 0x101);
    fx_put32(p + 4, 64);
    fx_put64(p + 8, psize);
    fx_put16(p + 0x18, minor);
    fx_put16(p + 0x1A, major);
    fx_put32(p + 0x1C, arch);
    fx_put64(p + 0x28, flags);
    return 64 + psize;
}

/* Writes a container header claiming `n` bytes of entries. */
static inline void fx_container(uint8_t *p, uint64_t n)
{
    fx_put32(p, 0xBA55ED50u);
    fx_put16(p + 4, 1);
    fx_put16(p + 6, 16);
    fx_put64(p + 8, n);
}

/* A minimal ELF64 (type, machine, flags, abiversion) whose sections are: null, .shstrtab,
 * and one named `name` holding `body`. Returns the file length written to out (<= cap). */
static inline size_t fx_elf(uint8_t *out, size_t cap, uint16_t machine, uint32_t eflags,
                            uint8_t abiver, const char *name, const uint8_t *body, size_t blen)
{
    char shstr[64] = "\0.shstrtab";
    size_t nlen = strlen(name);
    memcpy(shstr + 11, name, nlen + 1);
    size_t shstr_len = 11 + nlen + 1;
    size_t body_off = 64, shstr_off = body_off + blen;
    size_t shoff = (shstr_off + shstr_len + 7) & ~(size_t)7;
    size_t total = shoff + 3 * 64;
    if (total > cap) return 0;
    memset(out, 0, total);
    memcpy(out, "\177ELF", 4);
    out[4] = 2;
    out[5] = 1;
    out[6] = 1;
    out[7] = machine == 190 ? 0x41 : 0;
    out[8] = abiver;
    fx_put16(out + 16, machine == 190 ? 2 : 3);
    fx_put16(out + 18, machine);
    fx_put32(out + 20, 1);
    fx_put64(out + 40, shoff);
    fx_put32(out + 48, eflags);
    fx_put16(out + 52, 64);
    fx_put16(out + 58, 64);
    fx_put16(out + 60, 3);
    fx_put16(out + 62, 1);
    memcpy(out + body_off, body, blen);
    memcpy(out + shstr_off, shstr, shstr_len);
    uint8_t *sh = out + shoff + 64;
    fx_put32(sh, 1);
    fx_put32(sh + 4, 3);
    fx_put64(sh + 24, shstr_off);
    fx_put64(sh + 32, shstr_len);
    sh += 64;
    fx_put32(sh, 11);
    fx_put32(sh + 4, 1);
    fx_put64(sh + 8, 2);
    fx_put64(sh + 24, body_off);
    fx_put64(sh + 32, blen);
    return total;
}

#endif
