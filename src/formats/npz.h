/* npz.h — a reader of numpy's .npz archives (a zip of <name>.npy members, stored by savez and
 * deflated by savez_compressed). Stored members are viewed in place; deflated ones are inflated,
 * each into a buffer of exactly its declared size, refusing more than a caller-given cap. */
#ifndef GP_FORMATS_NPZ_H
#define GP_FORMATS_NPZ_H

#include <stddef.h>
#include <stdint.h>

#include "formats/tensor.h"

/* Parses data[0..size) and appends one view per member to *out, named after the member without
 * its ".npy" suffix. *inflate_left is what may still be inflated (a budget the caller may share
 * among several archives); it is decreased by every byte inflated, on failure too, for the
 * buffers *out then still holds. `void_as` is as for gp_npy_parse. 0, or -1 with
 * "member 'x': reason" (or the archive's problem) in err; *out then holds whatever was appended
 * and must still be freed. */
int gp_npz_parse(const uint8_t *data, size_t size, gp_dtype void_as, uint64_t *inflate_left,
                 gp_tensor_list *out, char *err, size_t errlen);

#endif
