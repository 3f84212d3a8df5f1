/* npy.h — a reader of numpy's .npy format (versions 1-3) over bytes in memory. The header is a
 * Python dict literal; the data is viewed in place, never copied. Object arrays are refused:
 * reading them would mean unpickling. */
#ifndef GP_FORMATS_NPY_H
#define GP_FORMATS_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "formats/tensor.h"

/* numpy itself refuses longer headers. */
#define GP_NPY_MAX_HEADER 10000

/* Parses data[0..size) as one .npy file and fills *out with a view of its elements (pointing
 * into data). `void_as` is the element type to read a void descr ('<V2', as ml_dtypes writes
 * bfloat16) as, or GP_DTYPE_INVALID to refuse void descrs; it must have the void's size.
 * The file must hold exactly the bytes its shape needs. 0, or -1 with the reason in err. */
int gp_npy_parse(const uint8_t *data, size_t size, gp_dtype void_as, gp_tensor_view *out, char *err,
                 size_t errlen);

#endif
