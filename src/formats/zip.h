/* zip.h — a reader of ZIP archives held in memory (usually a read-only mapping), shared by the
 * npz reader and the wheel checks. The central directory is the source of truth; zip64 records
 * and extra fields are understood; names are validated; members are read in place (stored) or
 * through a streaming inflater whose output is capped by the caller (zip bombs) and whose CRC-32
 * is checked at the end. Errors are written as text into a caller buffer and never abort; the
 * caller prefixes the archive's name. */
#ifndef GP_FORMATS_ZIP_H
#define GP_FORMATS_ZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum {
    GP_ZIP_STORED = 0,  /* compression method 0 */
    GP_ZIP_DEFLATED = 8 /* compression method 8 (raw deflate) */
};

/* One member, as the central directory describes it (zip64 values already applied). */
typedef struct gp_zip_entry {
    const char *name;         /* NUL-terminated, validated (see gp_zip_open) */
    size_t name_len;          /* bytes, without the NUL */
    uint16_t method;          /* GP_ZIP_STORED, GP_ZIP_DEFLATED or another (unsupported) */
    uint16_t flags;           /* general purpose bit flags; bit 0 = encrypted */
    uint32_t crc32;           /* of the uncompressed data */
    uint64_t compressed_size; /* bytes of member data in the archive */
    uint64_t uncompressed_size;
    uint64_t header_offset; /* offset of the local file header */
    uint64_t data_offset;   /* offset of the member's data (after the local header) */
    bool is_dir;            /* the name ends in '/' */
} gp_zip_entry;

typedef struct gp_zip gp_zip;
typedef struct gp_zip_reader gp_zip_reader;

/* Opens the archive held in data[0..size) (the bytes must outlive the gp_zip). Searches for the
 * end-of-central-directory record only in the last 64 KiB + 22 bytes, follows the zip64 locator
 * when present, reads every central directory entry and its local header, and refuses: records
 * that run past the end, more entries than fit, names that are empty, contain NUL or '\\', are
 * absolute or have a ".." component, duplicate names, and members whose data overlap another's.
 * 0 on success with *out set; -1 with the reason in err. */
int gp_zip_open(const uint8_t *data, size_t size, gp_zip **out, char *err, size_t errlen);
void gp_zip_close(gp_zip *z);

/* The number of members, a member by index (NULL past the end) or by exact name (NULL if none). */
size_t gp_zip_count(const gp_zip *z);
const gp_zip_entry *gp_zip_entry_at(const gp_zip *z, size_t index);
const gp_zip_entry *gp_zip_find(const gp_zip *z, const char *name);

/* The member's bytes in place, for a stored, unencrypted member (compressed_size bytes, equal to
 * uncompressed_size); NULL with the reason in err otherwise. The CRC is not checked here; use
 * gp_zip_crc_check when the caller wants it. */
const uint8_t *gp_zip_stored_data(const gp_zip *z, const gp_zip_entry *e, char *err, size_t errlen);
/* 0 when the CRC-32 of a stored member's bytes matches the directory; -1 with the reason. */
int gp_zip_crc_check(const gp_zip *z, const gp_zip_entry *e, char *err, size_t errlen);

/* A streaming reader of one member (stored or deflated). `cap` bounds the bytes it will ever
 * produce: a member whose declared uncompressed size exceeds cap is refused at open, and one
 * that inflates to more than its declared size (or cap) fails on read ("inflates past ...").
 * 0 with *out set, or -1 with the reason in err. */
int gp_zip_reader_open(const gp_zip *z, const gp_zip_entry *e, uint64_t cap, gp_zip_reader **out,
                       char *err, size_t errlen);
/* Reads up to n bytes into buf. Returns the byte count, 0 at the end of the member (only after
 * the size and CRC-32 have been checked against the directory), or -1 with the reason in err. */
ssize_t gp_zip_reader_read(gp_zip_reader *r, void *buf, size_t n, char *err, size_t errlen);
void gp_zip_reader_close(gp_zip_reader *r);

/* Reads a whole member into a new heap buffer (free() it) of its declared uncompressed size,
 * refusing members larger than cap. NULL with the reason in err. */
uint8_t *gp_zip_extract(const gp_zip *z, const gp_zip_entry *e, uint64_t cap, size_t *len,
                        char *err, size_t errlen);

#endif
