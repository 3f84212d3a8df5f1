/* safetensors.h — a reader of the safetensors format over bytes in memory: an 8-byte
 * little-endian header length, a JSON header naming each tensor's dtype, shape and byte range,
 * then the data, which is viewed in place. */
#ifndef GP_FORMATS_SAFETENSORS_H
#define GP_FORMATS_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

#include "formats/tensor.h"

/* The reference implementation refuses longer headers. */
#define GP_SAFETENSORS_MAX_HEADER 100000000ull

/* Parses data[0..size) and appends one view per tensor (in header order) to *out. Refuses a
 * header over the limit or past the end, invalid JSON or UTF-8, duplicate keys, unknown or
 * unsupported dtypes, shapes whose size overflows or disagrees with the byte range, ranges that
 * overlap or leave gaps, and data that does not end exactly at the end of the file.
 * 0, or -1 with the reason in err; *out must be freed either way. */
int gp_safetensors_parse(const uint8_t *data, size_t size, gp_tensor_list *out, char *err,
                         size_t errlen);

#endif
