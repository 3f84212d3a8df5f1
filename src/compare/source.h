/* source.h — one input file of `gpuport compare` opened as a list of named tensors, whatever
 * its format: .npy, .npz, .safetensors, .csv/.tsv, or raw binary described by --dtype/--shape.
 * The file stays mapped while the tensors are in use. */
#ifndef GP_COMPARE_SOURCE_H
#define GP_COMPARE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/tensor.h"
#include "util/fs.h"

typedef enum gp_source_kind {
    GP_SOURCE_UNKNOWN,
    GP_SOURCE_NPY,
    GP_SOURCE_NPZ,
    GP_SOURCE_SAFETENSORS,
    GP_SOURCE_CSV,
    GP_SOURCE_TSV,
    GP_SOURCE_RAW,
} gp_source_kind;

/* How to read files whose content does not say it all. */
typedef struct gp_source_opts {
    gp_dtype dtype; /* raw files' element type; npy void descrs' meaning */
    int ndim;       /* raw files' shape; -1 = one dimension from the size */
    uint64_t shape[GP_TENSOR_MAX_DIMS];
    /* Bytes .npz members may inflate to, for the whole run: every source opened with the same
     * *inflate_left draws on it and gives its share back when closed. NULL: inflate_cap alone,
     * for this source. */
    uint64_t inflate_cap;
    uint64_t *inflate_left;
} gp_source_opts;

typedef struct gp_source {
    gp_source_kind kind;
    gp_mapped_file map;
    gp_tensor_list tensors;
    bool multi;             /* tensors are named inside the file (npz, safetensors) */
    uint64_t inflated;      /* bytes of members inflated into memory */
    uint64_t *inflate_left; /* the budget they came from, refilled at close */
} gp_source;

/* The kind a path's name (extension) says, or what raw options make it; GP_SOURCE_UNKNOWN if
 * neither. */
gp_source_kind gp_source_kind_of(const char *path, const gp_source_opts *o);
/* Opens and parses `path`. 0, or -1 with "PATH: reason" in err. */
int gp_source_open(const char *path, const gp_source_opts *o, gp_source *out, char *err,
                   size_t errlen);
void gp_source_close(gp_source *s);

#endif
