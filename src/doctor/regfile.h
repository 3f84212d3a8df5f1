/* regfile.h — a reader of registry export files (.reg) as regedit and `reg export` write them:
 * UTF-16LE with a byte-order mark ("Windows Registry Editor Version 5.00") or 8-bit text
 * ("REGEDIT4"), CRLF or LF lines, long hex: values continued over lines with a backslash. doctor
 * reads a Windows machine's registry through it (a tree's exports, or `reg export` on the machine
 * itself). It reads outside data: bounds-checked, size-capped, fuzzed (fuzz/fuzz_doctor_windows.c).
 */
#ifndef GP_DOCTOR_REGFILE_H
#define GP_DOCTOR_REGFILE_H

#include <stdbool.h>
#include <stddef.h>

#define GP_REG_MAX_INPUT (16u * 1024 * 1024)

typedef enum gp_reg_type {
    GP_REG_SZ,        /* "text" and hex(1): */
    GP_REG_EXPAND_SZ, /* hex(2): text with %VARIABLES% */
    GP_REG_MULTI_SZ,  /* hex(7): the strings joined with ';' */
    GP_REG_DWORD,     /* dword:0000000a and hex(4): the number in decimal */
    GP_REG_QWORD,     /* hex(b): the number in decimal */
    GP_REG_BINARY,    /* hex: and the other hex(N): the bytes as lowercase hex digits */
} gp_reg_type;

/* One value: the key it belongs to ("HKEY_LOCAL_MACHINE\SOFTWARE\..."), its name ("" for the
 * default value, written @), its type and its data as UTF-8 text (truncated to a few KiB).
 * Return false to stop reading. */
typedef bool (*gp_reg_value_fn)(void *ud, const char *key, const char *name, gp_reg_type type,
                                const char *text);

/* Reads the export in buf[0..len). False with the reason ("line 7: ...") in err when it is not a
 * registry export or a line is malformed; the values before that line have been delivered. */
bool gp_reg_parse(const char *buf, size_t len, gp_reg_value_fn fn, void *ud, char *err,
                  size_t errlen);

/* UTF-16LE text (with or without its byte-order mark; wsl.exe and regedit write it) as UTF-8,
 * NUL-terminated, in a new buffer (free() it); *out_len its length. An unpaired surrogate
 * becomes '?', a NUL code unit is dropped. NULL when out of memory. */
char *gp_utf16le_to_utf8(const unsigned char *b, size_t len, size_t *out_len);
/* Whether buf looks like UTF-16LE text: a FF FE byte-order mark, or NUL in every second byte of
 * its start. */
bool gp_looks_utf16le(const unsigned char *b, size_t len);

#endif
