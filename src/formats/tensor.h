/* tensor.h — what the array readers (npy, npz, safetensors, csv, raw) hand back: element types,
 * a view of one n-dimensional array lying in memory, and a list of named views. The readers fill
 * these; the tools that consume them never need to know which file format they came from. */
#ifndef GP_FORMATS_TENSOR_H
#define GP_FORMATS_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum gp_dtype {
    GP_DTYPE_INVALID = 0,
    GP_DTYPE_BOOL,
    GP_DTYPE_I8,
    GP_DTYPE_U8,
    GP_DTYPE_I16,
    GP_DTYPE_U16,
    GP_DTYPE_I32,
    GP_DTYPE_U32,
    GP_DTYPE_I64,
    GP_DTYPE_U64,
    GP_DTYPE_F16,
    GP_DTYPE_BF16,
    GP_DTYPE_F32,
    GP_DTYPE_F64,
    GP_DTYPE_C64,
    GP_DTYPE_C128,
    GP_DTYPE_COUNT
} gp_dtype;

/* Bytes per element (0 for GP_DTYPE_INVALID). */
size_t gp_dtype_size(gp_dtype t);
/* The short name: "bool", "i8".."u64", "f16", "bf16", "f32", "f64", "c64", "c128". */
const char *gp_dtype_name(gp_dtype t);
/* Accepts the short names and numpy's long ones ("float32", "bfloat16", "complex64", "int8",
 * "uint16", "bool"); GP_DTYPE_INVALID otherwise. */
gp_dtype gp_dtype_from_name(const char *name);
bool gp_dtype_is_float(gp_dtype t); /* f16 bf16 f32 f64 */
bool gp_dtype_is_complex(gp_dtype t);
bool gp_dtype_is_signed_int(gp_dtype t);
bool gp_dtype_is_unsigned_int(gp_dtype t); /* u8..u64 (not bool) */

#define GP_TENSOR_MAX_DIMS 32

/* One array in memory. Element i of the logical row-major (C-order) index space lies at
 * element offset i when !fortran, at the column-major offset of the same multi-index when
 * fortran. Bytes are little-endian unless big_endian. */
typedef struct gp_tensor_view {
    gp_dtype dtype;
    bool big_endian;
    bool fortran;
    int ndim; /* 0 = a scalar (one element) */
    uint64_t shape[GP_TENSOR_MAX_DIMS];
    uint64_t count;      /* product of shape */
    const uint8_t *data; /* count * gp_dtype_size(dtype) bytes */
    uint64_t nbytes;
} gp_tensor_view;

/* Sets count and nbytes from dtype and shape. -1 when the product overflows 64 bits. */
int gp_tensor_view_size(gp_tensor_view *v);
/* Writes the shape as "[3, 4]" into buf. */
void gp_tensor_shape_str(const gp_tensor_view *v, char *buf, size_t len);
/* The logical multi-index of the C-order linear index i. */
void gp_tensor_unravel(const gp_tensor_view *v, uint64_t i, uint64_t *index);

/* A list of named views. `owned` (free()d with the list) holds data a reader had to produce,
 * such as an inflated npz member; views into a mapping own nothing. */
typedef struct gp_named_tensor {
    char *name;
    gp_tensor_view view;
    void *owned;
} gp_named_tensor;

typedef struct gp_tensor_list {
    gp_named_tensor *items;
    size_t count;
    size_t cap;
} gp_tensor_list;

#define GP_TENSOR_LIST_INIT                                                                        \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

/* Appends a copy of name and the view; takes `owned` (also on failure). 0, or -1 on ENOMEM. */
int gp_tensor_list_add(gp_tensor_list *l, const char *name, const gp_tensor_view *v, void *owned);
/* The item named `name`, or NULL. */
const gp_named_tensor *gp_tensor_list_find(const gp_tensor_list *l, const char *name);
void gp_tensor_list_free(gp_tensor_list *l);

#endif
