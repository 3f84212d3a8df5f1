/* compare.h — `gpuport compare` as a library call: pairs the tensors of two inputs (files or
 * directories), resolves each pair's tolerance from the policy, runs the metrics and collects
 * one result per tensor name, missing and mismatched ones included. */
#ifndef GP_COMPARE_COMPARE_H
#define GP_COMPARE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/metrics.h"
#include "compare/policy.h"
#include "compare/source.h"

typedef enum gp_pair_status {
    GP_PAIR_COMPARED,      /* metrics computed; pass decided by the tolerance */
    GP_PAIR_ONLY_IN_REF,   /* the other side lacks it */
    GP_PAIR_ONLY_IN_OTHER, /* the reference lacks it */
    GP_PAIR_DTYPE_MISMATCH,
    GP_PAIR_SHAPE_MISMATCH,
} gp_pair_status;

typedef struct gp_pair_result {
    char *name;
    gp_pair_status status;
    gp_tensor_view ref, other; /* dtype and shape only: data is NULL once the run is over */
    gp_tolerance tol;
    gp_metrics m;
    bool pass;
    /* Float dtypes that differ (f16 and f32): both widened to `widened_to` and judged with the
     * tolerance of `tol_dtype`, the narrower. GP_DTYPE_INVALID when the dtypes are the same. */
    gp_dtype widened_to, tol_dtype;
} gp_pair_result;

typedef struct gp_compare_opts {
    const gp_policy *policy;
    bool reference_is_b; /* --reference b */
    gp_source_opts source;
    size_t worst_k;
    int threads;
    bool same_dtype; /* --same-dtype: float pairs whose dtypes differ fail instead of widening */
} gp_compare_opts;

typedef struct gp_compare_result {
    gp_pair_result *items;
    size_t count, cap;
    size_t skipped_files; /* files of unknown type in directory mode */
    bool pass;
} gp_compare_result;

/* Compares A and B (both files or both directories). 0 when every input could be read (the
 * verdict is in out->pass); -1 with "PATH: reason" in err when an input is bad. out must be
 * freed either way. */
int gp_compare_run(const char *a, const char *b, const gp_compare_opts *o, gp_compare_result *out,
                   char *err, size_t errlen);
void gp_compare_result_free(gp_compare_result *r);

#endif
